/**
 * The in-host MCP endpoint handed to the editor's agent: Streamable HTTP on 127.0.0.1 (src/mcp/http-endpoint.ts)
 * whose sessions are gateways for agent `editor` (src/mcp/gateway.ts), the version of the tool set the
 * editor sees, and the endpoint's row in the panel, which follows VS Code's own MCP view: Running while an
 * MCP client session is open, not started while none is. Listening opens a loopback socket only, no process.
 */
import type * as vscode from 'vscode';
import { EDITOR_AGENT } from '../config/panel-settings';
import type { DecisionRecord } from '../ledger/record';
import { createGatewaySession, gatewayTools, toolSetVersion } from '../mcp/gateway';
import { McpHttpEndpoint, type EndpointInfo } from '../mcp/http-endpoint';
import { SERVER_NAME } from '../mcp/identity';
import type { ServerView } from '../panel/protocol';
import type { AgentManifest } from '../registry/manifest';
import type { ToolRegistry } from '../registry/registry';
import type { JudgmentService } from '../tools/judgment-service';
import type { Floors } from '../policy/thresholds';

/** What the endpoint reads at every request. */
export interface EditorEndpointDeps {
  log: vscode.LogOutputChannel;
  /** Extension version, the first part of the definition version. */
  version: string;
  service: JudgmentService;
  registry: () => ToolRegistry | undefined;
  /** The current `editor` manifest. */
  manifest: () => AgentManifest;
  floors: () => Floors;
  /** Records an external tool call (ledger + feed). */
  record: (record: DecisionRecord) => void;
  /** Runs before each tools/list (the configured servers start here, with a bounded wait). */
  beforeList: () => Promise<void>;
  /** The tool set the editor sees changed: the MCP definition must be re-announced. */
  definitionChanged: () => void;
  /** A client session opened or closed (the row changes). */
  sessionsChanged?: () => void;
}

/** The endpoint listener and the tool set it serves to the editor's agent. */
export class EditorEndpoint {
  private readonly http: McpHttpEndpoint;
  private version = '';
  /** Open MCP client sessions (VS Code's MCP client keeps one while its view shows the server Running). */
  private clients = 0;

  constructor(private readonly deps: EditorEndpointDeps) {
    this.http = new McpHttpEndpoint({
      createSession: () => {
        const session = createGatewaySession({
          agent: EDITOR_AGENT,
          service: deps.service,
          registry: deps.registry,
          manifest: deps.manifest,
          floors: deps.floors,
          record: deps.record,
          beforeList: deps.beforeList,
        });
        return { server: session.server, connected: (transport) => {
          session.connected(transport);
          this.track(session.server);
        } };
      },
      log: (level, message) => deps.log[level](message),
    });
  }

  /** URL and bearer token while listening. */
  get info(): EndpointInfo | undefined {
    return this.http.info;
  }

  /** Version of the tool set the editor sees; a change re-announces the MCP definition. */
  get definitionVersion(): string {
    if (!this.version) this.version = this.computeVersion();
    return this.version;
  }

  /** Whether a definition version was computed (handed to the editor) yet. */
  get announced(): boolean {
    return this.version !== '';
  }

  /** Recomputes the tool set's version (grants or server tools changed); tells the editor when it moved. */
  toolsChanged(): void {
    const next = this.computeVersion();
    if (next !== this.version) {
      this.version = next;
      this.deps.definitionChanged();
    }
  }

  /** Starts listening (idempotent). */
  start(): Promise<EndpointInfo> {
    return this.http.start();
  }

  /** Stops listening; the next start has a new port and a new token. */
  stop(): Promise<void> {
    return this.http.stop();
  }

  /** Open MCP client sessions. */
  get clientSessions(): number {
    return this.clients;
  }

  /** Counts `server`'s session until it closes (a DELETE from the client, its stop, or ours). */
  private track(server: { onclose?: () => void }): void {
    this.clients++;
    const previous = server.onclose;
    let closed = false;
    server.onclose = () => {
      previous?.();
      if (closed) return;
      closed = true;
      this.clients--;
      this.deps.sessionsChanged?.();
    };
    this.deps.sessionsChanged?.();
  }

  /**
   * The endpoint's row in the panel's server list, in step with VS Code's MCP view: `ready` (Running there)
   * while a client session is open, `not-started` (Stopped there, neutral) while listening without one.
   */
  row(): ServerView {
    const info = this.http.info;
    const n = this.clients;
    const connected = info !== undefined && n > 0;
    return {
      name: SERVER_NAME,
      transport: 'http',
      status: connected ? 'ready' : 'not-started',
      reason: connected
        ? `Running: ${n} MCP client session${n === 1 ? '' : 's'} (VS Code's MCP view shows it Running) at ${info.url}`
        : info
          ? `listening at ${info.url}; no MCP client is connected (VS Code's MCP view shows it Stopped until it starts the server)`
          : 'not started: starts when the editor asks for its tools',
      tools: this.toolNames(),
    };
  }

  private toolNames(): string[] {
    return gatewayTools({ service: this.deps.service, registry: this.deps.registry, manifest: this.deps.manifest }).map((t) => t.name);
  }

  private computeVersion(): string {
    return toolSetVersion(this.deps.version, this.toolNames());
  }
}
