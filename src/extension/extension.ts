/**
 * Entry point of the VS Code extension. Activation is lazy (the view, a command, the MCP definition being
 * resolved: `onMcpCollection`, or a restored decision panel) and cheap: it registers providers and commands
 * and returns. The runtime (tools, schemas, the MCP SDK, the registry) loads right after, off the activation
 * path (core-host.ts); no network and no process until a judgment, the editor or a panel needs one.
 */
import * as vscode from 'vscode';
import { JevUriHandler } from './uri-handler';
import type { JevPanelApi, JevPanelPublicApi } from './api';
import { panelActions, registerCommands } from './commands';
import { CoreHost } from './core-host';
import { DECISION_PANEL_TYPE, DecisionPanels } from './decision-panel';
import { registerInlineAndGate } from './inline/register';
import { JevMcpDefinitions, MCP_PROVIDER_ID } from './mcp-definitions';
import type { PanelActions } from './panel-connection';
import { JevStatusBar } from './status-bar';
import { JevViewProvider, VIEW_ID } from './view-provider';
import { openedAuthorizationUrls } from './mcp-client/sign-in-commands';

/** Name of the LogOutputChannel. */
export const LOG_CHANNEL = 'Jev Control Panel';

/** The runtime host of the current activation, for deactivate(). */
let activeCore: CoreHost | undefined;

export function activate(context: vscode.ExtensionContext): JevPanelApi | JevPanelPublicApi {
  const started = performance.now();
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0');
  const log = vscode.window.createOutputChannel(LOG_CHANNEL, { log: true });
  const core = new CoreHost(context, log);
  activeCore = core;
  // The panels read the actions only once a panel opens, after they exist.
  const panels = new DecisionPanels(context.extensionUri, core, () => actions);
  const deps = { context, core, panels };
  const actions: PanelActions = panelActions(deps);
  const view = new JevViewProvider(context.extensionUri, core, actions);
  const statusBar = new JevStatusBar(core);
  const definitions = new JevMcpDefinitions(core);

  context.subscriptions.push(
    // The log outlives the shutdown: VS Code disposes the subscriptions right after calling deactivate(),
    // while the servers are still closing and reporting (a closed channel throws on every write).
    { dispose: () => void core.shutdown().finally(() => log.dispose()) },
    panels,
    view,
    statusBar,
    definitions,
    vscode.window.registerWebviewViewProvider(VIEW_ID, view),
    vscode.window.registerWebviewPanelSerializer(DECISION_PANEL_TYPE, panels),
    vscode.window.registerUriHandler(new JevUriHandler()),
    ...registerCommands(deps),
  );
  // The MCP provider API exists from VS Code 1.101 (engines); a host without it still gets the panel.
  if (typeof vscode.lm?.registerMcpServerDefinitionProvider === 'function') {
    context.subscriptions.push(vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, definitions));
  } else {
    log.warn('this editor has no MCP server definition API; the judgment tools are not offered to its agent');
  }
  // Request files, recorded decisions and the commit gate.
  const inline = registerInlineAndGate(context, core);

  const activationMs = performance.now() - started;
  // Something activated us, so it is about to be used: load the runtime now, just not inside activate().
  setImmediate(() => {
    const t0 = performance.now();
    void core.get().then(
      (runtime) => runtime.ready.then(() => log.info(`activated in ${activationMs.toFixed(1)} ms; runtime ready ${(performance.now() - t0).toFixed(1)} ms later`)),
      (err: unknown) => log.error(`the runtime failed to load: ${(err as Error)?.stack ?? String(err)}`),
    );
  });
  if (context.extensionMode === vscode.ExtensionMode.Production) return { version };
  return {
    version,
    activationMs,
    // A getter: asking for it loads the runtime, merely activating does not.
    get ready() {
      return core.get().then((runtime) => runtime.ready);
    },
    feed: () => core.required().feed.rows(),
    getRecord: (id) => core.required().feed.getRecord(id),
    status: () => core.required().status(),
    snapshot: () => core.required().snapshot(),
    settings: () => core.required().settings,
    mcp: definitions,
    endpoint: () => core.loaded?.endpoint.info,
    editorSessions: () => core.loaded?.endpoint.sessions ?? { open: 0, closed: 0 },
    startedServers: () => core.loaded?.servers.startedServers.slice() ?? [],
    statusBarText: () => statusBar.text,
    authorizationUrls: () => openedAuthorizationUrls.slice(),
    call: async (tool, args, agent = 'panel') => {
      const runtime = await core.get();
      await runtime.ready;
      return runtime.service.call(tool, args, { agent });
    },
    refresh: async () => (await core.get()).refresh('requested'),
    toggleGrant: async (agent, grant, enabled) => (await core.get()).agents.toggle(agent, grant, enabled),
    setServerEnabled: async (name, enabled) => (await core.get()).setServerEnabled(name, enabled),
    grantServer: async (agent, server, mode) => (await core.get()).agents.grantServer(agent, server, mode),
    serverLog: (name) => core.required().servers.logText(name),
    reactivate: async () => {
      await core.reload();
    },
    clientSessions: () => core.loaded?.endpoint.clientSessions ?? 0,
    inline,
  };
}

/**
 * Called by VS Code when the extension is deactivated or the extension host shuts down. Resolves once the
 * endpoint, every MCP server's process tree and the ledger are closed (about 2 s at most; VS Code waits up
 * to 5 s for the promise before the host exits). VS Code then disposes context.subscriptions, which finds
 * the same shutdown under way. Whatever is still running when the host process exits is ended by the
 * registry's exit hook (process-tree.ts); a host killed with SIGKILL runs no code at all.
 */
export function deactivate(): Promise<void> {
  return activeCore?.shutdown() ?? Promise.resolve();
}
