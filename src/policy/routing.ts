import type { Action } from './actions';
import type { Handoff, PartnerModel, PartnerReason, Routing } from './coding-loop';
import { confidenceSupportsAuto } from './distribution';

/**
 * Prepared-call selection policy shared by jev_tool_route and jev_step. Pure functions: no I/O, no clock. Probabilities in [0,1].
 */

/** Effects a host may declare for a prepared call. */
export type CallEffect = 'read_only' | 'local_write' | 'external_write' | 'destructive' | 'unknown';

/** Reasons a judged selection is not dispatched, in reporting order. */
export const SELECTION_REASONS = [
  'incomplete_context',
  'selection_uncertain',
  'no_suitable_call',
  'suitability_uncertain',
  'effect_requires_review',
] as const;
export type SelectionReason = (typeof SELECTION_REASONS)[number];

/** The complete jev_tool_route reason set, in reporting order. */
export const ROUTE_REASONS = [
  'accepted',
  'no_candidates',
  'no_eligible_candidates',
  'not_authorized',
  'arguments_not_validated',
  'preconditions_not_met',
  'retry_budget_exhausted',
  'unknown_effect',
  'no_suitable_call',
  'selection_uncertain',
  'suitability_uncertain',
  'incomplete_context',
  'effect_requires_review',
] as const;
export type RouteReason = (typeof ROUTE_REASONS)[number];
/** jev_step adds one code to the route set. */
export const STEP_REASONS = [...ROUTE_REASONS, 'routing_blocked_dispatch'] as const;
export type StepReason = (typeof STEP_REASONS)[number];

/** A judged choice among eligible calls plus `none`. */
export interface SelectionJudgment {
  /** Index into the eligible list, or null when `none` was chosen. */
  index: number | null;
  /** Reported confidence of the `selected` choice, kept verbatim. */
  confidence: number;
  /** Distribution over `none` and every eligible call. */
  probabilities: Record<string, number>;
  /** P(true) of the selected call's own suitability question; null for `none`. */
  suitability: number | null;
  /** Declared effect of the selected call; null for `none`. */
  effect: CallEffect | null;
}

/** external_write and destructive calls always need review, even when authorized. */
export function effectRequiresReview(effect: CallEffect | null): boolean {
  return effect === 'external_write' || effect === 'destructive';
}

/**
 * Why a judged selection cannot be dispatched, in order: incomplete_context; selection_uncertain
 * (confidence < dispatchAt or the guard over eligible+none fails at dispatchAt); no_suitable_call
 * (`none`); suitability_uncertain (suitability < dispatchAt); effect_requires_review. Empty = dispatchable.
 */
export function selectionReasons(sel: SelectionJudgment, incomplete: boolean, dispatchAt: number): SelectionReason[] {
  const reasons: SelectionReason[] = [];
  if (incomplete) reasons.push('incomplete_context');
  if (!confidenceSupportsAuto(sel.confidence, sel.probabilities, dispatchAt)) reasons.push('selection_uncertain');
  if (sel.index === null) reasons.push('no_suitable_call');
  if (sel.suitability !== null && sel.suitability < dispatchAt) reasons.push('suitability_uncertain');
  if (effectRequiresReview(sel.effect)) reasons.push('effect_requires_review');
  return reasons;
}

/** Selection or suitability below review_at: the judgment itself is too weak to act on. */
function belowReview(sel: SelectionJudgment, reviewAt: number): boolean {
  return sel.confidence < reviewAt || (sel.suitability !== null && sel.suitability < reviewAt);
}

/**
 * jev_tool_route action: auto only with no reasons; else review; escalate when selection confidence or
 * the selected suitability is below review_at (never a partner request).
 */
export function routeAction(sel: SelectionJudgment, reasons: readonly SelectionReason[], reviewAt: number): Action {
  if (belowReview(sel, reviewAt)) return 'escalate';
  return reasons.length ? 'review' : 'auto';
}

/**
 * jev_tool_route handoff for a judged list: execute_tool with a call; review for a selected
 * external_write/destructive call; gather_context otherwise.
 */
export function routeHandoff(dispatch: boolean, sel: SelectionJudgment): 'execute_tool' | 'review' | 'gather_context' {
  if (dispatch) return 'execute_tool';
  return effectRequiresReview(sel.effect) ? 'review' : 'gather_context';
}

const DECLINING: readonly SelectionReason[] = ['selection_uncertain', 'suitability_uncertain', 'effect_requires_review'];

/** Jev declined the prepared calls without confidently ruling them all out. */
export function declinedWithoutConfidence(reasons: readonly string[]): boolean {
  return reasons.some((r) => (DECLINING as readonly string[]).includes(r));
}

/**
 * jev_step's selection verdict (an uncertain or policy-blocked selection cannot leave the
 * step on auto; confidence below review_at escalates): null (no eligible candidate, nothing was selected)
 * → auto, i.e. neutral; below review_at → escalate; uncertain selection/suitability or an effect needing
 * review → review; else auto (a confident `none` included).
 */
export function stepSelectionVerdict(sel: SelectionJudgment | null, reasons: readonly string[], reviewAt: number): Action {
  if (!sel) return 'auto';
  if (belowReview(sel, reviewAt)) return 'escalate';
  return declinedWithoutConfidence(reasons) ? 'review' : 'auto';
}

/** Step partner reasons: the coding-loop set plus the declined-candidates code. */
export type StepPartnerReason = PartnerReason | 'prepared_candidates_declined';
export type StepHandoff = Handoff | 'execute_tool';

/** Inputs of resolveStepHandoff. */
export interface StepHandoffInput {
  /** Coding-loop routing computed with prepared_tool_call := dispatchable. */
  routing: Routing;
  /** A candidate was selected and no selection reason stands. */
  dispatchable: boolean;
  /** Step reasons so far (selection reasons, or no_candidates / no_eligible_candidates). */
  reasons: readonly StepReason[];
  /** The selected call's effect needs review. */
  effectReview: boolean;
  /** Host sent candidates but none was eligible. */
  allBlocked: boolean;
}

/** Outcome of the step handoff resolution. `execute` means: return the selected call exactly. */
export interface StepHandoffResult {
  handoff: StepHandoff;
  partner_model: PartnerModel<StepPartnerReason>;
  execute: boolean;
  reasons: StepReason[];
}

/**
 * jev_step handoff resolution, in order:
 * 1. dispatchable and routing says use_tools → execute_tool with the exact call;
 * 2. else dispatchable → add routing_blocked_dispatch (a terminal, risky, uncertain or failing step outranks it);
 * 3. else routing asked for a partner but Jev declined the calls without confidence → gather_context
 *    (review for an effect needing review), partner `{false, none, [prepared_candidates_declined]}`;
 * 4. a selected call needing review turns gather_context into review;
 * 5. candidates sent but all blocked turn gather_context into review (as jev_tool_route reports a wholly
 *    ineligible list); stop / ask_user / partner handoffs of the loop stand, and with no candidates the
 *    loop's routing stands unchanged (docs/decisions.md);
 * 6. no reasons → [accepted].
 */
export function resolveStepHandoff(input: StepHandoffInput): StepHandoffResult {
  const reasons = [...input.reasons];
  let handoff: StepHandoff = input.routing.handoff;
  let partner_model: PartnerModel<StepPartnerReason> = {
    ...input.routing.partner_model,
    reason_codes: [...input.routing.partner_model.reason_codes],
  };
  let execute = false;
  if (input.dispatchable && input.routing.handoff === 'use_tools') {
    handoff = 'execute_tool';
    execute = true;
  } else if (input.dispatchable) {
    reasons.push('routing_blocked_dispatch');
  } else if (input.routing.partner_model.required && declinedWithoutConfidence(reasons)) {
    handoff = input.effectReview ? 'review' : 'gather_context';
    partner_model = { required: false, tier: 'none', reason_codes: ['prepared_candidates_declined'] };
  }
  if (input.effectReview && handoff === 'gather_context') handoff = 'review';
  if (input.allBlocked && handoff === 'gather_context') handoff = 'review';
  if (reasons.length === 0) reasons.push('accepted');
  return { handoff, partner_model, execute, reasons };
}
