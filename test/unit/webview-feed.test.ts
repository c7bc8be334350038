import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import type { FeedRow } from '../../src/panel/protocol';
import { EMPTY_FILTERS, FeedStore, distinctValues, filterFeed, rowMatches, scrollToReveal, virtualWindow } from '../../webview/feed-model';
import { restoreUiState } from '../../webview/ui-state';

function row(i: number, over: Partial<FeedRow> = {}): FeedRow {
  return {
    id: `id-${i}`,
    time: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    tool: i % 2 ? 'jev_step' : 'jev_gate',
    agent: i % 3 ? 'editor' : 'cli',
    action: ['auto', 'review', 'escalate'][i % 3],
    handoff: i % 2 ? 'execute_tool' : undefined,
    topReason: i % 2 ? 'accepted' : 'claims_unsupported',
    latency_ms: i,
    kind: 'decision',
    ...over,
  };
}

describe('webview FeedStore', () => {
  it('replace sorts a snapshot chronologically, drops duplicate ids and keeps the newest `cap` rows', () => {
    const store = new FeedStore(3);
    store.replace([row(5), row(1), row(4), row(2), row(4, { tool: 'jev_review' })]);
    assert.deepEqual(store.rows.map((r) => r.id), ['id-2', 'id-4', 'id-5']);
    assert.equal(store.get('id-4')?.tool, 'jev_review', 'the later duplicate wins');
    assert.equal(store.get('id-1'), undefined);
  });

  it('append adds new rows, replaces a known id in place, and drops the oldest past the cap', () => {
    const store = new FeedStore(3);
    store.replace([row(1), row(2)]);
    assert.equal(store.append([row(2, { action: 'escalate' }), row(3)]), true);
    assert.deepEqual(store.rows.map((r) => r.id), ['id-1', 'id-2', 'id-3']);
    assert.equal(store.get('id-2')?.action, 'escalate');
    store.append([row(4), row(5)]);
    assert.deepEqual(store.rows.map((r) => r.id), ['id-3', 'id-4', 'id-5']);
    assert.equal(store.get('id-5')?.id, 'id-5', 'the index follows the cut');
    assert.equal(store.append([{ nope: true } as unknown as FeedRow]), false, 'malformed rows are ignored');
  });
});

describe('webview feed filtering', () => {
  const rows = Array.from({ length: 12 }, (_, i) => row(i));

  it('returns indices newest first and filters by tool, agent and action', () => {
    assert.deepEqual(filterFeed(rows, EMPTY_FILTERS), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    const steps = filterFeed(rows, { ...EMPTY_FILTERS, tool: 'jev_step' });
    assert.ok(steps.every((i) => rows[i]!.tool === 'jev_step') && steps.length === 6);
    const cliEscalate = filterFeed(rows, { ...EMPTY_FILTERS, agent: 'cli', action: 'auto' });
    assert.deepEqual(cliEscalate, [9, 6, 3, 0]);
  });

  it('matches text case-insensitively across reason, handoff and id, and treats failures as "error"', () => {
    assert.deepEqual(filterFeed(rows, { ...EMPTY_FILTERS, text: '  CLAIMS_unsup ' }), [10, 8, 6, 4, 2, 0]);
    assert.deepEqual(filterFeed(rows, { ...EMPTY_FILTERS, text: 'id-11' }), [11]);
    const failed = row(20, { action: undefined, error: 'TIMEOUT', topReason: 'TIMEOUT' });
    assert.equal(rowMatches(failed, { ...EMPTY_FILTERS, action: 'error' }), true);
    assert.equal(rowMatches(failed, { ...EMPTY_FILTERS, action: 'auto' }), false);
    assert.equal(rowMatches(rows[1]!, { ...EMPTY_FILTERS, action: 'error' }), false);
  });

  it('lists distinct tools and agents sorted', () => {
    assert.deepEqual(distinctValues(rows, 'tool'), ['jev_gate', 'jev_step']);
    assert.deepEqual(distinctValues(rows, 'agent'), ['cli', 'editor']);
  });
});

describe('webview virtual window', () => {
  it('renders only the visible rows plus overscan', () => {
    const w = virtualWindow(10_000, 44, 44 * 500, 440, 5);
    assert.deepEqual(w, { start: 495, end: 516, offset: 495 * 44, total: 440_000 });
  });

  it('clamps at the top, at the end, and for a scroll position left over from a longer list', () => {
    assert.deepEqual(virtualWindow(10_000, 44, -50, 440, 5), { start: 0, end: 11 + 5, offset: 0, total: 440_000 });
    const end = virtualWindow(10_000, 44, 1e9, 440, 5);
    assert.equal(end.end, 10_000);
    assert.equal(end.start, 10_000 - 10 - 5);
    const stale = virtualWindow(3, 44, 44 * 9000, 440, 5);
    assert.deepEqual(stale, { start: 0, end: 3, offset: 0, total: 132 });
    assert.deepEqual(virtualWindow(0, 44, 0, 440), { start: 0, end: 0, offset: 0, total: 0 });
  });

  it('rejects a non-positive row height', () => {
    assert.throws(() => virtualWindow(10, 0, 0, 100), RangeError);
  });

  it('scrolls the least amount that reveals a row', () => {
    assert.equal(scrollToReveal(0, 44, 440, 440), 0);
    assert.equal(scrollToReveal(15, 44, 0, 440), 16 * 44 - 440);
    assert.equal(scrollToReveal(5, 44, 0, 440), 0, 'already visible: unchanged');
  });
});

describe('webview UI state', () => {
  it('restores a saved state and repairs garbage', () => {
    const saved = {
      v: 1,
      tab: 'servers',
      filters: { tool: 'jev_step', agent: 7, action: 'review', text: 'x' },
      scrollTop: 120,
      selected: 'abc',
      detailOpen: true,
      whatIf: { id: 'abc', floors: { auto_accept: 0.951, review_at: 0.5, block_at: 0.75 } },
      collapsed: ['raw-request', 3],
    };
    const s = restoreUiState(saved);
    assert.equal(s.tab, 'servers');
    assert.deepEqual(s.filters, { tool: 'jev_step', agent: '', action: 'review', text: 'x' });
    assert.equal(s.detailOpen, true);
    assert.deepEqual(s.whatIf, { id: 'abc', floors: { auto_accept: 0.95, review_at: 0.5, block_at: 0.75 } });
    assert.deepEqual(s.collapsed, ['raw-request']);
    assert.equal(restoreUiState({ ...saved, selected: undefined }).detailOpen, false, 'no detail without a selection');
    assert.equal(restoreUiState({ v: 2, tab: 'agents' }).tab, 'decisions', 'unknown versions start fresh');
    assert.equal(restoreUiState('junk').tab, 'decisions');
  });
});
