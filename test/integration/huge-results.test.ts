/**
 * Huge values, through the real `jevcp` process: a 5 MB tool result executed by `jevcp step --execute
 * --json`, and a 5 MB state refused as INPUT_TOO_LARGE by `jevcp call`. Both are printed and recorded cut,
 * with an explicit marker and the original size, and each ledger line stays under the documented bound
 * (LEDGER_LINE_MAX_BYTES). The panel's feed store keeps the same cut record, whose preview the detail
 * view shows (src/panel/cut-preview.ts).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_MAX_RECORDED_BYTES, LEDGER_LINE_MAX_BYTES, type CutValue } from '../../src/ledger/bound';
import type { DecisionRecord } from '../../src/ledger/record';
import { cutPreview } from '../../src/panel/cut-preview';
import { FeedStore } from '../../src/panel/feed-store';
import { startFakeSystemOne, type FakeSystemOne } from '../helpers/fake-systemone';
import { capture } from '../helpers/processes';
import { firstCallAnswerer } from '../helpers/step-answers';

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
