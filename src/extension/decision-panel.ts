/**
 * The decision editor panel: one WebviewPanel (reused) showing a decision in full. Restored after a window
 * reload by its serializer, with the webview's own saved state.
 */
import * as vscode from 'vscode';
import { PanelConnection, type PanelActions } from './panel-connection';
import { loadPanel, panelWebviewOptions } from './panel-shell';
import type { JevRuntime } from './runtime';

/** Webview panel type (serializer id). */
export const DECISION_PANEL_TYPE = 'jevPanel.decision';

export class DecisionPanels implements vscode.WebviewPanelSerializer, vscode.Disposable {
  private panel?: vscode.WebviewPanel;
  private connection?: PanelConnection;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly runtime: JevRuntime,
    private readonly actions: () => PanelActions,
  ) {}

  /** The open panel, if any (tests). */
  get current(): vscode.WebviewPanel | undefined {
    return this.panel;
  }

  /** Opens (or reveals) the panel on decision `id`. */
  open(id: string): void {
    if (this.panel && this.connection) {
      this.panel.reveal(vscode.ViewColumn.Active);
      this.connection.select(id);
      return;
    }
    const panel = vscode.window.createWebviewPanel(DECISION_PANEL_TYPE, 'Jev Decision', vscode.ViewColumn.Active, {
      ...panelWebviewOptions(this.extensionUri),
      retainContextWhenHidden: false,
    });
    this.attach(panel, id);
  }

  /** Restores a panel after a reload (VS Code passes the state the webview saved). */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel): Promise<void> {
    panel.webview.options = panelWebviewOptions(this.extensionUri);
    this.attach(panel);
  }

  private attach(panel: vscode.WebviewPanel, selectId?: string): void {
    this.connection?.dispose();
    this.panel = panel;
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'icon.png');
    const connection = new PanelConnection(panel.webview, this.runtime, this.actions(), () => panel.visible);
    this.connection = connection;
    if (selectId) connection.select(selectId);
    loadPanel(panel.webview, this.extensionUri, 'decision', selectId);
    const subs = [
      panel.onDidChangeViewState(() => {
        if (panel.visible) connection.onVisible();
      }),
      panel.onDidDispose(() => {
        for (const s of subs) s.dispose();
        connection.dispose();
        if (this.panel === panel) {
          this.panel = undefined;
          this.connection = undefined;
        }
      }),
    ];
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
