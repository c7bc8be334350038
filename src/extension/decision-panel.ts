/**
 * The decision editor panel: one WebviewPanel (reused) showing a decision in full. Restored after a window
 * reload by its serializer, with the webview's own saved state.
 */
import * as vscode from 'vscode';
import type { CoreHost } from './core-host';
import type { PanelActions, PanelConnection } from './panel-connection';
import { loadPanel, panelWebviewOptions } from './panel-shell';
import { connectWhenReady } from './view-provider';

/** Webview panel type (serializer id). */
export const DECISION_PANEL_TYPE = 'jevPanel.decision';

export class DecisionPanels implements vscode.WebviewPanelSerializer, vscode.Disposable {
  private panel?: vscode.WebviewPanel;
  private binding?: vscode.Disposable;
  private connection?: PanelConnection;
  private pendingSelect?: string;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly core: CoreHost,
    private readonly actions: () => PanelActions,
  ) {}

  /** The open panel, if any. */
  get current(): vscode.WebviewPanel | undefined {
    return this.panel;
  }

  /** Opens (or reveals) the panel on decision `id`. */
  open(id: string): void {
    if (this.panel) {
      this.panel.reveal(vscode.ViewColumn.Active);
      if (this.connection) this.connection.select(id);
      else this.pendingSelect = id;
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
    this.binding?.dispose();
    this.panel = panel;
    this.connection = undefined;
    this.pendingSelect = selectId;
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'icon.png');
    const binding = connectWhenReady(panel.webview, this.core, this.actions(), () => panel.visible, (connection) => {
      this.connection = connection;
      if (this.pendingSelect) connection.select(this.pendingSelect);
      this.pendingSelect = undefined;
    });
    this.binding = binding;
    loadPanel(panel.webview, this.extensionUri, 'decision', selectId);
    const subs = [
      panel.onDidChangeViewState(() => {
        if (panel.visible) this.connection?.onVisible();
      }),
      panel.onDidDispose(() => {
        for (const s of subs) s.dispose();
        binding.dispose();
        if (this.panel === panel) {
          this.panel = undefined;
          this.binding = undefined;
          this.connection = undefined;
        }
      }),
    ];
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
