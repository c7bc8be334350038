/**
 * Size bounds of recorded values (src/ledger/bound.ts): small values pass untouched, large ones become a
 * marker with the original size and a preview cut on a UTF-8 boundary, and no record, however large each
 * of its fields, gives a ledger line above LEDGER_LINE_MAX_BYTES.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LEDGER_LINE_MAX_BYTES, boundRecord, capValue, isCutValue, type CutValue } from '../../src/ledger/bound';
import type { DecisionRecord } from '../../src/ledger/record';

const base = (over: Partial<DecisionRecord> = {}): DecisionRecord => ({
  v: 1, kind: 'execution', id: 'r1', time: '2026-01-01T00:00:00.000Z', agent: 'ops', tool: 'big/big', provider: 'registry',
  input: { bytes: 1 }, questions: null, response: null, exchanges: [], coverage: null,
  thresholds: { auto_accept: 0.8, review_at: 0.5, block_at: 0.75 }, latency_ms: 3, result: { ok: true }, ...over,
});
const lineBytes = (r: DecisionRecord) => Buffer.byteLength(JSON.stringify(r)) + 1;

describe('bound', () => {
  it('leaves a value under the cap as it is (same object)', () => {
    const v = { a: 'b' };
    assert.equal(capValue(v, 1_024), v);
    const r = base();
    assert.equal(boundRecord(r), r);
  });

  it('cuts a large value to a marker with its size, never splitting a UTF-8 character', () => {
    const v = { text: 'é'.repeat(10_000) };
    const cut = capValue(v, 2_000) as CutValue;
    assert.ok(isCutValue(cut));
    assert.equal(cut.$cut.original_bytes, Buffer.byteLength(JSON.stringify(v)));
    assert.equal(cut.$cut.kept_bytes, Buffer.byteLength(cut.preview));
    assert.ok(cut.$cut.kept_bytes <= 2_000 - 256);
    assert.ok(!cut.preview.includes('\uFFFD'), 'no broken character');
    assert.ok(JSON.stringify(v).startsWith(cut.preview));
  });

  it('marks a value that cannot be serialized instead of throwing', () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    const cut = capValue(loop, 1_024) as CutValue;
    assert.equal(cut.$cut.original_bytes, -1);
  });

  it('keeps every line under the bound, also when the exchanges and the error are huge', () => {
    const huge = 'q'.repeat(3 * LEDGER_LINE_MAX_BYTES);
    const r = base({
      kind: 'decision', tool: 'jev_rank', input: { state: huge }, result: undefined,
      error: { code: 'INVALID_RESPONSE', message: huge, retryable: false },
      exchanges: [{ questions: { a: { kind: 'noul', text: huge } } as never, response: { model: 'm', usage: { input_tokens: 1, output_tokens: 1 }, answers: {} }, coverage: { complete: true } as never, truncated: false }],
    });
    const out = boundRecord(r);
    assert.ok(lineBytes(out) <= LEDGER_LINE_MAX_BYTES, `${lineBytes(out)} bytes`);
    assert.deepEqual(out.exchanges, []);
    assert.ok(isCutValue(out.cut_exchanges));
    assert.ok(isCutValue(out.input));
    assert.ok(out.error!.message.length < huge.length);
    assert.equal(out.error!.code, 'INVALID_RESPONSE');
  });

  it('holds the bound at the largest cap with values full of characters that JSON escapes', () => {
    const nasty = '"\\'.repeat(2 * LEDGER_LINE_MAX_BYTES);
    const out = boundRecord(base({ input: { nasty }, result: { nasty } }), 262_144);
    assert.ok(lineBytes(out) <= LEDGER_LINE_MAX_BYTES, `${lineBytes(out)} bytes`);
  });
});
