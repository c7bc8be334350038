/**
 * The decision editor panel: one WebviewPanel (reused) showing a decision in full. Restored after a window
 * reload by its serializer, with the webview's own saved state, unless something (a lens, a hover, the
 * feed) asked for a decision since: then that decision is shown, never the one the tab showed before.
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
      else {
        // Not connected yet (just restored, runtime still loading): the document itself names the decision,
        // so the webview's restored state cannot bring the old one back.
        this.pendingSelect = id;
        loadPanel(this.panel.webview, this.extensionUri, 'decision', id);
      }
      return;
    }
    const panel = vscode.window.createWebviewPanel(DECISION_PANEL_TYPE, 'Jev Decision', vscode.ViewColumn.Active, {
      ...panelWebviewOptions(this.extensionUri),
      retainContextWhenHidden: false,
    });
    this.attach(panel, id);
  }

  /**
   * Restores a panel after a reload (VS Code passes the state the webview saved). When a decision was
   * asked for before VS Code got round to restoring (the lens command runs first and opens a fresh panel),
   * that panel stays and the restored tab, which would show the old decision, is closed.
   */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel): Promise<void> {
    if (this.panel && this.panel !== panel) {
      panel.dispose();
      return;
    }
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
