import type { Answer, ScoreAnswer } from '../judgment/types';
import { invalidResponse } from '../judgment/errors';
import { type Action, minConfidence, requireCompleteContext } from './actions';
import { distributionSupportsConfidence } from './distribution';
import type { JudgmentThresholds } from './thresholds';

/**
 * Patch-review policy of jev_review and jev_gate: the composite score and the review action. Pure: no I/O,
 * no clock.
 * Scores are the provider's expected levels on 0–2 rubrics; probabilities in [0,1].
 */

/** The four scored review dimensions, in pack order. */
export const REVIEW_DIMENSIONS = ['correctness', 'spec_match', 'test_gap', 'blast_radius'] as const;
export type ReviewDimension = (typeof REVIEW_DIMENSIONS)[number];

/** Composite weights; test_gap and blast_radius enter inverted (2 = bad). Sum 1. */
export const REVIEW_WEIGHTS: Readonly<Record<ReviewDimension, number>> = Object.freeze({
  correctness: 0.4,
  spec_match: 0.3,
  test_gap: 0.15,
  blast_radius: 0.15,
});

/** Composite needed for auto (on [0,1]). */
export const REVIEW_AUTO_COMPOSITE = 0.7;
/** safe_to_apply below this escalates. */
export const REVIEW_UNSAFE_BELOW = 0.4;

/** Expected scores (0–2) of the four dimensions. */
export type ReviewScores = Record<ReviewDimension, number>;

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/**
 * Weighted composite in [0,1]: 0.4·c/2 + 0.3·s/2 + 0.15·(1 − t/2) + 0.15·(1 − b/2), each term clamped.
 */
export function reviewComposite(scores: ReviewScores): number {
  return (
    REVIEW_WEIGHTS.correctness * clamp01(scores.correctness / 2) +
    REVIEW_WEIGHTS.spec_match * clamp01(scores.spec_match / 2) +
    REVIEW_WEIGHTS.test_gap * clamp01(1 - scores.test_gap / 2) +
    REVIEW_WEIGHTS.blast_radius * clamp01(1 - scores.blast_radius / 2)
  );
}

/**
 * Review action, first match wins:
 * 1. minConf < review_at or safe_to_apply < 0.4 → escalate;
 * 2. every dimension clear (correctness ≥ 1, spec_match ≥ 1, test_gap ≤ 1, blast_radius ≤ 1) and
 *    safe_to_apply ≥ auto_accept and composite ≥ 0.7 and minConf ≥ auto_accept → auto;
 * 3. review.
 */
export function reviewAction(
  composite: number,
  safeToApply: number,
  minConf: number,
  scores: ReviewScores,
  t: JudgmentThresholds,
): Action {
  if (minConf < t.review_at || safeToApply < REVIEW_UNSAFE_BELOW) return 'escalate';
  const dimensionsClear = scores.correctness >= 1 && scores.spec_match >= 1 && scores.test_gap <= 1 && scores.blast_radius <= 1;
  if (dimensionsClear && safeToApply >= t.auto_accept && composite >= REVIEW_AUTO_COMPOSITE && minConf >= t.auto_accept) return 'auto';
  return 'review';
}

/** The review part of a jev_review / jev_gate result. */
export interface ReviewProjection {
  action: Action;
  /** Weighted composite in [0,1]. */
  composite: number;
  /** P(safe to apply without a human first). */
  safe_to_apply: number;
  scores: Record<ReviewDimension, { score: number; confidence: number }>;
  weights: Record<ReviewDimension, number>;
  thresholds: JudgmentThresholds;
}

function scoreAnswer(answers: Record<string, Answer>, id: ReviewDimension): ScoreAnswer {
  const a = answers[id];
  if (!a || a.type !== 'score') throw invalidResponse(`The review answer ${id} is missing or not a score.`);
  return a;
}

/**
 * Projects validated review answers (`correctness`, `spec_match`, `test_gap`, `blast_radius` scores and
 * `safe_to_apply` noul) to a review decision: reviewAction, then auto → review when any score
 * distribution is too flat for auto_accept (concentration guard), then incomplete context → review.
 * Throws INVALID_RESPONSE when an answer is missing (validated responses always have them).
 */
export function projectReview(answers: Record<string, Answer>, t: JudgmentThresholds, incomplete: boolean): ReviewProjection {
  const dims = REVIEW_DIMENSIONS.map((d) => [d, scoreAnswer(answers, d)] as const);
  const safe = answers.safe_to_apply;
  if (!safe || safe.type !== 'noul') throw invalidResponse('The review answer safe_to_apply is missing or not a noul.');
  const scores = Object.fromEntries(dims.map(([d, a]) => [d, a.score])) as ReviewScores;
  const composite = reviewComposite(scores);
  const minConf = minConfidence(dims.map(([, a]) => a.confidence));
  let action = reviewAction(composite, safe.noul, minConf, scores, t);
  if (action === 'auto' && dims.some(([, a]) => !distributionSupportsConfidence(a.probabilities, t.auto_accept))) action = 'review';
  action = requireCompleteContext(action, incomplete);
  return {
    action,
    composite,
    safe_to_apply: safe.noul,
    scores: Object.fromEntries(dims.map(([d, a]) => [d, { score: a.score, confidence: a.confidence }])) as ReviewProjection['scores'],
    weights: { ...REVIEW_WEIGHTS },
    thresholds: { ...t },
  };
}
