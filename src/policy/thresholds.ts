import { invalidInput } from '../judgment/errors';
import { validatePolicyThresholds } from './actions';

/** Partner and dispatch floor: a partner answer or a dispatched call needs confidence ≥ max(0.8, auto_accept). */
export const PARTNER_FLOOR = 0.8;
/** jev_screen's default review threshold for injection probability; also the lowest block_at floor. */
export const SCREEN_REVIEW_AT = 0.25;
/** Substance/relevance below this recommends skip. */
export const SKIP_BELOW = 0.35;

/**
 * Environment floors for thresholds (probabilities in [0,1]), set by the host (JEV_* variables, the
 * `jevPanel.thresholds.*` settings). Per-call values may only raise auto_accept / review_at and only lower
 * block_at (tightenJudgmentThresholds, tightenBlockAt). Rules: validateFloors.
 */
export interface Floors {
  auto_accept: number;
  review_at: number;
  block_at: number;
}

/** Defaults: auto_accept 0.8, review_at 0.5, block_at 0.75. */
export const DEFAULT_FLOORS: Floors = Object.freeze({ auto_accept: 0.8, review_at: 0.5, block_at: 0.75 });

/** How a face names each floor in its messages: environment variables, setting keys, CLI flags. */
export type FloorNames = Readonly<Record<keyof Floors, string>>;

/** One broken floor rule. */
export interface FloorViolation {
  /** The floor to report (and, for a face that falls back to defaults, the one to reset). */
  floor: keyof Floors;
  /** range: not a number in [0, 1]; order: review_at above auto_accept; minimum: block_at below SCREEN_REVIEW_AT. */
  kind: 'range' | 'order' | 'minimum';
  /** The rule as a predicate of the floor's name, worded with the face's names, e.g. "must not exceed JEV_AUTO_ACCEPT (0.6) (rule: …)". */
  rule: string;
}

/** The order rule of the judgment thresholds, as messages state it. */
export const THRESHOLD_ORDER_RULE = '0 <= review_at <= auto_accept <= 1';

const isProbability = (v: number) => Number.isFinite(v) && v >= 0 && v <= 1;

/**
 * The one set of rules for environment floors, shared by the CLI (config/env.ts), the editor's settings
 * and `jevcp ledger replay`: each floor a finite number in [0, 1]; 0 <= review_at <= auto_accept <= 1;
 * block_at >= SCREEN_REVIEW_AT (0.25), so a screen can never block below the level where it starts to
 * flag for review. The order and minimum rules are checked only on floors that pass the range rule.
 * Returns the violations in that order, empty when the floors are valid; never throws. `names` words the
 * rules the way the face's user spells the fields.
 */
export function validateFloors(floors: Floors, names: FloorNames): FloorViolation[] {
  const out: FloorViolation[] = [];
  for (const floor of ['auto_accept', 'review_at', 'block_at'] as const) {
    if (!isProbability(floors[floor])) out.push({ floor, kind: 'range', rule: 'must be a number in [0, 1]' });
  }
  const inRange = (floor: keyof Floors) => isProbability(floors[floor]);
  if (inRange('auto_accept') && inRange('review_at') && floors.review_at > floors.auto_accept) {
    out.push({
      floor: 'review_at',
      kind: 'order',
      rule: `must not exceed ${names.auto_accept} (${floors.auto_accept}) (rule: ${THRESHOLD_ORDER_RULE})`,
    });
  }
  if (inRange('block_at') && floors.block_at < SCREEN_REVIEW_AT) {
    out.push({ floor: 'block_at', kind: 'minimum', rule: `must be at least ${SCREEN_REVIEW_AT} (the screen review threshold)` });
  }
  return out;
}

/** Effective judgment thresholds (probabilities in [0,1]). */
export interface JudgmentThresholds {
  auto_accept: number;
  review_at: number;
}

/**
 * Per-call thresholds may only raise the environment floors:
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
