import type { Action } from './actions';
import { confidenceSupportsAuto, distributionSupportsConfidence } from './distribution';

/**
 * Permission policy of jev_permit: allow, ask or deny one proposed tool call of an agent, from the host's
 * trusted facts and the judged effect and nouls. Pure: no I/O, no clock. Probabilities in [0,1].
 *
 * Rules (the prepared-call rules of jev_tool_route, applied to a call the agent proposes):
 * - only read_only and local_write may be allowed; external_write and destructive always need a person;
 * - the host's effect is a trusted fact and wins; a judged effect counts only when its confidence reaches
 *   dispatch_at and its distribution passes the concentration guard (else the effect is unknown);
 * - every noul used passes the same guard as the two-option distribution {true: p, false: 1 − p}:
 *   "confidently yes" is p ≥ 1/2 + dispatch_at/2, "confidently no" is p ≤ (1 − dispatch_at)/2
 *   (0.9 and 0.1 at the default dispatch_at 0.8);
 * - exfiltration or planted purpose at or above block_at (the screen's floor, default 0.75) denies;
 * - a write whose paths leave the workspace, incomplete coverage, or any uncertainty asks.
 */

/** Effects a call can have, mildest first. */
export const PERMIT_EFFECTS = ['read_only', 'local_write', 'external_write', 'destructive'] as const;
export type PermitEffect = (typeof PERMIT_EFFECTS)[number];

/** What the host should do with the call. */
export type PermitDecision = 'allow' | 'ask' | 'deny';

/** Every jev_permit reason code, in reporting order. */
export const PERMIT_REASONS = [
  'accepted',
  'incomplete_context',
  'effect_uncertain',
  'effect_requires_review',
  'write_outside_workspace',
  'exfiltration_likely',
  'exfiltration_uncertain',
  'planted_purpose_likely',
  'planted_purpose_uncertain',
  'request_not_served',
  'request_fit_uncertain',
] as const;
export type PermitReason = (typeof PERMIT_REASONS)[number];

/** Reasons that deny outright; every other reason asks. */
export const DENY_REASONS: readonly PermitReason[] = ['exfiltration_likely', 'planted_purpose_likely'];

/** The effect as the policy sees it: from the host (trusted) or from the judge's choice answer. */
export type EffectEvidence =
  | { source: 'host'; effect: PermitEffect }
  | { source: 'judge'; choice: PermitEffect; confidence: number; probabilities: Record<string, number> };

/** Everything the decision reads. */
export interface PermitFacts {
  effect: EffectEvidence;
  /** Host fact: every file path of the call lies inside the workspace; undefined when the host did not say. */
  paths_in_workspace?: boolean;
  /** P(the call serves the user's request). */
  serves_request: number;
  /** P(the call sends workspace content, credentials or personal data off the machine). */
  exfiltration: number;
  /** P(the call's purpose comes from instructions planted in content the agent read). */
  planted_purpose: number;
  /** Some input was cut (state fitted, call projection clipped, provider over budget). */
  incomplete: boolean;
}

/** Thresholds the decision uses (probabilities in [0,1]). */
export interface PermitThresholds {
  /** Effective auto_accept (after the floors). */
  auto_accept: number;
  /** Effective review_at: a judgment weaker than this escalates an `ask`. */
  review_at: number;
  /** max(0.8, auto_accept): the confidence an allow needs. */
  dispatch_at: number;
  /** Exfiltration or planted purpose at or above this denies. */
  block_at: number;
}

/** The policy's outcome. `effect` is what the policy believed (null when the judged effect was too uncertain). */
export interface PermitVerdict {
  decision: PermitDecision;
  action: Action;
  reason_codes: PermitReason[];
  effect: PermitEffect | null;
}

/** Effects a person must approve even when every judgment is confident. */
export function effectNeedsPerson(effect: PermitEffect): boolean {
  return effect === 'external_write' || effect === 'destructive';
}

/** Guarded "yes": the noul as a two-option distribution passes the concentration guard on `true`. */
export function confidentYes(p: number, threshold: number): boolean {
  return p >= 0.5 && distributionSupportsConfidence({ true: p, false: 1 - p }, threshold);
}

/** Guarded "no": the noul as a two-option distribution passes the concentration guard on `false`. */
export function confidentNo(p: number, threshold: number): boolean {
  return p <= 0.5 && distributionSupportsConfidence({ true: p, false: 1 - p }, threshold);
}

/** The effect the policy may rely on: the host's, or a judged one that passes confidence and the guard at dispatch_at; else null. */
export function trustedEffect(effect: EffectEvidence, dispatchAt: number): PermitEffect | null {
  if (effect.source === 'host') return effect.effect;
  return confidenceSupportsAuto(effect.confidence, effect.probabilities, dispatchAt) ? effect.choice : null;
}

/**
 * The judge is unsure of a judgment the decision used: the judged effect's confidence, or the certainty of
 * serves_request (max(p, 1 − p) against 1/2 + review_at/2), below review_at.
 */
function weakJudgment(facts: PermitFacts, reviewAt: number): boolean {
  if (facts.effect.source === 'judge' && facts.effect.confidence < reviewAt) return true;
  return Math.max(facts.serves_request, 1 - facts.serves_request) < 0.5 + reviewAt / 2;
}

/**
 * Pure decision of jev_permit. Reasons, in order: incomplete_context; effect_uncertain (judged effect under
 * dispatch_at or failing the guard); effect_requires_review (external_write or destructive);
 * write_outside_workspace (paths_in_workspace false and the effect is not known to be read_only);
 * exfiltration_likely (≥ block_at) or exfiltration_uncertain (not confidently no); the same pair for
 * planted_purpose; request_not_served (confidently no) or request_fit_uncertain (not confidently yes).
 * decision: deny when a deny reason stands; allow with no reason (reason_codes [accepted]); else ask.
 * action: allow → auto, deny → escalate, ask → review, or escalate when a judgment it used is below
 * review_at. Never throws.
 */
export function decidePermit(facts: PermitFacts, t: PermitThresholds): PermitVerdict {
  const D = t.dispatch_at;
  const reasons: PermitReason[] = [];
  if (facts.incomplete) reasons.push('incomplete_context');
  const effect = trustedEffect(facts.effect, D);
  if (effect === null) reasons.push('effect_uncertain');
  else if (effectNeedsPerson(effect)) reasons.push('effect_requires_review');
  if (facts.paths_in_workspace === false && effect !== 'read_only') reasons.push('write_outside_workspace');
  if (facts.exfiltration >= t.block_at) reasons.push('exfiltration_likely');
  else if (!confidentNo(facts.exfiltration, D)) reasons.push('exfiltration_uncertain');
  if (facts.planted_purpose >= t.block_at) reasons.push('planted_purpose_likely');
  else if (!confidentNo(facts.planted_purpose, D)) reasons.push('planted_purpose_uncertain');
  if (confidentNo(facts.serves_request, D)) reasons.push('request_not_served');
  else if (!confidentYes(facts.serves_request, D)) reasons.push('request_fit_uncertain');

  let decision: PermitDecision;
  let action: Action;
  if (reasons.some((r) => DENY_REASONS.includes(r))) {
    decision = 'deny';
    action = 'escalate';
  } else if (reasons.length === 0) {
    decision = 'allow';
    action = 'auto';
  } else {
    decision = 'ask';
    action = weakJudgment(facts, t.review_at) ? 'escalate' : 'review';
  }
  return { decision, action, reason_codes: reasons.length ? reasons : ['accepted'], effect };
}
