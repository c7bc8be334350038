/**
 * Hands the in-host endpoint to the editor's agent: one `McpHttpServerDefinition`
 * (positional constructor: label, uri, headers, version) carrying the per-start bearer token. Providing it
 * starts the endpoint listener only (a loopback socket, no process: VS Code asks eagerly); resolving —
 * VS Code is about to connect — also starts the configured MCP servers, and re-reads port and token so a
 * restarted endpoint is used. The version moves and the change event fires at every renewal of the
 * endpoint (src/mcp/definition-renewals.ts): a restart, a reloaded runtime, or one seen at resolve.
 */
import * as vscode from 'vscode';
import type { CoreHost } from './core-host';
import { DefinitionRenewals } from '../mcp/definition-renewals';
import type { EndpointInfo } from '../mcp/http-endpoint';

/** Provider id, as contributed in `contributes.mcpServerDefinitionProviders`. */
export const MCP_PROVIDER_ID = 'jevPanel.mcpServer';
/** Label of the definition. */
export const MCP_LABEL = 'Jev Control Panel';

export class JevMcpDefinitions implements vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  private subscription?: vscode.Disposable;
  readonly onDidChangeMcpServerDefinitions = this.emitter.event;

  private readonly renewals = new DefinitionRenewals(() => this.emitter.fire());

  constructor(private readonly core: CoreHost) {
    let loaded = 0;
    core.onLoaded((runtime) => {
      this.subscription?.dispose();
      this.subscription = runtime.onDidChangeDefinitions(() => this.renewals.renewed());
      // A runtime built by a reload has a new endpoint (port and token) once asked.
      if (loaded++ > 0) this.renewals.renewed();
    });
  }

  async provideMcpServerDefinitions(): Promise<vscode.McpHttpServerDefinition[]> {
    const runtime = await this.core.get();
    const info: EndpointInfo = await runtime.ensureEndpoint();
    const version = this.renewals.provided(runtime.endpoint.definitionVersion, info);
    return [new vscode.McpHttpServerDefinition(MCP_LABEL, vscode.Uri.parse(info.url), { Authorization: `Bearer ${info.token}` }, version)];
  }

  async resolveMcpServerDefinition(server: vscode.McpHttpServerDefinition): Promise<vscode.McpHttpServerDefinition> {
    const info = await (await this.core.get()).ensureEndpoint(true);
    server.uri = vscode.Uri.parse(info.url);
    server.headers = { ...server.headers, Authorization: `Bearer ${info.token}` };
    this.renewals.resolved(info);
    return server;
  }

  dispose(): void {
    this.subscription?.dispose();
    this.emitter.dispose();
  }
}
