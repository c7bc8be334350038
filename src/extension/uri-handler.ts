import * as vscode from 'vscode';

/**
 * The extension's URI handler: `vscode://jevcp.jev-control-panel/decision?id=<id>` opens that decision in
 * the Jev panel (`jevPanel.openDecision`), for links from outside the editor (a browser, a terminal). The MCP Apps
 * decision card does not use it: VS Code's chat refuses non-http(s) links from a view, so the card calls the
 * app-only tool of src/mcp/app-tools.ts instead. It only opens a view: nothing is executed, granted or approved.
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
