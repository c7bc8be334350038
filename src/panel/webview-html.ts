/**
 * The HTML shell both panel surfaces load: one strict CSP meta first in <head> (a webview runs whatever
 * its document allows), scripts only with the per-load nonce, styles and fonts only from the extension's own
 * webview origin, no remote content. The host passes the URIs already resolved for its webview.
 */
import { randomBytes } from 'node:crypto';

/** Which surface the webview runs in; the webview reads it from `<body data-view>` (`sidebar` | `decision`). */
export type PanelSurface = 'sidebar' | 'decision';

/** Inputs of `panelHtml` (all URIs already passed through `webview.asWebviewUri`). */
export interface PanelHtmlInput {
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
  surface: PanelSurface;
  /** Decision the editor panel opens on. */
  selectId?: string;
  nonce?: string;
}

/** A fresh CSP nonce: 16 random bytes, base64. */
export function makeNonce(): string {
  return randomBytes(16).toString('base64');
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The CSP of a panel document. */
export function panelCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/**
 * The document: `data-view` and, for the decision panel, `data-decision-id` on <body> (the webview mounts
 * its own root), the codicon and panel stylesheets, and the bundle as the only script (nonce'd; the bundle
 * gives its lazily loaded what-if chunk the same nonce).
 */
export function panelHtml(input: PanelHtmlInput): string {
  const nonce = input.nonce ?? makeNonce();
  const select = input.selectId ? ` data-decision-id="${escapeAttr(input.selectId)}"` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(panelCsp(input.cspSource, nonce))}">
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttr(input.codiconUri)}" id="vscode-codicon-stylesheet">
<link rel="stylesheet" href="${escapeAttr(input.styleUri)}">
<title>Jev Control Panel</title>
</head>
<body data-view="${input.surface}"${select}>
<script nonce="${escapeAttr(nonce)}" src="${escapeAttr(input.scriptUri)}"></script>
</body>
</html>`;
}
