import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { clientCapabilities, installClientFeatures, type ElicitationHandler, type RootsSource } from './client-features';
import { ToolCallError } from './errors';
import { finishSignIn, oauthProviderFor, retryAfterSignIn, signInAgain, withOAuth } from './oauth/connection-auth';
import type { JevOAuthProvider } from './oauth/provider';
import { AuthorizationRequiredError, type OAuthHost, type SignInInteraction } from './oauth/sign-in';
import { listAllTools } from './list-tools';
import { LineRing } from './ring';
import { DEFAULT_CALL_TIMEOUT_MS, describeServerTarget, isHttpConfig, type ServerConfig } from './servers';
import { clip, describeExit, endSessionOnStreamFault, killSessionChild, openStdioTransport, type Session } from './stdio-session';

/**
 * One persistent MCP client connection: spawned or connected once and reused; a status (starting |
 * ready | error with its reason); a per-call timeout; restart with exponential backoff after a crash;
 * tool list refreshed on tools/list_changed; a stdout line that is not JSON-RPC ends the session with an
 * error naming the line (never a hang); stderr kept in a bounded ring; close() leaves no child process
 * behind. The stdio side of a session (spawn, child watching, stream faults) is in stdio-session.ts.
 */

/** Lifecycle state of a connection. `closed` only after close(). */
export type ConnectionState = 'starting' | 'ready' | 'error' | 'closed';

/** Snapshot of a connection's health, as shown by `jevcp servers` and the panel. */
export interface ConnectionStatus {
  state: ConnectionState;
  /** Why the state is `error` (spawn error text, exit code, last stderr lines, timeout, bad stdout line). */
  reason?: string;
  /** Epoch ms of the last state change. */
  since: number;
  /** The last failure, kept while a restart is starting (cleared once ready). */
  lastError?: string;
  /** Restarts attempted after failures since the last stable period. */
  restarts: number;
  /** Epoch ms of the next scheduled restart, when one is scheduled. */
  nextRestartAt?: number;
  /** Child process id of a live stdio server. */
  pid?: number;
  /** OAuth of an HTTP server: `required` = waiting for a sign-in (reason says how), `signed-in` = tokens held. */
  auth?: 'required' | 'signed-in';
}

/** A tool as advertised by a server (tools/list). */
export interface RemoteTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Tool['annotations'];
}

/** Restart after a crash: delay = min(baseDelayMs · 2^(n−1), maxDelayMs) for the n-th consecutive failure. */
export interface RestartPolicy {
  /** Consecutive failed starts/crashes after which the connection stays in error (default 5). */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Ready this long (ms) → the failure count resets (default 30 000). */
  stableMs: number;
}

/** Defaults: 5 attempts, 500 ms doubling up to 30 s, failure count reset after 30 s ready. */
export const DEFAULT_RESTART: RestartPolicy = Object.freeze({ maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 30_000, stableMs: 30_000 });

/** Default limit for a server's spawn + initialize + first tools/list, ms. */
export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;

/** Options shared by every connection of a registry. */
export interface ConnectionOptions {
  /** Per-call timeout, ms, unless the server config sets `timeoutMs` (default 60 000). */
  timeoutMs?: number;
  /** Limit for spawn + initialize + first tools/list, ms (default 30 000). */
  startupTimeoutMs?: number;
  restart?: Partial<RestartPolicy>;
  /** stderr ring size: lines and characters per line (defaults 200 and 1 000). */
  stderrLines?: number;
  stderrLineChars?: number;
  /** Working folder for stdio servers whose config has no cwd (default: the host's). */
  cwd?: string;
  clientInfo?: { name: string; version: string };
  onStatus?: (connection: McpConnection) => void;
  onToolsChanged?: (connection: McpConnection) => void;
  /** OAuth for HTTP servers (token store, browser step); absent: a 401 is an error. */
  oauth?: OAuthHost;
  /** Who answers a server's elicitation requests; absent: the capability is not declared. */
  elicitation?: ElicitationHandler;
  /** Roots announced to servers (and `roots/list_changed` on change); absent: not declared. */
  roots?: RootsSource;
}

/** Per-call options. */
export interface CallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

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
    return { ...this.state, pid: this.current?.child?.pid ?? undefined, ...(auth ? { auth } : {}) };
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

  /** Effective per-call timeout, ms. */
  get timeoutMs(): number {
    return this.config.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
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
      this.fail(this.startFailure(session, err, startupTimeout), spawnFailed || err instanceof AuthorizationRequiredError);
    }
    return this.status;
  }

  private createSession(gen: number): Session {
    const features = { elicitation: this.options.elicitation, roots: this.options.roots };
    const client = new Client(this.options.clientInfo ?? { name: 'jev-control-panel', version: '0.1.0' }, { capabilities: clientCapabilities(features) });
    installClientFeatures(client, this.name, features);
    let transport: Transport;
    const session = { gen, client, stdoutLines: [], stdoutPartial: '', stderrMark: this.ring.total } as unknown as Session;
    if (isHttpConfig(this.config)) {
      transport = new StreamableHTTPClientTransport(new URL(this.config.url), {
        requestInit: this.config.headers ? { headers: { ...this.config.headers } } : undefined,
        ...(this.oauth ? { authProvider: this.oauth, fetch: this.oauth.fetch } : {}),
      });
    } else {
      transport = openStdioTransport(this.config, this.options.cwd, this.ring, session);
    }
    session.transport = transport;
    this.sessions.add(session);
    client.onclose = () => this.onSessionClosed(session);
    client.onerror = (err) => endSessionOnStreamFault(session, err);
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      if (session === this.current) await this.refreshTools();
    });
    return session;
  }

  private onSessionClosed(session: Session): void {
    if (session !== this.current || this.closing) return;
    this.current = undefined;
    const reason = session.fault ?? describeExit(session, this.ring, 'closed the connection');
    void this.dispose(session);
    this.fail(reason, false);
  }

  private startFailure(session: Session | undefined, err: unknown, startupTimeout: number): string {
    if (session?.fault) return session.fault;
    if (err instanceof AuthorizationRequiredError) return err.message;
    if (err instanceof McpError && err.code === (ErrorCode.RequestTimeout as number)) {
      const last = this.ring.tailSince(1, session?.stderrMark ?? 0);
      return `did not finish initialize within ${startupTimeout} ms` + (last.length ? `; last stderr: ${clip(last[0])}` : '');
    }
    const message = err instanceof Error ? err.message : String(err);
    if (isHttpConfig(this.config)) {
      const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
      return `cannot connect to ${this.target}: ${clip(cause?.code ?? cause?.message ?? message)}`;
    }
    if (!session?.child) return `cannot start ${JSON.stringify(this.config.command)}: ${clip(message)}`;
    return describeExit(session, this.ring, 'closed the connection', ' during startup');
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
   * Throws ToolCallError: `unavailable` when not ready (with the status reason), `timeout` after the
   * per-call timeout, `transport` when the connection fails during the call (exit code, stderr tail, or
   * the bad stdout line), `tool_error` when the server rejects the request, `cancelled` on abort.
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
    const timeout = opts.timeoutMs ?? this.timeoutMs;
    try {
      const call = () => session.client.callTool({ name: tool, arguments: args }, undefined, { timeout, signal: opts.signal });
      return (await retryAfterSignIn(this.oauth, session.transport, call)) as CallToolResult;
    } catch (err) {
      if (opts.signal?.aborted) throw new ToolCallError('cancelled', id, `The call to ${id} was cancelled.`, this.name, { cause: err });
      if (err instanceof AuthorizationRequiredError) {
        this.options.onStatus?.(this);
        throw new ToolCallError('unavailable', id, `Server ${JSON.stringify(this.name)} ${err.message}.`, this.name, { cause: err });
      }
      if (err instanceof McpError && err.code === (ErrorCode.RequestTimeout as number)) {
        throw new ToolCallError('timeout', id, `${id} did not answer within ${timeout} ms (per-call timeout of server ${JSON.stringify(this.name)}).`, this.name, { cause: err });
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

  private dispose(session: Session): Promise<void> {
    if (!session.disposed) {
      session.disposed = (async () => {
        try {
          await session.client.close();
        } catch {
          // closing a broken session may fail; the child is checked below
        }
        await killSessionChild(session);
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

  /** Closes the connection for good: cancels restarts and ends every session, killing its child. */
  async close(): Promise<void> {
    this.closing = true;
    this.stopRoots?.();
    this.gen++;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    this.current = undefined;
    await Promise.all([...this.sessions].map((s) => this.dispose(s)));
    await this.oauth?.close();
    this.state = { state: 'closed', since: Date.now(), restarts: this.state.restarts };
    this.options.onStatus?.(this);
  }
}
