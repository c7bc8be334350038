/**
 * The activity-bar view `jevPanel.view` (container "Jev"). Not retained when hidden (memory): the webview
 * keeps its UI state with setState, and the host re-sends a snapshot on `ready` and when it is shown again.
 */
import * as vscode from 'vscode';
import { PanelConnection, type PanelActions } from './panel-connection';
import { loadPanel, panelWebviewOptions } from './panel-shell';
import type { JevRuntime } from './runtime';

/** View id, as contributed in package.json. */
export const VIEW_ID = 'jevPanel.view';

export class JevViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private connection?: PanelConnection;
  private view?: vscode.WebviewView;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly runtime: JevRuntime,
    private readonly actions: PanelActions,
  ) {}

  /** True while the view is resolved and visible. */
  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.connection?.dispose();
    this.view = view;
    view.webview.options = panelWebviewOptions(this.extensionUri);
    const connection = new PanelConnection(view.webview, this.runtime, this.actions, () => view.visible);
    this.connection = connection;
    loadPanel(view.webview, this.extensionUri, 'sidebar');
    const subs = [
      view.onDidChangeVisibility(() => {
        if (view.visible) connection.onVisible();
      }),
      view.onDidDispose(() => {
        for (const s of subs) s.dispose();
        connection.dispose();
        if (this.connection === connection) this.connection = undefined;
        if (this.view === view) this.view = undefined;
      }),
    ];
  }

  dispose(): void {
    this.connection?.dispose();
  }
}
