/**
 * Decision orders of the routing tools over real HTTP: jev_coding_loop's 14
 * partner-routing steps, jev_tool_route's eligibility and selection reasons, jev_step's handoff resolution —
 * each driven through JudgmentService → SystemOneProvider → the fake System One server on 127.0.0.1 with
 * answers scripted per question id. Expected outcomes come from the rules as the
 * policies' docstrings (src/policy/) and docs/decisions.md state them, not from running the code. Boundaries are inclusive.
 */
// Every assert.ok carries a message: without one node's assert re-reads the source to describe a failure.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { noul, score } from '../helpers/fake-systemone';
import { failed, okResult, pick, questionIds, startDecisionHarness, type Answers, type DecisionHarness, type RunOptions } from '../helpers/decision-harness';

const NEXT = ['continue', 'retry', 'ask_user', 'stop'];
const TIERS = ['cheap', 'standard', 'reasoning'];
const FOCUS = ['edit', 'search', 'test', 'read', 'plan'];
const LOOP_IDS = ['next', 'model_tier', 'risk', 'done_enough', 'needs_more_context', 'needs_generation', 'tests_likely_fail', 'focus'];

/**
 * Coding-loop answers under which every partner check passes, even at auto_accept 0.9 (guards: n=4 needs
 * a peak ≥ 0.925, n=3 ≥ 0.9333): continue, low risk 0.05, standard tier, generation needed.
 */
function loop(over: Answers = {}): Answers {
  return {
    next: pick(NEXT, 'continue', 0.97, 0.95),
    model_tier: pick(TIERS, 'standard', 0.96, 0.95),
    focus: pick(FOCUS, 'edit', 0.9),
    risk: score(3, [0.96, 0.03, 0.01], 0.95),
    done_enough: noul(0.1),
    needs_more_context: noul(0.05),
    needs_generation: noul(0.95),
    tests_likely_fail: noul(0.3),
    ...over,
  };
}
const next = (choice: string, peak: number, confidence = peak) => ({ next: pick(NEXT, choice, peak, confidence) });
const tier = (choice: string, peak: number, confidence = peak) => ({ model_tier: pick(TIERS, choice, peak, confidence) });

const TASK = { task: 'Fix the parser empty-input bug', observation: 'parser.test.ts fails: empty input throws TypeError' };
const READY = { ...TASK, execution: { context_complete: true, failed_attempts: 0 } };
/** Provider reports more input tokens than the 64 000 budget → incomplete context. */
const OVER_BUDGET = { input_tokens: 64_001, output_tokens: 8 };

let h: DecisionHarness;
before(async () => {
  h = await startDecisionHarness();
});
after(async () => {
  await h.close();
});

// ---------------------------------------------------------------------------------------------------

interface LoopRow {
  name: string;
  args?: Record<string, unknown>;
  answers?: Answers;
  options?: RunOptions;
  action: string;
  handoff: string;
  reason: string;
  /** Tier of a required partner; absent → required false, tier none. */
  partner?: string;
}

const partnerOf = (r: { partner?: string; reason: string }) =>
  r.partner ? { required: true, tier: r.partner, reason_codes: [r.reason] } : { required: false, tier: 'none', reason_codes: [r.reason] };

describe('jev_coding_loop: partner routing, first match wins', () => {
  const low = { floors: { auto_accept: 0.7 } }; // partner floor P stays 0.8 above a = 0.7: steps 8/9 become reachable
  const rows: LoopRow[] = [
    { name: '14: every check passes → partner_model with the judged tier', action: 'auto', handoff: 'partner_model', reason: 'generation_required', partner: 'standard' },
    { name: '14: retry counts like continue', answers: next('retry', 0.97, 0.95), action: 'auto', handoff: 'partner_model', reason: 'generation_required', partner: 'standard' },
    { name: '14: tier reasoning', answers: tier('reasoning', 0.96, 0.95), action: 'auto', handoff: 'partner_model', reason: 'generation_required', partner: 'reasoning' },
    { name: '1: provider over budget → incomplete → gather_context (auto → review)', options: { usage: OVER_BUDGET }, action: 'review', handoff: 'gather_context', reason: 'incomplete_context' },
    { name: '1 outranks 2: incomplete stop', answers: { ...next('stop', 0.97, 0.95), done_enough: noul(0.9) }, options: { usage: OVER_BUDGET }, action: 'review', handoff: 'gather_context', reason: 'incomplete_context' },
    { name: '2: confident stop, done_enough 0.9 → stop', answers: { ...next('stop', 0.97, 0.95), done_enough: noul(0.9) }, action: 'auto', handoff: 'stop', reason: 'terminal_stop' },
    { name: '2: done_enough exactly 0.7 still stops (inclusive)', answers: { ...next('stop', 0.97, 0.95), done_enough: noul(0.7) }, action: 'auto', handoff: 'stop', reason: 'terminal_stop' },
    { name: '2: done_enough 0.69 → stop needs review', answers: { ...next('stop', 0.97, 0.95), done_enough: noul(0.69) }, action: 'review', handoff: 'review', reason: 'stop_requires_review' },
    { name: '2: stop with a flat distribution → review', answers: { ...next('stop', 0.4, 0.95), done_enough: noul(0.9) }, action: 'review', handoff: 'review', reason: 'stop_requires_review' },
    { name: '3: confident ask_user → ask_user (action always review)', answers: next('ask_user', 0.97, 0.95), action: 'review', handoff: 'ask_user', reason: 'user_input_required' },
    { name: '3: ask_user at exactly auto_accept, guard exactly at its bound (inclusive)', answers: next('ask_user', 0.85, 0.8), action: 'review', handoff: 'ask_user', reason: 'user_input_required' },
    { name: '3: ask_user confidence 0.79 → uncertain', answers: next('ask_user', 0.97, 0.79), action: 'review', handoff: 'review', reason: 'next_step_uncertain' },
    { name: '3: ask_user reported 0.95 over a flat distribution (guard) → uncertain', answers: next('ask_user', 0.4, 0.95), action: 'review', handoff: 'review', reason: 'next_step_uncertain' },
    // Step 4 (next outside continue/retry/ask_user/stop) cannot be reached over HTTP: validation rejects off-list choices.
    { name: '5: next confidence 0.79 (between review_at and auto_accept) → review', answers: next('continue', 0.97, 0.79), action: 'review', handoff: 'review', reason: 'coding_policy_requires_review' },
    { name: '5: next confidence exactly review_at 0.5 → review, not escalate', answers: next('continue', 0.97, 0.5), action: 'review', handoff: 'review', reason: 'coding_policy_requires_review' },
    { name: '5: next confidence 0.49 → escalate', answers: next('continue', 0.97, 0.49), action: 'escalate', handoff: 'review', reason: 'coding_policy_requires_review' },
    { name: '5: next confidence exactly auto_accept 0.8 → auto (then partner)', answers: next('continue', 0.97, 0.8), action: 'auto', handoff: 'partner_model', reason: 'generation_required', partner: 'standard' },
    { name: '5: concentration guard — next reported 0.95 over a flat distribution → not auto', answers: next('continue', 0.4, 0.95), action: 'review', handoff: 'review', reason: 'coding_policy_requires_review' },
    { name: '5: concentration guard — risk reported 0.95 over a flat distribution → not auto', answers: { risk: score(3, [0.7, 0.2, 0.1], 0.95) }, action: 'review', handoff: 'review', reason: 'coding_policy_requires_review' },
    { name: '5: risk exactly 1.5 with a confident next → review', answers: { risk: score(3, [0.25, 0, 0.75], 0.95) }, action: 'review', handoff: 'review', reason: 'coding_policy_requires_review' },
    { name: '5: risk exactly 1.5 with next below auto_accept → escalate', answers: { ...next('continue', 0.97, 0.7), risk: score(3, [0.25, 0, 0.75], 0.95) }, action: 'escalate', handoff: 'review', reason: 'coding_policy_requires_review' },
    { name: '5: risk 1.49 with next below auto_accept → review (not high risk)', answers: { ...next('continue', 0.97, 0.7), risk: score(3, [0.255, 0, 0.745], 0.95) }, action: 'review', handoff: 'review', reason: 'coding_policy_requires_review' },
    { name: '5: risk exactly 1.2 is not low risk → review', answers: { risk: score(3, [0.1, 0.6, 0.3], 0.95) }, action: 'review', handoff: 'review', reason: 'coding_policy_requires_review' },
    { name: '5: risk 1.13 (concentrated on level 1) is low → auto, partner', answers: { risk: score(3, [0, 0.87, 0.13], 0.95) }, action: 'auto', handoff: 'partner_model', reason: 'generation_required', partner: 'standard' },
    { name: '6: two failed attempts → gather_context first', args: { ...TASK, execution: { context_complete: true, failed_attempts: 2 } }, action: 'auto', handoff: 'gather_context', reason: 'repeated_failures' },
    { name: '6: one failed attempt does not stop the partner', args: { ...TASK, execution: { context_complete: true, failed_attempts: 1 } }, action: 'auto', handoff: 'partner_model', reason: 'generation_required', partner: 'standard' },
    { name: '6 outranks 7: failures beat a prepared call', args: { ...TASK, execution: { context_complete: true, failed_attempts: 2, prepared_tool_call: true } }, action: 'auto', handoff: 'gather_context', reason: 'repeated_failures' },
    { name: '7: prepared call → use_tools', args: { ...TASK, execution: { context_complete: true, prepared_tool_call: true } }, action: 'auto', handoff: 'use_tools', reason: 'prepared_tool_call' },
    { name: '7: prepared call routes to tools even before host context is complete', args: { ...TASK, execution: { prepared_tool_call: true } }, action: 'auto', handoff: 'use_tools', reason: 'prepared_tool_call' },
    { name: '8: risk confidence 0.75 ≥ a=0.7 but < P=0.8 → risk_uncertain', answers: { risk: score(3, [0.9, 0.07, 0.03], 0.75) }, options: low, action: 'auto', handoff: 'review', reason: 'risk_uncertain' },
    { name: '8: risk distribution passes the guard at 0.7, fails it at 0.8 → risk_uncertain', answers: { risk: score(3, [0.83, 0.12, 0.05], 0.95) }, options: low, action: 'auto', handoff: 'review', reason: 'risk_uncertain' },
    { name: '9: next confidence 0.75 ≥ a=0.7 but < P=0.8 → next_step_uncertain', answers: next('continue', 0.97, 0.75), options: low, action: 'auto', handoff: 'review', reason: 'next_step_uncertain' },
    { name: '8 outranks 9', answers: { ...next('continue', 0.97, 0.75), risk: score(3, [0.9, 0.07, 0.03], 0.75) }, options: low, action: 'auto', handoff: 'review', reason: 'risk_uncertain' },
    { name: '10: context_complete false → gather_context', args: { ...TASK, execution: { context_complete: false } }, action: 'auto', handoff: 'gather_context', reason: 'host_context_incomplete' },
    { name: '10: no execution facts default to context not complete', args: TASK, action: 'auto', handoff: 'gather_context', reason: 'host_context_incomplete' },
    { name: '11: needs_more_context exactly 0.2 at P=0.8 passes (inclusive)', answers: { needs_more_context: noul(0.2) }, action: 'auto', handoff: 'partner_model', reason: 'generation_required', partner: 'standard' },
    { name: '11: needs_more_context 0.21 → context_needed_or_uncertain', answers: { needs_more_context: noul(0.21) }, action: 'auto', handoff: 'gather_context', reason: 'context_needed_or_uncertain' },
    { name: '12: needs_generation 0.1 → generation_not_required', answers: { needs_generation: noul(0.1) }, action: 'auto', handoff: 'gather_context', reason: 'generation_not_required' },
    { name: '12: needs_generation exactly 0.2 (1 − p = P) → generation_not_required', answers: { needs_generation: noul(0.2) }, action: 'auto', handoff: 'gather_context', reason: 'generation_not_required' },
    { name: '12: needs_generation 0.5 → generation_need_uncertain', answers: { needs_generation: noul(0.5) }, action: 'auto', handoff: 'gather_context', reason: 'generation_need_uncertain' },
    { name: '12: needs_generation 0.79 → generation_need_uncertain', answers: { needs_generation: noul(0.79) }, action: 'auto', handoff: 'gather_context', reason: 'generation_need_uncertain' },
    { name: '12: needs_generation exactly 0.8 passes (inclusive)', answers: { needs_generation: noul(0.8) }, action: 'auto', handoff: 'partner_model', reason: 'generation_required', partner: 'standard' },
    { name: '13: tier confidence 0.79 → model_tier_uncertain', answers: tier('standard', 0.96, 0.79), action: 'auto', handoff: 'review', reason: 'model_tier_uncertain' },
    { name: '13: tier reported 0.95 over a flat distribution → model_tier_uncertain', answers: tier('standard', 0.5, 0.95), action: 'auto', handoff: 'review', reason: 'model_tier_uncertain' },
    { name: '13: tier confidence exactly 0.8 with the guard exactly at its bound (1/3 + 2/3·0.8) → partner', answers: tier('cheap', 1 / 3 + (1 - 1 / 3) * 0.8, 0.8), action: 'auto', handoff: 'partner_model', reason: 'generation_required', partner: 'cheap' },
  ];
  for (const row of rows) {
    test(row.name, async () => {
      const run = await h.run('jev_coding_loop', row.args ?? READY, loop(row.answers), row.options);
      const r = okResult(run);
      assert.equal(run.requests.length, 1, 'one request');
      assert.deepEqual({ action: r.action, handoff: r.handoff, partner_model: r.partner_model }, { action: row.action, handoff: row.handoff, partner_model: partnerOf(row) });
    });
  }

  test('request: the 8 coding-loop questions, host facts in the state, default model; reported signals verbatim', async () => {
    const answers = loop({ tests_likely_fail: noul(0.42) });
    const run = await h.run('jev_coding_loop', { ...READY, extras: { branch: 'fix/parser' } }, answers);
    const r = okResult(run);
    const body = run.requests[0]!.body;
    assert.equal(run.requests[0]!.path, '/v1/systemone');
    assert.deepEqual(questionIds(run.requests[0]!).sort(), [...LOOP_IDS].sort());
    assert.equal(body.model, 'jev-latest');
    assert.deepEqual(body.state.execution, { prepared_tool_call: false, context_complete: true, failed_attempts: 0 });
    assert.deepEqual(body.state.extras, { branch: 'fix/parser' });
    assert.equal(r.model, 'jev-test-1');
    assert.equal(r.tests_likely_fail, 0.42);
    assert.deepEqual(r.next, { choice: 'continue', confidence: 0.95, probabilities: (answers.next as { probabilities: unknown }).probabilities });
    assert.equal(r.truncated, false);
    assert.equal(r.coverage.complete, true);
    assert.deepEqual(r.thresholds, { auto_accept: 0.8, review_at: 0.5, partner_auto_accept: 0.8 });
  });

  test('1: a state over budget is really truncated (sent as a cut string) → incomplete_context', async () => {
    const run = await h.run('jev_coding_loop', { ...READY, observation: 'x'.repeat(140_000) }, loop());
    const r = okResult(run);
    const state = run.requests[0]!.body.state;
    assert.equal(typeof state, 'string', 'a truncated state travels as text');
    assert.ok((state as string).endsWith('…[truncated]'), 'the truncation marker ends the state');
    assert.ok((state as string).length < 140_000, 'the state was cut');
    assert.equal(r.truncated, true);
    assert.equal(r.coverage.complete, false);
    assert.deepEqual([r.action, r.handoff, r.partner_model.reason_codes], ['review', 'gather_context', ['incomplete_context']]);
  });

  test('per-call model is trimmed and sent', async () => {
    const run = await h.run('jev_coding_loop', { ...READY, model: '  jev-custom-2 ' }, loop());
    okResult(run);
    assert.equal(run.requests[0]!.body.model, 'jev-custom-2');
  });
});

describe('jev_coding_loop: tightening (per-call values may only raise)', () => {
  const rows: Array<{ name: string; args: Record<string, unknown>; answers?: Answers; floors?: { auto_accept?: number; review_at?: number }; action: string; handoff: string; thresholds: number[] }> = [
    { name: 'auto_accept 0.9 raises the floor: next 0.85 is no longer auto', args: { ...READY, auto_accept: 0.9 }, answers: next('continue', 0.97, 0.85), action: 'review', handoff: 'review', thresholds: [0.9, 0.5, 0.9] },
    { name: 'auto_accept 0.9 raises the partner floor too; strong answers still reach the partner', args: { ...READY, auto_accept: 0.9 }, action: 'auto', handoff: 'partner_model', thresholds: [0.9, 0.5, 0.9] },
    { name: 'auto_accept 0.9: needs_more_context 0.15 now exceeds 1 − 0.9', args: { ...READY, auto_accept: 0.9 }, answers: { needs_more_context: noul(0.15) }, action: 'auto', handoff: 'gather_context', thresholds: [0.9, 0.5, 0.9] },
    { name: 'auto_accept 0.93: needs_more_context exactly 0.07 (1 − p = P) passes despite binary rounding', args: { ...READY, auto_accept: 0.93 }, answers: { needs_more_context: noul(0.07) }, action: 'auto', handoff: 'partner_model', thresholds: [0.93, 0.5, 0.93] },
    { name: 'auto_accept 0.93: needs_generation exactly 0.07 (1 − p = P) → generation_not_required', args: { ...READY, auto_accept: 0.93 }, answers: { needs_generation: noul(0.07) }, action: 'auto', handoff: 'gather_context', thresholds: [0.93, 0.5, 0.93] },
    { name: 'auto_accept 0.6 is ignored (cannot lower): next 0.7 stays review', args: { ...READY, auto_accept: 0.6 }, answers: next('continue', 0.97, 0.7), action: 'review', handoff: 'review', thresholds: [0.8, 0.5, 0.8] },
    { name: 'review_at 0.7 raises: next 0.65 escalates', args: { ...READY, review_at: 0.7 }, answers: next('continue', 0.97, 0.65), action: 'escalate', handoff: 'review', thresholds: [0.8, 0.7, 0.8] },
    { name: 'review_at 0.3 is ignored (cannot lower): next 0.4 escalates', args: { ...READY, review_at: 0.3 }, answers: next('continue', 0.97, 0.4), action: 'escalate', handoff: 'review', thresholds: [0.8, 0.5, 0.8] },
    { name: 'env floor auto_accept 0.7: partner floor stays max(0.8, a)', args: READY, floors: { auto_accept: 0.7 }, action: 'auto', handoff: 'partner_model', thresholds: [0.7, 0.5, 0.8] },
  ];
  for (const row of rows) {
    test(row.name, async () => {
      const r = okResult(await h.run('jev_coding_loop', row.args, loop(row.answers), { floors: row.floors }));
      assert.deepEqual([r.action, r.handoff], [row.action, row.handoff]);
      assert.deepEqual([r.thresholds.auto_accept, r.thresholds.review_at, r.thresholds.partner_auto_accept], row.thresholds);
    });
  }
  for (const [name, extra] of [
    ['an inverted caller pair (0.6 / 0.7) is INVALID_INPUT even though tightening would fix it', { auto_accept: 0.6, review_at: 0.7 }],
    ['review_at 0.9 alone inverts the tightened pair (0.8 / 0.9) → INVALID_INPUT', { review_at: 0.9 }],
  ] as const) {
    test(name, async () => {
      const run = await h.run('jev_coding_loop', { ...READY, ...extra }, loop());
      failed(run, 'INVALID_INPUT', false);
      assert.equal(run.requests.length, 0, 'no upstream request');
    });
  }
});

// ---------------------------------------------------------------------------------------------------
// Prepared calls

interface Cand {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  description: string;
  effect: string;
  authorized?: boolean;
  schema_valid?: boolean;
  preconditions_met?: boolean;
  failed_attempts?: number;
}
const SECRET_ARG = 'src/parser.ts#argument-value-7f3c';
function cand(id: string, over: Partial<Cand> = {}): Cand {
  return {
    id,
    name: 'read_file',
    arguments: { path: SECRET_ARG, lines: [1, 200] },
    description: `Read the parser implementation (${id})`,
    effect: 'read_only',
    authorized: true,
    schema_valid: true,
    preconditions_met: true,
    ...over,
  };
}
/** `selected` over none + n eligible calls. */
const sel = (n: number, chosen: string, peak: number, confidence = peak) => ({
  selected: pick(['none', ...Array.from({ length: n }, (_, i) => `call_${i}`)], chosen, peak, confidence),
});
/** Confident selection of call_i among n with suitability s. */
const chose = (n: number, i: number, s = 0.95, peak = 0.97, confidence = 0.95) => ({ ...sel(n, `call_${i}`, peak, confidence), [`suitable_${i}`]: noul(s) });

describe('jev_tool_route: eligibility, then selection reasons in order', () => {
  const route = (candidates: Cand[], extra: Record<string, unknown> = {}) => ({ task: TASK.task, observation: TASK.observation, candidates, ...extra });
  const one = [cand('read-parser')];

  const rows: Array<{ name: string; candidates?: Cand[]; args?: Record<string, unknown>; answers: Answers; options?: RunOptions; action: string; handoff: string; reasons: string[]; call?: boolean }> = [
    { name: 'accept: confident selection and suitability, read_only → execute_tool with the exact call', answers: chose(1, 0), action: 'auto', handoff: 'execute_tool', reasons: ['accepted'], call: true },
    { name: 'local_write dispatches too', candidates: [cand('edit', { effect: 'local_write' })], answers: chose(1, 0), action: 'auto', handoff: 'execute_tool', reasons: ['accepted'], call: true },
    { name: 'selection confidence exactly 0.8, guard exactly at its bound (n=2: 0.9) → dispatch', answers: chose(1, 0, 0.95, 0.9, 0.8), action: 'auto', handoff: 'execute_tool', reasons: ['accepted'], call: true },
    { name: 'suitability exactly 0.8 → dispatch (inclusive)', answers: chose(1, 0, 0.8), action: 'auto', handoff: 'execute_tool', reasons: ['accepted'], call: true },
    { name: 'incomplete (provider over budget) → review', answers: chose(1, 0), options: { usage: OVER_BUDGET }, action: 'review', handoff: 'gather_context', reasons: ['incomplete_context'] },
    { name: 'a description over 2 000 chars is clipped → incomplete_context', candidates: [cand('read-parser', { description: 'd'.repeat(2_001) })], answers: chose(1, 0), action: 'review', handoff: 'gather_context', reasons: ['incomplete_context'] },
    { name: 'selection confidence 0.79 → selection_uncertain', answers: chose(1, 0, 0.95, 0.97, 0.79), action: 'review', handoff: 'gather_context', reasons: ['selection_uncertain'] },
    { name: 'concentration guard: selection reported 0.95 over {none .3, call_0 .7} → selection_uncertain', answers: chose(1, 0, 0.95, 0.7, 0.95), action: 'review', handoff: 'gather_context', reasons: ['selection_uncertain'] },
    { name: 'confident none → no_suitable_call', answers: sel(1, 'none', 0.97, 0.95), action: 'review', handoff: 'gather_context', reasons: ['no_suitable_call'] },
    { name: 'suitability 0.79 → suitability_uncertain', answers: chose(1, 0, 0.79), action: 'review', handoff: 'gather_context', reasons: ['suitability_uncertain'] },
    { name: 'external_write always needs review → handoff review', candidates: [cand('post', { effect: 'external_write' })], answers: chose(1, 0), action: 'review', handoff: 'review', reasons: ['effect_requires_review'] },
    { name: 'destructive always needs review → handoff review', candidates: [cand('rm', { effect: 'destructive' })], answers: chose(1, 0), action: 'review', handoff: 'review', reasons: ['effect_requires_review'] },
    { name: 'selection confidence 0.45 < review_at → escalate (no partner)', answers: chose(1, 0, 0.95, 0.97, 0.45), action: 'escalate', handoff: 'gather_context', reasons: ['selection_uncertain'] },
    { name: 'selection confidence exactly review_at 0.5 → review, not escalate', answers: chose(1, 0, 0.95, 0.97, 0.5), action: 'review', handoff: 'gather_context', reasons: ['selection_uncertain'] },
    { name: 'suitability 0.4 < review_at → escalate', answers: chose(1, 0, 0.4), action: 'escalate', handoff: 'gather_context', reasons: ['suitability_uncertain'] },
    { name: 'reasons keep their order: incomplete, selection, suitability, effect', candidates: [cand('rm', { effect: 'destructive' })], answers: chose(1, 0, 0.6, 0.97, 0.6), options: { usage: OVER_BUDGET }, action: 'review', handoff: 'review', reasons: ['incomplete_context', 'selection_uncertain', 'suitability_uncertain', 'effect_requires_review'] },
    { name: 'none with weak confidence → selection_uncertain, no_suitable_call', answers: sel(1, 'none', 0.97, 0.6), action: 'review', handoff: 'gather_context', reasons: ['selection_uncertain', 'no_suitable_call'] },
    { name: 'tightening: auto_accept 0.9 raises dispatch_at, selection 0.85 no longer dispatches', args: { auto_accept: 0.9 }, answers: chose(1, 0, 0.95, 0.97, 0.85), action: 'review', handoff: 'gather_context', reasons: ['selection_uncertain'] },
    { name: 'tightening: auto_accept 0.6 is ignored, selection 0.7 still uncertain', args: { auto_accept: 0.6 }, answers: chose(1, 0, 0.95, 0.97, 0.7), action: 'review', handoff: 'gather_context', reasons: ['selection_uncertain'] },
    { name: 'tightening: review_at 0.7 raises, selection 0.65 escalates', args: { review_at: 0.7 }, answers: chose(1, 0, 0.95, 0.97, 0.65), action: 'escalate', handoff: 'gather_context', reasons: ['selection_uncertain'] },
  ];
  for (const row of rows) {
    test(row.name, async () => {
      const candidates = row.candidates ?? one;
      const run = await h.run('jev_tool_route', route(candidates, row.args), row.answers, row.options);
      const r = okResult(run);
      assert.equal(run.requests.length, 1, 'one request');
      assert.deepEqual([r.action, r.handoff, r.reason_codes], [row.action, row.handoff, row.reasons]);
      assert.deepEqual(r.partner_model, { required: false, tier: 'none' });
      if (row.call) {
        assert.deepEqual(r.call, { candidate_id: candidates[0]!.id, name: candidates[0]!.name, arguments: candidates[0]!.arguments });
      } else {
        assert.equal(r.call, null);
      }
    });
  }

  test('thresholds reported: effective pair plus dispatch_at = max(0.8, a)', async () => {
    const at = async (args: Record<string, unknown>, floors?: { auto_accept: number }) =>
      okResult(await h.run('jev_tool_route', route(one, args), chose(1, 0), { floors })).thresholds;
    assert.deepEqual(await at({}), { auto_accept: 0.8, review_at: 0.5, dispatch_at: 0.8 });
    assert.deepEqual(await at({ auto_accept: 0.9 }), { auto_accept: 0.9, review_at: 0.5, dispatch_at: 0.9 });
    assert.deepEqual(await at({}, { auto_accept: 0.7 }), { auto_accept: 0.7, review_at: 0.5, dispatch_at: 0.8 });
  });

  test('a lower env auto_accept does not lower dispatch: selection 0.75 with a = 0.7 stays uncertain', async () => {
    const r = okResult(await h.run('jev_tool_route', route(one), chose(1, 0, 0.95, 0.97, 0.75), { floors: { auto_accept: 0.7 } }));
    assert.deepEqual([r.action, r.reason_codes, r.call], ['review', ['selection_uncertain'], null]);
  });

  test('eligibility: each blocked reason in order, input order kept, no request, local-policy result', async () => {
    const candidates = [
      cand('no-auth', { authorized: undefined }),
      cand('unvalidated', { schema_valid: false }),
      cand('pre', { preconditions_met: false }),
      cand('retries', { failed_attempts: 2 }),
      cand('unknown', { effect: 'unknown' }),
      cand('all', { authorized: false, schema_valid: undefined, preconditions_met: undefined, failed_attempts: 3, effect: 'unknown' }),
    ];
    const run = await h.run('jev_tool_route', route(candidates), {});
    const r = okResult(run);
    assert.equal(run.requests.length, 0, 'a wholly ineligible list makes no request');
    assert.deepEqual(r.blocked_candidates, [
      { id: 'no-auth', reason_codes: ['not_authorized'] },
      { id: 'unvalidated', reason_codes: ['arguments_not_validated'] },
      { id: 'pre', reason_codes: ['preconditions_not_met'] },
      { id: 'retries', reason_codes: ['retry_budget_exhausted'] },
      { id: 'unknown', reason_codes: ['unknown_effect'] },
      { id: 'all', reason_codes: ['not_authorized', 'arguments_not_validated', 'preconditions_not_met', 'retry_budget_exhausted', 'unknown_effect'] },
    ]);
    assert.deepEqual([r.model, r.action, r.handoff, r.reason_codes, r.call, r.selection], ['local-policy', 'review', 'review', ['no_eligible_candidates'], null, null]);
    assert.deepEqual(r.usage, { input_tokens: 0, output_tokens: 0 });
  });

  test('no candidates: no request, review, gather_context, no_candidates', async () => {
    const run = await h.run('jev_tool_route', route([]), {});
    const r = okResult(run);
    assert.equal(run.requests.length, 0, 'no request');
    assert.deepEqual([r.model, r.action, r.handoff, r.reason_codes, r.selection], ['local-policy', 'review', 'gather_context', ['no_candidates'], null]);
    assert.equal(r.coverage.complete, true);
    assert.equal(r.coverage.original_chars, 0);
  });

  test('mixed list: blocked ones get no question; call_i indexes the eligible list; one failed attempt is still eligible', async () => {
    const candidates = [cand('blocked', { authorized: false }), cand('first', { failed_attempts: 1 }), cand('second', { name: 'run_tests', effect: 'local_write' })];
    const run = await h.run('jev_tool_route', route(candidates), chose(2, 1));
    const r = okResult(run);
    assert.deepEqual(questionIds(run.requests[0]!), ['selected', 'suitable_0', 'suitable_1']);
    assert.deepEqual(Object.keys(run.requests[0]!.body.questions.selected.criteria), ['none', 'call_0', 'call_1']);
    assert.deepEqual(run.requests[0]!.body.state.candidates.map((c: { id: string }) => c.id), ['first', 'second']);
    assert.deepEqual(r.call, { candidate_id: 'second', name: 'run_tests', arguments: candidates[2]!.arguments });
    assert.deepEqual(r.selection, { id: 'second', confidence: 0.95, suitability: 0.95 });
    assert.deepEqual(r.blocked_candidates, [{ id: 'blocked', reason_codes: ['not_authorized'] }]);
  });

  test('only the redacted projection goes upstream: argument values never leave the host', async () => {
    const run = await h.run('jev_tool_route', route(one), chose(1, 0));
    const projection = run.requests[0]!.body.state.candidates[0];
    assert.ok(!run.requests[0]!.rawBody.includes(SECRET_ARG), 'the raw argument value is not in the request');
    assert.deepEqual(Object.keys(projection).sort(), ['argument_shape', 'description', 'effect', 'id', 'name']);
    assert.deepEqual(projection.argument_shape, { type: 'object', keys: ['path', 'lines'], extra_keys: 0 });
    assert.deepEqual(okResult(run).call.arguments, { path: SECRET_ARG, lines: [1, 200] });
  });
});

describe('jev_step: one request, loop policy + selection, handoff resolution', () => {
  const step = (candidates: Cand[] | undefined, extra: Record<string, unknown> = {}) => ({ ...READY, ...(candidates ? { candidates } : {}), ...extra });
  const one = [cand('read-parser')];

  const rows: Array<{
    name: string;
    candidates?: Cand[] | null;
    args?: Record<string, unknown>;
    answers: Answers;
    options?: RunOptions;
    action: string;
    handoff: string;
    reasons: string[];
    partner: { required: boolean; tier: string; reason_codes: string[] };
    call?: boolean;
  }> = [
    { name: '1: dispatchable + routing use_tools → execute_tool with the exact call', answers: chose(1, 0), action: 'auto', handoff: 'execute_tool', reasons: ['accepted'], partner: { required: false, tier: 'none', reason_codes: ['prepared_tool_call'] }, call: true },
    { name: '1: boundaries inclusive — selection 0.8 (guard at its bound) and suitability 0.8 dispatch', answers: chose(1, 0, 0.8, 0.9, 0.8), action: 'auto', handoff: 'execute_tool', reasons: ['accepted'], partner: { required: false, tier: 'none', reason_codes: ['prepared_tool_call'] }, call: true },
    { name: '1: the host prepared_tool_call flag is ignored — only a dispatchable candidate counts', args: { execution: { context_complete: true, prepared_tool_call: true } }, answers: sel(1, 'none', 0.97, 0.95), action: 'auto', handoff: 'partner_model', reasons: ['no_suitable_call'], partner: { required: true, tier: 'standard', reason_codes: ['generation_required'] } },
    { name: '2: a confident stop outranks the call → stop + routing_blocked_dispatch', answers: { ...chose(1, 0), ...next('stop', 0.97, 0.95), done_enough: noul(0.9) }, action: 'auto', handoff: 'stop', reasons: ['routing_blocked_dispatch'], partner: { required: false, tier: 'none', reason_codes: ['terminal_stop'] } },
    { name: '2: ask_user outranks the call', answers: { ...chose(1, 0), ...next('ask_user', 0.97, 0.95) }, action: 'review', handoff: 'ask_user', reasons: ['routing_blocked_dispatch'], partner: { required: false, tier: 'none', reason_codes: ['user_input_required'] } },
    { name: '2: an uncertain next step (0.7) outranks the call', answers: { ...chose(1, 0), ...next('continue', 0.97, 0.7) }, action: 'review', handoff: 'review', reasons: ['routing_blocked_dispatch'], partner: { required: false, tier: 'none', reason_codes: ['coding_policy_requires_review'] } },
    { name: '2: destructive risk (1.5) with next below auto_accept outranks the call and escalates', answers: { ...chose(1, 0), ...next('continue', 0.97, 0.7), risk: score(3, [0.25, 0, 0.75], 0.95) }, action: 'escalate', handoff: 'review', reasons: ['routing_blocked_dispatch'], partner: { required: false, tier: 'none', reason_codes: ['coding_policy_requires_review'] } },
    { name: '2: two failed attempts outrank the call', args: { execution: { context_complete: true, failed_attempts: 2 } }, answers: chose(1, 0), action: 'auto', handoff: 'gather_context', reasons: ['routing_blocked_dispatch'], partner: { required: false, tier: 'none', reason_codes: ['repeated_failures'] } },
    { name: 'incomplete context is a selection reason (not dispatchable)', answers: chose(1, 0), options: { usage: OVER_BUDGET }, action: 'review', handoff: 'gather_context', reasons: ['incomplete_context'], partner: { required: false, tier: 'none', reason_codes: ['incomplete_context'] } },
    { name: 'a clipped candidate description makes the context incomplete', candidates: [cand('read-parser', { description: 'd'.repeat(2_001) })], answers: chose(1, 0), action: 'review', handoff: 'gather_context', reasons: ['incomplete_context'], partner: { required: false, tier: 'none', reason_codes: ['incomplete_context'] } },
    { name: '3: partner requested but selection uncertain → gather_context, prepared_candidates_declined', answers: chose(1, 0, 0.95, 0.97, 0.79), action: 'review', handoff: 'gather_context', reasons: ['selection_uncertain'], partner: { required: false, tier: 'none', reason_codes: ['prepared_candidates_declined'] } },
    { name: '3: concentration guard on the selection declines too', answers: chose(1, 0, 0.95, 0.7, 0.95), action: 'review', handoff: 'gather_context', reasons: ['selection_uncertain'], partner: { required: false, tier: 'none', reason_codes: ['prepared_candidates_declined'] } },
    { name: '3: suitability 0.79 → declined', answers: chose(1, 0, 0.79), action: 'review', handoff: 'gather_context', reasons: ['suitability_uncertain'], partner: { required: false, tier: 'none', reason_codes: ['prepared_candidates_declined'] } },
    { name: '3: a selected destructive call → review, declined', candidates: [cand('rm', { effect: 'destructive' })], answers: chose(1, 0), action: 'review', handoff: 'review', reasons: ['effect_requires_review'], partner: { required: false, tier: 'none', reason_codes: ['prepared_candidates_declined'] } },
    { name: '3: selection below review_at escalates the step', answers: chose(1, 0, 0.95, 0.97, 0.45), action: 'escalate', handoff: 'gather_context', reasons: ['selection_uncertain'], partner: { required: false, tier: 'none', reason_codes: ['prepared_candidates_declined'] } },
    { name: '4: a selected external_write turns gather_context into review', args: { execution: { context_complete: false } }, candidates: [cand('post', { effect: 'external_write' })], answers: chose(1, 0), action: 'review', handoff: 'review', reasons: ['effect_requires_review'], partner: { required: false, tier: 'none', reason_codes: ['host_context_incomplete'] } },
    { name: 'a confident none keeps the loop routing: partner still allowed', answers: sel(1, 'none', 0.97, 0.95), action: 'auto', handoff: 'partner_model', reasons: ['no_suitable_call'], partner: { required: true, tier: 'standard', reason_codes: ['generation_required'] } },
    { name: '5: no candidates → loop routing stands (partner), no_candidates', candidates: null, answers: {}, action: 'auto', handoff: 'partner_model', reasons: ['no_candidates'], partner: { required: true, tier: 'standard', reason_codes: ['generation_required'] } },
    { name: '5: no candidates, host context missing → gather_context', candidates: null, args: { execution: {} }, answers: {}, action: 'auto', handoff: 'gather_context', reasons: ['no_candidates'], partner: { required: false, tier: 'none', reason_codes: ['host_context_incomplete'] } },
    { name: '5: every candidate blocked, gather_context → review', candidates: [cand('x', { authorized: false })], args: { execution: {} }, answers: {}, action: 'auto', handoff: 'review', reasons: ['no_eligible_candidates'], partner: { required: false, tier: 'none', reason_codes: ['host_context_incomplete'] } },
    { name: '5: every candidate blocked, a partner handoff stands', candidates: [cand('x', { effect: 'unknown' })], answers: {}, action: 'auto', handoff: 'partner_model', reasons: ['no_eligible_candidates'], partner: { required: true, tier: 'standard', reason_codes: ['generation_required'] } },
    { name: 'tightening: auto_accept 0.9 → dispatch_at 0.9, selection 0.85 declined', args: { auto_accept: 0.9 }, answers: chose(1, 0, 0.95, 0.97, 0.85), action: 'review', handoff: 'gather_context', reasons: ['selection_uncertain'], partner: { required: false, tier: 'none', reason_codes: ['prepared_candidates_declined'] } },
    { name: 'tightening: auto_accept 0.6 ignored, selection 0.75 still declined', args: { auto_accept: 0.6 }, answers: chose(1, 0, 0.95, 0.97, 0.75), action: 'review', handoff: 'gather_context', reasons: ['selection_uncertain'], partner: { required: false, tier: 'none', reason_codes: ['prepared_candidates_declined'] } },
  ];
  for (const row of rows) {
    test(row.name, async () => {
      const candidates = row.candidates === null ? undefined : (row.candidates ?? one);
      const run = await h.run('jev_step', step(candidates, row.args), loop(row.answers), row.options);
      const r = okResult(run);
      assert.equal(run.requests.length, 1, 'jev_step makes exactly one request');
      assert.deepEqual([r.action, r.handoff, r.reason_codes, r.partner_model], [row.action, row.handoff, row.reasons, row.partner]);
      if (row.call) assert.deepEqual(r.call, { candidate_id: candidates![0]!.id, name: candidates![0]!.name, arguments: candidates![0]!.arguments });
      else assert.equal(r.call, null);
    });
  }

  test('one request carries the loop pack plus the route pack for eligible calls only; values stay local', async () => {
    const candidates = [cand('blocked', { schema_valid: false }), cand('a'), cand('b', { effect: 'local_write' })];
    const run = await h.run('jev_step', step(candidates), loop(chose(2, 0)));
    const r = okResult(run);
    assert.deepEqual(questionIds(run.requests[0]!).sort(), [...LOOP_IDS, 'selected', 'suitable_0', 'suitable_1'].sort());
    assert.deepEqual(run.requests[0]!.body.state.candidates.map((c: { id: string }) => c.id), ['a', 'b']);
    assert.ok(!run.requests[0]!.rawBody.includes(SECRET_ARG), 'argument values are not sent');
    assert.deepEqual(r.blocked_candidates, [{ id: 'blocked', reason_codes: ['arguments_not_validated'] }]);
    assert.deepEqual(r.call, { candidate_id: 'a', name: 'read_file', arguments: candidates[1]!.arguments });
    assert.deepEqual(r.thresholds, { auto_accept: 0.8, review_at: 0.5, dispatch_at: 0.8 });
  });

  test('no eligible candidate: the request is the 8 loop questions alone', async () => {
    const run = await h.run('jev_step', step([cand('x', { authorized: false })]), loop());
    okResult(run);
    assert.deepEqual(questionIds(run.requests[0]!).sort(), [...LOOP_IDS].sort());
    assert.deepEqual(run.requests[0]!.body.state.candidates, []);
  });

  test('inverted thresholds → INVALID_INPUT before any request', async () => {
    const run = await h.run('jev_step', step(one, { auto_accept: 0.5, review_at: 0.6 }), loop(chose(1, 0)));
    failed(run, 'INVALID_INPUT', false);
    assert.equal(run.requests.length, 0, 'no upstream request');
  });
});
