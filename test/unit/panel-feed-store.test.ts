/**
 * The panel's decision feed (src/panel/feed-store.ts): 10 000 rows, the ledger tail, ledger fallback.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { readLedgerTail } from '../../src/ledger/jsonl';
import type { DecisionRecord } from '../../src/ledger/record';
import { FeedStore } from '../../src/panel/feed-store';

function record(i: number, extra: Partial<DecisionRecord> = {}): DecisionRecord {
  return {
    v: 1, kind: 'decision', id: `id-${i}`, time: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), agent: 'editor', tool: 'jev_step',
    provider: 'mock', input: { i }, questions: null, response: null, exchanges: [], coverage: null,
    thresholds: { auto_accept: 0.8, review_at: 0.5, block_at: 0.75 }, latency_ms: i,
    result: { handoff: 'continue', action: 'auto', reason_codes: ['PROGRESS'] }, ...extra,
  };
}

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
