/**
 * Links from the card into the editor. In VS Code the card opens the decision in the Jev panel through
 * a `vscode://` URI that the extension's URI handler (src/extension/uri-handler.ts) turns into
 * `jevPanel.openDecision`; other hosts get no such link (the card offers "Copy decision JSON").
 */

/** Extension id in `vscode://` URIs: `<publisher>.<name>` from package.json. */
export const EXTENSION_URI_AUTHORITY = 'jevcp.jev-control-panel';

/** Path of the URI that opens one decision. */
export const OPEN_DECISION_PATH = '/decision';

/** `vscode://jevcp.jev-control-panel/decision?id=<id>` for decision `id`. */
export function panelUri(id: string): string {
  return `vscode://${EXTENSION_URI_AUTHORITY}${OPEN_DECISION_PATH}?id=${encodeURIComponent(id)}`;
}

/** True when the host's name (ui/initialize hostInfo.name) is a VS Code build. */
export function isVsCodeHost(name: string | undefined): boolean {
  return typeof name === 'string' && /visual studio code|vs ?code|code - oss|code-server/i.test(name);
}
