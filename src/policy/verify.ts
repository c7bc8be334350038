import type { ChoiceAnswer } from '../judgment/types';
import { type Action, actionFromConfidence, requireCompleteContext, worstAction } from './actions';
import { distributionSupportsConfidence } from './distribution';

/**
 * Claim-verification policy of jev_verify and jev_gate.
 * Pure: no I/O, no clock. Confidences and thresholds are probabilities in [0,1].
 */

/** Verdict options of a claim question, in pack order. */
export const VERDICTS = ['verified', 'contradicted', 'unsupported'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** jev_verify's own escalation cut-off: min(0.5, auto_accept); the env review_at is not used (docs/decisions.md). */
export function verifyCutoff(autoAccept: number): number {
  return Math.min(0.5, autoAccept);
}

/** One judged claim: its verdict, reported confidence and full distribution. */
export interface ClaimJudgment {
  verdict: Verdict;
  confidence: number;
  probabilities: Record<string, number>;
}

/** Probabilities this close to the top count as the top (they print the same at three decimals). */
export const VERDICT_TIE_TOLERANCE = 0.001;

/**
 * Reads a validated claim answer as a ClaimJudgment: the verdict is the judge's stated choice, always
 * (a verdict the judge did not give is never shown); confidence and probabilities as validated.
 * Whether the stated choice is backed by its distribution is {@link claimIncoherent}'s question.
 */
export function claimJudgment(answer: ChoiceAnswer): ClaimJudgment {
  return { verdict: answer.choice as Verdict, confidence: answer.confidence, probabilities: answer.probabilities };
}

/** The stated verdict has the top probability of its distribution (ties within VERDICT_TIE_TOLERANCE count). */
export function verdictIsTop(claim: ClaimJudgment): boolean {
  const p = claim.probabilities;
  const top = Math.max(...Object.values(p));
  return (p[claim.verdict] ?? 0) >= top - VERDICT_TIE_TOLERANCE;
}

/**
 * A claim whose numbers do not back its verdict: the stated verdict is not among the top of its
 * distribution, or its confidence reaches auto_accept while the distribution is too flat for it
 * (distributionSupportsConfidence). Such a claim is never auto (`confidence_incoherent`, review).
 */
export function claimIncoherent(claim: ClaimJudgment, autoAccept: number): boolean {
  if (!verdictIsTop(claim)) return true;
  return claim.confidence >= autoAccept && !distributionSupportsConfidence(claim.probabilities, autoAccept);
}

/**
 * Per-claim action of jev_verify: confidence ≥ auto_accept → auto, ≥ cutoff → review, else escalate;
 * auto for an incoherent claim (claimIncoherent) → review; incomplete context → review.
 * A confident `unsupported` or `contradicted` may be auto: it accepts the classification, not the claim.
 */
export function verifyItemAction(claim: ClaimJudgment, autoAccept: number, cutoff: number, incomplete: boolean): Action {
  let action = actionFromConfidence(claim.confidence, autoAccept, cutoff);
  if (action === 'auto' && claimIncoherent(claim, autoAccept)) action = 'review';
  return requireCompleteContext(action, incomplete);
}

/**
 * Overall jev_verify action: a contradiction whose item is auto → escalate; otherwise any non-auto
 * item or any contradiction → review; otherwise auto, unless the context is incomplete (→ review).
 * Low-confidence items escalate per item only; overall they make the result review.
 */
export function verifyOverallAction(items: ReadonlyArray<{ verdict: Verdict; action: Action }>, incomplete: boolean): Action {
  if (items.some((i) => i.verdict === 'contradicted' && i.action === 'auto')) return 'escalate';
  if (items.some((i) => i.action !== 'auto' || i.verdict === 'contradicted')) return 'review';
  return requireCompleteContext('auto', incomplete);
}

/**
 * Per-claim action of jev_gate: the verify rule with the gate's review_at, then
 * confidence < review_at, or a contradiction at or above auto_accept → escalate; else any verdict other
 * than verified → review; incomplete context → review.
 */
export function gateItemAction(claim: ClaimJudgment, autoAccept: number, reviewAt: number, incomplete: boolean): Action {
  let action = actionFromConfidence(claim.confidence, autoAccept, reviewAt);
  if (action === 'auto' && claimIncoherent(claim, autoAccept)) action = 'review';
  if (claim.confidence < reviewAt || (claim.verdict === 'contradicted' && claim.confidence >= autoAccept)) action = 'escalate';
  else if (claim.verdict !== 'verified') action = worstAction([action, 'review']);
  return requireCompleteContext(action, incomplete);
}

/** Counts per verdict plus the number of items whose action is not auto. */
export interface VerifySummary {
  verified: number;
  contradicted: number;
  unsupported: number;
  needs_review: number;
}

/** Summary counts of judged items. */
export function summarizeClaims(items: ReadonlyArray<{ verdict: Verdict; action: Action }>): VerifySummary {
  const out: VerifySummary = { verified: 0, contradicted: 0, unsupported: 0, needs_review: 0 };
  for (const i of items) {
    out[i.verdict]++;
    if (i.action !== 'auto') out.needs_review++;
  }
  return out;
}

/** Gate reason codes in their fixed, deterministic order. */
export const GATE_REASON_CODES = [
  'incomplete_context',
  'review_escalated',
  'review_required',
  'claims_contradicted',
  'claims_unsupported',
  'claim_confidence_low',
  'claim_confidence_below_auto_accept',
  'confidence_incoherent',
  'accepted',
] as const;
export type GateReasonCode = (typeof GATE_REASON_CODES)[number];

/**
 * jev_gate reason codes in GATE_REASON_CODES order. `accepted` only with action auto.
 * Never empty: a non-auto gate with no specific cause (not reachable with the rules above) reports
 * review_required rather than nothing.
 */
export function gateReasonCodes(args: {
  incomplete: boolean;
  reviewAction: Action;
  claims: ReadonlyArray<ClaimJudgment>;
  action: Action;
  autoAccept: number;
  reviewAt: number;
}): GateReasonCode[] {
  const { claims, autoAccept: a, reviewAt: r } = args;
  const on: Record<GateReasonCode, boolean> = {
    incomplete_context: args.incomplete,
    review_escalated: args.reviewAction === 'escalate',
    review_required: args.reviewAction === 'review',
    claims_contradicted: claims.some((c) => c.verdict === 'contradicted'),
    claims_unsupported: claims.some((c) => c.verdict === 'unsupported'),
    claim_confidence_low: claims.some((c) => c.confidence < r),
    claim_confidence_below_auto_accept: claims.some((c) => c.confidence >= r && c.confidence < a),
    confidence_incoherent: claims.some((c) => claimIncoherent(c, a)),
    accepted: args.action === 'auto',
  };
  const codes = GATE_REASON_CODES.filter((c) => on[c]);
  if (codes.length === 0) codes.push('review_required');
  return codes;
}
