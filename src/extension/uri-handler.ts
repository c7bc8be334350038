import * as vscode from 'vscode';

/**
 * The extension's URI handler: `vscode://jevcp.jev-control-panel/decision?id=<id>` opens that decision in
 * the Jev panel (`jevPanel.openDecision`). The MCP Apps decision card asks its host to open this link
 * (webview/card/links.ts builds it). It only opens a view: nothing is executed, granted or approved.
 * A missing or malformed id is refused with a message naming the field.
 */
export class JevUriHandler implements vscode.UriHandler {
  handleUri(uri: vscode.Uri): void {
    if (uri.path !== '/decision') {
      void vscode.window.showWarningMessage(`Jev: unknown link path ${JSON.stringify(uri.path.slice(0, 80))}; expected /decision?id=<decision id>.`);
      return;
    }
    const id = new URLSearchParams(uri.query).get('id') ?? '';
    if (!/^[A-Za-z0-9-]{1,64}$/.test(id)) {
      void vscode.window.showWarningMessage('Jev: the link\'s "id" must be a decision id (letters, digits and "-", at most 64).');
      return;
    }
    void vscode.commands.executeCommand('jevPanel.openDecision', id);
  }
}
