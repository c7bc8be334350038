/**
 * The panel's webview shell: message validation (src/panel/webview-messages.ts) and the strict-CSP document
 * (src/panel/webview-html.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { panelCsp, panelHtml } from '../../src/panel/webview-html';
import { parseWebviewMessage } from '../../src/panel/webview-messages';

describe('parseWebviewMessage', () => {
  test('accepts every message of the protocol', () => {
    for (const m of [
      { type: 'ready' }, { type: 'getRecord', id: 'a' }, { type: 'openDecision', id: 'a' }, { type: 'restartServer', name: 'fs' },
      { type: 'openServerLog', name: 'fs' }, { type: 'toggleGrant', agent: 'editor', grant: 'fs/*', enabled: false },
      { type: 'runSampleStep' }, { type: 'command', command: 'setApiKey' },
    ]) {
      assert.ok('message' in parseWebviewMessage(m), JSON.stringify(m));
    }
  });

  test('rejects unknown types, extra fields, wrong types, oversized strings and unknown commands', () => {
    for (const m of [
      null, 'ready', { type: 'eval', code: '1' }, { type: 'ready', extra: 1 }, { type: 'getRecord' }, { type: 'getRecord', id: 7 },
      { type: 'getRecord', id: 'x'.repeat(201) }, { type: 'toggleGrant', agent: 'editor', grant: 'x', enabled: 'yes' },
      { type: 'command', command: 'workbench.action.terminal.sendSequence' },
    ]) {
      const r = parseWebviewMessage(m);
      assert.ok('error' in r, JSON.stringify(m));
    }
    const r = parseWebviewMessage({ type: 'getRecord', id: 5 });
    assert.ok('error' in r && /rejected webview message "getRecord": id:/.test(r.error));
  });
});

describe('panelHtml', () => {
  const html = panelHtml({ cspSource: 'https://x.vscode-cdn.net', scriptUri: 'https://x/dist/webview.js', styleUri: 'https://x/dist/webview.css', codiconUri: 'https://x/dist/codicon.css', surface: 'decision', selectId: 'a"b', nonce: 'N0NCE' });

  test('a strict CSP comes first: no default source, scripts only by nonce, styles and fonts only from the webview origin', () => {
    assert.ok(html.indexOf('Content-Security-Policy') < html.indexOf('<link'));
    const csp = panelCsp('https://x.vscode-cdn.net', 'N0NCE');
    assert.match(csp, /^default-src 'none'/);
    assert.match(csp, /script-src 'nonce-N0NCE'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*|https:(?!\/\/x)/);
    assert.match(csp, /connect-src 'none'/);
  });

  test('one nonce\'d script, the surface and the escaped decision id on <body>', () => {
    assert.equal(html.match(/<script/g)?.length, 1);
    assert.match(html, /<script nonce="N0NCE" src="https:\/\/x\/dist\/webview.js"><\/script>/);
    assert.match(html, /<body data-view="decision" data-decision-id="a&quot;b">/);
    assert.match(html, /id="vscode-codicon-stylesheet"/);
  });
});
