import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  codingLoopAction,
  loopAction,
  partnerRouting,
  type CodingLoopSignals,
  type ExecutionFacts,
  type RoutingInput,
} from '../../src/policy/coding-loop';
import {
  declinedWithoutConfidence,
  resolveStepHandoff,
  routeAction,
  routeHandoff,
  selectionReasons,
  stepSelectionVerdict,
  type SelectionJudgment,
} from '../../src/policy/routing';
import type { Routing } from '../../src/policy/coding-loop';
import { confidenceFromProbabilities } from '../../src/policy/distribution';
import { JevError } from '../../src/judgment/errors';

/** A distribution over `options` with `peak` on `pick` and the rest spread evenly. */
function dist(options: readonly string[], pick: string, peak: number): Record<string, number> {
  const rest = (1 - peak) / (options.length - 1);
  return Object.fromEntries(options.map((o) => [o, o === pick ? peak : rest]));
}

const NEXT = ['continue', 'retry', 'ask_user', 'stop'] as const;
const TIERS = ['cheap', 'standard', 'reasoning'] as const;

function next(choice: string, peak = 0.97, confidence?: number) {
  const probabilities = dist(NEXT, choice, peak);
  return { choice, probabilities, confidence: confidence ?? confidenceFromProbabilities(probabilities) };
}
function tier(choice: string, peak = 0.97, confidence?: number) {
  const probabilities = dist(TIERS, choice, peak);
  return { choice, probabilities, confidence: confidence ?? confidenceFromProbabilities(probabilities) };
}
function risk(levels: [number, number, number], confidence?: number) {
  const probabilities = { '0': levels[0], '1': levels[1], '2': levels[2] };
  return { score: levels[1] + 2 * levels[2], probabilities, confidence: confidence ?? confidenceFromProbabilities(probabilities) };
}

/** Signals under which every partner check passes at the default thresholds. */
function partnerSignals(over: Partial<CodingLoopSignals> = {}): CodingLoopSignals {
  return {
    next: next('continue'),
    model_tier: tier('standard'),
    risk: risk([0.95, 0.04, 0.01]),
    done_enough: 0.2,
    needs_more_context: 0.05,
    needs_generation: 0.95,
    ...over,
  };
}
const T = { auto_accept: 0.8, review_at: 0.5 };
const FACTS: ExecutionFacts = { prepared_tool_call: false, context_complete: true, failed_attempts: 0 };

/** Routes with the loop action computed from the same signals, as the tools do. */
function route(over: Partial<RoutingInput> & { signals?: CodingLoopSignals } = {}) {
  const signals = over.signals ?? partnerSignals();
  const thresholds = over.thresholds ?? T;
  const incomplete = over.incomplete ?? false;
  const action = over.action ?? loopAction(signals, thresholds, incomplete);
  return partnerRouting({ signals, thresholds, incomplete, action, execution: over.execution ?? FACTS });
}

describe('codingLoopAction (first match wins)', () => {
  it('escalates below review_at, and review_at itself is not below', () => {
    assert.equal(codingLoopAction('continue', 0.49, 0, 0, 0.8, 0.5), 'escalate');
    assert.equal(codingLoopAction('continue', 0.5, 0, 0, 0.8, 0.5), 'review');
  });
  it('ask_user is review even when confident', () => {
    assert.equal(codingLoopAction('ask_user', 0.99, 0, 0, 0.8, 0.5), 'review');
  });
  it('high risk (>= 1.5) is never auto: review if confident, else escalate', () => {
    assert.equal(codingLoopAction('continue', 0.9, 1.5, 0, 0.8, 0.5), 'review');
    assert.equal(codingLoopAction('continue', 0.7, 1.5, 0, 0.8, 0.5), 'escalate');
    assert.equal(codingLoopAction('continue', 0.9, 1.49, 0, 0.8, 0.5), 'review');
  });
  it('stop needs done_enough >= 0.7 (inclusive)', () => {
    assert.equal(codingLoopAction('stop', 0.9, 0.1, 0.69, 0.8, 0.5), 'review');
    assert.equal(codingLoopAction('stop', 0.9, 0.1, 0.7, 0.8, 0.5), 'auto');
  });
  it('auto needs confidence >= auto_accept (inclusive) and risk < 1.2', () => {
    assert.equal(codingLoopAction('continue', 0.8, 1.19, 0, 0.8, 0.5), 'auto');
    assert.equal(codingLoopAction('continue', 0.79, 0.1, 0, 0.8, 0.5), 'review');
    assert.equal(codingLoopAction('continue', 0.9, 1.2, 0, 0.8, 0.5), 'review');
  });
  it('rejects inverted thresholds', () => {
    assert.throws(() => codingLoopAction('continue', 0.9, 0, 0, 0.5, 0.6), (e: unknown) => e instanceof JevError && e.code === 'INVALID_INPUT');
  });
});

describe('loopAction: concentration guard and incomplete context', () => {
  it('is auto for confident, concentrated, low-risk signals', () => {
    assert.equal(loopAction(partnerSignals(), T, false), 'auto');
  });
  it('a high reported next confidence over a flat distribution is blocked', () => {
    const flat = { choice: 'continue', confidence: 0.99, probabilities: { continue: 0.3, retry: 0.25, ask_user: 0.25, stop: 0.2 } };
    assert.equal(loopAction(partnerSignals({ next: flat }), T, false), 'review');
  });
  it('a flat risk distribution is blocked even with a high reported confidence', () => {
    const flatRisk = { score: 0.7, confidence: 0.95, probabilities: { '0': 0.5, '1': 0.3, '2': 0.2 } };
    assert.equal(loopAction(partnerSignals({ risk: flatRisk }), T, false), 'review');
  });
  it('incomplete context turns auto into review but never softens escalate', () => {
    assert.equal(loopAction(partnerSignals(), T, true), 'review');
    assert.equal(loopAction(partnerSignals({ next: next('continue', 0.4) }), T, true), 'escalate');
  });
});

describe('partnerRouting: the 14 steps in order', () => {
  it('1. incomplete context gathers context first, even for stop', () => {
    const r = route({ incomplete: true, signals: partnerSignals({ next: next('stop'), done_enough: 0.95 }) });
    assert.deepEqual(r, { handoff: 'gather_context', partner_model: { required: false, tier: 'none', reason_codes: ['incomplete_context'] } });
  });
  it('2. stop: automatic stop, or review when the action is not auto', () => {
    const done = route({ signals: partnerSignals({ next: next('stop'), done_enough: 0.95 }) });
    assert.equal(done.handoff, 'stop');
    assert.deepEqual(done.partner_model.reason_codes, ['terminal_stop']);
    const early = route({ signals: partnerSignals({ next: next('stop'), done_enough: 0.4 }) });
    assert.equal(early.handoff, 'review');
    assert.deepEqual(early.partner_model.reason_codes, ['stop_requires_review']);
  });
  it('3. ask_user: confident at auto_accept → ask_user; uncertain or flat → review', () => {
    const asked = route({ signals: partnerSignals({ next: next('ask_user') }) });
    assert.equal(asked.handoff, 'ask_user');
    assert.deepEqual(asked.partner_model, { required: false, tier: 'none', reason_codes: ['user_input_required'] });
    const weak = route({ signals: partnerSignals({ next: next('ask_user', 0.7) }) });
    assert.equal(weak.handoff, 'review');
    assert.deepEqual(weak.partner_model.reason_codes, ['next_step_uncertain']);
    const flat = { choice: 'ask_user', confidence: 0.95, probabilities: { continue: 0.2, retry: 0.2, ask_user: 0.4, stop: 0.2 } };
    assert.equal(route({ signals: partnerSignals({ next: flat }) }).handoff, 'review');
  });
  it('3. ask_user uses auto_accept, not the 0.8 partner floor', () => {
    const low = { auto_accept: 0.6, review_at: 0.5 };
    // peak 0.75 → guard needs 0.25 + 0.75·0.6 = 0.7 at 0.6, but 0.85 at 0.8.
    const r = route({ thresholds: low, signals: partnerSignals({ next: next('ask_user', 0.75) }) });
    assert.equal(r.handoff, 'ask_user');
  });
  it('4. a next label outside continue/retry/ask_user/stop is an uncertain next step', () => {
    const r = route({ signals: partnerSignals({ next: { choice: 'wander', confidence: 0.99, probabilities: { wander: 1, continue: 0 } } }), action: 'auto' });
    assert.deepEqual(r.partner_model.reason_codes, ['next_step_uncertain']);
    assert.equal(r.handoff, 'review');
  });
  it('5. a non-auto coding action goes to review', () => {
    const r = route({ signals: partnerSignals({ risk: risk([0.05, 0.05, 0.9]) }) });
    assert.equal(r.handoff, 'review');
    assert.deepEqual(r.partner_model.reason_codes, ['coding_policy_requires_review']);
  });
  it('6. two failed attempts gather context before anything else, one does not', () => {
    const r = route({ execution: { ...FACTS, failed_attempts: 2, prepared_tool_call: true } });
    assert.deepEqual(r.partner_model.reason_codes, ['repeated_failures']);
    assert.equal(r.handoff, 'gather_context');
    assert.equal(route({ execution: { ...FACTS, failed_attempts: 1 } }).handoff, 'partner_model');
  });
  it('7. a prepared call routes to use_tools, even before host context is complete', () => {
    const r = route({ execution: { ...FACTS, prepared_tool_call: true, context_complete: false } });
    assert.deepEqual(r, { handoff: 'use_tools', partner_model: { required: false, tier: 'none', reason_codes: ['prepared_tool_call'] } });
  });
  it('8. risk not confident at the partner floor → review/risk_uncertain', () => {
    // auto_accept lowered to 0.7: the action is auto, but the partner floor stays 0.8.
    const low = { auto_accept: 0.7, review_at: 0.5 };
    const s = partnerSignals({ risk: risk([0.95, 0.04, 0.01], 0.75) });
    assert.equal(loopAction(s, low, false), 'auto');
    const r = route({ signals: s, thresholds: low });
    assert.deepEqual(r.partner_model.reason_codes, ['risk_uncertain']);
    assert.equal(r.handoff, 'review');
  });
  it('9. next step not confident at the partner floor (auto_accept lowered to 0.6) → next_step_uncertain', () => {
    const low = { auto_accept: 0.6, review_at: 0.5 };
    const s = partnerSignals({ next: next('continue', 0.8) }); // confidence ≈ 0.733: ≥ 0.6, < 0.8
    assert.equal(loopAction(s, low, false), 'auto');
    const r = route({ signals: s, thresholds: low });
    assert.deepEqual(r.partner_model.reason_codes, ['next_step_uncertain']);
  });
  it('10. host context not complete → gather_context/host_context_incomplete', () => {
    const r = route({ execution: { ...FACTS, context_complete: false } });
    assert.deepEqual(r, { handoff: 'gather_context', partner_model: { required: false, tier: 'none', reason_codes: ['host_context_incomplete'] } });
  });
  it('11. needs_more_context must be at most 1 − floor, inclusive (0.2 at 0.8 passes)', () => {
    assert.equal(route({ signals: partnerSignals({ needs_more_context: 0.2 }) }).handoff, 'partner_model');
    const r = route({ signals: partnerSignals({ needs_more_context: 0.21 }) });
    assert.deepEqual(r.partner_model.reason_codes, ['context_needed_or_uncertain']);
    const raised = route({ thresholds: { auto_accept: 0.9, review_at: 0.5 }, signals: partnerSignals({ needs_more_context: 0.1 }) });
    assert.equal(raised.handoff, 'partner_model');
    // 1 − 0.07 is 0.9299999999999999 in binary floating point; the boundary still holds at 0.93.
    const strict = { auto_accept: 0.93, review_at: 0.5 };
    const sharp = partnerSignals({ risk: risk([0.99, 0.005, 0.005]), model_tier: tier('cheap', 0.99), needs_generation: 0.99, needs_more_context: 0.07 });
    assert.equal(route({ thresholds: strict, signals: sharp }).handoff, 'partner_model');
    assert.deepEqual(route({ thresholds: strict, signals: { ...sharp, needs_more_context: 0.0701 } }).partner_model.reason_codes, ['context_needed_or_uncertain']);
    const raisedFail = route({ thresholds: { auto_accept: 0.9, review_at: 0.5 }, signals: partnerSignals({ needs_more_context: 0.11 }) });
    assert.deepEqual(raisedFail.partner_model.reason_codes, ['context_needed_or_uncertain']);
  });
  it('12. generation need below the floor: not required when confidently false, else uncertain', () => {
    assert.deepEqual(route({ signals: partnerSignals({ needs_generation: 0.2 }) }).partner_model.reason_codes, ['generation_not_required']);
    assert.deepEqual(route({ signals: partnerSignals({ needs_generation: 0.05 }) }).partner_model.reason_codes, ['generation_not_required']);
    assert.deepEqual(route({ signals: partnerSignals({ needs_generation: 0.5 }) }).partner_model.reason_codes, ['generation_need_uncertain']);
    assert.deepEqual(route({ signals: partnerSignals({ needs_generation: 0.79 }) }).partner_model.reason_codes, ['generation_need_uncertain']);
    assert.equal(route({ signals: partnerSignals({ needs_generation: 0.8 }) }).handoff, 'partner_model');
  });
  it('13. tier not confident, or confident over a flat distribution → model_tier_uncertain', () => {
    assert.deepEqual(route({ signals: partnerSignals({ model_tier: tier('reasoning', 0.8) }) }).partner_model.reason_codes, ['model_tier_uncertain']);
    const flat = { choice: 'reasoning', confidence: 0.99, probabilities: { cheap: 0.3, standard: 0.3, reasoning: 0.4 } };
    const r = route({ signals: partnerSignals({ model_tier: flat }) });
    assert.equal(r.handoff, 'review');
    assert.deepEqual(r.partner_model.reason_codes, ['model_tier_uncertain']);
  });
  it('14. every check passes → a required partner of the judged tier', () => {
    assert.deepEqual(route(), { handoff: 'partner_model', partner_model: { required: true, tier: 'standard', reason_codes: ['generation_required'] } });
    assert.equal(route({ signals: partnerSignals({ next: next('retry'), model_tier: tier('reasoning') }) }).partner_model.tier, 'reasoning');
  });
  it('guards at the boundary: a peak exactly at 1/n + (1 − 1/n)·t passes', () => {
    // n = 3 tiers at 0.8: required peak 1/3 + 2/3·0.8 = 0.8666…; reported confidence exactly 0.8.
    const exact = { choice: 'cheap', confidence: 0.8, probabilities: { cheap: 13 / 15, standard: 1 / 15, reasoning: 1 / 15 } };
    assert.equal(route({ signals: partnerSignals({ model_tier: exact }) }).handoff, 'partner_model');
    const under = { choice: 'cheap', confidence: 0.8, probabilities: { cheap: 0.866, standard: 0.067, reasoning: 0.067 } };
    assert.equal(route({ signals: partnerSignals({ model_tier: under }) }).handoff, 'review');
  });
  it('a raised auto_accept raises the partner floor', () => {
    const s = partnerSignals({ risk: risk([0.99, 0.005, 0.005]), model_tier: tier('standard', 0.9), needs_more_context: 0.01, needs_generation: 0.99 });
    assert.equal(route({ signals: s }).handoff, 'partner_model');
    const r = route({ thresholds: { auto_accept: 0.95, review_at: 0.5 }, signals: s });
    // tier confidence (0.9 − 1/3)/(2/3) = 0.85 < 0.95
    assert.deepEqual(r.partner_model.reason_codes, ['model_tier_uncertain']);
  });
});

function sel(over: Partial<SelectionJudgment> = {}): SelectionJudgment {
  return { index: 0, confidence: 0.95, probabilities: { none: 0.02, call_0: 0.97, call_1: 0.01 }, suitability: 0.95, effect: 'read_only', ...over };
}

describe('selection policy', () => {
  it('orders reasons: incomplete, selection, none, suitability, effect', () => {
    const all = selectionReasons(sel({ confidence: 0.5, suitability: 0.5, effect: 'destructive' }), true, 0.8);
    assert.deepEqual(all, ['incomplete_context', 'selection_uncertain', 'suitability_uncertain', 'effect_requires_review']);
    assert.deepEqual(selectionReasons(sel({ index: null, suitability: null, effect: null, probabilities: { none: 0.97, call_0: 0.02, call_1: 0.01 } }), false, 0.8), ['no_suitable_call']);
    assert.deepEqual(selectionReasons(sel(), false, 0.8), []);
  });
  it('blocks a high reported confidence over a flat selection distribution', () => {
    const flat = sel({ confidence: 0.99, probabilities: { none: 0.3, call_0: 0.4, call_1: 0.3 } });
    assert.deepEqual(selectionReasons(flat, false, 0.8), ['selection_uncertain']);
  });
  it('boundaries are inclusive at the dispatch floor', () => {
    const exact = sel({ confidence: 0.8, suitability: 0.8, probabilities: { none: 0.1, call_0: 0.9 } }); // 1/2 + 1/2·0.8 = 0.9
    assert.deepEqual(selectionReasons(exact, false, 0.8), []);
    assert.deepEqual(selectionReasons(sel({ suitability: 0.7999 }), false, 0.8), ['suitability_uncertain']);
  });
  it('route action: auto only without reasons; escalate below review_at', () => {
    assert.equal(routeAction(sel(), [], 0.5), 'auto');
    assert.equal(routeAction(sel(), ['effect_requires_review'], 0.5), 'review');
    assert.equal(routeAction(sel({ confidence: 0.49 }), ['selection_uncertain'], 0.5), 'escalate');
    assert.equal(routeAction(sel({ suitability: 0.3 }), ['suitability_uncertain'], 0.5), 'escalate');
    assert.equal(routeAction(sel({ confidence: 0.5 }), ['selection_uncertain'], 0.5), 'review');
  });
  it('route handoff: execute only when dispatching; external/destructive effects review', () => {
    assert.equal(routeHandoff(true, sel()), 'execute_tool');
    assert.equal(routeHandoff(false, sel({ effect: 'external_write' })), 'review');
    assert.equal(routeHandoff(false, sel({ effect: 'local_write' })), 'gather_context');
  });
  it('step verdict: neutral without a selection; uncertain → review; weak → escalate; confident none → auto', () => {
    assert.equal(stepSelectionVerdict(null, ['no_candidates'], 0.5), 'auto');
    assert.equal(stepSelectionVerdict(sel({ confidence: 0.6 }), ['selection_uncertain'], 0.5), 'review');
    assert.equal(stepSelectionVerdict(sel({ confidence: 0.4 }), ['selection_uncertain'], 0.5), 'escalate');
    assert.equal(stepSelectionVerdict(sel({ index: null, suitability: null }), ['no_suitable_call'], 0.5), 'auto');
    assert.equal(stepSelectionVerdict(sel({ effect: 'destructive' }), ['effect_requires_review'], 0.5), 'review');
    assert.equal(declinedWithoutConfidence(['no_suitable_call', 'incomplete_context']), false);
  });
});

describe('resolveStepHandoff: the 6 steps', () => {
  const partner: Routing = { handoff: 'partner_model', partner_model: { required: true, tier: 'cheap', reason_codes: ['generation_required'] } };
  const useTools: Routing = { handoff: 'use_tools', partner_model: { required: false, tier: 'none', reason_codes: ['prepared_tool_call'] } };
  const stop: Routing = { handoff: 'stop', partner_model: { required: false, tier: 'none', reason_codes: ['terminal_stop'] } };
  const gather: Routing = { handoff: 'gather_context', partner_model: { required: false, tier: 'none', reason_codes: ['host_context_incomplete'] } };
  const base = { dispatchable: false, reasons: [] as const, effectReview: false, allBlocked: false };

  it('1. dispatchable + use_tools → execute_tool', () => {
    const r = resolveStepHandoff({ ...base, routing: useTools, dispatchable: true });
    assert.deepEqual(r, { handoff: 'execute_tool', partner_model: useTools.partner_model, execute: true, reasons: ['accepted'] });
  });
  it('2. dispatchable but the loop outranks it → routing_blocked_dispatch, no call', () => {
    const r = resolveStepHandoff({ ...base, routing: stop, dispatchable: true });
    assert.equal(r.handoff, 'stop');
    assert.equal(r.execute, false);
    assert.deepEqual(r.reasons, ['routing_blocked_dispatch']);
  });
  it('3. a partner request with declined candidates → gather_context/prepared_candidates_declined (review for effects)', () => {
    const r = resolveStepHandoff({ ...base, routing: partner, reasons: ['selection_uncertain'] });
    assert.deepEqual(r.partner_model, { required: false, tier: 'none', reason_codes: ['prepared_candidates_declined'] });
    assert.equal(r.handoff, 'gather_context');
    const eff = resolveStepHandoff({ ...base, routing: partner, reasons: ['effect_requires_review'], effectReview: true });
    assert.equal(eff.handoff, 'review');
    // A confident none does not decline: the partner stands.
    const none = resolveStepHandoff({ ...base, routing: partner, reasons: ['no_suitable_call'] });
    assert.equal(none.handoff, 'partner_model');
    assert.equal(none.partner_model.required, true);
  });
  it('4. a selected call needing review turns gather_context into review, not stop', () => {
    assert.equal(resolveStepHandoff({ ...base, routing: gather, reasons: ['effect_requires_review'], effectReview: true }).handoff, 'review');
    assert.equal(resolveStepHandoff({ ...base, routing: stop, reasons: ['effect_requires_review'], effectReview: true }).handoff, 'stop');
  });
  it('5. all candidates blocked: gather_context → review; stop and partner stand', () => {
    assert.equal(resolveStepHandoff({ ...base, routing: gather, reasons: ['no_eligible_candidates'], allBlocked: true }).handoff, 'review');
    assert.equal(resolveStepHandoff({ ...base, routing: stop, reasons: ['no_eligible_candidates'], allBlocked: true }).handoff, 'stop');
    const p = resolveStepHandoff({ ...base, routing: partner, reasons: ['no_eligible_candidates'], allBlocked: true });
    assert.equal(p.partner_model.required, true);
    // No candidates at all: the loop's routing is unchanged.
    assert.deepEqual(resolveStepHandoff({ ...base, routing: gather, reasons: ['no_candidates'] }).partner_model, gather.partner_model);
  });
  it('6. no reasons → accepted; reasons are kept otherwise', () => {
    assert.deepEqual(resolveStepHandoff({ ...base, routing: partner }).reasons, ['accepted']);
    assert.deepEqual(resolveStepHandoff({ ...base, routing: partner, reasons: ['no_suitable_call'] }).reasons, ['no_suitable_call']);
  });
});
