/**
 * Decision orders of the assessing tools over real HTTP: jev_review, jev_verify,
 * jev_gate, jev_screen, jev_rank, jev_evaluate and the judgevet tools (ask_noul, ask_choice, ask_score,
 * evaluate_policy) — JudgmentService → SystemOneProvider → the fake System One server on 127.0.0.1, answers
 * scripted per question id. Expected outcomes come from the rules as the
 * policies' docstrings (src/policy/), the README and docs/decisions.md state them, not from running the code. Boundaries inclusive.
 */
// Every assert.ok carries a message: without one node's assert re-reads the source to describe a failure.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { noul, score } from '../helpers/fake-systemone';
import { failed, okResult, pick, questionIds, startDecisionHarness, type Answers, type DecisionHarness, type RunOptions } from '../helpers/decision-harness';

let h: DecisionHarness;
before(async () => {
  h = await startDecisionHarness();
});
after(async () => {
  await h.close();
});

/** Provider reports more input tokens than the 64 000 budget → incomplete context. */
const OVER_BUDGET = { input_tokens: 64_001, output_tokens: 8 };
/** Guard bound for n options at threshold t: 1/n + (1 − 1/n)·t. */
const bound = (n: number, t: number) => 1 / n + (1 - 1 / n) * t;
const close = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) < 1e-12, `${what}: ${actual} ≠ ${expected}`);

// ---------------------------------------------------------------------------------------------------
// Review (shared by jev_review and jev_gate)

/** Expected level 1.93, confidence 0.95 (a "good" 0–2 score); LOW: 0.07 (good for the inverted dimensions). */
const GOOD = score(3, [0.02, 0.03, 0.95], 0.95);
const LOW = score(3, [0.95, 0.03, 0.02], 0.95);
const at = (level: number, confidence = 0.95) => score(3, [0, 1, 2].map((i) => (i === level ? 1 : 0)), confidence);
function review(over: Answers = {}): Answers {
  return { correctness: GOOD, spec_match: GOOD, test_gap: LOW, blast_radius: LOW, safe_to_apply: noul(0.95), ...over };
}
/** reviewComposite (src/policy/review.ts) on 0–2 scores (test_gap and blast_radius inverted). */
const composite = (c: number, s: number, t: number, b: number) => 0.4 * (c / 2) + 0.3 * (s / 2) + 0.15 * (1 - t / 2) + 0.15 * (1 - b / 2);

const REVIEW_ARGS = { request: 'Reject empty parser input', diff: "+ if (!input) throw new Error('Empty input');", tests: 'parser rejects empty input: PASS' };

describe('jev_review: reviewAction, guard, incomplete context', () => {
  const rows: Array<{ name: string; answers?: Answers; args?: Record<string, unknown>; options?: RunOptions; action: string }> = [
    { name: 'accept: clear dimensions, safe 0.95, composite ≥ 0.7, confidences ≥ 0.8 → auto', action: 'auto' },
    { name: '1: a score confidence 0.45 < review_at → escalate', answers: { test_gap: score(3, [0.95, 0.03, 0.02], 0.45) }, action: 'escalate' },
    { name: '1: min confidence exactly review_at 0.5 → review', answers: { test_gap: score(3, [0.95, 0.03, 0.02], 0.5) }, action: 'review' },
    { name: '1: safe_to_apply 0.39 → escalate', answers: { safe_to_apply: noul(0.39) }, action: 'escalate' },
    { name: '1: safe_to_apply exactly 0.4 → review, not escalate', answers: { safe_to_apply: noul(0.4) }, action: 'review' },
    { name: '2: safe_to_apply 0.79 → review', answers: { safe_to_apply: noul(0.79) }, action: 'review' },
    { name: '2: safe_to_apply exactly 0.8 → auto', answers: { safe_to_apply: noul(0.8) }, action: 'auto' },
    { name: '2: min confidence 0.79 → review', answers: { spec_match: score(3, [0.02, 0.03, 0.95], 0.79) }, action: 'review' },
    { name: '2: min confidence exactly 0.8 → auto', answers: { spec_match: score(3, [0.02, 0.03, 0.95], 0.8) }, action: 'auto' },
    { name: '2: correctness 0.9 (< 1) is not clear → review', answers: { correctness: score(3, [0.1, 0.9, 0], 0.95) }, action: 'review' },
    { name: '2: correctness exactly 1 is clear → auto', answers: { correctness: at(1) }, action: 'auto' },
    { name: '2: test_gap exactly 1 is clear → auto', answers: { test_gap: at(1) }, action: 'auto' },
    { name: '2: test_gap 1.1 is not clear → review', answers: { test_gap: score(3, [0, 0.9, 0.1], 0.95) }, action: 'review' },
    { name: '2: blast_radius 1.1 is not clear → review', answers: { blast_radius: score(3, [0, 0.9, 0.1], 0.95) }, action: 'review' },
    { name: '2: composite exactly 0.7 (c 2, s 1, t 1, b 1) → auto', answers: { correctness: at(2), spec_match: at(1), test_gap: at(1), blast_radius: at(1) }, action: 'auto' },
    { name: '2: composite 0.68 (c 1.9, s 1, t 1, b 1) → review', answers: { correctness: score(3, [0, 0.1, 0.9], 0.95), spec_match: at(1), test_gap: at(1), blast_radius: at(1) }, action: 'review' },
    { name: 'guard: correctness reported 0.95 over [0.1, 0.2, 0.7] → review', answers: { correctness: score(3, [0.1, 0.2, 0.7], 0.95) }, action: 'review' },
    { name: 'guard: a distribution exactly at its bound passes → auto', answers: { correctness: score(3, [0, 1 - bound(3, 0.8), bound(3, 0.8)], 0.95) }, action: 'auto' },
    { name: 'incomplete context → review', options: { usage: OVER_BUDGET }, action: 'review' },
    { name: 'incomplete context never softens an escalation', answers: { safe_to_apply: noul(0.3) }, options: { usage: OVER_BUDGET }, action: 'escalate' },
    { name: 'tightening: auto_accept 0.96 > every confidence 0.95 → review', args: { auto_accept: 0.96 }, action: 'review' },
    { name: 'tightening: auto_accept 0.6 ignored, a confidence 0.7 stays review', args: { auto_accept: 0.6 }, answers: { blast_radius: score(3, [0.95, 0.03, 0.02], 0.7) }, action: 'review' },
    { name: 'tightening: review_at 0.7 raises, a confidence 0.65 escalates', args: { review_at: 0.7 }, answers: { blast_radius: score(3, [0.95, 0.03, 0.02], 0.65) }, action: 'escalate' },
    { name: 'tightening: review_at 0.3 ignored, a confidence 0.45 escalates', args: { review_at: 0.3 }, answers: { blast_radius: score(3, [0.95, 0.03, 0.02], 0.45) }, action: 'escalate' },
  ];
  for (const row of rows) {
    test(row.name, async () => {
      const run = await h.run('jev_review', { ...REVIEW_ARGS, ...row.args }, review(row.answers), row.options);
      const r = okResult(run);
      assert.equal(run.requests.length, 1, 'one request');
      assert.equal(r.action, row.action);
    });
  }

  test('request and report: five questions, state {request, diff, tests}, composite and weights', async () => {
    const run = await h.run('jev_review', { request: 'r', diff: 'd' }, review());
    const r = okResult(run);
    assert.deepEqual(questionIds(run.requests[0]!), ['correctness', 'spec_match', 'test_gap', 'blast_radius', 'safe_to_apply']);
    assert.deepEqual(run.requests[0]!.body.state, { request: 'r', diff: 'd', tests: '' });
    assert.deepEqual(r.weights, { correctness: 0.4, spec_match: 0.3, test_gap: 0.15, blast_radius: 0.15 });
    close(r.composite, composite(1.93, 1.93, 0.07, 0.07), 'composite');
    close(r.scores.correctness.score, 1.93, 'correctness score');
    assert.equal(r.scores.correctness.confidence, 0.95);
    assert.equal(r.safe_to_apply, 0.95);
    assert.deepEqual(r.thresholds, { auto_accept: 0.8, review_at: 0.5 });
  });

  test('thresholds reported after tightening', async () => {
    const t = async (args: Record<string, unknown>) => okResult(await h.run('jev_review', { ...REVIEW_ARGS, ...args }, review())).thresholds;
    assert.deepEqual(await t({ auto_accept: 0.9, review_at: 0.6 }), { auto_accept: 0.9, review_at: 0.6 });
    assert.deepEqual(await t({ auto_accept: 0.5, review_at: 0.2 }), { auto_accept: 0.8, review_at: 0.5 });
  });
});

// ---------------------------------------------------------------------------------------------------
// Claims

const VERDICTS = ['verified', 'contradicted', 'unsupported'];
const claim = (verdict: string, confidence: number, peak = 0.96) => pick(VERDICTS, verdict, peak, confidence);
const CLAIMS = ['The empty-input test passed.', 'No other parser test changed.', 'The error message names the input.'];
const EVIDENCE = [{ id: 'test-output', text: 'parser rejects empty input: PASS\n12 passed' }];
/** Every claim verified at 0.95 unless overridden. */
const claims = (n: number, over: Answers = {}) => ({ ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`claim_${i}`, claim('verified', 0.95)])), ...over });

describe('jev_verify: per-claim action, overall action', () => {
  const rows: Array<{ name: string; answers?: Answers; args?: Record<string, unknown>; options?: RunOptions; items: string[]; overall: string }> = [
    { name: 'all verified at 0.95 → auto', items: ['auto', 'auto', 'auto'], overall: 'auto' },
    { name: 'confidence 0.7 → item review, overall review', answers: { claim_1: claim('verified', 0.7) }, items: ['auto', 'review', 'auto'], overall: 'review' },
    { name: 'confidence exactly 0.8 → item auto (inclusive)', answers: { claim_1: claim('verified', 0.8) }, items: ['auto', 'auto', 'auto'], overall: 'auto' },
    { name: 'confidence 0.45 < min(0.5, a) → item escalate, overall only review', answers: { claim_1: claim('verified', 0.45) }, items: ['auto', 'escalate', 'auto'], overall: 'review' },
    { name: 'confidence exactly 0.5 → item review, not escalate', answers: { claim_1: claim('verified', 0.5) }, items: ['auto', 'review', 'auto'], overall: 'review' },
    { name: 'confident contradiction → item auto, overall escalate', answers: { claim_2: claim('contradicted', 0.95) }, items: ['auto', 'auto', 'auto'], overall: 'escalate' },
    { name: 'contradiction at 0.7 → item review, overall review', answers: { claim_2: claim('contradicted', 0.7) }, items: ['auto', 'auto', 'review'], overall: 'review' },
    { name: 'confident unsupported → item auto, overall auto (accepts the classification)', answers: { claim_0: claim('unsupported', 0.95) }, items: ['auto', 'auto', 'auto'], overall: 'auto' },
    { name: 'guard: verified reported 0.95 over a flat distribution → item review', answers: { claim_0: claim('verified', 0.95, 0.5) }, items: ['review', 'auto', 'auto'], overall: 'review' },
    { name: 'guard: a confident contradiction with a flat distribution is not auto → overall review', answers: { claim_0: claim('contradicted', 0.95, 0.5) }, items: ['review', 'auto', 'auto'], overall: 'review' },
    { name: 'incomplete context → every item review, overall review', options: { usage: OVER_BUDGET }, items: ['review', 'review', 'review'], overall: 'review' },
    { name: 'incomplete context: a confident contradiction no longer escalates overall', answers: { claim_2: claim('contradicted', 0.95) }, options: { usage: OVER_BUDGET }, items: ['review', 'review', 'review'], overall: 'review' },
    { name: 'tightening: auto_accept 0.9 raises, 0.85 → review', args: { auto_accept: 0.9 }, answers: { claim_0: claim('verified', 0.85) }, items: ['review', 'auto', 'auto'], overall: 'review' },
    { name: 'tightening: auto_accept 0.6 ignored, 0.7 → review', args: { auto_accept: 0.6 }, answers: { claim_0: claim('verified', 0.7) }, items: ['review', 'auto', 'auto'], overall: 'review' },
    { name: 'the JEV_REVIEW_AT floor (0.7) is not used: 0.6 → review, not escalate', options: { floors: { review_at: 0.7 } }, answers: { claim_0: claim('verified', 0.6) }, items: ['review', 'auto', 'auto'], overall: 'review' },
    { name: 'cut-off follows a lower auto_accept floor: a = 0.4 → 0.45 auto, 0.35 escalate', options: { floors: { auto_accept: 0.4, review_at: 0.3 } }, answers: { claim_0: claim('verified', 0.45), claim_1: claim('verified', 0.35) }, items: ['auto', 'escalate', 'auto'], overall: 'review' },
  ];
  for (const row of rows) {
    test(row.name, async () => {
      const run = await h.run('jev_verify', { claims: CLAIMS, evidence: EVIDENCE, ...row.args }, claims(3, row.answers), row.options);
      const r = okResult(run);
      assert.equal(run.requests.length, 1, 'one request');
      assert.deepEqual(r.results.map((x: { action: string }) => x.action), row.items);
      assert.equal(r.action, row.overall);
      assert.equal(r.summary.needs_review, row.items.filter((a) => a !== 'auto').length);
    });
  }

  test('request and report: one choice per claim, state {claims, evidence}, results mapped by index', async () => {
    const answers = claims(3, { claim_1: claim('contradicted', 0.9), claim_2: claim('unsupported', 0.85) });
    const run = await h.run('jev_verify', { claims: CLAIMS, evidence: 'free-text evidence' }, answers);
    const r = okResult(run);
    const q = run.requests[0]!.body.questions;
    assert.deepEqual(questionIds(run.requests[0]!), ['claim_0', 'claim_1', 'claim_2']);
    assert.deepEqual(Object.keys(q.claim_0.criteria), VERDICTS);
    assert.deepEqual(run.requests[0]!.body.state, { claims: CLAIMS, evidence: 'free-text evidence' });
    assert.deepEqual(r.results.map((x: { claim: string; verdict: string; confidence: number }) => [x.claim, x.verdict, x.confidence]), [
      [CLAIMS[0], 'verified', 0.95],
      [CLAIMS[1], 'contradicted', 0.9],
      [CLAIMS[2], 'unsupported', 0.85],
    ]);
    assert.deepEqual(r.results[1].probabilities, (answers.claim_1 as { probabilities: unknown }).probabilities);
    assert.deepEqual(r.summary, { verified: 1, contradicted: 1, unsupported: 1, needs_review: 0 });
    assert.equal(r.action, 'escalate');
    assert.deepEqual(r.thresholds, { auto_accept: 0.8, review_at: 0.5 });
  });

  test('thresholds report the effective auto_accept and the cut-off min(0.5, a)', async () => {
    const t = async (args: Record<string, unknown>, options?: RunOptions) =>
      okResult(await h.run('jev_verify', { claims: CLAIMS, evidence: EVIDENCE, ...args }, claims(3), options)).thresholds;
    assert.deepEqual(await t({ auto_accept: 0.9 }), { auto_accept: 0.9, review_at: 0.5 });
    assert.deepEqual(await t({}, { floors: { auto_accept: 0.4, review_at: 0.3 } }), { auto_accept: 0.4, review_at: 0.4 });
  });
});

describe('jev_gate: review + claims in one request, reason codes in order', () => {
  const GATE = { ...REVIEW_ARGS, claims: CLAIMS.slice(0, 2), evidence: EVIDENCE };
  const rows: Array<{ name: string; answers?: Answers; args?: Record<string, unknown>; options?: RunOptions; action: string; reasons: string[]; review?: string; verification?: string }> = [
    { name: 'accept: accepted review, every claim verified ≥ auto_accept', action: 'auto', reasons: ['accepted'], review: 'auto', verification: 'auto' },
    { name: 'unsafe review (safe 0.3) → escalate', answers: { safe_to_apply: noul(0.3) }, action: 'escalate', reasons: ['review_escalated'], review: 'escalate', verification: 'auto' },
    { name: 'review needs review (safe 0.7) → review', answers: { safe_to_apply: noul(0.7) }, action: 'review', reasons: ['review_required'], review: 'review', verification: 'auto' },
    { name: 'contradiction at 0.95 ≥ a → escalate', answers: { claim_0: claim('contradicted', 0.95) }, action: 'escalate', reasons: ['claims_contradicted'], verification: 'escalate' },
    { name: 'contradiction exactly at auto_accept 0.8 → escalate (inclusive)', answers: { claim_0: claim('contradicted', 0.8) }, action: 'escalate', reasons: ['claims_contradicted'] },
    { name: 'contradiction at 0.7 → review', answers: { claim_0: claim('contradicted', 0.7) }, action: 'review', reasons: ['claims_contradicted', 'claim_confidence_below_auto_accept'] },
    { name: 'confident unsupported claim → review', answers: { claim_1: claim('unsupported', 0.95) }, action: 'review', reasons: ['claims_unsupported'], verification: 'review' },
    { name: 'claim confidence 0.45 < review_at → escalate', answers: { claim_1: claim('verified', 0.45) }, action: 'escalate', reasons: ['claim_confidence_low'] },
    { name: 'claim confidence exactly review_at 0.5 → review', answers: { claim_1: claim('verified', 0.5) }, action: 'review', reasons: ['claim_confidence_below_auto_accept'] },
    { name: 'claim confidence 0.79 → review', answers: { claim_1: claim('verified', 0.79) }, action: 'review', reasons: ['claim_confidence_below_auto_accept'] },
    { name: 'claim confidence exactly 0.8 → auto', answers: { claim_1: claim('verified', 0.8) }, action: 'auto', reasons: ['accepted'] },
    { name: 'guard: verified reported 0.95 over a flat distribution → confidence_incoherent', answers: { claim_0: claim('verified', 0.95, 0.5) }, action: 'review', reasons: ['confidence_incoherent'] },
    { name: 'guard on a review score → review_required', answers: { correctness: score(3, [0.1, 0.2, 0.7], 0.95) }, action: 'review', reasons: ['review_required'], review: 'review' },
    { name: 'incomplete context → review', options: { usage: OVER_BUDGET }, action: 'review', reasons: ['incomplete_context', 'review_required'], review: 'review', verification: 'review' },
    {
      name: 'every code at once keeps the fixed order',
      answers: { safe_to_apply: noul(0.3), claim_0: claim('contradicted', 0.95), claim_1: claim('unsupported', 0.45) },
      options: { usage: OVER_BUDGET },
      action: 'escalate',
      reasons: ['incomplete_context', 'review_escalated', 'claims_contradicted', 'claims_unsupported', 'claim_confidence_low'],
    },
    { name: 'tightening: review_at 0.6 raises, 0.55 escalates', args: { review_at: 0.6 }, answers: { claim_0: claim('verified', 0.55) }, action: 'escalate', reasons: ['claim_confidence_low'] },
    { name: 'tightening: auto_accept 0.9 raises, 0.85 → review', args: { auto_accept: 0.9 }, answers: { claim_0: claim('verified', 0.85) }, action: 'review', reasons: ['claim_confidence_below_auto_accept'] },
    { name: 'tightening: auto_accept 0.6 ignored, 0.7 → review', args: { auto_accept: 0.6 }, answers: { claim_0: claim('verified', 0.7) }, action: 'review', reasons: ['claim_confidence_below_auto_accept'] },
  ];
  for (const row of rows) {
    test(row.name, async () => {
      const run = await h.run('jev_gate', { ...GATE, ...row.args }, { ...review(), ...claims(2), ...row.answers }, row.options);
      const r = okResult(run);
      assert.equal(run.requests.length, 1, 'one request for review and claims');
      assert.deepEqual([r.action, r.reason_codes], [row.action, row.reasons]);
      if (row.review) assert.equal(r.review.action, row.review);
      if (row.verification) assert.equal(r.verification.action, row.verification);
    });
  }

  test('request: five review questions then one per claim; state carries request, diff, tests, claims, evidence', async () => {
    const run = await h.run('jev_gate', { ...GATE, auto_accept: 0.85, review_at: 0.55 }, { ...review(), ...claims(2) });
    const r = okResult(run);
    assert.deepEqual(questionIds(run.requests[0]!), ['correctness', 'spec_match', 'test_gap', 'blast_radius', 'safe_to_apply', 'claim_0', 'claim_1']);
    assert.deepEqual(Object.keys(run.requests[0]!.body.state), ['request', 'diff', 'tests', 'claims', 'evidence']);
    assert.deepEqual(r.review.thresholds, { auto_accept: 0.85, review_at: 0.55 });
    assert.deepEqual(r.verification.thresholds, { auto_accept: 0.85, review_at: 0.55 });
    assert.deepEqual(r.verification.summary, { verified: 2, contradicted: 0, unsupported: 0, needs_review: 0 });
  });
});

// ---------------------------------------------------------------------------------------------------
// Screen

describe('jev_screen: recommendation order, truncation, block_at only lowers', () => {
  const TEXT = { text: 'README: run npm install, then npm test.' };
  const screenAnswers = (injection: number, substance = 0.9, relevance?: number): Answers => ({
    injection: noul(injection),
    substance: noul(substance),
    ...(relevance === undefined ? {} : { relevance: noul(relevance) }),
  });
  const rows: Array<{ name: string; args?: Record<string, unknown>; answers: Answers; options?: RunOptions; rec: string; action: string; thresholds?: [number, number] }> = [
    { name: 'pass: no injection signal, substantive', answers: screenAnswers(0.05), rec: 'pass', action: 'auto' },
    { name: 'injection exactly block_at 0.75 → block → escalate', answers: screenAnswers(0.75), rec: 'block', action: 'escalate' },
    { name: 'injection 0.74 → review', answers: screenAnswers(0.74), rec: 'review', action: 'review' },
    { name: 'injection exactly review_at 0.25 → review', answers: screenAnswers(0.25), rec: 'review', action: 'review' },
    { name: 'injection 0.24 → pass', answers: screenAnswers(0.24), rec: 'pass', action: 'auto' },
    { name: 'substance 0.34 → skip (action auto)', answers: screenAnswers(0.05, 0.34), rec: 'skip', action: 'auto' },
    { name: 'substance exactly 0.35 → pass', answers: screenAnswers(0.05, 0.35), rec: 'pass', action: 'auto' },
    { name: 'injection outranks skip', answers: screenAnswers(0.3, 0.1), rec: 'review', action: 'review' },
    { name: 'purpose: relevance 0.34 → skip', args: { purpose: 'fix the parser' }, answers: screenAnswers(0.05, 0.9, 0.34), rec: 'skip', action: 'auto' },
    { name: 'purpose: relevance exactly 0.35 → pass', args: { purpose: 'fix the parser' }, answers: screenAnswers(0.05, 0.9, 0.35), rec: 'pass', action: 'auto' },
    { name: 'truncated: pass becomes review', answers: screenAnswers(0.05), options: { usage: OVER_BUDGET }, rec: 'review', action: 'review' },
    { name: 'truncated: skip becomes review', answers: screenAnswers(0.05, 0.1), options: { usage: OVER_BUDGET }, rec: 'review', action: 'review' },
    { name: 'truncated: a detected block survives', answers: screenAnswers(0.9), options: { usage: OVER_BUDGET }, rec: 'block', action: 'escalate' },
    { name: 'block_at 0.5 per call lowers: 0.6 blocks', args: { block_at: 0.5 }, answers: screenAnswers(0.6), rec: 'block', action: 'escalate', thresholds: [0.5, 0.25] },
    { name: 'block_at 0.9 per call is ignored (cannot raise): 0.8 still blocks', args: { block_at: 0.9 }, answers: screenAnswers(0.8), rec: 'block', action: 'escalate', thresholds: [0.75, 0.25] },
    { name: 'env block_at 0.9: 0.8 → review; a per-call 0.95 stays ignored', args: { block_at: 0.95 }, options: { floors: { block_at: 0.9 } }, answers: screenAnswers(0.8), rec: 'review', action: 'review', thresholds: [0.9, 0.25] },
    { name: 'review_at 0.1 per call: 0.15 → review', args: { review_at: 0.1 }, answers: screenAnswers(0.15), rec: 'review', action: 'review', thresholds: [0.75, 0.1] },
    { name: 'review_at 0.5 per call: 0.4 → pass', args: { review_at: 0.5 }, answers: screenAnswers(0.4), rec: 'pass', action: 'auto', thresholds: [0.75, 0.5] },
  ];
  for (const row of rows) {
    test(row.name, async () => {
      const run = await h.run('jev_screen', { ...TEXT, ...row.args }, row.answers, row.options);
      const r = okResult(run);
      assert.equal(run.requests.length, 1, 'one request');
      assert.deepEqual([r.recommendation.action, r.action], [row.rec, row.action]);
      assert.ok(typeof r.recommendation.reason === 'string' && r.recommendation.reason.length > 0, 'a reason is given');
      if (row.thresholds) assert.deepEqual(r.thresholds, { block_at: row.thresholds[0], review_at: row.thresholds[1] });
    });
  }

  test('the relevance question is asked only for a non-blank purpose; probabilities reported', async () => {
    const withPurpose = await h.run('jev_screen', { ...TEXT, purpose: 'fix the parser' }, screenAnswers(0.1, 0.8, 0.7));
    assert.deepEqual(questionIds(withPurpose.requests[0]!), ['injection', 'substance', 'relevance']);
    assert.deepEqual(withPurpose.requests[0]!.body.state, { text: TEXT.text, purpose: 'fix the parser' });
    assert.deepEqual(okResult(withPurpose).probabilities, { injection: 0.1, substance: 0.8, relevance: 0.7 });
    const blank = await h.run('jev_screen', { ...TEXT, purpose: '   ' }, screenAnswers(0.1, 0.8));
    assert.deepEqual(questionIds(blank.requests[0]!), ['injection', 'substance']);
    assert.deepEqual(okResult(blank).probabilities, { injection: 0.1, substance: 0.8 });
  });

  test('the block reason names the probability and the threshold', async () => {
    const r = okResult(await h.run('jev_screen', TEXT, screenAnswers(0.8)));
    assert.ok(r.recommendation.reason.includes('0.80') && r.recommendation.reason.includes('0.75'), r.recommendation.reason);
  });

  for (const [name, args] of [
    ['review_at 0.8 above block_at 0.75 → INVALID_INPUT', { review_at: 0.8 }],
    ['block_at 0.2 below the default review_at 0.25 → INVALID_INPUT', { block_at: 0.2 }],
    ['review_at 0.6 above a lowered block_at 0.5 → INVALID_INPUT', { block_at: 0.5, review_at: 0.6 }],
  ] as const) {
    test(name, async () => {
      const run = await h.run('jev_screen', { ...TEXT, ...args }, screenAnswers(0.1));
      failed(run, 'INVALID_INPUT', false);
      assert.equal(run.requests.length, 0, 'no upstream request');
    });
  }
});

// ---------------------------------------------------------------------------------------------------
// Rank

describe('jev_rank: exists, guard, truncation, tournament', () => {
  const CANDS = [
    { id: 'src/auth/rotate.ts', text: 'Rotates API keys and revokes the old ones.' },
    { id: 'docs/billing.md', text: 'How invoices are computed.' },
    { id: 'src/auth/login.ts', text: 'Login flow with session cookies.' },
  ];
  const LABELS = ['candidate_0', 'candidate_1', 'candidate_2'];
  const QUERY = 'how do I rotate API keys';
  const best = (chosen: string, peak: number, confidence = peak) => ({ best: pick(LABELS, chosen, peak, confidence) });
  const rank = (exists: number, b = best('candidate_0', 0.96, 0.95)): Answers => ({ ...b, exists: noul(exists) });

  const rows: Array<{ name: string; answers: Answers; options?: RunOptions; cands?: typeof CANDS; action: string; verdict: string; winner?: string }> = [
    { name: 'accept: clear winner, exists 0.9 → auto, answered', answers: rank(0.9), action: 'auto', verdict: 'answered', winner: 'src/auth/rotate.ts' },
    { name: 'exists exactly auto_accept 0.8 → auto', answers: rank(0.8), action: 'auto', verdict: 'answered' },
    { name: 'exists 0.79 → review, still answered', answers: rank(0.79), action: 'review', verdict: 'answered' },
    { name: 'exists exactly 0.75 → answered (review)', answers: rank(0.75), action: 'review', verdict: 'answered' },
    { name: 'exists 0.74 → partial', answers: rank(0.74), action: 'review', verdict: 'partial' },
    { name: 'exists exactly 0.4 → partial', answers: rank(0.4), action: 'review', verdict: 'partial' },
    { name: 'exists 0.39 → absent', answers: rank(0.39), action: 'review', verdict: 'absent' },
    { name: 'best confidence 0.79 → review', answers: rank(0.9, best('candidate_0', 0.96, 0.79)), action: 'review', verdict: 'answered' },
    { name: 'best confidence exactly 0.8, guard exactly at its bound → auto', answers: rank(0.9, best('candidate_0', bound(3, 0.8), 0.8)), action: 'auto', verdict: 'answered' },
    { name: 'guard: best reported 0.95 over a flat distribution → review', answers: rank(0.9, best('candidate_0', 0.5, 0.95)), action: 'review', verdict: 'answered' },
    { name: 'never escalate: no match, weak choice → review', answers: rank(0.01, best('candidate_1', 0.34, 0.05)), action: 'review', verdict: 'absent', winner: 'docs/billing.md' },
    { name: 'incomplete context → review', answers: rank(0.95), options: { usage: OVER_BUDGET }, action: 'review', verdict: 'answered' },
    { name: 'a clipped candidate text (> 2 000 chars) → truncated → review', cands: [CANDS[0]!, { id: 'long', text: 'y'.repeat(2_001) }, CANDS[2]!], answers: rank(0.95), action: 'review', verdict: 'answered' },
    { name: 'env auto_accept 0.9: exists 0.85 → review', options: { floors: { auto_accept: 0.9 } }, answers: rank(0.85), action: 'review', verdict: 'answered' },
  ];
  for (const row of rows) {
    test(row.name, async () => {
      const cands = row.cands ?? CANDS;
      const run = await h.run('jev_rank', { query: QUERY, candidates: cands }, row.answers, row.options);
      const r = okResult(run);
      assert.equal(run.requests.length, 1, 'one request');
      assert.deepEqual([r.action, r.exists_verdict], [row.action, row.verdict]);
      if (row.winner) assert.equal(r.winner, row.winner);
    });
  }

  test('ids go upstream beside their texts, private labels key the options; winner and top map back; top_k; clipped text accounting', async () => {
    const cands = [CANDS[0]!, CANDS[1]!, { id: 'src/auth/login.ts', text: 'z'.repeat(2_500) }];
    const answers = { best: { type: 'choice', choice: 'candidate_2', confidence: 0.5, probabilities: { candidate_0: 0.3, candidate_1: 0.1, candidate_2: 0.6 } }, exists: noul(0.7) };
    const run = await h.run('jev_rank', { query: QUERY, candidates: cands, top_k: 2 }, answers);
    const r = okResult(run);
    const sent = run.requests[0]!.body.state.candidates as { label: string; id: string; text: string }[];
    assert.deepEqual(Object.keys(run.requests[0]!.body.questions.best.criteria), LABELS);
    assert.deepEqual(sent.map((c) => [c.label, c.id]), cands.map((c, i) => [LABELS[i], c.id]));
    assert.equal(sent[2]!.text.length, 2_000, 'the long text is clipped in the state');
    assert.ok(run.requests[0]!.body.questions.best.instructions.includes(QUERY), 'the query is in the best instruction');
    assert.equal(r.winner, 'src/auth/login.ts');
    assert.equal(r.winner_confidence, 0.5);
    assert.deepEqual(r.top, [{ id: 'src/auth/login.ts', probability: 0.6 }, { id: 'src/auth/rotate.ts', probability: 0.3 }]);
    assert.deepEqual([r.exists, r.exists_verdict, r.truncated, r.action, r.chunked], [0.7, 'partial', true, 'review', false]);
    assert.equal(r.coverage.candidate_fields.complete, false);
    assert.equal(r.coverage.candidate_fields.candidates_considered, 3);
    const ids = cands.reduce((n, c) => n + c.id.length, 0); // ids count like texts
    assert.equal(r.coverage.candidate_fields.original_chars, ids + CANDS[0]!.text.length + CANDS[1]!.text.length + 2_500);
    assert.equal(r.coverage.candidate_fields.evaluated_chars, ids + CANDS[0]!.text.length + CANDS[1]!.text.length + 2_000 - '\n…[truncated]'.length);
    assert.deepEqual(r.thresholds, { auto_accept: 0.8 });
  });

  test('ties: the chosen option ranks first among equals, then option order', async () => {
    const answers = { best: { type: 'choice', choice: 'candidate_2', confidence: 0.3, probabilities: { candidate_0: 0.45, candidate_1: 0.1, candidate_2: 0.45 } }, exists: noul(0.9) };
    const r = okResult(await h.run('jev_rank', { query: QUERY, candidates: CANDS }, answers));
    assert.equal(r.winner, 'src/auth/login.ts');
    assert.deepEqual(r.top.map((t: { id: string }) => t.id), ['src/auth/login.ts', 'src/auth/rotate.ts', 'docs/billing.md']);
  });

  /** Answers a tournament: `winner` (a label) when offered, else the first option; the rest share 0.1 evenly. */
  const tournament = (winner: string, exists = 0.9) => (questions: Record<string, any>): Answers => {
    const labels = Object.keys(questions.best.criteria);
    const chosen = labels.includes(winner) ? winner : labels[0]!;
    return { best: pick(labels, chosen, 0.9, 0.95), exists: noul(exists) };
  };

  test('tournament: 300 candidates → batches of 250 and 50, top 5 of each advance, final of 10; usage summed', async () => {
    const cands = Array.from({ length: 300 }, (_, i) => ({ id: `c-${i}`, text: `candidate text ${i}` }));
    const run = await h.run('jev_rank', { query: 'which one', candidates: cands }, tournament('candidate_123'));
    const r = okResult(run);
    const sizes = run.requests.map((q) => Object.keys(q.body.questions.best.criteria).length);
    assert.deepEqual(sizes, [250, 50, 10]);
    // Ties keep option order after the chosen option, so batch 1 keeps 123, 0, 1, 2, 3 and batch 2 keeps 250–254.
    assert.deepEqual(Object.keys(run.requests[2]!.body.questions.best.criteria), ['candidate_123', 'candidate_0', 'candidate_1', 'candidate_2', 'candidate_3', 'candidate_250', 'candidate_251', 'candidate_252', 'candidate_253', 'candidate_254']);
    assert.equal(r.winner, 'c-123');
    assert.deepEqual([r.chunked, r.chunks, r.action], [true, 2, 'auto']);
    assert.deepEqual(r.usage, { input_tokens: 300, output_tokens: 6 });
    assert.equal(r.top.length, 5);
  });

  test('tournament: a singleton batch advances without a request; exists comes from the final round only', async () => {
    const cands = Array.from({ length: 251 }, (_, i) => ({ id: `c-${i}`, text: `t${i}` }));
    let n = 0;
    const plan = (questions: Record<string, any>): Answers => ({ ...tournament('candidate_250')(questions), exists: noul(n++ === 0 ? 0.99 : 0.5) });
    const run = await h.run('jev_rank', { query: 'which one', candidates: cands }, plan);
    const r = okResult(run);
    assert.deepEqual(run.requests.map((q) => Object.keys(q.body.questions.best.criteria).length), [250, 6]);
    assert.equal(r.winner, 'c-250');
    assert.deepEqual([r.exists, r.exists_verdict, r.action], [0.5, 'partial', 'review']);
  });
});

// ---------------------------------------------------------------------------------------------------
// jev_evaluate

describe('jev_evaluate: worst of noul and min-confidence actions, guard, env thresholds only', () => {
  const QUESTIONS = {
    urgent: { type: 'noul', instructions: 'Is this urgent?', criteria: { true: 'Time-sensitive', false: 'No hurry' } },
    team: { type: 'choice', instructions: 'Which team owns this?', criteria: { billing: 'Payments', technical: 'Bugs' } },
    severity: { type: 'score', instructions: 'How bad is it?', criteria: ['Low', 'Medium', 'High'] },
  };
  const STATE = { ticket: 'Invoice total is wrong since yesterday' };
  const team = (chosen: string, peak: number, confidence = peak) => ({ team: pick(['billing', 'technical'], chosen, peak, confidence) });
  const confident = (over: Answers = {}): Answers => ({ urgent: noul(0.95), ...team('billing', 0.96, 0.95), severity: score(3, [0.02, 0.03, 0.95], 0.95), ...over });
  const rows: Array<{ name: string; answers: Answers; options?: RunOptions; action: string }> = [
    { name: 'all confident → auto', answers: confident(), action: 'auto' },
    { name: 'noul exactly 0.9 (peak ≥ 0.5 + a/2) → auto', answers: confident({ urgent: noul(0.9) }), action: 'auto' },
    { name: 'a confident "no" (0.1) → auto', answers: confident({ urgent: noul(0.1) }), action: 'auto' },
    { name: 'noul 0.89 → review', answers: confident({ urgent: noul(0.89) }), action: 'review' },
    { name: 'noul exactly 0.75 (peak = 0.5 + r/2) → review', answers: confident({ urgent: noul(0.75) }), action: 'review' },
    { name: 'noul 0.74 → escalate', answers: confident({ urgent: noul(0.74) }), action: 'escalate' },
    { name: 'noul 0.5 → escalate', answers: confident({ urgent: noul(0.5) }), action: 'escalate' },
    { name: 'choice confidence exactly 0.8, guard at its bound (n=2: 0.9) → auto', answers: confident(team('billing', 0.9, 0.8)), action: 'auto' },
    { name: 'choice confidence 0.79 → review', answers: confident(team('billing', 0.96, 0.79)), action: 'review' },
    { name: 'choice confidence exactly 0.5 → review', answers: confident(team('billing', 0.96, 0.5)), action: 'review' },
    { name: 'choice confidence 0.49 → escalate', answers: confident(team('billing', 0.96, 0.49)), action: 'escalate' },
    { name: 'guard: choice reported 0.95 over {0.6, 0.4} → review', answers: confident(team('billing', 0.6, 0.95)), action: 'review' },
    { name: 'min of choice/score confidences: severity 0.7 → review', answers: confident({ severity: score(3, [0.02, 0.03, 0.95], 0.7) }), action: 'review' },
    { name: 'worst of all: a weak noul escalates despite confident choices', answers: confident({ urgent: noul(0.6) }), action: 'escalate' },
    { name: 'incomplete context → review', answers: confident(), options: { usage: OVER_BUDGET }, action: 'review' },
    { name: 'env floors a 0.9 / r 0.6: noul 0.92 → review', answers: confident({ urgent: noul(0.92) }), options: { floors: { auto_accept: 0.9, review_at: 0.6 } }, action: 'review' },
  ];
  for (const row of rows) {
    test(row.name, async () => {
      const run = await h.run('jev_evaluate', { state: STATE, questions: QUESTIONS }, row.answers, row.options);
      const r = okResult(run);
      assert.equal(run.requests.length, 1, 'one request');
      assert.equal(r.action, row.action);
    });
  }

  test('questions and state are sent as given; answers come back verbatim', async () => {
    const answers = confident();
    const run = await h.run('jev_evaluate', { state: STATE, questions: QUESTIONS, model: 'jev-x' }, answers);
    const r = okResult(run);
    assert.deepEqual(run.requests[0]!.body.questions, QUESTIONS);
    assert.deepEqual(run.requests[0]!.body.state, STATE);
    assert.equal(run.requests[0]!.body.model, 'jev-x');
    assert.deepEqual(r.answers, answers);
  });

  test('no per-call thresholds: auto_accept is an unknown field → INVALID_INPUT, no request', async () => {
    const run = await h.run('jev_evaluate', { state: STATE, questions: QUESTIONS, auto_accept: 0.5 }, confident());
    failed(run, 'INVALID_INPUT', false);
    assert.equal(run.requests.length, 0, 'no upstream request');
  });
});

// ---------------------------------------------------------------------------------------------------
// judgevet tools

describe('judgevet tools over HTTP', () => {
  test('ask_noul: one noul question named noul_question, host model, P(true) returned verbatim', async () => {
    const run = await h.run('ask_noul', { state: { diff: '+ x' }, instruction: 'Is the change safe?' }, { noul_question: noul(0.37) });
    const r = okResult(run);
    assert.deepEqual(run.requests[0]!.body.questions, { noul_question: { type: 'noul', instructions: 'Is the change safe?' } });
    assert.deepEqual(run.requests[0]!.body.state, { diff: '+ x' });
    assert.equal(run.requests[0]!.body.model, 'jev-latest');
    assert.deepEqual(r, { noul: 0.37, model: 'jev-test-1', usage: { input_tokens: 100, output_tokens: 1 } });
  });

  test('ask_choice: default criteria yes/no; custom criteria with a null description', async () => {
    const byDefault = await h.run('ask_choice', { state: 's', instruction: 'Ship it?' }, { choice_question: pick(['yes', 'no'], 'no', 0.8, 0.7) });
    assert.deepEqual(byDefault.requests[0]!.body.questions.choice_question.criteria, { yes: 'Yes', no: 'No' });
    const r = okResult(byDefault);
    assert.deepEqual([r.choice, r.confidence], ['no', 0.7]);
    close(r.probabilities.yes, 0.2, 'P(yes)');
    const custom = await h.run('ask_choice', { state: 's', instruction: 'Team?', criteria: { billing: 'Payments', technical: null } }, { choice_question: pick(['billing', 'technical'], 'technical', 0.9) });
    assert.deepEqual(custom.requests[0]!.body.questions.choice_question.criteria, { billing: 'Payments', technical: null });
    assert.equal(okResult(custom).choice, 'technical');
  });

  test('ask_score: default rubric sets default_criteria; custom levels do not', async () => {
    const byDefault = await h.run('ask_score', { state: 's', instruction: 'Quality?' }, { score_question: score(4, [0, 0, 0.5, 0.5], 0.6) });
    assert.deepEqual(byDefault.requests[0]!.body.questions.score_question.criteria, ['Poor', 'Fair', 'Good', 'Excellent']);
    const r = okResult(byDefault);
    assert.deepEqual([r.score, r.confidence, r.default_criteria], [2.5, 0.6, true]);
    const custom = await h.run('ask_score', { state: 's', instruction: 'Urgency?', criteria: ['Low', 'High'] }, { score_question: score(2, [0.25, 0.75]) });
    assert.deepEqual([okResult(custom).score, okResult(custom).default_criteria], [0.75, false]);
  });

  const POLICY_QUESTIONS = {
    approve: { type: 'noul', instructions: 'Is the staged change acceptable?' },
    team: { type: 'choice', instructions: 'Which team?', criteria: { billing: 'Payments', technical: 'Bugs' } },
    quality: { type: 'score', instructions: 'Quality?', criteria: ['poor', 'fair', 'good'] },
  };
  const POLICY = {
    rules: [
      { question: 'approve', pass: { noul: { min: 0.8 } } },
      { question: 'team', pass: { choice: 'billing', confidence: { min: 0.5 } } },
      { question: 'quality', pass: { score: { min: 1, max: 2 }, confidence: { min: 0.5 } } },
    ],
  };
  const policyAnswers = (over: Answers = {}): Answers => ({
    approve: noul(0.9),
    team: pick(['billing', 'technical'], 'billing', 0.9),
    quality: score(3, [0, 0.5, 0.5], 0.8),
    ...over,
  });
  const rows: Array<{ name: string; answers: Answers; result: string; details: string[] }> = [
    {
      name: 'every rule met → pass',
      answers: policyAnswers(),
      result: 'pass',
      details: ['noul 0.9 >= 0.8 -> pass', "choice 'billing' == 'billing' and confidence 0.9 >= 0.5 -> pass", 'score 1.5 >= 1.0 and score 1.5 <= 2.0 and confidence 0.8 >= 0.5 -> pass'],
    },
    {
      name: 'noul exactly at min passes (inclusive)',
      answers: policyAnswers({ approve: noul(0.8) }),
      result: 'pass',
      details: ['noul 0.8 >= 0.8 -> pass', "choice 'billing' == 'billing' and confidence 0.9 >= 0.5 -> pass", 'score 1.5 >= 1.0 and score 1.5 <= 2.0 and confidence 0.8 >= 0.5 -> pass'],
    },
    {
      name: 'an unmet rule is a result (fail), and every rule is still reported',
      answers: policyAnswers({ approve: noul(0.79), team: pick(['billing', 'technical'], 'technical', 0.7, 0.4) }),
      result: 'fail',
      details: ['noul 0.79 >= 0.8 -> fail', "choice 'technical' == 'billing' and confidence 0.4 >= 0.5 -> fail", 'score 1.5 >= 1.0 and score 1.5 <= 2.0 and confidence 0.8 >= 0.5 -> pass'],
    },
    {
      name: 'score confidence below its minimum fails that rule only',
      answers: policyAnswers({ quality: score(3, [0, 0.5, 0.5], 0.4) }),
      result: 'fail',
      details: ['noul 0.9 >= 0.8 -> pass', "choice 'billing' == 'billing' and confidence 0.9 >= 0.5 -> pass", 'score 1.5 >= 1.0 and score 1.5 <= 2.0 and confidence 0.4 >= 0.5 -> fail'],
    },
  ];
  for (const row of rows) {
    test(`evaluate_policy: ${row.name}`, async () => {
      const run = await h.run('evaluate_policy', { state: 'diff --git a/x b/x', questions: POLICY_QUESTIONS, policy: POLICY }, row.answers);
      const r = okResult(run);
      assert.equal(run.requests.length, 1, 'one request for every question');
      assert.deepEqual(questionIds(run.requests[0]!), ['approve', 'team', 'quality']);
      assert.equal(r.policy.result, row.result);
      assert.deepEqual(r.policy.rules.map((x: { detail: string }) => x.detail), row.details);
      assert.deepEqual(r.policy.rules.map((x: { pass: boolean }) => x.pass), row.details.map((d) => d.endsWith('-> pass')));
      assert.deepEqual(r.answers.approve, { name: 'approve', type: 'noul', noul: (row.answers.approve as { noul: number }).noul });
    });
  }

  test('evaluate_policy: a rule on an unknown question is INVALID_INPUT before any request', async () => {
    const run = await h.run('evaluate_policy', { state: 's', questions: POLICY_QUESTIONS, policy: { rules: [{ question: 'nope', pass: { noul: { min: 0.5 } } }] } }, policyAnswers());
    failed(run, 'INVALID_INPUT', false);
    assert.equal(run.requests.length, 0, 'no upstream request');
  });
});

// ---------------------------------------------------------------------------------------------------
// Provider budget check

describe('provider budget check: more than 64 000 reported input tokens is never auto', () => {
  const PASS = { injection: noul(0.05), substance: noul(0.9) };
  test('64 000 input tokens is within budget; 64 001 marks the result truncated and incomplete', async () => {
    const within = okResult(await h.run('jev_screen', { text: 't' }, PASS, { usage: { input_tokens: 64_000, output_tokens: 2 } }));
    assert.deepEqual([within.action, within.truncated, within.coverage.complete], ['auto', false, true]);
    const over = okResult(await h.run('jev_screen', { text: 't' }, PASS, { usage: OVER_BUDGET }));
    assert.deepEqual([over.action, over.recommendation.action, over.truncated, over.coverage.complete], ['review', 'review', true, false]);
  });

  // Known bug (reported, not fixed here): judge() trusts a `largest_request_input_tokens` field read from the
  // provider body — meant for the openai provider — so a System One upstream that sends it lifts the check.
  test('an upstream body cannot lift the check with its own largest_request_input_tokens field', async () => {
    const start = h.fake.count();
    h.fake.script({ status: 200, body: { model: 'jev-test-1', usage: { input_tokens: 70_000, output_tokens: 2 }, largest_request_input_tokens: 0, answers: { injection: PASS.injection, substance: PASS.substance } } });
    const outcome = await h.service().call('jev_screen', { text: 't' });
    assert.equal(h.fake.count(), start + 1, 'one request');
    const r = okResult({ outcome, requests: [] });
    assert.deepEqual([r.action, r.truncated, r.coverage.complete], ['review', true, false]);
  });
});
