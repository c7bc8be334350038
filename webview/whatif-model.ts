import type { DecisionRecord } from '../src/panel/protocol';
import { SCREEN_REVIEW_AT, type Floors } from '../src/policy/thresholds';
import type { Outcome } from '../src/panel/outcome-diff';
import { fmtThreshold } from '../src/panel/numbers';

/**
 * What the main bundle knows about what-if without loading the tool code: which floors each tool
 * reads, slider arithmetic, and the API shape of the lazily loaded chunk. Pure.
 */

export type FloorKey = keyof Floors;
export const FLOOR_KEYS: readonly FloorKey[] = ['auto_accept', 'review_at', 'block_at'];

/** Environment floors each jev tool reads (its decide in src/tools/); tools not listed read none. */
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
  jev_permit: ['auto_accept', 'review_at', 'block_at'],
});

/** Floors `tool` reads (empty for tools whose result does not depend on thresholds). */
export function floorsUsed(tool: string): readonly FloorKey[] {
  return Object.hasOwn(FLOORS_USED, tool) ? FLOORS_USED[tool]! : [];
}

/**
 * Thresholds the what-if moves for `tool`: the floors it reads, plus jev_screen's review_at, which is the
 * call's own (default 0.25, no floor), so its slider sets the call's review_at rather than JEV_REVIEW_AT.
 */
export function whatIfKeys(tool: string): readonly FloorKey[] {
  const used = floorsUsed(tool);
  return tool === 'jev_screen' ? FLOOR_KEYS.filter((k) => k === 'review_at' || used.includes(k)) : used;
}

/** Tools that read floor `k` (keys of FLOORS_USED), in table order. */
export function floorReaders(k: FloorKey): string[] {
  return Object.entries(FLOORS_USED)
    .filter(([, keys]) => keys.includes(k))
    .map(([t]) => t);
}

/**
 * The status's thresholds (the environment floors, probabilities in [0,1]) worded for the tool shown:
 * `read` lists the floors that tool reads ("auto_accept 0.80 · review_at 0.50"; empty when it reads
 * none), `other` the rest with the tools that do read them ("block_at 0.30 (jev_screen only)"). With no
 * tool shown, every floor is in `read`, each read by few tools annotated with them.
 */
export function thresholdsText(floors: Floors, tool?: string): { read: string; other: string } {
  const value = (k: FloorKey) => `${k} ${fmtThreshold(floors[k])}`;
  const who = (k: FloorKey) => {
    const readers = floorReaders(k);
    return readers.length <= 2 ? ` (${readers.join(', ')} only)` : '';
  };
  if (tool === undefined) return { read: FLOOR_KEYS.map((k) => value(k) + who(k)).join(' · '), other: '' };
  const used = floorsUsed(tool);
  return {
    read: used.map(value).join(' · '),
    other: FLOOR_KEYS.filter((k) => !used.includes(k))
      .map((k) => value(k) + who(k))
      .join(' · '),
  };
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

/** Bounds the recorded call's own input sets on the sliders (probabilities in [0,1]). */
export interface SliderLimits {
  /** auto_accept must stay at or above a per-call review_at given without its own auto_accept. */
  minAuto: number;
  /** block_at must stay at or above this (jev_permit: the screen review threshold, 0.25). */
  minBlock: number;
  /**
   * jev_screen: its review_at (the call's own) must stay at or below block_at and below this (the call's own
   * block_at, which the floor can only lower). Absent for other tools, whose review_at stays <= auto_accept.
   */
  screenMaxReview?: number;
}

/**
 * Slider values after floor `moved` was set to `floors[moved]`, adjusted so the recomputation never hits
 * a threshold-order error. Most tools: 0 <= review_at <= auto_accept <= 1 (moving auto_accept below review_at
 * pushes review_at down with it; moving review_at above auto_accept pushes auto_accept up). jev_screen:
 * review_at <= block_at (moving one past the other moves the other with it), review_at <= screenMaxReview.
 * auto_accept and block_at never go below `limits`. Rounded to the step.
 */
export function constrainFloors(floors: Floors, moved: FloorKey, limits: SliderLimits = { minAuto: 0, minBlock: 0 }): Floors {
  const out: Floors = { auto_accept: toSlider(floors.auto_accept), review_at: toSlider(floors.review_at), block_at: toSlider(floors.block_at) };
  if (limits.screenMaxReview !== undefined) {
    out.block_at = Math.max(out.block_at, limits.minBlock);
    out.review_at = Math.min(out.review_at, toSlider(limits.screenMaxReview));
    if (moved === 'review_at') out.block_at = Math.max(out.block_at, out.review_at);
    else out.review_at = Math.min(out.review_at, out.block_at);
    return out;
  }
  if (moved === 'review_at') {
    out.auto_accept = Math.max(out.auto_accept, out.review_at, limits.minAuto);
  } else {
    out.auto_accept = Math.max(out.auto_accept, limits.minAuto);
    if (out.review_at > out.auto_accept) out.review_at = out.auto_accept;
  }
  out.block_at = Math.max(out.block_at, limits.minBlock);
  return out;
}

/**
 * Limits set by the recorded input: a per-call review_at without its own auto_accept raises the effective
 * review_at (a caller pair was validated itself, and max(caller, env) keeps its order); jev_screen's
 * review_at is a slider of its own, bounded by the call's block_at; jev_permit's block_at floor never goes
 * below 0.25 (the floor's minimum).
 */
export function sliderLimits(record: Pick<DecisionRecord, 'tool' | 'input'>): SliderLimits {
  const raw = record.input;
  const input = (typeof raw === 'object' && raw !== null ? raw : {}) as { auto_accept?: unknown; review_at?: unknown; block_at?: unknown };
  if (record.tool === 'jev_screen') {
    const block = typeof input.block_at === 'number' && Number.isFinite(input.block_at) ? toSlider(input.block_at) : 1;
    return { minAuto: 0, minBlock: 0, screenMaxReview: block };
  }
  const review = typeof input.review_at === 'number' && Number.isFinite(input.review_at) ? toSlider(input.review_at) : undefined;
  const minAuto = review !== undefined && typeof input.auto_accept !== 'number' ? review : 0;
  // jev_permit reads the block_at floor itself, which never goes below the screen review threshold (0.25).
  return { minAuto, minBlock: record.tool === 'jev_permit' ? SCREEN_REVIEW_AT : 0 };
}

/**
 * The thresholds a record was decided under, rounded for the sliders; defaults fill a malformed record.
 * jev_screen's review_at is the call's own as its result states it (else its input's, else 0.25), not the floor.
 */
export function recordFloors(record: Pick<DecisionRecord, 'thresholds'> & Partial<Pick<DecisionRecord, 'tool' | 'input' | 'result'>>): Floors {
  const t = (record.thresholds ?? {}) as Partial<Floors>;
  const pick = (k: FloorKey, d: number) => (typeof t[k] === 'number' ? toSlider(t[k]!) : d);
  const floors = { auto_accept: pick('auto_accept', 0.8), review_at: pick('review_at', 0.5), block_at: pick('block_at', 0.75) };
  if (record.tool !== 'jev_screen') return floors;
  const stated = (record.result as { thresholds?: { review_at?: unknown } } | undefined)?.thresholds?.review_at;
  const asked = (record.input as { review_at?: unknown } | undefined)?.review_at;
  const review = typeof stated === 'number' ? stated : typeof asked === 'number' ? asked : SCREEN_REVIEW_AT;
  return { ...floors, review_at: toSlider(review) };
}

/** True when every floor in `a` equals the one in `b` (after rounding to the slider step). */
export function sameFloors(a: Floors, b: Floors): boolean {
  return FLOOR_KEYS.every((k) => toSlider(a[k]) === toSlider(b[k]));
}

/** Global name under which the what-if chunk publishes its API. */
export const WHAT_IF_GLOBAL = '__jevWhatIf';

/**
 * Global under which the MCP Apps card publishes its zod (`z`) for its what-if chunk, which is built
 * without zod of its own (webview/shims/zod-card-bridge.ts): one copy in the card's HTML, one set of classes.
 */
export const CARD_ZOD_GLOBAL = '__jevCardZod';

/** API of the what-if chunk (webview/whatif-entry.ts, over src/panel/whatif.ts). */
export interface WhatIfApi {
  recompute(record: DecisionRecord, floors: Floors): Promise<Outcome & { replayed: number }>;
  supportsWhatIf(tool: string): boolean;
}
