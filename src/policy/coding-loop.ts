import { requireCompleteContext, validatePolicyThresholds, type Action } from './actions';
import { confidenceSupportsAuto } from './distribution';
import { dispatchFloor, type JudgmentThresholds } from './thresholds';

/**
 * Coding-loop policy of jev_coding_loop and jev_step: the base action and partner routing.
 * Pure functions over judged signals: no I/O, no clock. Probabilities in [0,1]; risk is the expected
 * level on the 0–2 risk score.
 */

export const NEXT_STEPS = ['continue', 'retry', 'ask_user', 'stop'] as const;
export type NextStep = (typeof NEXT_STEPS)[number];
export const MODEL_TIERS = ['cheap', 'standard', 'reasoning'] as const;
export type ModelTier = (typeof MODEL_TIERS)[number];
export const FOCUS_AREAS = ['edit', 'search', 'test', 'read', 'plan'] as const;

/** Handoffs of the coding loop: what the host does next. */
export const HANDOFFS = ['use_tools', 'gather_context', 'partner_model', 'ask_user', 'stop', 'review'] as const;
export type Handoff = (typeof HANDOFFS)[number];

/** Partner reason codes of the coding loop, in reporting order. */
export const PARTNER_REASONS = [
  'incomplete_context',
  'terminal_stop',
  'stop_requires_review',
  'user_input_required',
  'next_step_uncertain',
  'coding_policy_requires_review',
  'repeated_failures',
  'prepared_tool_call',
  'risk_uncertain',
  'host_context_incomplete',
  'context_needed_or_uncertain',
  'generation_not_required',
  'generation_need_uncertain',
  'model_tier_uncertain',
  'generation_required',
] as const;
export type PartnerReason = (typeof PARTNER_REASONS)[number];

/** Expected risk at or above which a step is high risk (never auto). */
export const HIGH_RISK = 1.5;
/** Expected risk below which a step counts as low risk (auto allowed). */
export const LOW_RISK = 1.2;
/** P(done_enough) an automatic stop needs. */
export const DONE_ENOUGH_TO_STOP = 0.7;
/** Failed attempts of one unchanged step at which the loop gathers context first. */
export const REPEATED_FAILURES = 2;

/**
 * Tolerance for comparisons of a complement (1 − p) with a threshold, so that boundaries stay inclusive
 * despite binary floating point (needs_more_context 0.2 meets the 0.8 floor of a partner handoff).
 */
export const BOUNDARY_EPSILON = 1e-12;

/** 1 − p ≥ threshold, inclusive within BOUNDARY_EPSILON. */
export function complementMeets(p: number, threshold: number): boolean {
  return 1 - p + BOUNDARY_EPSILON >= threshold;
}

/** A judged distribution: the reported confidence (kept verbatim) and the probabilities behind it. */
export interface JudgedDistribution {
  confidence: number;
  probabilities: Record<string, number>;
}

/** The coding-loop answers the policy reads. */
export interface CodingLoopSignals {
  next: JudgedDistribution & { choice: string };
  model_tier: JudgedDistribution & { choice: string };
  risk: JudgedDistribution & { score: number };
  /** P(true) of each noul. */
  done_enough: number;
  needs_more_context: number;
  needs_generation: number;
}

/** Trusted host facts about the current step. */
export interface ExecutionFacts {
  /** Exact arguments already passed the real tool schema, authorization and prerequisite checks. */
  prepared_tool_call: boolean;
  /** The evidence needed for the next step is in hand (distinct from coverage.complete). */
  context_complete: boolean;
  /** Failures of the current unchanged step (integer ≥ 0). */
  failed_attempts: number;
}

/** A partner-model request or its absence. A non-required partner always has tier `none`. */
export interface PartnerModel<R extends string = PartnerReason> {
  required: boolean;
  tier: ModelTier | 'none';
  reason_codes: R[];
}

/** Handoff plus partner decision. */
export interface Routing {
  handoff: Handoff;
  partner_model: PartnerModel;
}

/**
 * Base coding-loop action, first match wins:
 * next confidence < review_at → escalate; ask_user → review; risk ≥ 1.5 → review if confident else
 * escalate; stop with done_enough < 0.7 → review; confident and risk < 1.2 → auto; else review.
 * Throws INVALID_INPUT when the thresholds are not 0 ≤ review_at ≤ auto_accept ≤ 1.
 */
export function codingLoopAction(
  next: string,
  nextConfidence: number,
  riskScore: number,
  doneEnough: number,
  autoAccept: number,
  reviewAt: number,
): Action {
  validatePolicyThresholds(autoAccept, reviewAt);
  if (nextConfidence < reviewAt) return 'escalate';
  if (next === 'ask_user') return 'review';
  if (riskScore >= HIGH_RISK) return nextConfidence >= autoAccept ? 'review' : 'escalate';
  if (next === 'stop' && doneEnough < DONE_ENOUGH_TO_STOP) return 'review';
  if (nextConfidence >= autoAccept && riskScore < LOW_RISK) return 'auto';
  return 'review';
}

/**
 * The loop's action: codingLoopAction, then auto → review when the next or risk distribution fails the
 * concentration guard at auto_accept, then auto → review on incomplete context.
 */
export function loopAction(s: CodingLoopSignals, t: JudgmentThresholds, incomplete: boolean): Action {
  let action = codingLoopAction(s.next.choice, s.next.confidence, s.risk.score, s.done_enough, t.auto_accept, t.review_at);
  if (
    action === 'auto' &&
    (!confidenceSupportsAuto(s.next.confidence, s.next.probabilities, t.auto_accept) ||
      !confidenceSupportsAuto(s.risk.confidence, s.risk.probabilities, t.auto_accept))
  ) {
    action = 'review';
  }
  return requireCompleteContext(action, incomplete);
}

const defer = (handoff: Handoff, code: PartnerReason): Routing => ({
  handoff,
  partner_model: { required: false, tier: 'none', reason_codes: [code] },
});

/** Inputs of partnerRouting. `action` is the loop action (loopAction). */
export interface RoutingInput {
  signals: CodingLoopSignals;
  action: Action;
  /** Evaluated context incomplete (truncated, provider over budget, or a clipped candidate). */
  incomplete: boolean;
  execution: ExecutionFacts;
  thresholds: JudgmentThresholds;
}

/**
 * Partner routing (14 steps, first match wins). P = max(0.8, auto_accept) is the
 * partner floor; "confident at X" means reported confidence ≥ X and the distribution passes the
 * concentration guard at X. A partner is required only when every check passes.
 */
export function partnerRouting(input: RoutingInput): Routing {
  const { signals: s, action, incomplete, execution: e, thresholds: t } = input;
  const P = dispatchFloor(t.auto_accept);
  if (incomplete) return defer('gather_context', 'incomplete_context');
  if (s.next.choice === 'stop') return action === 'auto' ? defer('stop', 'terminal_stop') : defer('review', 'stop_requires_review');
  if (s.next.choice === 'ask_user') {
    // Asking the user buys no generation, so the judgment threshold (not the partner floor) suffices.
    return confidenceSupportsAuto(s.next.confidence, s.next.probabilities, t.auto_accept)
      ? defer('ask_user', 'user_input_required')
      : defer('review', 'next_step_uncertain');
  }
  if (s.next.choice !== 'continue' && s.next.choice !== 'retry') return defer('review', 'next_step_uncertain');
  if (action !== 'auto') return defer('review', 'coding_policy_requires_review');
  if (e.failed_attempts >= REPEATED_FAILURES) return defer('gather_context', 'repeated_failures');
  if (e.prepared_tool_call) return defer('use_tools', 'prepared_tool_call');
  if (!confidenceSupportsAuto(s.risk.confidence, s.risk.probabilities, P)) return defer('review', 'risk_uncertain');
  if (!confidenceSupportsAuto(s.next.confidence, s.next.probabilities, P)) return defer('review', 'next_step_uncertain');
  if (!e.context_complete) return defer('gather_context', 'host_context_incomplete');
  if (!complementMeets(s.needs_more_context, P)) return defer('gather_context', 'context_needed_or_uncertain');
  if (s.needs_generation < P) {
    return defer('gather_context', complementMeets(s.needs_generation, P) ? 'generation_not_required' : 'generation_need_uncertain');
  }
  if (!confidenceSupportsAuto(s.model_tier.confidence, s.model_tier.probabilities, P)) return defer('review', 'model_tier_uncertain');
  const tier = (MODEL_TIERS as readonly string[]).includes(s.model_tier.choice) ? (s.model_tier.choice as ModelTier) : undefined;
  // An unknown tier label cannot name a partner; treat it as an uncertain tier rather than guess.
  if (!tier) return defer('review', 'model_tier_uncertain');
  return { handoff: 'partner_model', partner_model: { required: true, tier, reason_codes: ['generation_required'] } };
}
