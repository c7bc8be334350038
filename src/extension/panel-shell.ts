/**
 * Sets up a webview for a panel surface: scripts on, local resources only from `dist/` and `media/`, no
 * command URIs, and the strict-CSP shell document (webview-html.ts) with asWebviewUri'd bundle URIs.
 */
import * as vscode from 'vscode';
import { panelHtml, type PanelSurface } from '../panel/webview-html';

/** Webview options of both surfaces. */
export function panelWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

/** Fills `webview` with the panel document for `surface` (fresh nonce on every load). */
export function loadPanel(webview: vscode.Webview, extensionUri: vscode.Uri, surface: PanelSurface, selectId?: string): void {
  const asUri = (file: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', file)).toString();
  webview.html = panelHtml({
    cspSource: webview.cspSource,
    scriptUri: asUri('webview.js'),
    styleUri: asUri('webview.css'),
    codiconUri: asUri('codicon.css'),
    surface,
    selectId,
  });
}
