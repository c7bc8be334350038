/**
 * Message plumbing between one panel webview (view or editor panel) and the runtime, per
 * src/panel/protocol.ts: every incoming message is validated; a full snapshot answers `ready` and every
 * return to visibility (messages to a hidden webview are lost); new feed rows, status, servers and agents
 * are pushed while visible.
 */
import * as vscode from 'vscode';
import type { HostToWebview, WebviewToHost } from '../panel/protocol';
import type { JevRuntime } from './runtime';
import { parseWebviewMessage } from '../panel/webview-messages';
import { editorWording } from '../config/editor-wording';

/** Actions a panel message may trigger that live outside the runtime (editor UI). */
export interface PanelActions {
  openDecision(id: string): Promise<void>;
  openServerLog(name: string): Promise<void>;
  runSampleStep(): Promise<void>;
}

const COMMANDS: Record<Extract<WebviewToHost, { type: 'command' }>['command'], string> = {
  setApiKey: 'jevPanel.setApiKey',
  clearApiKey: 'jevPanel.clearApiKey',
  openSettings: 'jevPanel.openSettings',
  importMcpJson: 'jevPanel.importMcpJson',
  openLedger: 'jevPanel.openLedger',
  guardOn: 'jevPanel.guard.install',
  guardOff: 'jevPanel.guard.uninstall',
};

export class PanelConnection implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private stale = false;
  /** The webview said `ready` (its message listener exists); earlier posts would be lost. */
  private loaded = false;
  /** Decision to select after the next snapshot (the editor panel opens on one). */
  private pendingSelect?: string;

  constructor(
    private readonly webview: vscode.Webview,
    private readonly runtime: JevRuntime,
    private readonly actions: PanelActions,
    private readonly isVisible: () => boolean,
  ) {
    this.disposables.push(
      webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw)),
      runtime.onDidChangeStatus(() => this.push({ type: 'status', status: runtime.status() })),
      runtime.onDidChangeServers(() => this.push({ type: 'servers', servers: runtime.serverRows() })),
      runtime.onDidChangeAgents(() => this.push({ type: 'agents', agents: runtime.agentViews() })),
    );
    const unsubscribe = runtime.feed.onAppend((rows) => this.push({ type: 'feedAppend', rows }));
    const unsubscribeProgress = runtime.feed.onProgress((running) => this.push({ type: 'feedProgress', running }));
    this.disposables.push({ dispose: unsubscribe }, { dispose: unsubscribeProgress });
  }

  /** Shows decision `id` after the next snapshot, or now when visible. */
  select(id: string): void {
    this.pendingSelect = id;
    if (this.loaded && this.isVisible()) this.flushSelect();
  }

  /**
   * Called when the webview becomes visible again: a snapshot replaces whatever was missed, and a decision
   * asked for while it was hidden is shown now.
   */
  onVisible(): void {
    if (this.stale) this.sendSnapshot();
    else if (this.loaded) this.flushSelect();
  }

  /** Posts a full snapshot (and the pending selection). */
  sendSnapshot(): void {
    this.stale = false;
    void this.post({ type: 'snapshot', snapshot: this.runtime.snapshot() });
    this.flushSelect();
  }

  private flushSelect(): void {
    const id = this.pendingSelect;
    if (!id) return;
    this.pendingSelect = undefined;
    const record = this.runtime.feed.getRecord(id);
    if (record) void this.post({ type: 'record', record });
    void this.post({ type: 'select', id });
  }

  private push(message: HostToWebview): void {
    if (!this.loaded || !this.isVisible()) {
      this.stale = true;
      return;
    }
    void this.post(message);
  }

  private post(message: HostToWebview): Thenable<boolean> {
    return this.webview.postMessage(message).then(
      (ok) => {
        if (!ok) this.stale = true;
        return ok;
      },
      () => false,
    );
  }

  /** Handles one message from the webview (validated here). */
  async receive(raw: unknown): Promise<void> {
    const parsed = parseWebviewMessage(raw);
    if ('error' in parsed) {
      this.runtime.log.warn(parsed.error);
      return;
    }
    const message = parsed.message;
    try {
      switch (message.type) {
        case 'ready':
          this.loaded = true;
          await this.runtime.ready;
          this.sendSnapshot();
          break;
        case 'getRecord': {
          const record = this.runtime.feed.getRecord(message.id);
          if (record) void this.post({ type: 'record', record });
          else {
            void this.post({ type: 'recordMissing', id: message.id, reason: `Decision ${message.id} is neither in memory nor in the ledger (${this.runtime.ledgerPath()}).` });
          }
          break;
        }
        case 'openDecision':
          await this.actions.openDecision(message.id);
          break;
        case 'restartServer':
          await this.runtime.restartServer(message.name);
          break;
        case 'signInServer':
        case 'signOutServer':
          await vscode.commands.executeCommand(`jevPanel.${message.type}`, message.name);
          break;
        case 'openServerLog':
          await this.actions.openServerLog(message.name);
          break;
        case 'toggleGrant':
          await this.runtime.agents.toggle(message.agent, message.grant, message.enabled);
          break;
        case 'setServerEnabled':
          await this.runtime.setServerEnabled(message.name, message.enabled);
          break;
        case 'grantServer':
          await this.runtime.agents.grantServer(message.agent, message.server, message.mode);
          break;
        case 'runSampleStep':
          await this.actions.runSampleStep();
          break;
        case 'command':
          await vscode.commands.executeCommand(COMMANDS[message.command]);
          break;
      }
    } catch (err) {
      const text = (err as Error)?.message ?? String(err);
      this.runtime.log.error(`panel action ${message.type} failed: ${text}`);
      void vscode.window.showErrorMessage(`Jev: ${editorWording(text)}`);
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
