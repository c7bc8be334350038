/**
 * What `activate()` returns in Development and Test modes (the host test suite and the bench read it).
 * In Production the extension exports only `{ version }`: the endpoint token stays inside.
 */
import type * as vscode from 'vscode';
import type { DecisionRecord } from '../ledger/record';
import type { BackendStatus, FeedRow, PanelSnapshot } from '../panel/protocol';
import type { CallOutcome } from '../tools/judgment-service';
import type { EndpointInfo } from '../mcp/http-endpoint';
import type { InlineGateApi } from './inline/register';
import type { PanelSettings } from '../config/panel-settings';

export interface JevPanelApi {
  readonly version: string;
  /** Wall time `activate()` took, ms. */
  readonly activationMs: number;
  /** Resolves once settings, key and provider are known. */
  readonly ready: Promise<void>;
  /** Feed rows, oldest first. */
  feed(): FeedRow[];
  getRecord(id: string): DecisionRecord | undefined;
  status(): BackendStatus;
  snapshot(): PanelSnapshot;
  settings(): PanelSettings;
  /** The registered McpServerDefinitionProvider, exactly as VS Code calls it. */
  mcp: vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition>;
  /** The endpoint, when listening (includes the token). */
  endpoint(): EndpointInfo | undefined;
  /** MCP servers whose connections were started. */
  startedServers(): readonly string[];
  statusBarText(): string;
  /** Calls a judgment tool as `agent` (default `panel`). */
  call(tool: string, args: unknown, agent?: string): Promise<CallOutcome>;
  /** Re-reads settings, key and chat models. */
  refresh(): Promise<void>;
  /** What the panel's grant toggle does (saves jevPanel.agents); rejects when the toggle cannot take effect. */
  toggleGrant(agent: string, grant: string, enabled: boolean): Promise<void>;
  /** What the panel's server switch does (jevPanel.disabledServers); resolves once it applies. */
  setServerEnabled(name: string, enabled: boolean): Promise<void>;
  /** What the panel's "Grant all" / "Grant read-only" of a server does for `agent`. */
  grantServer(agent: string, server: string, mode: 'all' | 'readOnly'): Promise<void>;
  /** The text of server `name`'s log document (undefined when not configured). */
  serverLog(name: string): string | undefined;
  /** Disposes the runtime and builds a new one, as a window reload would (servers, registry, endpoint). */
  reactivate(): Promise<void>;
  /** Open MCP client sessions on the endpoint. */
  clientSessions(): number;
  /** Authorization URLs that sign-ins opened with `vscode.env.openExternal` (host tests play the browser). */
  authorizationUrls(): readonly string[];
  /** Inline inspection and commit gate: what the host tests read and steer. */
  inline: InlineGateApi;
}

/** The Production export. */
export interface JevPanelPublicApi {
  readonly version: string;
}
