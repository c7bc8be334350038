/**
 * The MCP servers configured in `jevPanel.mcpServers`: one ToolRegistry over them (rebuilt when their
 * configuration changes), starting and restarting their connections, their stderr logs with a header per
 * start attempt, and their rows in the panel. Servers start only when wanted (the editor connects to the
 * endpoint, a call needs them, or the user restarts one), and only those from trusted settings scopes
 * (src/config/panel-settings.ts).
 */
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import type { ConfiguredServer } from '../config/panel-settings';
import { invalidInput } from '../judgment/errors';
import { SERVER_NAME } from '../mcp/identity';
import type { ServerView } from '../panel/protocol';
import type { ConnectionOptions, ConnectionStatus, McpConnection } from '../registry/connection';
import type { SignInInteraction } from '../registry/oauth/sign-in';
import { registerJudgmentTools } from '../registry/judgment-tools';
import { ToolRegistry, type RegistryEvent } from '../registry/registry';
import { markStart, renderServerLog, type LogMark } from '../registry/server-log';
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
}

/** Owns the registry of configured MCP servers and their connections' lifecycle. */
export class ServerSupervisor {
  /** Names of servers whose connections were started (the Workspace Trust tests read it). */
  readonly startedServers: string[] = [];
  /** Connections started here (a rebuilt registry has new ones). */
  private readonly started = new WeakSet<McpConnection>();
  /** Start-attempt headers of each connection's stderr log. */
  private readonly logMarks = new WeakMap<McpConnection, LogMark[]>();
  private current?: ToolRegistry;
  private configKey = '';
  /** Once true, servers of a rebuilt registry start too. */
  private wanted = false;
  /** Servers already told to need a sign-in (one notification each), or being signed in to or out of. */
  private readonly signInNoticed = new Set<string>();

  constructor(private readonly deps: SupervisorDeps) {}

  /** The registry of the configured servers (undefined before the first `sync`). */
  get registry(): ToolRegistry | undefined {
    return this.current;
  }

  /** Rebuilds the registry when the server configuration changed; restarts servers that were wanted. */
  async sync(servers: readonly ConfiguredServer[]): Promise<void> {
    const key = JSON.stringify(servers);
    if (this.current && key === this.configKey) return;
    const old = this.current;
    this.configKey = key;
    const folder = vscode.workspace.isTrusted ? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath : undefined;
    const registry = new ToolRegistry({
      servers: servers.map((s) => ({ name: s.name, config: s.config, source: 'config' as const })),
      connection: { cwd: folder ?? homedir(), clientInfo: { name: SERVER_NAME, version: this.deps.version }, ...this.deps.client },
      onEvent: (event) => this.onEvent(event),
    });
    registerJudgmentTools(registry, this.deps.service);
    this.current = registry;
    if (old) await old.shutdown().catch(() => undefined);
    if (this.wanted) void this.startAll();
  }

  /**
   * Starts the configured servers not started yet (from now on, servers of a rebuilt registry start too).
   * A server that crashed is left to its own restart policy, never respawned here. Never rejects.
   */
  async startAll(): Promise<void> {
    this.wanted = true;
    const fresh = (this.current?.servers ?? []).filter((c) => !this.started.has(c));
    for (const c of fresh) this.noteStarted(c);
    await Promise.all(fresh.map((c) => c.start()));
  }

  /** Starts new servers and gives starting ones up to `waitMs` to list their tools (before a tools/list). */
  async settle(waitMs = 5_000): Promise<void> {
    const settled = this.startAll().then(() => Promise.all((this.current?.servers ?? []).map((c) => c.settled())));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([settled, new Promise<void>((r) => (timer = setTimeout(r, waitMs)))]);
    clearTimeout(timer);
  }

  /** Restarts server `name`. Throws JevError INVALID_INPUT when no such server is configured. */
  async restart(name: string): Promise<void> {
    const connection = this.current?.server(name);
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

  /** Read-only log text of server `name`: its kept stderr lines, a header before each start attempt (undefined when unknown). */
  logText(name: string): string | undefined {
    const connection = this.current?.server(name);
    if (!connection) return undefined;
    return renderServerLog(name, connection.stderr, connection.stderrDropped, this.logMarks.get(connection) ?? []);
  }

  /** Panel rows of the configured servers; a server not started yet reads `stopped` with the reason. */
  rows(): ServerView[] {
    const registry = this.current;
    if (!registry) return [];
    return registry.status().map((s): ServerView => {
      const connection = registry.server(s.name);
      const started = connection !== undefined && this.started.has(connection);
      return {
        name: s.name,
        transport: s.transport,
        status: s.status.state === 'closed' || !started ? 'stopped' : s.status.state,
        ...(!started ? { reason: 'not started yet: servers start when the editor connects, or with Restart' } : s.status.reason ? { reason: s.status.reason } : {}),
        tools: s.tools,
        ...(s.status.auth && started ? { auth: s.status.auth } : {}),
      };
    });
  }

  /** Closes every connection (killing stdio children). */
  shutdown(): Promise<void> {
    return this.current?.shutdown() ?? Promise.resolve();
  }

  private noteStarted(connection: McpConnection): void {
    this.started.add(connection);
    if (!this.startedServers.includes(connection.name)) this.startedServers.push(connection.name);
  }

  private onEvent(event: RegistryEvent): void {
    const { log } = this.deps;
    switch (event.type) {
      case 'server.status': {
        const connection = event.status.state === 'starting' ? this.current?.server(event.server) : undefined;
        if (connection) {
          const marks = this.logMarks.get(connection) ?? [];
          markStart(marks, connection.stderrDropped + connection.stderr.length, event.time, event.status.restarts);
          this.logMarks.set(connection, marks);
        }
        log.info(`MCP server ${event.server}: ${event.status.state}${event.status.reason ? ` (${event.status.reason})` : ''}`);
        if (event.status.auth === 'required' && !this.signInNoticed.has(event.server)) {
          this.signInNoticed.add(event.server);
          void vscode.window.showWarningMessage(`Jev: MCP server "${event.server}" needs you to sign in.`, 'Sign In').then((c) => c && vscode.commands.executeCommand('jevPanel.signInServer', event.server));
        }
        this.deps.changed();
        break;
      }
      case 'server.tools':
        this.deps.changed();
        this.deps.toolsChanged();
        break;
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
