/**
 * The in-host MCP endpoint handed to the editor's agent: Streamable HTTP on 127.0.0.1 (src/mcp/http-endpoint.ts)
 * whose sessions are gateways for agent `editor` (src/mcp/gateway.ts), the version of the tool set the
 * editor sees, and the endpoint's row in the panel. Listening opens a loopback socket only, no process.
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
}

/** The endpoint listener and the tool set it serves to the editor's agent. */
export class EditorEndpoint {
  private readonly http: McpHttpEndpoint;
  private version = '';

  constructor(private readonly deps: EditorEndpointDeps) {
    this.http = new McpHttpEndpoint({
      createSession: () =>
        createGatewaySession({
          agent: EDITOR_AGENT,
          service: deps.service,
          registry: deps.registry,
          manifest: deps.manifest,
          floors: deps.floors,
          record: deps.record,
          beforeList: deps.beforeList,
        }),
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

  /** The endpoint's row in the panel's server list. */
  row(): ServerView {
    const info = this.http.info;
    return {
      name: SERVER_NAME,
      transport: 'http',
      status: info ? 'ready' : 'stopped',
      reason: info ? `serving the editor's agent at ${info.url}` : 'starts when the editor asks for its tools',
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
