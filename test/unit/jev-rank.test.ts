/**
 * jev_rank: pure policy and decision with scripted answers, exact batch planning against fitState, and the
 * tournament run through JudgmentService with an in-test stub provider (instant unless told otherwise).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fitState, questionEstimates, stringifyState, estimateTokens } from '../../src/judgment/budget';
import type { ChoiceAnswer, Judged, SystemOneRequest } from '../../src/judgment/types';
import { confidenceFromProbabilities } from '../../src/policy/distribution';
import {
  assertRoundShrinks,
  estimateBatch,
  existsVerdict,
  orderOptions,
  planRound,
  rankAction,
} from '../../src/policy/rank';
import type { CallContext, JudgmentProvider } from '../../src/judgment/provider';
import {
  decideRank,
  jevRankTool,
  packRank,
  prepareCandidates,
  rankCostModel,
  rankState,
  rankTournamentFromExchanges,
  type RankInput,
} from '../../src/tools/jev-rank';
import { JudgmentService } from '../../src/tools/judgment-service';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';

// ---------------------------------------------------------------------------------------------------
// Stub provider: scores each option by query-word hits in its text; instant.

const words = (s: string) => s.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 1);

interface StubOptions {
  /** exists answer for request number `n` (0-based) out of the run. */
  exists?: (n: number, req: SystemOneRequest) => number;
  /** Weight base: option weight = base^(hits). */
  base?: number;
  /** Delay per request, ms. */
  delayMs?: number;
  /** Called after each request is recorded. */
  onRequest?: (n: number) => void;
}

class RankStub implements JudgmentProvider {
  readonly id = 'stub';
  readonly calibrated = true;
  readonly requests: string[] = [];
  readonly parsed: SystemOneRequest[] = [];
  constructor(private readonly opts: StubOptions = {}) {}
  async systemOne(request: SystemOneRequest, _ctx: CallContext): Promise<unknown> {
    const n = this.requests.length;
    this.requests.push(JSON.stringify(request));
    this.parsed.push(request);
    this.opts.onRequest?.(n);
    if (this.opts.delayMs) await new Promise((r) => setTimeout(r, this.opts.delayMs));
    const state = request.state as { query: string };
    const q = new Set(words(state.query));
    const best = request.questions.best;
    assert.ok(best && best.type === 'choice');
    const labels = Object.keys(best.criteria);
    const weights = labels.map((l) => (this.opts.base ?? 8) ** words(best.criteria[l] ?? '').filter((w) => q.has(w)).length);
    const total = weights.reduce((a, b) => a + b, 0);
    const probabilities = Object.fromEntries(labels.map((l, i) => [l, weights[i]! / total]));
    let choice = labels[0]!;
    for (const l of labels) if (probabilities[l]! > probabilities[choice]!) choice = l;
    return {
      model: `${request.model}+stub`,
      usage: { input_tokens: 40, output_tokens: 3 },
      answers: {
        best: { type: 'choice', choice, confidence: confidenceFromProbabilities(probabilities), probabilities },
        exists: { type: 'noul', noul: this.opts.exists?.(n, request) ?? 0.9 },
      },
    };
  }
}

const service = (provider: JudgmentProvider, timeoutMs?: number) =>
  new JudgmentService({ provider, tools: [jevRankTool], floors: DEFAULT_FLOORS, model: 'jev-latest', timeoutMs });

const TOPICS = ['billing invoices', 'logging setup', 'parser errors', 'cache eviction', 'retry backoff', 'user settings', 'build scripts'];

/** `n` candidates with private-looking ids; the one at `hit` is about rotating API keys. */
function corpus(n: number, hit: number) {
  return Array.from({ length: n }, (_, i) => ({
    id: `ORIGINAL-ID/${i}/src dir/ünïcode-${'x'.repeat(i % 7)}.ts`,
    text: i === hit ? `module ${i}: how to rotate API keys for service credentials` : `module ${i}: ${TOPICS[i % TOPICS.length]}`,
  }));
}
const QUERY = 'how do I rotate API keys';

type RankOut = {
  action: string;
  winner: string;
  winner_confidence: number;
  exists: number;
  exists_verdict: string;
  top: { id: string; probability: number }[];
  chunked: boolean;
  chunks?: number;
  truncated: boolean;
  usage: { input_tokens: number; output_tokens: number };
  coverage: { complete: boolean; estimated_tokens_scope: string; candidate_fields: { complete: boolean; candidates_considered: number; original_chars: number; evaluated_chars: number } };
};

async function rank(stub: RankStub, args: Record<string, unknown>, timeoutMs?: number): Promise<RankOut> {
  const out = await service(stub, timeoutMs).call('jev_rank', args);
  if (!out.ok) throw out.error;
  return out.result as RankOut;
}

async function rankError(stub: RankStub, args: unknown, code: string, pattern: RegExp) {
  const out = await service(stub).call('jev_rank', args);
  assert.equal(out.ok, false);
  if (out.ok) return;
  assert.equal(out.error.code, code);
  assert.match(out.error.message, pattern);
}

// ---------------------------------------------------------------------------------------------------

describe('rank policy', () => {
  it('exists_verdict thresholds 0.75 / 0.40, inclusive', () => {
    assert.equal(existsVerdict(0.75), 'answered');
    assert.equal(existsVerdict(0.7499), 'partial');
    assert.equal(existsVerdict(0.4), 'partial');
    assert.equal(existsVerdict(0.3999), 'absent');
    assert.equal(existsVerdict(1), 'answered');
    assert.equal(existsVerdict(0), 'absent');
  });

  it('auto only if exists ≥ auto_accept AND the guard passes AND nothing truncated; never escalate', () => {
    const sharp = { confidence: 0.9, probabilities: { a: 0.95, b: 0.05 } };
    assert.equal(rankAction(0.8, sharp, false, 0.8), 'auto');
    assert.equal(rankAction(0.7999, sharp, false, 0.8), 'review');
    assert.equal(rankAction(0.95, sharp, true, 0.8), 'review');
    assert.equal(rankAction(0.95, { confidence: 0.95, probabilities: { a: 0.85, b: 0.15 } }, false, 0.8), 'review'); // 0.85 < 0.9
    assert.equal(rankAction(0.95, { confidence: 0.79, probabilities: { a: 0.95, b: 0.05 } }, false, 0.8), 'review');
    assert.equal(rankAction(0, { confidence: 0, probabilities: { a: 0.5, b: 0.5 } }, true, 0.8), 'review');
  });

  it('orders by probability; ties put the chosen option first, then option order', () => {
    const labels = ['a', 'b', 'c', 'd'];
    assert.deepEqual(orderOptions(labels, { a: 0.1, b: 0.4, c: 0.4, d: 0.1 }, 'c'), [2, 1, 0, 3]);
    assert.deepEqual(orderOptions(labels, { a: 0.1, b: 0.4, c: 0.4, d: 0.1 }, 'b'), [1, 2, 0, 3]);
    assert.deepEqual(orderOptions(labels, { a: 0.7, b: 0.1, c: 0.1, d: 0.1 }, 'a'), [0, 1, 2, 3]);
  });

  it('a multi-batch round must shrink', () => {
    assert.doesNotThrow(() => assertRoundShrinks([[1, 2, 3]], 5)); // one batch = final round
    assert.doesNotThrow(() => assertRoundShrinks([[1, 2, 3], [4, 5, 6]], 2));
    assert.throws(() => assertRoundShrinks([[1, 2, 3], [4, 5, 6]], 3), (e: Error & { code?: string }) => e.code === 'INPUT_TOO_LARGE' && /Lower top_k/.test(e.message));
    assert.throws(() => assertRoundShrinks([[1], [2], [3]], 1), /top_k=1/);
  });
});

describe('batch planning is exact w.r.t. fitState', () => {
  // Texts with ASCII, non-ASCII, astral characters, JSON escapes, control characters and a lone surrogate.
  const pieces = ['abc', 'ünï', '😀', '"quoted"', 'back\\slash', 'tab\there', 'nl\nx', '\u0001', 'é'.repeat(40), '\ud800', ' ', 'z'.repeat(300)];
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const randomText = () => Array.from({ length: Math.floor(rnd() * 40) }, () => pieces[Math.floor(rnd() * pieces.length)]).join('');

  it('estimateBatch equals the estimates fitState makes on the built request', () => {
    const candidates = Array.from({ length: 300 }, (_, i) => ({ id: `${i}/${randomText()}`, text: randomText() }));
    const query = 'where are the ünïcode 😀 "keys" rotated?';
    const { options } = prepareCandidates(candidates);
    const model = rankCostModel(query, options);
    for (const size of [1, 2, 3, 17, 120, 300]) {
      const start = Math.floor(rnd() * (300 - size + 1));
      const batch = Array.from({ length: size }, (_, j) => start + j);
      const opts = batch.map((i) => options[i]!);
      const questions = packRank(query, opts);
      const state = rankState(query, opts);
      const est = estimateBatch(model, batch);
      const q = questionEstimates(questions);
      assert.equal(est.questions, q.questions, `Q for ${size}`);
      assert.equal(est.longest, q.longest, `L for ${size}`);
      assert.equal(est.state, estimateTokens(stringifyState(state)), `state for ${size}`);
    }
  });

  it('each planned batch fits untruncated and is the longest prefix that does (≤ 250)', () => {
    const candidates = Array.from({ length: 700 }, (_, i) => ({ id: i % 70 === 0 ? `id-${i}-${'p'.repeat(1500)}` : `id-${i}`, text: i % 50 === 0 ? 'q'.repeat(1990) + randomText() : randomText() }));
    const query = 'find the rotation code';
    const { options } = prepareCandidates(candidates);
    const model = rankCostModel(query, options);
    const order = options.map((_, i) => i);
    const batches = planRound(model, order);
    assert.deepEqual(batches.flat(), order);
    let pos = 0;
    for (const batch of batches) {
      const opts = batch.map((i) => options[i]!);
      assert.equal(fitState(rankState(query, opts), packRank(query, opts)).truncated, false);
      pos += batch.length;
      if (batch.length < 250 && pos < order.length) {
        const more = [...opts, options[order[pos]!]!];
        assert.equal(fitState(rankState(query, more), packRank(query, more)).truncated, true, 'one more candidate must not fit');
      }
    }
    assert.ok(batches.length > 3, 'long texts force several batches');
  });
});

describe('decideRank', () => {
  const input: RankInput = { query: 'q', candidates: [{ id: 'a/1', text: 'x' }, { id: 'b:2', text: 'y' }, { id: 'c 3', text: 'z' }], top_k: 2 };
  const final = (best: ChoiceAnswer, exists: number, truncated = false): Judged => ({
    response: { model: 'jev-latest', usage: { input_tokens: 9, output_tokens: 2 }, answers: { best, exists: { type: 'noul', noul: exists } } },
    truncated,
    coverage: { complete: !truncated, original_chars: 10, evaluated_chars: 10, estimated_tokens: { state: 3, questions: 40, longest_question: 30 }, estimator: 'chars/4' },
  });
  const best: ChoiceAnswer = { type: 'choice', choice: 'candidate_2', confidence: 0.9, probabilities: { candidate_0: 0.02, candidate_2: 0.96, candidate_1: 0.02 } };

  it('maps private labels back to original ids; winner, top, exists, action, chunks', () => {
    const r = decideRank(input, { final: final(best, 0.9), finalists: [0, 2, 1], usage: { input_tokens: 30, output_tokens: 6 }, requestsTruncated: false, chunks: 3 }, DEFAULT_FLOORS);
    assert.equal(r.winner, 'c 3');
    assert.equal(r.winner_confidence, 0.9);
    assert.deepEqual(r.top, [{ id: 'c 3', probability: 0.96 }, { id: 'a/1', probability: 0.02 }]);
    assert.equal(r.action, 'auto');
    assert.equal(r.exists_verdict, 'answered');
    assert.equal(r.chunked, true);
    assert.equal(r.chunks, 3);
    assert.deepEqual(r.usage, { input_tokens: 30, output_tokens: 6 });
    assert.equal(r.coverage.estimated_tokens_scope, 'final_request');
    assert.deepEqual(r.coverage.candidate_fields, { complete: true, candidates_considered: 3, original_chars: 3 + 9, evaluated_chars: 3 + 9 });
    assert.deepEqual(r.thresholds, { auto_accept: 0.8 });
  });

  it('exists below the auto floor, a truncated request, or a higher floor → review', () => {
    const t = { finalists: [0, 2, 1], usage: { input_tokens: 1, output_tokens: 1 }, requestsTruncated: false, chunks: 1 };
    assert.equal(decideRank(input, { ...t, final: final(best, 0.79) }, DEFAULT_FLOORS).action, 'review');
    assert.equal(decideRank(input, { ...t, final: final(best, 0.79) }, DEFAULT_FLOORS).exists_verdict, 'answered');
    assert.equal(decideRank(input, { ...t, final: final(best, 0.95, true) }, DEFAULT_FLOORS).action, 'review');
    assert.equal(decideRank(input, { ...t, requestsTruncated: true, final: final(best, 0.95) }, DEFAULT_FLOORS).truncated, true);
    assert.equal(decideRank(input, { ...t, final: final(best, 0.95) }, { ...DEFAULT_FLOORS, auto_accept: 0.97 }).action, 'review');
    const r = decideRank(input, { ...t, final: final(best, 0.95) }, DEFAULT_FLOORS);
    assert.equal(r.chunked, false);
    assert.equal('chunks' in r, false);
  });
});

describe('jev_rank through JudgmentService', () => {
  it('600 candidates: 3 first-round requests + 1 final, correct winner, usage summed', async () => {
    const stub = new RankStub();
    const items = corpus(600, 437);
    const r = await rank(stub, { query: QUERY, candidates: items });
    assert.equal(stub.requests.length, 4);
    assert.equal(r.winner, items[437]!.id);
    assert.equal(r.top[0]!.id, items[437]!.id);
    assert.equal(r.top.length, 5);
    assert.equal(r.chunked, true);
    assert.equal(r.chunks, 3);
    assert.deepEqual(r.usage, { input_tokens: 160, output_tokens: 12 });
    const sizes = stub.parsed.map((p) => Object.keys((p.questions.best as { criteria: object }).criteria).length);
    assert.deepEqual(sizes, [250, 250, 100, 15]);
    assert.equal(r.coverage.candidate_fields.candidates_considered, 600);
    assert.equal(r.truncated, false);
  });

  it('a recorded call replays to the same result from its ledger exchanges', async () => {
    const stub = new RankStub({ exists: (n) => (n === 3 ? 0.62 : 0.9) });
    const args = { query: QUERY, candidates: corpus(600, 123), top_k: 3 };
    const out = await service(stub).call('jev_rank', args);
    assert.ok(out.ok);
    assert.equal(out.record.exchanges.length, 4);
    const input = jevRankTool.parse(args, DEFAULT_FLOORS);
    const replayed = decideRank(input, rankTournamentFromExchanges(input, out.record.exchanges), DEFAULT_FLOORS);
    assert.deepEqual(replayed, out.result);
    assert.equal(replayed.exists_verdict, 'partial');
    // what-if: a lower floor changes only the action
    const whatIf = decideRank(input, rankTournamentFromExchanges(input, out.record.exchanges), { ...DEFAULT_FLOORS, auto_accept: 0.6 });
    assert.equal(whatIf.thresholds.auto_accept, 0.6);
    assert.deepEqual(whatIf.top, replayed.top);
  });

  it('5 000 candidates: at most 21 upstream requests; each id goes upstream beside its text, labels key the options', async () => {
    const stub = new RankStub();
    const items = corpus(5000, 4321);
    const t0 = performance.now();
    const r = await rank(stub, { query: QUERY, candidates: items });
    const ms = performance.now() - t0;
    assert.ok(stub.requests.length <= 21, `${stub.requests.length} requests`);
    assert.equal(stub.requests.length, 21);
    assert.equal(r.winner, items[4321]!.id);
    assert.equal(r.chunks, 20);
    for (const p of stub.parsed) {
      const state = p.state as { candidates: { label: string; id: string; text: string }[] };
      for (const c of state.candidates) {
        assert.deepEqual(Object.keys(c), ['label', 'id', 'text']);
        const i = Number(/^candidate_(\d+)$/.exec(c.label)?.[1]);
        assert.deepEqual(c, { label: `candidate_${i}`, id: items[i]!.id, text: items[i]!.text });
      }
      assert.deepEqual(Object.keys((p.questions.best as { criteria: object }).criteria), state.candidates.map((c) => c.label));
    }
    // Generous bound: the whole local side (parse, planning, fitting, validation, decision) of 5 000 candidates.
    assert.ok(ms < 5_000, `took ${ms.toFixed(0)} ms`);
  });

  it('a singleton batch advances without a request', async () => {
    const stub = new RankStub();
    const items = corpus(251, 250);
    const r = await rank(stub, { query: QUERY, candidates: items });
    assert.equal(stub.requests.length, 2);
    const finalOptions = Object.keys((stub.parsed[1]!.questions.best as { criteria: object }).criteria);
    assert.equal(finalOptions.length, 6);
    assert.ok(finalOptions.includes('candidate_250'));
    assert.equal(r.winner, items[250]!.id);
    assert.equal(r.chunks, 2);
  });

  it('small lists: one request, not chunked; exists decides auto vs review (final round only)', async () => {
    const items = corpus(3, 1);
    const auto = await rank(new RankStub({ base: 1000, exists: () => 0.8 }), { query: QUERY, candidates: items, top_k: 10 });
    assert.equal(auto.action, 'auto');
    assert.equal(auto.chunked, false);
    assert.equal(auto.top.length, 3);
    const review = await rank(new RankStub({ base: 1000, exists: () => 0.7999 }), { query: QUERY, candidates: items });
    assert.equal(review.action, 'review');
    // earlier rounds say "exists", the final round does not: the final round wins
    const stub = new RankStub({ exists: (n, req) => (Object.keys((req.questions.best as { criteria: object }).criteria).length === 15 ? 0.3 : 0.99) });
    const r = await rank(stub, { query: QUERY, candidates: corpus(600, 5) });
    assert.equal(stub.requests.length, 4);
    assert.equal(r.exists, 0.3);
    assert.equal(r.exists_verdict, 'absent');
    assert.equal(r.action, 'review');
  });

  it('a clipped text sets truncated, keeps 2 000 units incl. marker in state and criteria, and requires review', async () => {
    const stub = new RankStub({ base: 1000, exists: () => 0.99 });
    const items = [
      { id: 'long', text: 'rotate API keys ' + 'y'.repeat(2100) },
      { id: 'short', text: 'billing' },
    ];
    const r = await rank(stub, { query: QUERY, candidates: items });
    assert.equal(r.truncated, true);
    assert.equal(r.action, 'review');
    assert.equal(r.coverage.complete, false);
    // ids count too: 'long' (4) and 'short' (5)
    assert.deepEqual(r.coverage.candidate_fields, { complete: false, candidates_considered: 2, original_chars: items[0]!.text.length + 7 + 9, evaluated_chars: 1987 + 7 + 9 });
    const sent = stub.parsed[0]!;
    const stateText = (sent.state as { candidates: { text: string }[] }).candidates[0]!.text;
    assert.equal(stateText.length, 2000);
    assert.ok(stateText.endsWith('…[truncated]'));
    assert.equal((sent.questions.best as { criteria: Record<string, string> }).criteria.candidate_0, stateText);
    // exactly 2 000 characters is not clipped
    const exact = await rank(new RankStub({ base: 1000 }), { query: QUERY, candidates: [{ id: 'a', text: 'k'.repeat(2000) }, { id: 'b', text: 'b' }] });
    assert.equal(exact.truncated, false);
  });

  it('a clipped id is clipped like a text, counted in coverage, and requires review; the result keeps the whole id', async () => {
    const stub = new RankStub({ base: 1000, exists: () => 0.99 });
    const longId = `src/${'deep/'.repeat(500)}rotate-keys.ts`;
    const items = [
      { id: longId, text: 'rotate API keys' },
      { id: 'src/billing.ts', text: 'billing' },
    ];
    const r = await rank(stub, { query: QUERY, candidates: items });
    assert.equal(r.truncated, true);
    assert.equal(r.action, 'review');
    assert.equal(r.winner, longId);
    const chars = longId.length + 15 + 14 + 7;
    assert.deepEqual(r.coverage.candidate_fields, { complete: false, candidates_considered: 2, original_chars: chars, evaluated_chars: chars - longId.length + 1987 });
    const sentId = (stub.parsed[0]!.state as { candidates: { id: string }[] }).candidates[0]!.id;
    assert.equal(sentId.length, 2000);
    assert.ok(sentId.startsWith('src/deep/') && sentId.endsWith('…[truncated]'));
  });

  it('INPUT_TOO_LARGE when top_k prevents the round from shrinking, before any request', async () => {
    const stub = new RankStub();
    const items = Array.from({ length: 60 }, (_, i) => ({ id: `c${i}`, text: `${i} `.padEnd(2000, 'w') }));
    await rankError(stub, { query: QUERY, candidates: items, top_k: 50 }, 'INPUT_TOO_LARGE', /^top_k: cannot rank top_k=50.*Lower top_k/);
    assert.equal(stub.requests.length, 0);
    const ok = new RankStub();
    const r = await rank(ok, { query: QUERY, candidates: items, top_k: 5 });
    assert.equal(r.chunked, true);
    assert.equal(ok.requests.length, (r.chunks ?? 0) + 1);
  });

  it('a query too large for any batch is INPUT_TOO_LARGE before any request', async () => {
    const stub = new RankStub();
    await rankError(stub, { query: 'rotate '.repeat(20_000), candidates: corpus(2, 0) }, 'INPUT_TOO_LARGE', /shorten the query/);
    assert.equal(stub.requests.length, 0);
  });

  it('input validation: 5 001 candidates, duplicates, fewer than 2, top_k range, unknown fields', async () => {
    const stub = new RankStub();
    await rankError(stub, { query: QUERY, candidates: corpus(5001, 0) }, 'INPUT_TOO_LARGE', /^candidates: at most 5000 candidates/);
    await rankError(stub, { query: QUERY, candidates: [...corpus(5000, 0), { id: 1 }] }, 'INPUT_TOO_LARGE', /^candidates: at most 5000/);
    const dup = corpus(4, 0);
    dup[3] = { id: dup[1]!.id, text: 'again' };
    await rankError(stub, { query: QUERY, candidates: dup }, 'INVALID_INPUT', new RegExp(`^candidates\\[3\\]\\.id: duplicate rank candidate id ${JSON.stringify(dup[1]!.id).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
    await rankError(stub, { query: QUERY, candidates: corpus(1, 0) }, 'INVALID_INPUT', /^candidates: must list at least two candidates/);
    await rankError(stub, { query: QUERY, candidates: corpus(3, 0), top_k: 0 }, 'INVALID_INPUT', /^top_k:/);
    await rankError(stub, { query: QUERY, candidates: corpus(3, 0), top_k: 51 }, 'INVALID_INPUT', /^top_k:/);
    await rankError(stub, { query: QUERY, candidates: corpus(3, 0), top_k: 1.5 }, 'INVALID_INPUT', /^top_k:/);
    await rankError(stub, { query: QUERY, candidates: corpus(3, 0), auto_accept: 0.9 }, 'INVALID_INPUT', /unknown field auto_accept/);
    await rankError(stub, { query: QUERY, candidates: [{ id: '', text: 'a' }, { id: 'b', text: 'b' }] }, 'INVALID_INPUT', /^candidates\[0\]\.id:/);
    await rankError(stub, { query: '  ', candidates: corpus(3, 0) }, 'INVALID_INPUT', /^query: must not be blank/);
    assert.equal(stub.requests.length, 0);
  });

  it('the whole tournament runs inside one deadline', async () => {
    const stub = new RankStub({ delayMs: 40 });
    const out = await service(stub, 100).call('jev_rank', { query: QUERY, candidates: corpus(600, 1) });
    assert.equal(out.ok, false);
    if (!out.ok) assert.equal(out.error.code, 'TIMEOUT');
    assert.ok(stub.requests.length < 4, `${stub.requests.length} requests`);
  });

  it('cancellation stops the tournament', async () => {
    const controller = new AbortController();
    const stub = new RankStub({ onRequest: (n) => n === 1 && controller.abort() });
    const out = await service(stub).call('jev_rank', { query: QUERY, candidates: corpus(600, 1) }, { signal: controller.signal });
    assert.equal(out.ok, false);
    if (!out.ok) assert.equal(out.error.code, 'CANCELLED');
    assert.equal(stub.requests.length, 2);
  });

  it('tool definition', () => {
    assert.equal(jevRankTool.title, 'Jev candidate ranker');
    assert.deepEqual(jevRankTool.annotations, { title: 'Jev candidate ranker', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    assert.equal(jevRankTool.inputJsonSchema.additionalProperties, false);
  });
});
