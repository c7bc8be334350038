/**
 * Host-independent pieces of the extension's panel and import: webview message validation, the CSP shell,
 * the feed store (10 000 rows, ledger fallback), and the .vscode/mcp.json import.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { FeedStore, readLedgerTail } from '../../src/extension/feed-store';
import { importMcpJson, stripJsonc } from '../../src/extension/mcp-json';
import { panelCsp, panelHtml } from '../../src/extension/webview-html';
import { parseWebviewMessage } from '../../src/extension/webview-messages';
import type { DecisionRecord } from '../../src/ledger/record';

function record(i: number, extra: Partial<DecisionRecord> = {}): DecisionRecord {
  return {
    v: 1, kind: 'decision', id: `id-${i}`, time: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), agent: 'editor', tool: 'jev_step',
    provider: 'mock', input: { i }, questions: null, response: null, exchanges: [], coverage: null,
    thresholds: { auto_accept: 0.8, review_at: 0.5, block_at: 0.75 }, latency_ms: i,
    result: { handoff: 'continue', action: 'auto', reason_codes: ['PROGRESS'] }, ...extra,
  };
}

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

describe('FeedStore', () => {
  test('keeps the newest 10 000 rows and notifies listeners per append', () => {
    const feed = new FeedStore({ maxRows: 10_000, maxRecords: 3 });
    const seen: string[] = [];
    const off = feed.onAppend((rows) => seen.push(...rows.map((r) => r.id)));
    for (let i = 0; i < 10_005; i++) feed.add(record(i));
    off();
    feed.add(record(99_999));
    assert.equal(feed.size, 10_000);
    assert.equal(feed.rows()[0]!.id, 'id-6');
    assert.equal(seen.length, 10_005);
    assert.equal(feed.rows().at(-1)!.handoff, 'continue');
    assert.ok(feed.getRecord('id-99999'));
    assert.equal(feed.getRecord('id-5'), undefined, 'old records leave memory and there is no ledger');
  });

  test('loads the ledger tail once (skipping torn lines) and finds old records in the ledger', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jev-feed-'));
    const path = join(dir, 'ledger.jsonl');
    writeFileSync(path, `${JSON.stringify(record(1))}\nnot json\n${JSON.stringify(record(2))}\n{"torn":`);
    const feed = new FeedStore({ ledgerPath: () => path, maxRecords: 1 });
    feed.add(record(3));
    feed.loadFromLedger();
    feed.loadFromLedger();
    assert.deepEqual(feed.rows().map((r) => r.id), ['id-1', 'id-2', 'id-3']);
    assert.equal(feed.getRecord('id-1')?.latency_ms, 1);
    assert.deepEqual(readLedgerTail(path, 60).map((r) => r.id), [], 'a window shorter than one record yields none');
  });
});

describe('importMcpJson', () => {
  test('strips comments and trailing commas, but not inside strings', () => {
    const text = '{\n // c\n "a": "http://x//y", /* b */ "b": [1, 2,],\n}';
    assert.deepEqual(JSON.parse(stripJsonc(text)), { a: 'http://x//y', b: [1, 2] });
  });

  test('converts runnable servers, substitutes ${workspaceFolder} and ${userHome}, skips what it cannot run', () => {
    const text = `{
      "servers": {
        "fs": { "type": "stdio", "command": "npx", "args": ["-y", "server-fs", "\${workspaceFolder}"], "envFile": "x.env" },
        "home": { "command": "\${userHome}/bin/srv" },
        "web": { "type": "http", "url": "https://mcp.example/mcp", "headers": { "X-Team": "a" } },
        "old": { "type": "sse", "url": "https://mcp.example/sse" },
        "keyed": { "url": "https://mcp.example/mcp", "headers": { "Authorization": "Bearer \${input:key}" } },
        "plain": { "url": "http://mcp.example/mcp" },
        "bad name": { "command": "x" }
      },
      "inputs": [],
    }`;
    const r = importMcpJson(text, { workspaceFolder: '/w', userHome: '/home/u' });
    assert.deepEqual(r.servers, {
      fs: { type: 'stdio', command: 'npx', args: ['-y', 'server-fs', '/w'] },
      home: { command: '/home/u/bin/srv' },
      web: { type: 'http', url: 'https://mcp.example/mcp', headers: { 'X-Team': 'a' } },
    });
    const skipped = r.skipped.join('\n');
    assert.match(skipped, /^old: the SSE transport is not supported/m);
    assert.match(skipped, /^keyed: uses \$\{input:key\}/m);
    assert.match(skipped, /^plain: .*loopback/m);
    assert.match(skipped, /^bad name: server names/m);
  });

  test('names the problem when the file is not JSON or has no servers', () => {
    assert.throws(() => importMcpJson('{', {}), /mcp.json is not valid JSON/);
    assert.throws(() => importMcpJson('{"mcpServers": {}}', {}), /no "servers" object/);
  });
});
