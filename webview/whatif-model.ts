import type { DecisionRecord } from '../src/ledger/record';
import type { Floors } from '../src/tools/types';
import type { Outcome } from './outcome-diff';

/**
 * What the main bundle knows about what-if without loading the tool code: which floors each tool
 * reads, slider arithmetic, and the API shape of the lazily loaded chunk. Pure.
 */

export type FloorKey = keyof Floors;
export const FLOOR_KEYS: readonly FloorKey[] = ['auto_accept', 'review_at', 'block_at'];

/** Environment floors each jev tool reads (jev-tools-spec §8); tools not listed read none. */
export const FLOORS_USED: Readonly<Record<string, readonly FloorKey[]>> = Object.freeze({
  jev_step: ['auto_accept', 'review_at'],
  jev_coding_loop: ['auto_accept', 'review_at'],
  jev_tool_route: ['auto_accept', 'review_at'],
  jev_review: ['auto_accept', 'review_at'],
  jev_gate: ['auto_accept', 'review_at'],
  jev_evaluate: ['auto_accept', 'review_at'],
  jev_verify: ['auto_accept'],
  jev_rank: ['auto_accept'],
  jev_screen: ['block_at'],
});

/** Floors `tool` reads (empty for tools whose result does not depend on thresholds). */
export function floorsUsed(tool: string): readonly FloorKey[] {
  return Object.hasOwn(FLOORS_USED, tool) ? FLOORS_USED[tool]! : [];
}

/**
 * Why a record cannot be recomputed at all, as one plain line, or undefined when it can: a call that
 * failed (or kept no result, or made no judgment exchange) has no answers to replay, so any
 * "recomputation" could only report a replay error, which would read as a code change.
 */
export function notRecomputable(record: Pick<DecisionRecord, 'result' | 'error' | 'exchanges'>): string | undefined {
  const hasResult = record.result !== undefined && record.result !== null;
  const hasExchanges = Array.isArray(record.exchanges) && record.exchanges.length > 0;
  if (hasResult && hasExchanges && !record.error) return undefined;
  const code = record.error?.code ?? (hasResult ? 'no recorded judgment' : 'no recorded result');
  return `This call failed before a judgment was made (${code}): nothing to recompute.`;
}

/** Slider step: probabilities move in hundredths. */
export const SLIDER_STEP = 0.01;
const STEPS_PER_UNIT = 100;

/** Rounds `v` to the slider step (exactly, e.g. 0.95 not 0.9500000000000001) and clamps it to [0,1]; NaN becomes 0. */
export function toSlider(v: number): number {
  if (!Number.isFinite(v)) return 0;
  return Math.min(1, Math.max(0, Math.round(v * STEPS_PER_UNIT) / STEPS_PER_UNIT));
}

/** The floors a record was decided under, rounded for the sliders; defaults fill a malformed record. */
export function recordFloors(record: Pick<DecisionRecord, 'thresholds'>): Floors {
  const t = (record.thresholds ?? {}) as Partial<Floors>;
  const pick = (k: FloorKey, d: number) => (typeof t[k] === 'number' ? toSlider(t[k]!) : d);
  return { auto_accept: pick('auto_accept', 0.8), review_at: pick('review_at', 0.5), block_at: pick('block_at', 0.75) };
}

/** True when every floor in `a` equals the one in `b` (after rounding to the slider step). */
export function sameFloors(a: Floors, b: Floors): boolean {
  return FLOOR_KEYS.every((k) => toSlider(a[k]) === toSlider(b[k]));
}

/** Global name under which the what-if chunk publishes its API. */
export const WHAT_IF_GLOBAL = '__jevWhatIf';

/** API of the what-if chunk (webview/whatif-engine.ts). */
export interface WhatIfApi {
  recompute(record: DecisionRecord, floors: Floors): Promise<Outcome & { replayed: number }>;
  supportsWhatIf(tool: string): boolean;
}
