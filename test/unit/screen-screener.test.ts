/**
 * The screener (src/screen/): one judgment per distinct content, shared while in flight, chunks judged
 * with the worst deciding, a cut or a failure never a pass. A fake judge counts its calls.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fitState } from '../../src/judgment/budget';
import { JevError } from '../../src/judgment/errors';
import { packScreen, screenState, type ScreenResult } from '../../src/tools/jev-screen';
import { chunkText, createScreener, DEFAULT_BUDGET_CHARS, handling, type ScreenJudgment, type ScreenKind } from '../../src/screen';

type Verdict = 'pass' | 'review' | 'block' | 'skip';

function result(action: Verdict, injection: number): ScreenResult {
  return {
    model: 'fake',
    usage: { input_tokens: 1, output_tokens: 1 },
    truncated: false,
    coverage: { complete: true, original_chars: 1, evaluated_chars: 1, estimated_tokens: { state: 1, questions: 1, longest_question: 1 }, estimator: 'chars/4' },
    action: action === 'block' ? 'escalate' : action === 'review' ? 'review' : 'auto',
    probabilities: { injection, substance: 0.9 },
    recommendation: { action, reason: `fake ${action}` },
    thresholds: { block_at: 0.75, review_at: 0.25 },
  } as ScreenResult;
}

/** Verdict by content: BLOCK → block 0.9, REVIEW → review 0.4, SKIP → skip 0.01, else pass 0.02. */
function byContent(text: string): ScreenJudgment {
  if (text.includes('BLOCK')) return { ok: true, result: result('block', 0.9) };
  if (text.includes('REVIEW')) return { ok: true, result: result('review', 0.4) };
  if (text.includes('SKIP')) return { ok: true, result: result('skip', 0.01) };
  return { ok: true, result: result('pass', 0.02) };
}

interface FakeCall {
  text: string;
  purpose: string | undefined;
  signal: AbortSignal;
  source: string | undefined;
}

/** A judge that records each call and answers with `answer` (default byContent), with a decision id per call. */
function fakeJudge(answer: (text: string, signal: AbortSignal) => ScreenJudgment | Promise<ScreenJudgment> = byContent) {
  const calls: FakeCall[] = [];
  const judge = async (text: string, purpose: string | undefined, signal: AbortSignal, source?: string): Promise<ScreenJudgment> => {
    const id = `d${calls.push({ text, purpose, signal, source })}`;
    const out = await answer(text, signal);
    return { ...out, decisionId: id };
  };
  return { judge, calls };
}

/** A promise with its resolve function outside. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('screener: one judgment per distinct content', () => {
  it('a repeated identical result costs no judge call and says fromCache', async () => {
    const f = fakeJudge();
    const s = createScreener({ judge: f.judge });
    const first = await s.screen({ text: 'hello world', purpose: 'read docs', source: 'WebFetch' });
    const again = await s.screen({ text: 'hello world', purpose: 'read docs', source: 'WebFetch' });
    assert.equal(f.calls.length, 1);
    assert.equal(first.kind, 'pass');
    assert.equal(first.fromCache, false);
    assert.equal(again.kind, 'pass');
    assert.equal(again.fromCache, true);
    assert.deepEqual(again.decisionIds, ['d1']);
    assert.equal(f.calls[0]!.source, 'WebFetch');
    // What a caller does with its copy does not reach the cache.
    again.decisionIds.push('mine');
    assert.throws(() => Object.assign(again.recommendation!, { action: 'block' }), TypeError);
    assert.deepEqual((await s.screen({ text: 'hello world', purpose: 'read docs' })).decisionIds, ['d1']);
  });

  it('keys on text and purpose: another purpose is judged again; a blank purpose is no purpose', async () => {
    const f = fakeJudge();
    const s = createScreener({ judge: f.judge });
    await s.screen({ text: 'same' });
    await s.screen({ text: 'same', purpose: '   ' });
    assert.equal(f.calls.length, 1);
    assert.equal(f.calls[0]!.purpose, undefined);
    await s.screen({ text: 'same', purpose: 'other' });
    await s.screen({ text: 'same ' });
    assert.equal(f.calls.length, 3);
  });

  it('is bounded: the least recently used content is forgotten first', async () => {
    const f = fakeJudge();
    const s = createScreener({ judge: f.judge, cacheSize: 2 });
    await s.screen({ text: 'a' });
    await s.screen({ text: 'b' });
    await s.screen({ text: 'a' }); // a is now the newest
    await s.screen({ text: 'c' }); // drops b
    assert.equal(s.cacheEntries, 2);
    assert.equal(f.calls.length, 3);
    assert.equal((await s.screen({ text: 'a' })).fromCache, true);
    assert.equal((await s.screen({ text: 'b' })).fromCache, false);
    assert.equal(f.calls.length, 4);
  });

  it('concurrent identical screens share one judgment in flight', async () => {
    const gate = deferred<void>();
    const f = fakeJudge(async (text) => {
      await gate.promise;
      return byContent(text);
    });
    const s = createScreener({ judge: f.judge });
    const all = [1, 2, 3].map(() => s.screen({ text: 'x'.repeat(50) }));
    gate.resolve();
    const outcomes = await Promise.all(all);
    assert.equal(f.calls.length, 1);
    assert.deepEqual(outcomes.map((o) => o.kind), ['pass', 'pass', 'pass']);
    assert.deepEqual(outcomes.map((o) => o.fromCache), [false, true, true]);
    assert.deepEqual(outcomes.map((o) => o.decisionIds), [['d1'], ['d1'], ['d1']]);
  });

  it('does not remember a failure: the next identical screen asks again', async () => {
    let fail = true;
    const f = fakeJudge((text) => (fail ? { ok: false, error: { code: 'API_ERROR', message: 'HTTP 502' } } : byContent(text)));
    const s = createScreener({ judge: f.judge });
    assert.equal((await s.screen({ text: 't' })).kind, 'unscreened');
    fail = false;
    const second = await s.screen({ text: 't' });
    assert.equal(second.kind, 'pass');
    assert.equal(second.fromCache, false);
    assert.equal(f.calls.length, 2);
  });
});

describe('screener: chunks', () => {
  it('content within the budget is one chunk, judged whole', async () => {
    const f = fakeJudge();
    const s = createScreener({ judge: f.judge, budgetChars: 100 });
    const o = await s.screen({ text: 'y'.repeat(100) });
    assert.equal(o.chunks, 1);
    assert.equal(f.calls[0]!.text.length, 100);
    assert.equal(o.cut, false);
  });

  it('long content is judged in chunks under the budget that cover all of it', async () => {
    const f = fakeJudge();
    const s = createScreener({ judge: f.judge, budgetChars: 100, overlapChars: 0 });
    const text = Array.from({ length: 250 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    const o = await s.screen({ text, source: 'mcp web/fetch' });
    assert.equal(o.chunks, 3);
    assert.equal(f.calls.length, 3);
    assert.ok(f.calls.every((c) => c.text.length <= 100));
    assert.equal(f.calls.map((c) => c.text).join(''), text);
    assert.deepEqual(o.decisionIds, ['d1', 'd2', 'd3']);
    assert.deepEqual(f.calls.map((c) => c.source).sort(), ['mcp web/fetch, chunk 1 of 3', 'mcp web/fetch, chunk 2 of 3', 'mcp web/fetch, chunk 3 of 3']);
    assert.equal(o.screenedChars, 250);
  });

  it('neighbouring chunks overlap, so a phrase across a cut is seen whole', async () => {
    const f = fakeJudge();
    const s = createScreener({ judge: f.judge, budgetChars: 100, overlapChars: 20 });
    // "BLOCK" spans characters 97..101: without the overlap no chunk would hold it whole.
    const text = 'a'.repeat(97) + 'BLOCK' + 'a'.repeat(98);
    const o = await s.screen({ text });
    assert.equal(o.kind, 'block');
    assert.ok(f.calls.some((c) => c.text.includes('BLOCK')));
  });

  it('never splits a surrogate pair', () => {
    const text = '😀'.repeat(30);
    const { ranges } = chunkText(text, undefined, { budgetChars: 17, overlapChars: 0, maxChunks: 10 });
    for (const r of ranges) assert.equal(text.slice(r.start, r.end).length % 2, 0, JSON.stringify(r));
    assert.equal(ranges.at(-1)!.end, text.length);
  });

  it('the default budget is what jev_screen reads whole, and non-ASCII chunks still fit its token budget', () => {
    const ascii = 'a'.repeat(DEFAULT_BUDGET_CHARS);
    assert.equal(fitState(screenState({ text: ascii, purpose: 'a purpose' }), packScreen(true)).truncated, false);
    // One char more per token than ASCII: the same character count needs several chunks, each uncut.
    const wide = 'é'.repeat(DEFAULT_BUDGET_CHARS);
    const { ranges, cut } = chunkText(wide, 'a purpose', { budgetChars: DEFAULT_BUDGET_CHARS, overlapChars: 0, maxChunks: 8 });
    assert.equal(cut, false);
    assert.ok(ranges.length > 1);
    for (const r of ranges) assert.equal(fitState(screenState({ text: wide.slice(r.start, r.end), purpose: 'a purpose' }), packScreen(true)).truncated, false);
  });
});

describe('screener: the worst chunk decides', () => {
  const budget = { budgetChars: 100, overlapChars: 0 };
  const three = (a: string, b: string, c: string) => [a, b, c].map((w) => w.padEnd(100, '.')).join('');

  const cases: [string, string, ScreenKind][] = [
    ['block in the middle', three('', 'BLOCK', ''), 'block'],
    ['review beside pass', three('', '', 'REVIEW'), 'review'],
    ['pass beside skip', three('SKIP', '', 'SKIP'), 'pass'],
    ['all skip', three('SKIP', 'SKIP', 'SKIP'), 'skip'],
    ['block beside review', three('REVIEW', '', 'BLOCK'), 'block'],
  ];
  for (const [name, text, kind] of cases) {
    it(`${name} → ${kind}`, async () => {
      const s = createScreener({ judge: fakeJudge().judge, ...budget });
      assert.equal((await s.screen({ text })).kind, kind);
    });
  }

  it('names the deciding chunk and reports the highest injection probability', async () => {
    const s = createScreener({ judge: fakeJudge().judge, ...budget, concurrency: 1 });
    const o = await s.screen({ text: three('REVIEW', 'BLOCK', '') });
    assert.equal(o.kind, 'block');
    assert.equal(o.injection, 0.9);
    assert.match(o.reason, /^Chunk 2 of 3: fake block$/);
    assert.deepEqual(o.recommendation, { action: 'block', reason: 'fake block' });
  });

  it('a block stops the chunks not yet judged', async () => {
    const f = fakeJudge();
    const s = createScreener({ judge: f.judge, ...budget, concurrency: 1 });
    const o = await s.screen({ text: three('BLOCK', '', '') });
    assert.equal(o.kind, 'block');
    assert.equal(f.calls.length, 1);
  });

  it('a failed chunk beside passing ones is unscreened, never pass; beside a block it is block', async () => {
    const failing = (text: string): ScreenJudgment => (text.includes('FAIL') ? { ok: false, error: { code: 'API_ERROR', message: 'HTTP 500' } } : byContent(text));
    const s = createScreener({ judge: fakeJudge(failing).judge, ...budget });
    const o = await s.screen({ text: three('', 'FAIL', '') });
    assert.equal(o.kind, 'unscreened');
    assert.equal(o.error?.code, 'API_ERROR');
    assert.equal(o.recommendation, undefined);
    assert.match(o.reason, /Chunk 2 of 3: not screened \(API_ERROR\)/);
    assert.equal((await s.screen({ text: three('BLOCK', 'FAIL', '') })).kind, 'block');
  });
});

describe('screener: a cut is never a pass', () => {
  it('content beyond maxChunks is cut and a passing screen becomes review', async () => {
    const f = fakeJudge();
    const s = createScreener({ judge: f.judge, budgetChars: 100, overlapChars: 0, maxChunks: 2 });
    const o = await s.screen({ text: 'z'.repeat(500) });
    assert.equal(f.calls.length, 2);
    assert.equal(o.kind, 'review');
    assert.equal(o.cut, true);
    assert.equal(o.screenedChars, 200);
    assert.equal(o.totalChars, 500);
    assert.match(o.reason, /first 200 of 500 characters/);
    assert.equal(handling(o, 'warn'), 'warn');
  });

  it('skip on cut content becomes review; a detected block stays block', async () => {
    const s = createScreener({ judge: fakeJudge().judge, budgetChars: 100, overlapChars: 0, maxChunks: 1 });
    assert.equal((await s.screen({ text: 'SKIP'.padEnd(300, '.') })).kind, 'review');
    assert.equal((await s.screen({ text: 'BLOCK'.padEnd(300, '.') })).kind, 'block');
  });
});

describe('screener: failures are unscreened, never pass', () => {
  it('a judge error names its code; warn warns, strict withholds', async () => {
    const f = fakeJudge(() => ({ ok: false, error: { code: 'TIMEOUT', message: 'The judgment took longer than 30000 ms.' } }));
    const s = createScreener({ judge: f.judge, mode: 'strict' });
    const o = await s.screen({ text: 'content' });
    assert.equal(o.kind, 'unscreened');
    assert.equal(o.error?.code, 'TIMEOUT');
    assert.deepEqual(o.decisionIds, ['d1']);
    assert.equal(s.mode, 'strict');
    assert.equal(handling(o, 'strict'), 'withhold');
    assert.equal(handling(o, 'warn'), 'warn');
  });

  it('a thrown error is unscreened with its JevError code, or API_ERROR', async () => {
    const s1 = createScreener({ judge: () => Promise.reject(new JevError('CONFIG_ERROR', 'No API key.')) });
    assert.deepEqual((await s1.screen({ text: 'a' })).error, { code: 'CONFIG_ERROR', message: 'No API key.' });
    const s2 = createScreener({ judge: () => Promise.reject(new Error('secret-bearing upstream text')) });
    const o = await s2.screen({ text: 'a' });
    assert.equal(o.kind, 'unscreened');
    assert.equal(o.error?.code, 'API_ERROR');
    assert.doesNotMatch(o.reason, /secret-bearing/);
  });

  it('a malformed result is INVALID_RESPONSE, not a pass', async () => {
    const bad = { ...result('pass', 0.1), probabilities: { injection: 1.5, substance: 0.9 } } as ScreenResult;
    const s1 = createScreener({ judge: () => Promise.resolve({ ok: true, result: bad }) });
    assert.equal((await s1.screen({ text: 'a' })).error?.code, 'INVALID_RESPONSE');
    const odd = { ...result('pass', 0.1), recommendation: { action: 'allow', reason: '' } } as unknown as ScreenResult;
    const s2 = createScreener({ judge: () => Promise.resolve({ ok: true, result: odd }) });
    assert.equal((await s2.screen({ text: 'a' })).kind, 'unscreened');
  });

  it('a judge slower than timeoutMs is unscreened TIMEOUT, even when it ignores the abort', async () => {
    let seen: AbortSignal | undefined;
    const s = createScreener({
      timeoutMs: 30,
      judge: (_t, _p, signal) => {
        seen = signal;
        return new Promise<ScreenJudgment>(() => undefined);
      },
    });
    const started = Date.now();
    const o = await s.screen({ text: 'slow' });
    assert.equal(o.kind, 'unscreened');
    assert.equal(o.error?.code, 'TIMEOUT');
    assert.ok(Date.now() - started < 2_000);
    assert.equal(seen?.aborted, true);
    assert.equal(s.cacheEntries, 0);
  });

  it('an aborted screen is unscreened CANCELLED and stops the judgment when nobody else waits', async () => {
    const started = deferred<void>();
    const f = fakeJudge((_t, signal) => {
      started.resolve();
      return new Promise<ScreenJudgment>((resolve) => signal.addEventListener('abort', () => resolve({ ok: false, error: { code: 'CANCELLED', message: 'x' } })));
    });
    const s = createScreener({ judge: f.judge });
    const ac = new AbortController();
    const pending = s.screen({ text: 'abc', signal: ac.signal });
    await started.promise;
    ac.abort();
    const o = await pending;
    assert.equal(o.kind, 'unscreened');
    assert.equal(o.error?.code, 'CANCELLED');
    assert.equal(f.calls[0]!.signal.aborted, true);
    const before = new AbortController();
    before.abort();
    assert.equal((await s.screen({ text: 'abc', signal: before.signal })).error?.code, 'CANCELLED');
  });

  it('one caller aborting leaves a shared judgment running for the others', async () => {
    const gate = deferred<void>();
    const f = fakeJudge(async (text) => {
      await gate.promise;
      return byContent(text);
    });
    const s = createScreener({ judge: f.judge });
    const ac = new AbortController();
    const leaving = s.screen({ text: 'shared', signal: ac.signal });
    const staying = s.screen({ text: 'shared' });
    ac.abort();
    assert.equal((await leaving).kind, 'unscreened');
    gate.resolve();
    const o = await staying;
    assert.equal(o.kind, 'pass');
    assert.equal(f.calls.length, 1);
    assert.equal(f.calls[0]!.signal.aborted, false);
  });
});

describe('handling and options', () => {
  it('maps each kind by mode', () => {
    const table: [ScreenKind, string, string][] = [
      ['pass', 'pass-through', 'pass-through'],
      ['skip', 'pass-through', 'pass-through'],
      ['review', 'warn', 'warn'],
      ['block', 'withhold', 'withhold'],
      ['unscreened', 'warn', 'withhold'],
    ];
    for (const [kind, warn, strict] of table) {
      assert.equal(handling({ kind }, 'warn'), warn, kind);
      assert.equal(handling({ kind }, 'strict'), strict, kind);
    }
  });

  it('refuses options out of range', () => {
    const judge = fakeJudge().judge;
    assert.throws(() => createScreener({ judge, budgetChars: 4 }), RangeError);
    assert.throws(() => createScreener({ judge, budgetChars: 100, overlapChars: 50 }), RangeError);
    assert.throws(() => createScreener({ judge, maxChunks: 0 }), RangeError);
    assert.throws(() => createScreener({ judge, cacheSize: 0 }), RangeError);
    assert.throws(() => createScreener({ judge, timeoutMs: 0 }), RangeError);
    assert.throws(() => createScreener({ judge, mode: 'lenient' as never }), RangeError);
  });
});
