import { invalidInput } from '../judgment/errors';

/** Outcome lattice of every jev tool: auto < review < escalate. */
export type Action = 'auto' | 'review' | 'escalate';

const RANK: Record<Action, number> = { auto: 0, review: 1, escalate: 2 };

/** The strictest action of the list (escalate > review > auto); `auto` for an empty list. */
export function worstAction(actions: Action[]): Action {
  let worst: Action = 'auto';
  for (const a of actions) if (RANK[a] > RANK[worst]) worst = a;
  return worst;
}

/** Incomplete context never returns auto: auto → review, others unchanged. */
export function requireCompleteContext(action: Action, incomplete: boolean): Action {
  return incomplete && action === 'auto' ? 'review' : action;
}

/** Checks 0 ≤ review_at ≤ auto_accept ≤ 1 with finite numbers; throws INVALID_INPUT naming the rule. */
export function validatePolicyThresholds(autoAccept: number, reviewAt: number): void {
  if (!Number.isFinite(autoAccept) || !Number.isFinite(reviewAt) || reviewAt < 0 || autoAccept > 1 || reviewAt > autoAccept) {
    throw invalidInput('auto_accept, review_at: thresholds must satisfy 0 <= review_at <= auto_accept <= 1.');
  }
}

/** c ≥ a → auto; c ≥ r → review; else escalate. */
export function actionFromConfidence(confidence: number, autoAccept: number, reviewAt: number): Action {
  if (confidence >= autoAccept) return 'auto';
  if (confidence >= reviewAt) return 'review';
  return 'escalate';
}

/** Noul certainty: peak = max(p, 1−p); peak ≥ 0.5 + a/2 → auto; ≥ 0.5 + r/2 → review; else escalate. */
export function actionFromNoul(p: number, autoAccept: number, reviewAt: number): Action {
  const peak = Math.max(p, 1 - p);
  if (peak >= 0.5 + autoAccept / 2) return 'auto';
  if (peak >= 0.5 + reviewAt / 2) return 'review';
  return 'escalate';
}

/** Minimum of the numbers, 0 for none. */
export function minConfidence(values: number[]): number {
  return values.length === 0 ? 0 : Math.min(...values);
}
