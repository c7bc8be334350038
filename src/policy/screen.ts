import type { Action } from './actions';
import { SKIP_BELOW } from './thresholds';

/**
 * Content-screen policy of jev_screen: the recommendation from the judged risks.
 * Pure: no I/O, no clock. Probabilities and thresholds in [0,1].
 */

/** Screen recommendation, separate from the MCP action. */
export type ScreenVerdict = 'pass' | 'review' | 'block' | 'skip';

/** Noul probabilities of a screen; relevance only when a purpose was given. */
export interface ScreenProbabilities {
  injection: number;
  substance: number;
  relevance?: number;
}

/** The recommendation with a plain-language reason. */
export interface ScreenRecommendation {
  action: ScreenVerdict;
  reason: string;
}

const pct = (p: number) => p.toFixed(2);

/**
 * First match wins: injection ≥ block_at → block; text omitted (truncated) → review; injection ≥ review_at →
 * review; relevance given and < 0.35 → skip; substance < 0.35 → skip; else pass.
 * A detected block survives truncation; every other recommendation on truncated text becomes review.
 */
export function screenRecommendation(
  p: ScreenProbabilities,
  thresholds: { block_at: number; review_at: number },
  truncated: boolean,
): ScreenRecommendation {
  if (p.injection >= thresholds.block_at) {
    return { action: 'block', reason: `Injection probability ${pct(p.injection)} is at or above the block threshold ${thresholds.block_at}.` };
  }
  if (truncated) return { action: 'review', reason: 'The text was truncated to fit the budget, so not all of it was screened.' };
  if (p.injection >= thresholds.review_at) {
    return { action: 'review', reason: `Injection probability ${pct(p.injection)} is at or above the review threshold ${thresholds.review_at}.` };
  }
  if (p.relevance !== undefined && p.relevance < SKIP_BELOW) {
    return { action: 'skip', reason: `Relevance probability ${pct(p.relevance)} is below ${SKIP_BELOW}.` };
  }
  if (p.substance < SKIP_BELOW) return { action: 'skip', reason: `Substance probability ${pct(p.substance)} is below ${SKIP_BELOW}.` };
  return { action: 'pass', reason: 'No injection signal; the text looks safe to read.' };
}

/** MCP action of a recommendation: block → escalate, review → review, pass/skip → auto. */
export function screenAction(verdict: ScreenVerdict): Action {
  if (verdict === 'block') return 'escalate';
  if (verdict === 'review') return 'review';
  return 'auto';
}
