/**
 * The extension's commands (package.json `contributes.commands`). Each is a user action; arguments are
 * optional shortcuts for tests and walkthrough links, the UI path asks with an input box or quick pick.
 */
import * as vscode from 'vscode';
import { invalidInput } from '../judgment/errors';
import type { DecisionRecord } from '../ledger/record';
import { SERVER_NAME } from '../mcp/identity';
import { ALLOWED_CHAT_MODEL, API_KEY_SECRET } from './constants';
import type { CoreHost } from './core-host';
import type { DecisionPanels } from './decision-panel';
import type { PanelActions } from './panel-connection';
import { chatModelKey } from '../providers/vscode-lm/model';
import { SAMPLE_STEP_INPUT, SAMPLE_STEP_TOOL } from '../tools/sample-step';
import { VIEW_ID } from './view-provider';
import { editorWording } from '../config/editor-wording';
import { registerSignInCommands } from './mcp-client/sign-in-commands';
import { importMcpJsonCommand, type ImportOptions } from './import-mcp-json';

/** What the commands need. Heavy parts (the runtime, mcp.json parsing) load on first use. */
export interface CommandDeps {
  context: vscode.ExtensionContext;
  core: CoreHost;
  panels: DecisionPanels;
}

const allowedKeyOf = (m: vscode.LanguageModelChat) => chatModelKey(m);

/** Panel actions shared by the commands and the webviews. */
export function panelActions(deps: CommandDeps): PanelActions {
  return {
    openDecision: async (id) => deps.panels.open(id),
    openServerLog: (name) => openServerLog(deps, name),
    runSampleStep: async () => {
      await runSampleStep(deps);
    },
  };
}

/** Registers every command; returns their disposables. */
export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const { core, context } = deps;
  const actions = panelActions(deps);
  const reg = (id: string, fn: (...args: unknown[]) => unknown) => vscode.commands.registerCommand(id, fn);
  return [
    ...registerServerLogs(core),
    ...registerSignInCommands(core),
    reg('jevPanel.openPanel', () => vscode.commands.executeCommand(`${VIEW_ID}.focus`)),
    reg('jevPanel.openDecision', async (id?: unknown) => {
      let target = typeof id === 'string' ? id : undefined;
      if (!target) {
        const rows = (await core.get()).feed.rows().slice(-50).reverse();
        if (rows.length === 0) {
          void vscode.window.showInformationMessage('Jev: no decisions yet. Run "Jev: Run Sample Step" to see one.');
          return;
        }
        const pick = await vscode.window.showQuickPick(
          rows.map((r) => ({ label: `${r.tool} — ${r.handoff ?? r.action ?? r.error ?? ''}`, description: `${r.agent} · ${r.time}`, id: r.id })),
          { placeHolder: 'Open a decision' },
        );
        target = pick?.id;
      }
      if (target) await actions.openDecision(target);
    }),
    reg('jevPanel.setApiKey', async (key?: unknown) => {
      const value =
        typeof key === 'string'
          ? key
          : await vscode.window.showInputBox({
              title: 'Jev: Set API Key',
              prompt: 'System One API key (kept in VS Code SecretStorage only)',
              password: true,
              ignoreFocusOut: true,
              validateInput: (v) => (/^[\x21-\x7e]+$/.test(v.trim()) ? undefined : 'Visible ASCII characters, no spaces'),
            });
      if (value === undefined || value.trim() === '') return;
      await context.secrets.store(API_KEY_SECRET, value.trim());
      await (await core.get()).refresh('API key set');
      void vscode.window.showInformationMessage('Jev: API key saved in SecretStorage.');
    }),
    reg('jevPanel.clearApiKey', async () => {
      await context.secrets.delete(API_KEY_SECRET);
      await (await core.get()).refresh('API key cleared');
      void vscode.window.showInformationMessage('Jev: API key removed.');
    }),
    reg('jevPanel.useChatModel', (key?: unknown) => useChatModel(deps, typeof key === 'string' ? key : undefined)),
    reg('jevPanel.importMcpJson', (uri?: unknown, options?: unknown) =>
      importMcpJsonCommand(context, core, uri instanceof vscode.Uri ? uri : undefined, typeof options === 'object' && options !== null ? (options as ImportOptions) : {}),
    ),
    reg('jevPanel.runSampleStep', () => runSampleStep(deps)),
    reg('jevPanel.restartServer', async (name?: unknown) => {
      const runtime = await core.get();
      let target = typeof name === 'string' ? name : undefined;
      if (!target) {
        target = (await vscode.window.showQuickPick(runtime.serverRows().map((s) => ({ label: s.name, description: s.status }))))?.label;
      }
      if (target) await runtime.restartServer(target);
    }),
    reg('jevPanel.showLog', async () => (await core.get()).log.show(true)),
    reg('jevPanel.openLedger', async () => {
      const path = (await core.get()).ledgerPath();
      try {
        await vscode.window.showTextDocument(vscode.Uri.file(path), { preview: true });
      } catch {
        void vscode.window.showInformationMessage(`Jev: no ledger yet (${path}); it is created with the first decision.`);
      }
    }),
    reg('jevPanel.openSettings', () => vscode.commands.executeCommand('workbench.action.openSettings', '@ext:jevcp.jev-control-panel')),
  ];
}

/** The sample step being judged, if any: a new run while it is in flight is ignored (each run is a paid call). */
let sampleInFlight: Promise<DecisionRecord> | undefined;

/**
 * Judges the sample step as agent `panel`, then shows the decision. Returns the record, or undefined when a
 * run was already in flight (the user is told once per ignored burst).
 */
export async function runSampleStep(deps: CommandDeps): Promise<DecisionRecord | undefined> {
  if (sampleInFlight) {
    if (!sampleBusyShown) {
      sampleBusyShown = true;
      void vscode.window.showInformationMessage('Jev: A sample step is already running.');
    }
    return undefined;
  }
  sampleInFlight = judgeSampleStep(deps);
  try {
    return await sampleInFlight;
  } finally {
    sampleInFlight = undefined;
    sampleBusyShown = false;
  }
}
let sampleBusyShown = false;

async function judgeSampleStep(deps: CommandDeps): Promise<DecisionRecord> {
  const runtime = await deps.core.get();
  await runtime.ready;
  const outcome = await runtime.service.call(SAMPLE_STEP_TOOL, structuredClone(SAMPLE_STEP_INPUT), { agent: 'panel' });
  if (!outcome.ok) void vscode.window.showWarningMessage(`Jev: the sample step failed: ${outcome.error.code}: ${editorWording(outcome.error.message)}`);
  deps.panels.open(outcome.record.id);
  return outcome.record;
}

/** Scheme of the read-only server log documents (`jev-server-log:/<server>.log`). */
export const SERVER_LOG_SCHEME = 'jev-server-log';

/** How often an open server log is checked for new stderr lines, ms. */
const LOG_POLL_MS = 500;

/**
 * Serves server logs as read-only virtual documents (no dirty Untitled buffer). An open log updates live:
 * at once on a status line (a start, a spawn failure), and within LOG_POLL_MS on new stderr lines.
 */
class ServerLogDocuments implements vscode.TextDocumentContentProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  private timer?: NodeJS.Timeout;
  private readonly versions = new Map<string, string>();
  private subscription?: vscode.Disposable;

  constructor(private readonly core: CoreHost) {
    core.onLoaded((runtime) => {
      this.subscription = runtime.servers.onLogChanged((name) => this.changed(ServerLogDocuments.uriOf(name)));
    });
  }

  /** Polls the open logs while any is open (stderr has no change event). */
  private watch(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      const open = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === SERVER_LOG_SCHEME && !d.isClosed);
      const runtime = this.core.loaded;
      if (open.length === 0 || !runtime) {
        clearInterval(this.timer);
        this.timer = undefined;
        return;
      }
      for (const doc of open) {
        const name = nameOfLog(doc.uri);
        const version = runtime.servers.logVersion(name);
        if (this.versions.get(name) !== version) this.emitter.fire(doc.uri);
      }
    }, LOG_POLL_MS);
    this.timer.unref?.();
  }

  static uriOf(name: string): vscode.Uri {
    return vscode.Uri.from({ scheme: SERVER_LOG_SCHEME, path: `/${name}.log` });
  }

  /** Asks the editor to re-read the log of `uri`. */
  changed(uri: vscode.Uri): void {
    this.emitter.fire(uri);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const name = nameOfLog(uri);
    const servers = (await this.core.get()).servers;
    this.versions.set(name, servers.logVersion(name));
    this.watch();
    return servers.logText(name) ?? `# No MCP server named ${JSON.stringify(name)} is configured.\n`;
  }

  dispose(): void {
    clearInterval(this.timer);
    this.subscription?.dispose();
    this.emitter.dispose();
  }
}

/** Server name of a log document's URI (`/<server>.log`). */
function nameOfLog(uri: vscode.Uri): string {
  return uri.path.replace(/^\//, '').replace(/\.log$/, '');
}

let serverLogs: ServerLogDocuments | undefined;

/** Registers the read-only server log documents. */
function registerServerLogs(core: CoreHost): vscode.Disposable[] {
  serverLogs = new ServerLogDocuments(core);
  return [serverLogs, vscode.workspace.registerTextDocumentContentProvider(SERVER_LOG_SCHEME, serverLogs)];
}

async function openServerLog(deps: CommandDeps, name: string): Promise<void> {
  const runtime = await deps.core.get();
  if (name === SERVER_NAME) {
    runtime.log.show(true);
    return;
  }
  if (runtime.servers.logText(name) === undefined) throw invalidInput(`No MCP server named ${JSON.stringify(name)} is configured.`);
  const uri = ServerLogDocuments.uriOf(name);
  serverLogs?.changed(uri);
  let doc = await vscode.workspace.openTextDocument(uri);
  if (doc.languageId !== 'log') {
    try {
      doc = await vscode.languages.setTextDocumentLanguage(doc, 'log');
    } catch {
      // no log grammar: plain text is fine
    }
  }
  await vscode.window.showTextDocument(doc, { preview: true });
}

/**
 * Lets the user allow an editor chat model: a tiny request on this user action (VS Code shows its consent
 * prompt when the model needs one), then the choice is remembered and `provider: auto` may use it.
 */
async function useChatModel(deps: CommandDeps, key?: string): Promise<boolean> {
  const models = typeof vscode.lm?.selectChatModels === 'function' ? await vscode.lm.selectChatModels() : [];
  if (models.length === 0) {
    void vscode.window.showWarningMessage('Jev: the editor offers no chat model.');
    return false;
  }
  let model = key ? models.find((m) => allowedKeyOf(m) === key || `${m.vendor}/${m.id}` === key) : models.length === 1 ? models[0] : undefined;
  if (!model && !key) {
    const pick = await vscode.window.showQuickPick(
      models.map((m) => ({ label: m.name, description: allowedKeyOf(m), model: m })),
      { placeHolder: 'Chat model Jev may use to judge agent steps' },
    );
    model = pick?.model;
  }
  if (!model) return false;
  try {
    const response = await model.sendRequest(
      [vscode.LanguageModelChatMessage.User('Reply with the JSON object {"yes": 1, "no": 0} and nothing else.')],
      { justification: 'Jev Control Panel asks this model for probabilities over closed options to judge agent steps.' },
    );
    for await (const _ of response.text) {
      // drain: the reply itself is not used
    }
  } catch (err) {
    void vscode.window.showErrorMessage(`Jev: ${allowedKeyOf(model)} cannot be used: ${(err as Error)?.message ?? String(err)}`);
    return false;
  }
  await deps.context.globalState.update(ALLOWED_CHAT_MODEL, allowedKeyOf(model));
  await (await deps.core.get()).refresh('chat model allowed');
  void vscode.window.showInformationMessage(`Jev: judging with ${allowedKeyOf(model)} when no API key or base URL is set (uncalibrated).`);
  return true;
}
