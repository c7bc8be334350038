/**
 * The MCP servers configured in `jevPanel.mcpServers`: one ToolRegistry over the enabled ones (on a
 * configuration change only added and changed servers get new connections, an unchanged one keeps
 * running), starting and restarting their connections, their logs (stderr with a header per start
 * attempt and a line per failure), the tool lists remembered across reloads, and their rows in the panel.
 * Servers start only when wanted (`jevPanel.serverStart`: an agent first needs one of their tools, or the
 * editor connects; or the user restarts one), never when disabled, and only those from trusted settings
 * scopes (src/config/panel-settings.ts).
 */
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import type { ConfiguredServer, ServerStart } from '../config/panel-settings';
import { invalidInput } from '../judgment/errors';
import { SERVER_NAME } from '../mcp/identity';
import type { ServerView } from '../panel/protocol';
import type { ConnectionOptions, ConnectionStatus, McpConnection, RemoteTool } from '../registry/connection';
import type { SignInInteraction } from '../registry/oauth/sign-in';
import type { TreeCloseTiming } from '../registry/process-tree';
import { registerJudgmentTools } from '../registry/judgment-tools';
import { ToolRegistry, type RegistryEvent } from '../registry/registry';
import { canonicalJson, type ServerDiff } from '../registry/server-diff';
import { markStart, markStatus, renderServerLog, type LogMark } from '../registry/server-log';
import type { JudgmentService } from '../tools/judgment-service';

/** What the supervisor needs from the window. */
export interface SupervisorDeps {
  log: vscode.LogOutputChannel;
  /** Extension version, sent as the MCP client version. */
  version: string;
  /** The judgment tools, registered in-process in every registry. */
  service: JudgmentService;
  /** A server's status or tool list changed. */
  changed(): void;
  /** A server's tool list changed (grants and the endpoint's tool set may follow). */
  toolsChanged(): void;
  /** Every registry call event (progress of running calls, their end): the feed shows running calls. */
  callEvent?(event: RegistryEvent): void;
  /** OAuth, elicitation and roots the editor's MCP client offers (mcp-client/options.ts). */
  client: Pick<ConnectionOptions, 'oauth' | 'elicitation' | 'roots'>;
  /** Where tool lists are remembered across reloads (the workspace's Memento). */
  memory?: Pick<vscode.Memento, 'get' | 'update'>;
}

/** What a `sync` is given: every configured server, the disabled names and the start setting. */
export interface ServerSetup {
  servers: readonly ConfiguredServer[];
  disabled: readonly string[];
  start: ServerStart;
}

/** Memento key of the remembered tool lists: server name → its configuration's JSON and its tools. */
const TOOL_MEMORY = 'jevPanel.serverTools';
type ToolMemory = Record<string, { config: string; tools: RemoteTool[] }>;

/** Owns the registry of configured MCP servers and their connections' lifecycle. */
export class ServerSupervisor {
  /** Names of servers whose connections were started (the Workspace Trust tests read it). */
  readonly startedServers: string[] = [];
  /** Connections started here (a rebuilt registry has new ones). */
  private readonly started = new WeakSet<McpConnection>();
  /** Start-attempt headers of each connection's stderr log. */
  private readonly logMarks = new WeakMap<McpConnection, LogMark[]>();
  private current?: ToolRegistry;
  /** Working folder the registry's stdio servers run in (a change rebuilds the registry). */
  private cwd = '';
  private setup: ServerSetup = { servers: [], disabled: [], start: 'onDemand' };
  /** Once true (onConnect and the editor connected), servers of a later sync start too. */
  private wanted = false;
  /** Servers already told to need a sign-in (one notification each), or being signed in to or out of. */
  private readonly signInNoticed = new Set<string>();
  private readonly logListeners = new Set<(name: string) => void>();

  constructor(private readonly deps: SupervisorDeps) {}

  /** The registry of the configured servers (undefined before the first `sync`). */
  get registry(): ToolRegistry | undefined {
    return this.current;
  }

  /** The start setting in force. */
  get startMode(): ServerStart {
    return this.setup.start;
  }

  /**
   * Applies the server configuration: only added and changed servers get new connections (a changed one
   * that had been started starts again), removed and disabled ones are closed, unchanged ones keep
   * running. Resolves with what changed (undefined when nothing did).
   */
  async sync(setup: ServerSetup): Promise<ServerDiff | undefined> {
    const folder = vscode.workspace.isTrusted ? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath : undefined;
    const cwd = folder ?? homedir();
    const enabled = setup.servers.filter((s) => !setup.disabled.includes(s.name)).map((s) => ({ name: s.name, config: s.config, source: 'config' as const }));
    const before = this.setup;
    this.setup = setup;
    if (this.current && cwd === this.cwd) {
      const previous = new Map(this.current.servers.map((c) => [c.name, c] as const));
      const diff = await this.current.reconfigure(enabled);
      if (!diff.added.length && !diff.changed.length && !diff.removed.length) {
        if (canonicalJson(before) !== canonicalJson(setup)) this.deps.changed();
        return undefined;
      }
      this.remember(this.current);
      for (const name of diff.changed) {
        const old = previous.get(name);
        const next = this.current.server(name);
        if (old && next && this.started.has(old)) void this.startOne(next);
      }
      if (this.wanted && this.setup.start === 'onConnect') for (const name of diff.added) void this.startOne(this.current.server(name)!);
      this.deps.log.info(`MCP servers: ${describeDiff(diff)}`);
      this.deps.changed();
      this.deps.toolsChanged();
      return diff;
    }
    const old = this.current;
    this.cwd = cwd;
    const registry = new ToolRegistry({
      servers: enabled,
      connection: { cwd, clientInfo: { name: SERVER_NAME, version: this.deps.version }, ...this.deps.client },
      onEvent: (event) => this.onEvent(event),
    });
    registerJudgmentTools(registry, this.deps.service);
    this.remember(registry);
    this.current = registry;
    if (old) await old.shutdown().catch(() => undefined);
    if (this.wanted && this.setup.start === 'onConnect') void this.startAll();
    return { added: enabled.map((s) => s.name), changed: [], removed: [], unchanged: [] };
  }

  /**
   * The editor connected to the endpoint: with `onConnect`, every enabled server starts (and servers of a
   * later sync too); with `onDemand`, nothing starts here.
   */
  editorConnected(): void {
    if (this.setup.start !== 'onConnect') return;
    void this.startAll();
  }

  /**
   * Starts the enabled servers not started yet (from now on, servers of a rebuilt registry start too, with
   * `onConnect`). A server that crashed is left to its own restart policy, never respawned here. Never rejects.
   */
  async startAll(): Promise<void> {
    this.wanted = true;
    const fresh = (this.current?.servers ?? []).filter((c) => !this.started.has(c));
    await Promise.all(fresh.map((c) => this.startOne(c)));
  }

  /**
   * Before a tools/list: starts the servers whose tools are needed to answer it (all with `onConnect`;
   * with `onDemand` those whose tools are not remembered from an earlier run) and gives starting ones up
   * to `waitMs` to list their tools.
   */
  async settle(waitMs = 5_000): Promise<void> {
    const servers = this.current?.servers ?? [];
    const needed = this.setup.start === 'onConnect' ? servers : servers.filter((c) => !this.started.has(c) && !this.rememberedTools(c));
    if (this.setup.start === 'onConnect') this.wanted = true;
    for (const c of needed) if (!this.started.has(c)) void this.startOne(c);
    const settled = Promise.all(servers.filter((c) => this.started.has(c)).map((c) => c.settled()));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([settled, new Promise<void>((r) => (timer = setTimeout(r, waitMs)))]);
    clearTimeout(timer);
  }

  private startOne(c: McpConnection): Promise<ConnectionStatus> {
    this.noteStarted(c);
    return c.start();
  }

  /** Subscribes to "server `name`'s log text changed" (status lines; stderr is polled by the reader). */
  onLogChanged(listener: (name: string) => void): vscode.Disposable {
    this.logListeners.add(listener);
    return { dispose: () => this.logListeners.delete(listener) };
  }

  /** A cheap fingerprint of server `name`'s log: changes whenever its text does. */
  logVersion(name: string): string {
    const connection = this.current?.server(name);
    if (!connection) return this.setup.servers.some((s) => s.name === name) ? 'disabled' : '';
    return `${connection.stderrDropped + connection.stderr.length}:${(this.logMarks.get(connection) ?? []).length}:${connection.stderr.at(-1) ?? ''}`;
  }

  /** Restarts server `name`. Throws JevError INVALID_INPUT when no such server is configured or it is disabled. */
  async restart(name: string): Promise<void> {
    const connection = this.current?.server(name);
    if (!connection && this.setup.servers.some((s) => s.name === name)) throw invalidInput(`MCP server ${JSON.stringify(name)} is disabled; enable it first.`);
    if (!connection) throw invalidInput(`No MCP server named ${JSON.stringify(name)} is configured.`);
    this.noteStarted(connection);
    await connection.restart();
    this.deps.changed();
  }

  /** Names of the configured servers that sign in with OAuth. */
  oauthServers(): string[] {
    return (this.current?.servers ?? []).filter((c) => c.usesOAuth).map((c) => c.name);
  }

  /** Signs in to server `name` (browser step through `interaction`). Throws INVALID_INPUT for an unknown name, Error without OAuth. */
  async signIn(name: string, interaction: SignInInteraction): Promise<ConnectionStatus> {
    const connection = this.current?.server(name);
    if (!connection) throw invalidInput(`No MCP server named ${JSON.stringify(name)} is configured.`);
    this.noteStarted(connection);
    this.signInNoticed.add(name); // the user is signing in: no "needs sign-in" notice meanwhile
    try {
      return await connection.signIn(interaction);
    } finally {
      this.signInNoticed.delete(name);
      this.deps.changed();
    }
  }

  /** Forgets server `name`'s OAuth tokens and client. Throws INVALID_INPUT for an unknown name, Error without OAuth. */
  async signOut(name: string): Promise<void> {
    const connection = this.current?.server(name);
    if (!connection) throw invalidInput(`No MCP server named ${JSON.stringify(name)} is configured.`);
    this.signInNoticed.add(name); // signed out on purpose: "needs sign-in" is expected, not news
    await connection.signOut();
    this.deps.changed();
  }

  /**
   * Read-only log text of server `name`: its kept stderr lines, a header before each start attempt and a
   * line per failure (a spawn error has no stderr). Undefined when no such server is configured.
   */
  logText(name: string): string | undefined {
    const connection = this.current?.server(name);
    if (!connection) {
      if (!this.setup.servers.some((s) => s.name === name)) return undefined;
      return `# MCP server ${name} is disabled: it is not started and its tools are not offered (enable it in the panel's Servers list).\n`;
    }
    return renderServerLog(name, connection.stderr, connection.stderrDropped, this.logMarks.get(connection) ?? []);
  }

  /**
   * Panel rows of every configured server, in configuration order: a disabled one reads `disabled`, one
   * not started yet `not-started` (neutral, with when it will start), the others their connection state.
   */
  rows(): ServerView[] {
    const registry = this.current;
    if (!registry) return [];
    const live = new Map(registry.status().map((s) => [s.name, s] as const));
    return this.setup.servers.map((configured): ServerView => {
      const s = live.get(configured.name);
      const connection = registry.server(configured.name);
      if (!s || !connection) {
        return { name: configured.name, transport: 'url' in configured.config ? 'http' : 'stdio', status: 'disabled', reason: 'disabled: not started, and its tools are not offered to agents', tools: [], enabled: false };
      }
      if (!this.started.has(connection)) {
        const when = this.setup.start === 'onDemand' ? 'starts when an agent first needs one of its tools' : 'starts when the editor connects';
        return { name: s.name, transport: s.transport, status: 'not-started', reason: `not started yet: ${when}, or with Restart`, tools: s.tools, enabled: true };
      }
      return {
        name: s.name,
        transport: s.transport,
        status: s.status.state === 'closed' ? 'stopped' : s.status.state,
        ...(s.status.reason ? { reason: s.status.reason } : {}),
        tools: s.tools,
        enabled: true,
        ...(s.status.auth ? { auth: s.status.auth } : {}),
        ...(s.status.warning ? { warning: s.status.warning } : {}),
      };
    });
  }

  /** The remembered tool list of `c`, when it was saved for its current configuration. */
  private rememberedTools(c: McpConnection): RemoteTool[] | undefined {
    const entry = this.deps.memory?.get<ToolMemory>(TOOL_MEMORY)?.[c.name];
    return entry && entry.config === canonicalJson(c.config) ? entry.tools : undefined;
  }

  /** Offers the remembered tool lists of `registry`'s servers until they list their own. */
  private remember(registry: ToolRegistry): void {
    for (const c of registry.servers) {
      const tools = this.rememberedTools(c);
      if (tools) registry.rememberTools(c.name, tools);
    }
  }

  /** Saves the tool list `c` just listed, for its configuration (a changed configuration forgets it). */
  private saveTools(c: McpConnection): void {
    const memory = this.deps.memory;
    if (!memory) return;
    const all = { ...(memory.get<ToolMemory>(TOOL_MEMORY) ?? {}) };
    const tools = c.tools.map((t) => ({ ...t }));
    const entry = { config: canonicalJson(c.config), tools };
    if (canonicalJson(all[c.name]) === canonicalJson(entry)) return;
    all[c.name] = entry;
    for (const name of Object.keys(all)) if (!this.setup.servers.some((s) => s.name === name)) delete all[name];
    void memory.update(TOOL_MEMORY, all);
  }

  /**
   * Closes every connection, ending each stdio server's process tree (`opts.treeClose`: the timing, e.g.
   * SHUTDOWN_TREE_CLOSE when the extension is deactivated). Never rejects.
   */
  shutdown(opts: { treeClose?: Partial<TreeCloseTiming> } = {}): Promise<void> {
    return this.current?.shutdown(opts).catch(() => undefined) ?? Promise.resolve();
  }

  private noteStarted(connection: McpConnection): void {
    this.started.add(connection);
    if (!this.startedServers.includes(connection.name)) this.startedServers.push(connection.name);
  }

  private onEvent(event: RegistryEvent): void {
    const { log } = this.deps;
    switch (event.type) {
      case 'server.status': {
        const connection = this.current?.server(event.server);
        const own = connection !== undefined && connection.status.state === event.status.state;
        if (connection && own) {
          const marks = this.logMarks.get(connection) ?? [];
          const at = connection.stderrDropped + connection.stderr.length;
          if (event.status.state === 'starting') {
            this.noteStarted(connection); // also a start on demand: a call reached a server not started yet
            markStart(marks, at, event.time, event.status.restarts);
          } else if (event.status.state === 'error' && event.status.reason && event.status.reason !== 'restart requested') {
            markStatus(marks, at, event.time, `error: ${event.status.reason}`);
          }
          this.logMarks.set(connection, marks);
          for (const listener of this.logListeners) listener(event.server);
        }
        // A failure is a warning in the Output channel, so it stands out from the start/ready lines.
        log[event.status.state === 'error' ? 'warn' : 'info'](`MCP server ${event.server}: ${event.status.state}${event.status.reason ? ` (${event.status.reason})` : ''}`);
        if (event.status.auth === 'required' && !this.signInNoticed.has(event.server)) {
          this.signInNoticed.add(event.server);
          void vscode.window.showWarningMessage(`Jev: MCP server "${event.server}" needs you to sign in.`, 'Sign In').then((c) => c && vscode.commands.executeCommand('jevPanel.signInServer', event.server));
        }
        this.deps.changed();
        break;
      }
      case 'server.tools': {
        const connection = this.current?.server(event.server);
        if (connection?.toolsKnown) this.saveTools(connection);
        this.deps.changed();
        this.deps.toolsChanged();
        break;
      }
      case 'tool.denied':
        log.warn(`denied: ${event.agent} → ${event.tool}: ${event.reason}`);
        break;
      case 'tool.progress':
        this.deps.callEvent?.(event);
        break;
      case 'tool.call':
        this.deps.callEvent?.(event);
        if (!event.ok) log.warn(`${event.agent} → ${event.tool} failed: ${event.error.code}: ${event.error.message}`);
        break;
    }
  }
}

/** One line: `added a; changed b (restarted); removed c; unchanged d (kept running)`. */
export function describeDiff(diff: ServerDiff): string {
  const parts = [
    diff.added.length ? `added ${diff.added.join(', ')}` : '',
    diff.changed.length ? `changed ${diff.changed.join(', ')} (restarted if running)` : '',
    diff.removed.length ? `removed ${diff.removed.join(', ')} (stopped)` : '',
    diff.unchanged.length ? `unchanged ${diff.unchanged.join(', ')} (kept running)` : '',
  ].filter(Boolean);
  return parts.join('; ') || 'no servers';
}
