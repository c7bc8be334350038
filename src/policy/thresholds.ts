import { invalidInput } from '../judgment/errors';
import { validatePolicyThresholds } from './actions';

/** Partner and dispatch floor: max(0.8, auto_accept) (jev-tools-spec §6). */
export const PARTNER_FLOOR = 0.8;
/** jev_screen's default review threshold for injection probability. */
export const SCREEN_REVIEW_AT = 0.25;
/** Substance/relevance below this recommends skip. */
export const SKIP_BELOW = 0.35;

/** Effective judgment thresholds (probabilities in [0,1]). */
export interface JudgmentThresholds {
  auto_accept: number;
  review_at: number;
}

/**
 * Per-call thresholds may only raise the environment floors (jev-tools-spec §6, PR #7):
 * a caller pair is validated first; then a = max(caller ?? env, env), r = max(caller ?? env, env), and
 * the tightened pair is validated. Throws JevError INVALID_INPUT naming the fields.
 */
export function tightenJudgmentThresholds(
  callerAuto: number | undefined,
  callerReview: number | undefined,
  envAuto: number,
  envReview: number,
): JudgmentThresholds {
  for (const [name, v] of [['auto_accept', callerAuto], ['review_at', callerReview]] as const) {
    if (v !== undefined && (!Number.isFinite(v) || v < 0 || v > 1)) throw invalidInput(`${name}: must be a finite number in [0, 1].`);
  }
  if (callerAuto !== undefined && callerReview !== undefined) validatePolicyThresholds(callerAuto, callerReview);
  const auto_accept = Math.max(callerAuto ?? envAuto, envAuto);
  const review_at = Math.max(callerReview ?? envReview, envReview);
  validatePolicyThresholds(auto_accept, review_at);
  return { auto_accept, review_at };
}

/** A per-call block_at may only lower the environment floor. Throws INVALID_INPUT for non-finite or out-of-range. */
export function tightenBlockAt(caller: number | undefined, envBlockAt: number): number {
  if (caller === undefined) return envBlockAt;
  if (!Number.isFinite(caller) || caller < 0 || caller > 1) throw invalidInput('block_at: must be a finite number in [0, 1].');
  return Math.min(caller, envBlockAt);
}

/** Dispatch/partner floor for an effective auto_accept. */
export function dispatchFloor(autoAccept: number): number {
  return Math.max(PARTNER_FLOOR, autoAccept);
}
