/**
 * The activity-bar view `jevPanel.view` (container "Jev"). Not retained when hidden (memory): the webview
 * keeps its UI state with setState, and the host re-sends a snapshot on `ready` and when it is shown again.
 * The document is set at once; messages that arrive while the runtime is still loading are kept and
 * handled once it is there.
 */
import * as vscode from 'vscode';
import type { CoreHost } from './core-host';
import type { PanelActions, PanelConnection } from './panel-connection';
import { loadPanel, panelWebviewOptions } from './panel-shell';

/** View id, as contributed in package.json. */
export const VIEW_ID = 'jevPanel.view';

/**
 * Connects `webview` to the runtime once it is loaded; returns a disposable that ends the connection.
 * Messages posted by the webview before that are replayed in order.
 */
export function connectWhenReady(
  webview: vscode.Webview,
  core: CoreHost,
  actions: PanelActions,
  isVisible: () => boolean,
  onConnected: (connection: PanelConnection) => void,
): vscode.Disposable {
  const pending: unknown[] = [];
  let early: vscode.Disposable | undefined = webview.onDidReceiveMessage((m: unknown) => pending.push(m));
  let connection: PanelConnection | undefined;
  let disposed = false;
  void (async () => {
    const runtime = await core.get();
    const { PanelConnection } = await core.module();
    if (disposed) return;
    connection = new PanelConnection(webview, runtime, actions, isVisible);
    early?.dispose();
    early = undefined;
    onConnected(connection);
    for (const m of pending.splice(0)) await connection.receive(m);
  })();
  return {
    dispose: () => {
      disposed = true;
      early?.dispose();
      connection?.dispose();
    },
  };
}

export class JevViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private binding?: vscode.Disposable;
  private connection?: PanelConnection;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly core: CoreHost,
    private readonly actions: PanelActions,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.binding?.dispose();
    view.webview.options = panelWebviewOptions(this.extensionUri);
    const binding = connectWhenReady(view.webview, this.core, this.actions, () => view.visible, (c) => (this.connection = c));
    this.binding = binding;
    loadPanel(view.webview, this.extensionUri, 'sidebar');
    const subs = [
      view.onDidChangeVisibility(() => {
        if (view.visible) this.connection?.onVisible();
      }),
      view.onDidDispose(() => {
        for (const s of subs) s.dispose();
        binding.dispose();
        if (this.binding === binding) {
          this.binding = undefined;
          this.connection = undefined;
        }
      }),
    ];
  }

  dispose(): void {
    this.binding?.dispose();
  }
}
