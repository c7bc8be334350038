/**
 * One wording of numbers for every face (panel, notifications, lenses, hovers, CLI): probabilities and
 * thresholds in [0,1] with two decimals, and comparisons that never contradict themselves.
 * The rule: a probability is never rounded up. When two decimals would round it up, it gets a third,
 * rounded down (0.9467 → "0.946", 0.7996 → "0.799"). So a value below a threshold never prints as equal to
 * it ("0.946 < 0.95", never "0.95 < 0.95" nor "0.95 ≥ 0.95"), and the same printed value agrees with every
 * threshold written with up to three decimals: each what-if slider stop, each configured floor. A threshold
 * with more decimals gets up to MAX_DECIMALS on the value. Pure: no DOM, no host import.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Top level of the review rubric: jev_review and jev_gate score each dimension on 0–2 (src/policy/review.ts). */
export const REVIEW_SCORE_TOP = 2;

/** A score on the levels 0..`top`, with its scale, so 1.04 never reads as "more than 1": `1.04 / 2`. */
export function fmtScore(score: unknown, top: number): string {
  if (typeof score !== 'number' || !Number.isFinite(score)) return String(score);
  return `${score.toFixed(2)} / ${top}`;
}

/**
 * A review's dimension scores with their 0–2 scale, in the result's order:
 * `correctness 1.04 / 2, spec_match 2.00 / 2, …`; '' when `scores` is not an object.
 */
export function reviewScoresText(scores: unknown): string {
  if (!isObj(scores)) return '';
  return Object.entries(scores)
    .map(([k, v]) => `${k} ${isObj(v) ? fmtScore(v.score, REVIEW_SCORE_TOP) : '?'}`)
    .join(', ');
}

/** Most decimals a value gets to keep its side of a threshold. */
export const MAX_DECIMALS = 4;

/**
 * A probability in [0,1]: two decimals ("0.80"), or three rounded down when two would round it up
 * ("0.946" for 0.9467). Anything else as text ("undefined").
 */
export function fmtProb(v: unknown): string {
  if (typeof v !== 'number' || !Number.isFinite(v)) return String(v);
  const two = v.toFixed(2);
  return Number(two) > v + 1e-12 ? floorAt(v, 3) : two;
}

/** A threshold as written: two decimals, or up to MAX_DECIMALS when it has more (0.955 → "0.955"). */
export function fmtThreshold(t: number): string {
  for (let d = 2; d < MAX_DECIMALS; d++) if (Math.abs(Number(t.toFixed(d)) - t) < 1e-12) return t.toFixed(d);
  return t.toFixed(MAX_DECIMALS);
}

/** `x` rounded down at `d` decimals, as text. */
export function floorAt(x: number, d: number): string {
  const f = 10 ** d;
  // The small epsilon keeps a value stored as 0.94999999… from flooring below 0.95.
  return (Math.floor(x * f + 1e-9) / f).toFixed(d);
}

/**
 * `v` as fmtProb prints it, unless a threshold it is compared with has more decimals than that keeps
 * apart: then rounded down at MAX_DECIMALS, which keeps both sides (v ≥ t stays ≥ t for t written with up
 * to MAX_DECIMALS, and v < t stays below). Non-numbers print as text.
 */
export function fmtAgainst(v: unknown, thresholds: readonly number[]): string {
  if (typeof v !== 'number' || !Number.isFinite(v)) return String(v);
  const text = fmtProb(v);
  const keeps = thresholds.filter((t) => Number.isFinite(t)).every((t) => (Number(text) >= Number(fmtThreshold(t))) === (v >= t));
  return keeps ? text : floorAt(v, MAX_DECIMALS);
}

/** A comparison of a value with a threshold: `0.93 ≥ 0.80`, `0.946 < 0.95`. `holds` is value ≥ threshold. */
export interface Comparison {
  holds: boolean;
  value: string;
  threshold: string;
  text: string;
}

/** Compares `value` with `threshold` (both in [0,1]) and prints it without a contradiction. */
export function compare(value: number, threshold: number): Comparison {
  const holds = value >= threshold;
  const v = fmtAgainst(value, [threshold]);
  const t = fmtThreshold(threshold);
  return { holds, value: v, threshold: t, text: `${v} ${holds ? '≥' : '<'} ${t}` };
}

/** `confidence 0.93 ≥ dispatch_at 0.80`: what the number is, the comparison, and the threshold's name. */
export function versusNamed(what: string, value: number, thresholdName: string, threshold: number): string {
  const c = compare(value, threshold);
  return `${what} ${c.value} ${c.holds ? '≥' : '<'} ${thresholdName} ${c.threshold}`;
}

/**
 * The threshold a confidence was measured against for the action auto / review / escalate: auto_accept when
 * it reaches it or at least reaches `review_at` (then it falls short of auto_accept), else review_at.
 * Undefined when `thresholds` lacks the numbers.
 */
export function decidingThreshold(confidence: number, thresholds: unknown): { name: string; value: number } | undefined {
  if (!isObj(thresholds)) return undefined;
  const auto = typeof thresholds.auto_accept === 'number' ? thresholds.auto_accept : undefined;
  const review = typeof thresholds.review_at === 'number' ? thresholds.review_at : undefined;
  if (auto === undefined) return review === undefined ? undefined : { name: 'review_at', value: review };
  if (review === undefined || confidence >= review) return { name: 'auto_accept', value: auto };
  return { name: 'review_at', value: review };
}

/**
 * One claim's verdict as every face prints it: `verified: confidence 0.19 < review_at 0.50 → escalate`.
 * `thresholds` holds auto_accept and review_at (jev_verify / jev_gate results); without them the line is
 * `verified: confidence 0.19 → escalate`.
 */
export function claimLine(claim: { verdict: unknown; confidence: unknown; action: unknown }, thresholds: unknown): string {
  const c = claim.confidence;
  const t = typeof c === 'number' ? decidingThreshold(c, thresholds) : undefined;
  const conf = typeof c === 'number' && t ? versusNamed('confidence', c, t.name, t.value) : `confidence ${fmtProb(c)}`;
  return `${String(claim.verdict)}: ${conf} → ${String(claim.action)}`;
}

/** `continue: P 0.53 · confidence 0.29`: a choice with its probability and the judge's confidence, named. */
export function choiceLine(choice: string, probability: number | undefined, confidence: number | undefined): string {
  const parts = [probability !== undefined ? `P ${fmtProb(probability)}` : undefined, confidence !== undefined ? `confidence ${fmtProb(confidence)}` : undefined].filter(Boolean);
  return parts.length ? `${choice}: ${parts.join(' · ')}` : choice;
}

/**
 * "1 decision", "0 decisions", "3 decisions": `n` (an integer count) with the noun in the right number.
 * `plural` defaults to `singular` + "s".
 */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
