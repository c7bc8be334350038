import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_MAX_TOTAL_TIMEOUT_MS, callWithProgress } from './call-tool';
import { clientCapabilities, installClientFeatures } from './client-features';
import { DEFAULT_RESTART, DEFAULT_STARTUP_TIMEOUT_MS, type CallOptions, type ConnectionOptions, type ConnectionStatus, type RemoteTool, type RestartPolicy } from './connection-types';
import { ToolCallError } from './errors';
import { finishSignIn, oauthProviderFor, retryAfterSignIn, signInAgain, withOAuth } from './oauth/connection-auth';
import type { JevOAuthProvider } from './oauth/provider';
import { AuthorizationRequiredError, type SignInInteraction } from './oauth/sign-in';
import { listAllTools } from './list-tools';
import { DEFAULT_TREE_CLOSE, type TreeCloseTiming } from './process-tree';
import { LineRing } from './ring';
import { DEFAULT_CALL_TIMEOUT_MS, describeServerTarget, isHttpConfig, type ServerConfig } from './servers';
import { describeStartFailure } from './start-failure';
import { clip, describeExit, killSessionChild, openStdioTransport, type Session } from './stdio-session';

export * from './connection-types';

/**
 * One persistent MCP client connection: spawned or connected once and reused; a status (starting |
 * ready | error with its reason); a per-call timeout that progress resets, under a total cap
 * (call-tool.ts); restart with exponential backoff after a crash; tool list refreshed on
 * tools/list_changed; stdout lines that are not JSON-RPC skipped and counted as a warning; stderr kept in
 * a bounded ring; close() ends every process of a stdio server's tree (process-tree.ts) and the HTTP
 * session (DELETE). The stdio side of a session is in stdio-session.ts, its types in connection-types.ts.
 */

/** A persistent connection to one MCP server. Create, then `start()`; `close()` when done. */
export class McpConnection {
  private state: ConnectionStatus = { state: 'starting', since: Date.now(), restarts: 0 };
  private current?: Session;
  private readonly sessions = new Set<Session>();
  private gen = 0;
  private starting?: Promise<ConnectionStatus>;
  private restartTimer?: NodeJS.Timeout;
  private failures = 0;
  private readyAt = 0;
  private closing = false;
  private everStarted = false;
  private knownTools: RemoteTool[] = [];
  private listed = false;
  private refreshing?: Promise<void>;
  private refreshAgain = false;
  private readonly policy: RestartPolicy;
  private readonly ring: LineRing;
  private readonly oauth?: JevOAuthProvider;
  private readonly stopRoots?: () => void;
  private strayCount = 0;
  private strayLast = '';

  constructor(
    readonly name: string,
    readonly config: ServerConfig,
    private readonly options: ConnectionOptions = {},
  ) {
    this.policy = { ...DEFAULT_RESTART, ...options.restart };
    this.ring = new LineRing(options.stderrLines ?? 200, options.stderrLineChars ?? 1_000);
    if (isHttpConfig(config)) this.oauth = oauthProviderFor(name, config, options.oauth);
    this.stopRoots = options.roots?.onDidChange(() => {
      if (this.state.state === 'ready') void this.current?.client.sendRootsListChanged().catch(() => undefined);
    });
  }

  /** Current status (a copy). */
  get status(): ConnectionStatus {
    const auth = this.oauth?.required ? 'required' : this.oauth?.signedIn ? 'signed-in' : undefined;
    const stray = this.strayCount
      ? { stdoutSkipped: this.strayCount, warning: `skipped ${this.strayCount} stdout line${this.strayCount === 1 ? '' : 's'} that ${this.strayCount === 1 ? 'is' : 'are'} not JSON-RPC (last: ${JSON.stringify(this.strayLast)})` }
      : {};
    return { ...this.state, pid: this.current?.child?.pid ?? undefined, ...(auth ? { auth } : {}), ...stray };
  }

  // Skipped stdout lines: counted for the status; listeners hear of the 1st, 10th, 100th… (not every line).
  private noteStray(line: string): void {
    this.strayCount++;
    this.strayLast = clip(line);
    if (Number.isInteger(Math.log10(this.strayCount))) this.options.onStatus?.(this);
  }

  /** `stdio` or `http`. */
  get transportKind(): 'stdio' | 'http' {
    return isHttpConfig(this.config) ? 'http' : 'stdio';
  }

  /** Secret-free target: the command line or the URL (no headers). */
  get target(): string {
    return describeServerTarget(this.config);
  }

  /** Last known tools (kept while in error so bare-name ownership stays stable). */
  get tools(): readonly RemoteTool[] {
    return this.knownTools;
  }

  /** True once the server's tools were listed at least once. */
  get toolsKnown(): boolean {
    return this.listed;
  }

  /** The SDK client of the live session (for measurements and advanced use), if ready. */
  get client(): Client | undefined {
    return this.state.state === 'ready' ? this.current?.client : undefined;
  }

  /** Kept stderr lines, oldest first (bounded). */
  get stderr(): string[] {
    return this.ring.lines();
  }

  /** stderr lines dropped because the ring was full. */
  get stderrDropped(): number {
    return this.ring.droppedLines;
  }

  /** Limit for spawn + initialize + first tools/list, ms (ConnectionOptions.startupTimeoutMs, default 30 000). */
  get startupTimeoutMs(): number {
    return this.options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS;
  }

  /** Effective per-call timeout, ms (the longest wait without an answer or a progress notification). */
  get timeoutMs(): number {
    return this.config.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  }

  /** Effective total cap of one call, ms, however much progress it reports. */
  get maxTotalTimeoutMs(): number {
    return this.config.maxTotalTimeoutMs ?? this.options.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS;
  }

  /**
   * Starts (or joins the start in progress). Resolves with the settled status (ready or error);
   * never rejects. A connection in error with a restart scheduled is started again now.
   */
  start(): Promise<ConnectionStatus> {
    if (this.closing) return Promise.resolve(this.status);
    if (this.state.state === 'ready') return Promise.resolve(this.status);
    this.everStarted = true;
    if (!this.starting) {
      if (this.restartTimer) {
        clearTimeout(this.restartTimer);
        this.restartTimer = undefined;
      }
      this.starting = this.attempt().finally(() => {
        this.starting = undefined;
      });
    }
    return this.starting;
  }

  /** Restarts now and resets the failure count (the panel's "restart" button). */
  async restart(): Promise<ConnectionStatus> {
    if (this.closing) return this.status;
    this.failures = 0;
    const old = this.current;
    this.current = undefined;
    if (old) await this.dispose(old);
    this.setState({ state: 'error', reason: 'restart requested', since: Date.now(), restarts: this.state.restarts });
    return this.start();
  }

  /** Resolves when the connection is not starting any more. */
  async settled(): Promise<ConnectionStatus> {
    if (this.starting) return this.starting;
    return this.status;
  }

  private setState(next: ConnectionStatus): void {
    this.state = next;
    this.options.onStatus?.(this);
  }

  private async attempt(): Promise<ConnectionStatus> {
    const gen = ++this.gen;
    const lastError = this.state.state === 'error' ? this.state.reason : this.state.lastError;
    this.setState({ state: 'starting', since: Date.now(), restarts: this.state.restarts, ...(lastError ? { lastError } : {}) });
    const startupTimeout = this.startupTimeoutMs;
    let session: Session | undefined;
    try {
      session = this.createSession(gen);
      try {
        await session.client.connect(session.transport, { timeout: startupTimeout });
      } catch (err) {
        // A browser sign-in opened during initialize: once it is done, a fresh session starts signed in.
        if (!(await finishSignIn(this.oauth, session.transport))) throw err;
        await this.dispose(session);
        session = this.createSession(gen);
        await session.client.connect(session.transport, { timeout: startupTimeout });
      }
      const live = session;
      const tools = await retryAfterSignIn(this.oauth, live.transport, () => listAllTools(live.client, startupTimeout));
      if (gen !== this.gen || this.closing) {
        await this.dispose(session);
        return this.status;
      }
      this.current = session;
      this.knownTools = tools;
      this.listed = true;
      this.readyAt = Date.now();
      this.setState({ state: 'ready', since: Date.now(), restarts: this.state.restarts });
      this.options.onToolsChanged?.(this);
    } catch (err) {
      if (session) await this.dispose(session);
      if (gen !== this.gen || this.closing) return this.status;
      // A spawn error (ENOENT, EACCES…) will not heal by retrying: no restart loop for it.
      const spawnFailed = !session?.child && !isHttpConfig(this.config) && typeof (err as NodeJS.ErrnoException)?.code === 'string';
      // Waiting for a sign-in is not a fault a restart heals either.
      this.fail(this.startFailureReason(session, err, startupTimeout), spawnFailed || err instanceof AuthorizationRequiredError);
    }
    return this.status;
  }

  private createSession(gen: number): Session {
    const features = { elicitation: this.options.elicitation, roots: this.options.roots };
    const client = new Client(this.options.clientInfo ?? { name: 'jev-control-panel', version: '0.1.0' }, { capabilities: clientCapabilities(features) });
    installClientFeatures(client, this.name, features);
    let transport: Transport;
    const session = { gen, client, stray: { count: 0 }, stderrMark: this.ring.total } as unknown as Session;
    if (isHttpConfig(this.config)) {
      transport = new StreamableHTTPClientTransport(new URL(this.config.url), {
        requestInit: this.config.headers ? { headers: { ...this.config.headers } } : undefined,
        ...(this.oauth ? { authProvider: this.oauth, fetch: this.oauth.fetch } : {}),
      });
    } else {
      transport = openStdioTransport(this.name, this.config, this.options.cwd, this.ring, session, {
        timing: { ...DEFAULT_TREE_CLOSE, ...this.options.treeClose },
        onStray: (line) => this.noteStray(line),
      });
    }
    session.transport = transport;
    this.sessions.add(session);
    client.onclose = () => this.onSessionClosed(session);
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      if (session === this.current) await this.refreshTools();
    });
    return session;
  }

  private startFailureReason(session: Session | undefined, err: unknown, startupTimeoutMs: number): string {
    const path = isHttpConfig(this.config) ? undefined : (this.config.env?.PATH ?? getDefaultEnvironment().PATH);
    return describeStartFailure(session, err, { config: this.config, target: this.target, ring: this.ring, startupTimeoutMs, cwd: this.options.cwd, path });
  }

  private onSessionClosed(session: Session): void {
    if (session !== this.current || this.closing) return;
    this.current = undefined;
    const reason = session.fault ?? describeExit(session, this.ring, 'closed the connection');
    void this.dispose(session);
    this.fail(reason, false);
  }

  /** Marks the connection failed and schedules a restart unless the failure is permanent or too frequent. */
  private fail(reason: string, permanent: boolean): void {
    if (this.closing) return;
    if (this.readyAt && Date.now() - this.readyAt >= this.policy.stableMs) this.failures = 0;
    this.readyAt = 0;
    this.failures++;
    if (permanent || this.failures > this.policy.maxAttempts) {
      const note = permanent ? '' : ` (gave up after ${this.policy.maxAttempts} restart attempts)`;
      this.setState({ state: 'error', reason: reason + note, since: Date.now(), restarts: this.state.restarts });
      return;
    }
    const delay = Math.min(this.policy.baseDelayMs * 2 ** (this.failures - 1), this.policy.maxDelayMs);
    this.setState({ state: 'error', reason, since: Date.now(), restarts: this.state.restarts, nextRestartAt: Date.now() + delay });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.closing) return;
      this.state = { ...this.state, restarts: this.state.restarts + 1 };
      void this.start();
    }, delay);
    this.restartTimer.unref();
  }

  /** Re-lists the tools (on tools/list_changed); concurrent requests coalesce into one more listing. */
  async refreshTools(): Promise<void> {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        const session = this.current;
        if (!session) return;
        try {
          const tools = await listAllTools(session.client, this.startupTimeoutMs);
          if (session !== this.current) return;
          this.knownTools = tools;
          this.options.onToolsChanged?.(this);
        } catch {
          // A failed refresh keeps the previous list; a dead session is reported by its close handler.
        }
      } while (this.refreshAgain);
    })().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /**
   * Calls tool `tool` (the server's own name) with `args`. Returns the raw MCP result (callers map it).
   * A progress token is sent and `opts.onProgress` hears each notification; progress restarts the per-call
   * timeout, up to `maxTotalTimeoutMs`; an abandoned call is cancelled (notifications/cancelled).
   * Throws ToolCallError: `unavailable` when not ready (with the status reason), `timeout` after the
   * per-call timeout or the total cap, `transport` when the connection fails during the call (exit code, stderr tail, or
   * an over-long stdout line), `tool_error` when the server rejects the request, `cancelled` on abort.
   */
  async callTool(tool: string, args: Record<string, unknown>, opts: CallOptions = {}): Promise<CallToolResult> {
    const id = `${this.name}/${tool}`;
    if (!this.everStarted) await this.start();
    else if (this.starting) await this.settled();
    const session = this.current;
    if (this.state.state !== 'ready' || !session) {
      const retry = this.state.nextRestartAt ? `; restarting in ${Math.max(0, this.state.nextRestartAt - Date.now())} ms` : '';
      throw new ToolCallError('unavailable', id, `Server ${JSON.stringify(this.name)} is not available (${this.state.state}${this.state.reason ? `: ${this.state.reason}` : ''}${retry}).`, this.name);
    }
    const timing = { timeoutMs: opts.timeoutMs ?? this.timeoutMs, maxTotalTimeoutMs: this.maxTotalTimeoutMs };
    try {
      const call = () => callWithProgress(session.client, tool, args, timing, opts, { id, server: this.name });
      return await retryAfterSignIn(this.oauth, session.transport, call);
    } catch (err) {
      if (err instanceof ToolCallError) throw err;
      if (err instanceof AuthorizationRequiredError) {
        this.options.onStatus?.(this);
        throw new ToolCallError('unavailable', id, `Server ${JSON.stringify(this.name)} ${err.message}.`, this.name, { cause: err });
      }
      if (err instanceof McpError && err.code !== (ErrorCode.ConnectionClosed as number) && session === this.current && !session.fault) {
        throw new ToolCallError('tool_error', id, `${id} was rejected by the server: ${clip(err.message, 500)}`, this.name, { cause: err });
      }
      // The connection broke during the call: wait for the exit details, then explain.
      await new Promise((r) => setImmediate(r));
      const why = session.fault ?? describeExit(session, this.ring, isHttpConfig(this.config) ? `failed: ${clip((err as Error).message)}` : 'closed the connection');
      if (isHttpConfig(this.config) && session === this.current) {
        this.current = undefined;
        void this.dispose(session);
        this.fail(why, false);
      }
      throw new ToolCallError('transport', id, `Server ${JSON.stringify(this.name)} failed during the call to ${tool}: it ${why}.`, this.name, { cause: err });
    }
  }

  private dispose(session: Session, treeClose?: TreeCloseTiming): Promise<void> {
    if (!session.disposed) {
      session.disposed = (async () => {
        // A shutdown's own timing must reach the tree before client.close() closes it the usual way.
        const tree = treeClose ? killSessionChild(session, treeClose) : undefined;
        // A Streamable HTTP session is ended with DELETE (the server may answer 405: it keeps no sessions).
        if (session.transport instanceof StreamableHTTPClientTransport && session.transport.sessionId) {
          const transport = session.transport;
          await Promise.race([transport.terminateSession().catch(() => undefined), new Promise((r) => setTimeout(r, 2_000).unref())]);
        }
        try {
          await session.client.close();
        } catch {
          // closing a broken session may fail; the process tree is ended below
        }
        await (tree ?? killSessionChild(session));
        this.sessions.delete(session);
      })();
    }
    return session.disposed;
  }

  /** True when the server is reached over HTTP with OAuth (sign-in and sign-out apply). */
  get usesOAuth(): boolean {
    return this.oauth !== undefined;
  }

  /** Signs in afresh now, the browser step through `interaction` (oauth/connection-auth.ts signInAgain). */
  signIn(interaction: SignInInteraction): Promise<ConnectionStatus> {
    return signInAgain(withOAuth(this.name, this.oauth), interaction, this.options.oauth, () => this.restart());
  }

  /** Forgets the server's stored OAuth records; a started connection restarts (→ `auth: 'required'`). Throws Error without OAuth. */
  async signOut(): Promise<ConnectionStatus> {
    await withOAuth(this.name, this.oauth).signOut();
    return this.everStarted ? this.restart() : this.status;
  }

  /**
   * Closes the connection for good: cancels restarts and ends every session, killing its child's tree.
   * `opts.treeClose` replaces the configured tree-close timing for this close (a host shutting down).
   */
  async close(opts: { treeClose?: Partial<TreeCloseTiming> } = {}): Promise<void> {
    this.closing = true;
    this.stopRoots?.();
    this.gen++;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    this.current = undefined;
    const timing = opts.treeClose ? { ...DEFAULT_TREE_CLOSE, ...this.options.treeClose, ...opts.treeClose } : undefined;
    await Promise.all([...this.sessions].map((s) => this.dispose(s, timing)));
    await this.oauth?.close();
    this.state = { state: 'closed', since: Date.now(), restarts: this.state.restarts };
    this.options.onStatus?.(this);
  }
}
