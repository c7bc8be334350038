/**
 * Huge values, through the real `jevcp` process: a 5 MB tool result executed by `jevcp step --execute
 * --json`, and a 5 MB state refused as INPUT_TOO_LARGE by `jevcp call`. Both are printed and recorded cut,
 * with an explicit marker and the original size, and each ledger line stays under the documented bound
 * (LEDGER_LINE_MAX_BYTES). The panel's feed store keeps the same cut record, whose preview the detail
 * view shows (src/panel/cut-preview.ts). The same 5 MB result served by `jevcp serve --agent` over stdio
 * and HTTP reaches the SDK client cut to JEV_GATEWAY_MAX_RESULT_BYTES, with a marker naming the ledger
 * record (src/mcp/forward-result.ts); a plain-text result stays plain text, and a real npm server's
 * ordinary result is forwarded unchanged.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_FORWARD_MAX_BYTES, type ForwardCut } from '../../src/mcp/forward-result';
import { DEFAULT_MAX_RECORDED_BYTES, LEDGER_LINE_MAX_BYTES, type CutValue } from '../../src/ledger/bound';
import type { DecisionRecord } from '../../src/ledger/record';
import { cutPreview } from '../../src/panel/cut-preview';
import { FeedStore } from '../../src/panel/feed-store';
import { startFakeSystemOne, type FakeSystemOne } from '../helpers/fake-systemone';
import { capture } from '../helpers/processes';
import { firstCallAnswerer } from '../helpers/step-answers';
import { httpServe, stdioServe } from '../helpers/serve-agent-client';

const root = join(__dirname, '..', '..');
const CLI = join(root, 'dist', 'cli.js');
const FAULTY = join(root, 'test', 'fixtures', 'servers', 'faulty.mjs');
const FIVE_MB = 5 * 1024 * 1024;

function ledgerLines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');
}

describe('huge results and inputs are cut, and a ledger line has a bound', () => {
  let ws: string;
  let upstream: FakeSystemOne;
  const ledger = () => join(ws, 'ledger.jsonl');
  const env = () => ({ PATH: process.env.PATH ?? '', HOME: ws, JEV_BASE_URL: upstream.url, JEV_LEDGER: ledger() });

  before(async () => {
    ws = mkdtempSync(join(tmpdir(), 'jev-huge-'));
    mkdirSync(join(ws, '.jev'));
    writeFileSync(join(ws, '.jev', 'config.json'), JSON.stringify({
      agents: [{ name: 'ops', tools: ['big/*'] }],
      servers: { big: { command: process.execPath, args: [FAULTY] } },
    }));
    upstream = await startFakeSystemOne();
    upstream.setAnswerer(firstCallAnswerer);
  });
  after(async () => {
    await upstream?.close();
    rmSync(ws, { recursive: true, force: true });
  });

  it('a 5 MB tool result: --json stdout and the ledger carry the marker with the original size', async () => {
    const request = join(ws, 'turn.jev.json');
    writeFileSync(request, JSON.stringify({
      tool: 'jev_step',
      task: 'Fetch the big report',
      observation: 'Nothing fetched yet.',
      candidates: [{ id: 'fetch', name: 'big/big', arguments: { bytes: FIVE_MB }, description: 'Fetch it', preconditions_met: true }],
    }));
    const run = await capture(process.execPath, [CLI, 'step', request, '--agent', 'ops', '--execute', '--json'], { cwd: ws, env: env() });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stdout.length < 4 * DEFAULT_MAX_RECORDED_BYTES, `stdout is ${run.stdout.length} bytes`);
    const printed = JSON.parse(run.stdout) as { execution: { ok: boolean; result: CutValue } };
    assert.equal(printed.execution.ok, true);
    const cut = printed.execution.result.$cut;
    assert.ok(cut.original_bytes > FIVE_MB, `original size ${cut.original_bytes}`);
    assert.ok(cut.kept_bytes > 0 && cut.kept_bytes <= DEFAULT_MAX_RECORDED_BYTES);
    assert.match(printed.execution.result.preview, /^\{"data":"xxxx/);

    const lines = ledgerLines(ledger());
    const execution = lines.map((l) => JSON.parse(l) as DecisionRecord).find((r) => r.kind === 'execution')!;
    assert.deepEqual((execution.result as CutValue).$cut, cut);
    for (const line of lines) assert.ok(Buffer.byteLength(line) + 1 <= LEDGER_LINE_MAX_BYTES, `a ledger line of ${Buffer.byteLength(line)} bytes`);
    // The panel keeps the same cut record and shows its preview.
    const feed = new FeedStore();
    const row = feed.add({ ...execution, id: 'again', result: { data: 'x'.repeat(FIVE_MB) } });
    const kept = feed.getRecord(row.id)!;
    assert.match(cutPreview(kept.result)!.note, /^Cut: 5\.0 MB in all \(\d+ bytes, larger than the cap of 65536 bytes\); the first 63\.\d KB are shown\.$/);
  });

  it('a refused 5 MB state is recorded as INPUT_TOO_LARGE in a line under the bound', async () => {
    const input = join(ws, 'huge.json');
    writeFileSync(input, JSON.stringify({ state: 'y'.repeat(FIVE_MB), instruction: 'Did the build pass?' }));
    const before = ledgerLines(ledger()).length;
    const run = await capture(process.execPath, [CLI, 'call', 'ask_noul', '--input', input, '--json'], { cwd: ws, env: env() });
    assert.equal(run.code, 2, run.output);
    assert.match(run.stdout + run.stderr, /INPUT_TOO_LARGE/);
    const added = ledgerLines(ledger()).slice(before);
    assert.equal(added.length, 1);
    assert.ok(Buffer.byteLength(added[0]!) + 1 <= LEDGER_LINE_MAX_BYTES, `the line is ${Buffer.byteLength(added[0]!)} bytes`);
    assert.ok(Buffer.byteLength(added[0]!) < 3 * DEFAULT_MAX_RECORDED_BYTES);
    const record = JSON.parse(added[0]!) as DecisionRecord;
    assert.equal(record.error?.code, 'INPUT_TOO_LARGE');
    assert.ok((record.input as CutValue).$cut.original_bytes > FIVE_MB);
  });
});

const EVERYTHING = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

describe('serve --agent forwards external results a client can read', () => {
  let ws: string;
  const ledger = () => join(ws, 'ledger.jsonl');
  const env = (extra: Record<string, string> = {}) => ({ PATH: process.env.PATH ?? '', HOME: ws, JEV_MOCK: '1', JEV_LEDGER: ledger(), ...extra });
  const closers: Array<() => Promise<unknown>> = [];

  before(() => {
    ws = mkdtempSync(join(tmpdir(), 'jev-huge-serve-'));
    mkdirSync(join(ws, '.jev'));
    writeFileSync(join(ws, '.jev', 'config.json'), JSON.stringify({
      agents: [{ name: 'ops', tools: ['big/*', 'everything/echo', 'everything/get-structured-content'] }],
      servers: { big: { command: process.execPath, args: [FAULTY] }, everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
    }));
  });
  after(async () => {
    for (const close of closers) await close().catch(() => undefined);
    rmSync(ws, { recursive: true, force: true });
  });

  /** The checks of a 5 MB result, whichever transport carried it. */
  function checkCut(result: CallToolResult, maxBytes: number): void {
    const bytes = Buffer.byteLength(JSON.stringify(result));
    assert.ok(bytes <= maxBytes + 4_096, `the forwarded result is ${bytes} bytes`);
    assert.equal(result.isError, undefined);
    assert.equal(result.structuredContent, undefined, 'no structuredContent: the server sent none');
    const blocks = result.content as Array<{ type: string; text: string }>;
    assert.equal(blocks.length, 2);
    assert.match(blocks[0]!.text, /^\{"data":"x{1000}/);
    const cut = (result._meta as { 'jevcp/cut': ForwardCut })['jevcp/cut'];
    assert.ok(cut.original_bytes > FIVE_MB, `original ${cut.original_bytes}`);
    assert.ok(cut.forwarded_bytes <= maxBytes, `forwarded ${cut.forwarded_bytes}`);
    assert.equal(cut.max_bytes, maxBytes);
    // The marker names the ledger record that keeps the bounded copy, and the record is there.
    const marker = blocks[1]!.text;
    assert.match(marker, /^\[jevcp: result cut\] The tool's result is \d+ bytes of JSON, more than the \d+ this gateway forwards \(JEV_GATEWAY_MAX_RESULT_BYTES\)/);
    assert.match(marker, /text block 1 of 1 is cut after \d+ of its 5242891 bytes/);
    assert.ok(marker.includes(`recorded as ${cut.record_id} in the ledger ${ledger()}`), marker);
    const record = ledgerLines(ledger()).map((l) => JSON.parse(l) as DecisionRecord).find((r) => r.id === cut.record_id);
    assert.equal(record?.tool, 'big/big');
    assert.ok((record.result as CutValue).$cut.original_bytes > FIVE_MB);
  }

  it('over stdio: a 5 MB result arrives cut with a marker (before: "Connection closed" at the 10 MB line); plain text stays plain text', async () => {
    const client = await stdioServe(ws, 'ops', env());
    closers.push(() => client.close());
    const big = (await client.callTool({ name: 'big__big', arguments: { bytes: FIVE_MB } })) as CallToolResult;
    checkCut(big, DEFAULT_FORWARD_MAX_BYTES);
    // The session still serves calls, and a plain-text result is forwarded as the server sent it.
    const hi = (await client.callTool({ name: 'big__say', arguments: { text: 'hi' } })) as CallToolResult;
    assert.deepEqual(hi, { content: [{ type: 'text', text: 'hi' }] });
  });

  it('over HTTP, with JEV_GATEWAY_MAX_RESULT_BYTES set: the same cut at the configured cap', async () => {
    const { client, child } = await httpServe(ws, 'ops', env({ JEV_GATEWAY_MAX_RESULT_BYTES: '100000' }));
    closers.push(() => client.close(), async () => child.kill());
    const big = (await client.callTool({ name: 'big__big', arguments: { bytes: FIVE_MB } })) as CallToolResult;
    checkCut(big, 100_000);
    const hi = (await client.callTool({ name: 'big__say', arguments: { text: 'hi' } })) as CallToolResult;
    assert.deepEqual(hi, { content: [{ type: 'text', text: 'hi' }] });
  });

  it("a real npm server's ordinary results pass unchanged (@modelcontextprotocol/server-everything)", async () => {
    const direct = new Client({ name: 'huge-results-direct', version: '0' });
    await direct.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'pipe' }));
    closers.push(() => direct.close());
    const client = await stdioServe(ws, 'ops', env());
    closers.push(() => client.close());
    for (const [name, args] of [['echo', { message: 'hello there' }], ['get-structured-content', { location: 'New York' }]] as const) {
      const expected = await direct.callTool({ name, arguments: args });
      const got = await client.callTool({ name: `everything__${name}`, arguments: args });
      assert.deepEqual(got, expected, name);
    }
  });
});
