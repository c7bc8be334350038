/**
 * Entry point of the VS Code extension. Activation is lazy (the view, a command, or the MCP definition being
 * resolved: `onMcpCollection`) and cheap: it registers providers and commands and reads settings; no
 * network and no process until a judgment, the endpoint or a panel needs one.
 */
import * as vscode from 'vscode';
import type { JevPanelApi, JevPanelPublicApi } from './api';
import { registerCommands, panelActions } from './commands';
import { DECISION_PANEL_TYPE, DecisionPanels } from './decision-panel';
import { JevMcpDefinitions, MCP_PROVIDER_ID } from './mcp-definitions';
import { JevRuntime } from './runtime';
import { JevStatusBar } from './status-bar';
import { JevViewProvider, VIEW_ID } from './view-provider';

/** Name of the LogOutputChannel. */
export const LOG_CHANNEL = 'Jev Control Panel';

export function activate(context: vscode.ExtensionContext): JevPanelApi | JevPanelPublicApi {
  const started = performance.now();
  const version = String(context.extension.packageJSON.version ?? '0');
  const log = vscode.window.createOutputChannel(LOG_CHANNEL, { log: true });
  const runtime = new JevRuntime(context, log);
  let actions: ReturnType<typeof panelActions> | undefined;
  const panels = new DecisionPanels(context.extensionUri, runtime, () => actions!);
  const deps = { context, runtime, panels };
  actions = panelActions(deps);
  const view = new JevViewProvider(context.extensionUri, runtime, actions);
  const statusBar = new JevStatusBar(runtime);
  const definitions = new JevMcpDefinitions(runtime);

  context.subscriptions.push(
    log,
    runtime,
    panels,
    view,
    statusBar,
    definitions,
    vscode.window.registerWebviewViewProvider(VIEW_ID, view),
    vscode.window.registerWebviewPanelSerializer(DECISION_PANEL_TYPE, panels),
    ...registerCommands(deps),
  );
  // The MCP provider API exists from VS Code 1.101 (engines); a host without it still gets the panel.
  if (typeof vscode.lm?.registerMcpServerDefinitionProvider === 'function') {
    context.subscriptions.push(vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, definitions));
  } else {
    log.warn('this editor has no MCP server definition API; the judgment tools are not offered to its agent');
  }

  const activationMs = performance.now() - started;
  log.info(`activated in ${activationMs.toFixed(1)} ms (${vscode.ExtensionMode[context.extensionMode]} mode)`);
  if (context.extensionMode === vscode.ExtensionMode.Production) return { version };
  return {
    version,
    activationMs,
    ready: runtime.ready,
    feed: () => runtime.feed.rows(),
    getRecord: (id) => runtime.feed.getRecord(id),
    status: () => runtime.status(),
    snapshot: () => runtime.snapshot(),
    settings: () => runtime.settings,
    mcp: definitions,
    endpoint: () => runtime.endpoint.info,
    startedServers: () => runtime.startedServers.slice(),
    statusBarText: () => statusBar.text,
    call: async (tool, args, agent = 'panel') => {
      await runtime.ready;
      return runtime.service.call(tool, args, { agent });
    },
    refresh: () => runtime.refresh('requested'),
  };
}

export function deactivate(): void {
  // Disposables in context.subscriptions close the endpoint, the MCP servers and the ledger.
}
