import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { DEEP_INPUT_PLACEHOLDER, ReportingLedger } from '../../src/cli/ledger-sink';
import type { JsonlLedger } from '../../src/ledger/jsonl';
import type { DecisionRecord } from '../../src/ledger/record';

const RECORD = { v: 1, kind: 'decision', id: 'r1', time: '2026-01-01T00:00:00.000Z', agent: 'cli', tool: 'jev_step', input: { task: 't' } } as unknown as DecisionRecord;

function fakeFile(append: (r: DecisionRecord) => Promise<void>): JsonlLedger {
  return { path: 'ledger.jsonl', append, close: () => {} } as unknown as JsonlLedger;
}

function stderrText(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (c: Buffer) => (text += c.toString()));
  return { stream, text: () => text };
}

describe('ReportingLedger (CLI ledger sink)', () => {
  it('a failed write prints one stderr line with the path and the reason, and does not reject', async () => {
    const err = stderrText();
    const sink = new ReportingLedger(fakeFile(async () => Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }))), err.stream);
    await sink.append(RECORD);
    assert.equal(err.text(), 'jevcp: could not write the ledger (ledger.jsonl): ENOSPC: no space left on the device\n');
    const closed = stderrText();
    await new ReportingLedger(fakeFile(async () => Promise.reject(new Error('ledger is closed'))), closed.stream).append(RECORD);
    assert.equal(closed.text(), 'jevcp: could not write the ledger (ledger.jsonl): ledger is closed\n');
  });

  it('a successful write says nothing and passes the record unchanged', async () => {
    const err = stderrText();
    const seen: DecisionRecord[] = [];
    await new ReportingLedger(fakeFile(async (r) => void seen.push(r)), err.stream).append(RECORD);
    assert.equal(err.text(), '');
    assert.equal(seen[0], RECORD);
  });

  it('a record of arguments nested too deeply is kept with a placeholder input', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const seen: DecisionRecord[] = [];
    await new ReportingLedger(fakeFile(async (r) => void seen.push(r)), stderrText().stream).append({ ...RECORD, input: { extras: deep } });
    assert.deepEqual(seen[0]?.input, DEEP_INPUT_PLACEHOLDER);
    assert.equal(seen[0]?.id, 'r1');
    assert.doesNotThrow(() => JSON.stringify(seen[0]));
  });
});
