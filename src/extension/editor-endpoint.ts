/**
 * The in-host MCP endpoint handed to the editor's agent: Streamable HTTP on 127.0.0.1 (src/mcp/http-endpoint.ts)
 * whose sessions are gateways for agent `editor` (src/mcp/gateway.ts), the fan-out that tells every open
 * session when the editor's tools may have changed, and the endpoint's row in the panel. Listening opens a
 * loopback socket only, no process.
 *
 * Why tool changes never touch the MCP server definition: VS Code stops a server whose definition changed
 * (and leaves it stopped until the next call), so grant toggles and servers' tools reach connected clients as
 * `notifications/tools/list_changed` instead, and the connection stays up.
 */
import type * as vscode from 'vscode';
import { EDITOR_AGENT } from '../config/panel-settings';
import type { DecisionRecord } from '../ledger/record';
import { openDecisionTool } from '../mcp/app-tools';
import { createGatewaySession, gatewayTools } from '../mcp/gateway';
import type { ForwardCap } from '../mcp/forward-result';
import { McpHttpEndpoint, type EndpointInfo } from '../mcp/http-endpoint';
import { SERVER_NAME } from '../mcp/identity';
import type { ServerView } from '../panel/protocol';
import type { AgentManifest } from '../registry/manifest';
import type { ToolRegistry } from '../registry/registry';
import type { JudgmentService } from '../tools/judgment-service';
import type { Screener } from '../screen';
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
  /** Starts the configured servers not started yet (before a call waits for one still starting). */
  startServers: () => void;
  /** The cap of one forwarded external result and where its record is kept (jevPanel.gatewayMaxResultBytes). */
  resultCap?: () => ForwardCap;
  /** The screener of results from servers marked for screening (jevPanel.mcpServers `screen`), shared by all sessions. */
  screener?: Screener;
  /** A client session opened or closed (the row changes). */
  sessionsChanged?: () => void;
  /** Opens a decision in the Jev panel: the decision card's "Open in Jev panel" (src/mcp/app-tools.ts). */
  openDecision: (id: string) => Promise<void>;
}

/** The endpoint listener and the tool set it serves to the editor's agent. */
export class EditorEndpoint {
  private readonly http: McpHttpEndpoint;
  /** Open sessions' "re-list and tell the client" hooks. */
  private readonly listeners = new Set<() => void>();
  private closed = 0;
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
          startServers: deps.startServers,
          appTools: [openDecisionTool(deps.openDecision)],
          ...(deps.resultCap ? { resultCap: deps.resultCap } : {}),
          ...(deps.screener ? { screener: deps.screener } : {}),
          onToolsChanged: (listener) => {
            this.listeners.add(listener);
            return () => {
              if (this.listeners.delete(listener)) this.closed++;
            };
          },
        });
        return {
          server: session.server,
          connected: (transport) => {
            session.connected(transport);
            this.track(session.server);
          },
        };
      },
      log: (level, message) => deps.log[level](message),
    });
  }

  /** URL and bearer token while listening. */
  get info(): EndpointInfo | undefined {
    return this.http.info;
  }

  /**
   * Base version of the MCP server definition: the extension's version. It does not follow the tools (they
   * change over tools/list_changed), so VS Code keeps its cached tool list across a window reload; the
   * definition provider adds the endpoint's renewals to it (src/mcp/definition-renewals.ts).
   */
  get definitionVersion(): string {
    return this.deps.version;
  }

  /** Client sessions: open now, and closed since activation (a client that stopped ends its session). */
  get sessions(): { open: number; closed: number } {
    return { open: this.listeners.size, closed: this.closed };
  }

  /**
   * What the editor may see may have changed (grants, settings, a server's tools): every open session
   * re-lists and sends `notifications/tools/list_changed` when its listing moved. The definition stays.
   */
  toolsChanged(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch (err) {
        this.deps.log.warn(`telling an MCP session about changed tools failed: ${(err as Error)?.message ?? String(err)}`);
      }
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
}
