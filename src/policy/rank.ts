import { MAX_STATE_PLUS_LONGEST_QUESTION_TOKENS, MAX_TOTAL_TOKENS } from '../judgment/budget';
import { inputTooLarge } from '../judgment/errors';
import type { Action } from './actions';
import { confidenceSupportsAuto } from './distribution';

/**
 * jev_rank policy: tournament planning, finalist ordering,
 * exists verdict and action. Pure: no I/O, no clock.
 */

/** Most options one Choice may carry. */
export const MAX_RANK_OPTIONS = 250;
/** Most candidates one jev_rank call accepts. */
export const MAX_RANK_CANDIDATES = 5_000;
/** Candidate texts are cut to this many UTF-16 units, truncation marker included. */
export const MAX_CANDIDATE_CHARS = 2_000;
/** `exists` at or above this → answered. */
export const EXISTS_ANSWERED_AT = 0.75;
/** `exists` at or above this (and below answered) → partial. */
export const EXISTS_PARTIAL_AT = 0.4;

export type ExistsVerdict = 'answered' | 'partial' | 'absent';

/** p ≥ 0.75 → answered; p ≥ 0.40 → partial; else absent (bounds inclusive). */
export function existsVerdict(p: number): ExistsVerdict {
  if (p >= EXISTS_ANSWERED_AT) return 'answered';
  if (p >= EXISTS_PARTIAL_AT) return 'partial';
  return 'absent';
}

/**
 * Rank action: auto only when `exists` ≥ auto_accept, the best-choice confidence and its distribution
 * support auto_accept (concentration guard), and nothing was truncated; otherwise review. Never escalate:
 * a weak ranking is still a ranking the host may inspect.
 */
export function rankAction(
  exists: number,
  best: { confidence: number; probabilities: Record<string, number> },
  truncated: boolean,
  autoAccept: number,
): Action {
  return !truncated && exists >= autoAccept && confidenceSupportsAuto(best.confidence, best.probabilities, autoAccept) ? 'auto' : 'review';
}

/**
 * Orders the options of one request: probability descending; on a tie the chosen option first, then
 * option order. Returns positions into `labels`.
 */
export function orderOptions(labels: ReadonlyArray<string>, probabilities: Record<string, number>, choice: string): number[] {
  const pos = labels.map((_, i) => i);
  return pos.sort((a, b) => {
    const d = (probabilities[labels[b]!] ?? 0) - (probabilities[labels[a]!] ?? 0);
    if (d !== 0) return d;
    if (labels[a] === choice) return -1;
    if (labels[b] === choice) return 1;
    return a - b;
  });
}

// ---------------------------------------------------------------------------------------------------
// Batch planning

/** UTF-16 units split into the chars/4 estimator's classes: ASCII (¼ token) and other (1 token each). */
export interface CharCounts {
  ascii: number;
  other: number;
}

/** Counts ASCII and non-ASCII UTF-16 units of `s` (the inputs of estimateTokens). */
export function countChars(s: string): CharCounts {
  let ascii = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) < 0x80) ascii++;
  return { ascii, other: s.length - ascii };
}

const tokensOf = (ascii: number, other: number) => Math.ceil(ascii / 4 + other);

/**
 * Additive description of a rank request's JSON, so the size of any batch is known without building it.
 * The request is: a state whose candidate array holds one entry per candidate, and a question map whose
 * `best` choice holds one criteria entry per candidate. With k candidates each JSON is its empty-batch
 * form plus the k entries plus k − 1 commas (all ASCII). Estimates are therefore exactly those fitState
 * computes on the built request.
 */
export interface RankCostModel {
  /** JSON of the state with no candidates. */
  stateBase: CharCounts;
  /** JSON of the `best` question with no options. */
  bestBase: CharCounts;
  /** JSON of the whole question map with no options. */
  questionsBase: CharCounts;
  /** Estimated tokens of every question other than `best` (the longest of them). */
  otherQuestionTokens: number;
  /** Per candidate (by original index): ASCII / other units of its state entry. */
  stateAscii: Float64Array;
  stateOther: Float64Array;
  /** Per candidate (by original index): ASCII / other units of its `best` criteria entry. */
  criteriaAscii: Float64Array;
  criteriaOther: Float64Array;
}

/** Estimated tokens of a batch's request, as fitState sees it. */
export interface BatchEstimate {
  /** Whole question map (Q). */
  questions: number;
  /** Longest single question (L). */
  longest: number;
  /** The state, untruncated. */
  state: number;
  /** min(64 000 − Q, 32 000 − L). */
  budget: number;
  /** True when the state fits the budget without truncation (and the budget is not negative). */
  fits: boolean;
}

/** Estimate of a batch given its summed entry counts (k ≥ 1 candidates). */
function estimateFromSums(m: RankCostModel, k: number, sA: number, sO: number, cA: number, cO: number): BatchEstimate {
  const commas = k - 1;
  const questions = tokensOf(m.questionsBase.ascii + cA + commas, m.questionsBase.other + cO);
  const longest = Math.max(tokensOf(m.bestBase.ascii + cA + commas, m.bestBase.other + cO), m.otherQuestionTokens);
  const state = tokensOf(m.stateBase.ascii + sA + commas, m.stateBase.other + sO);
  const budget = Math.min(MAX_TOTAL_TOKENS - questions, MAX_STATE_PLUS_LONGEST_QUESTION_TOKENS - longest);
  return { questions, longest, state, budget, fits: budget >= 0 && state <= budget };
}

/** Estimate of the request for `batch` (original indices, option order); used by tests and diagnostics. */
export function estimateBatch(m: RankCostModel, batch: ReadonlyArray<number>): BatchEstimate {
  let sA = 0, sO = 0, cA = 0, cO = 0;
  for (const i of batch) {
    sA += m.stateAscii[i]!;
    sO += m.stateOther[i]!;
    cA += m.criteriaAscii[i]!;
    cO += m.criteriaOther[i]!;
  }
  return estimateFromSums(m, batch.length, sA, sO, cA, cO);
}

/**
 * Splits one round's candidates (original indices, in order) into batches, left to right: each batch is
 * the longest prefix of the rest, at most `maxOptions`, whose request fits the budget without truncation.
 * Prefix sums make each probe O(1); binary search per batch. Throws INPUT_TOO_LARGE when a single
 * candidate does not fit on its own.
 */
export function planRound(m: RankCostModel, order: ReadonlyArray<number>, maxOptions = MAX_RANK_OPTIONS): number[][] {
  const n = order.length;
  const psA = new Float64Array(n + 1), psO = new Float64Array(n + 1), pcA = new Float64Array(n + 1), pcO = new Float64Array(n + 1);
  for (let j = 0; j < n; j++) {
    const i = order[j]!;
    psA[j + 1] = psA[j]! + m.stateAscii[i]!;
    psO[j + 1] = psO[j]! + m.stateOther[i]!;
    pcA[j + 1] = pcA[j]! + m.criteriaAscii[i]!;
    pcO[j + 1] = pcO[j]! + m.criteriaOther[i]!;
  }
  const fits = (s: number, k: number) =>
    estimateFromSums(m, k, psA[s + k]! - psA[s]!, psO[s + k]! - psO[s]!, pcA[s + k]! - pcA[s]!, pcO[s + k]! - pcO[s]!).fits;

  const batches: number[][] = [];
  let start = 0;
  while (start < n) {
    if (!fits(start, 1)) {
      throw inputTooLarge(
        `candidates[${order[start]}].text: one candidate with the query does not fit the estimated context budget; shorten the query or the candidate text.`,
      );
    }
    let lo = 1;
    let hi = Math.min(maxOptions, n - start);
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(start, mid)) lo = mid;
      else hi = mid - 1;
    }
    batches.push(order.slice(start, start + lo) as number[]);
    start += lo;
  }
  return batches;
}

/**
 * A multi-batch round must shrink the field: Σ min(top_k, batch size) < candidates in the round
 * (singletons advance as they are). Throws INPUT_TOO_LARGE asking to lower top_k otherwise.
 */
export function assertRoundShrinks(batches: ReadonlyArray<ReadonlyArray<number>>, topK: number): void {
  if (batches.length < 2) return;
  let count = 0;
  let kept = 0;
  for (const b of batches) {
    count += b.length;
    kept += Math.min(topK, b.length);
  }
  if (kept >= count) {
    throw inputTooLarge(
      `top_k: cannot rank top_k=${topK}: ${count} candidates need ${batches.length} requests of at most ${Math.max(...batches.map((b) => b.length))} candidates each, and keeping ${topK} per request leaves ${kept}, so the field never shrinks. Lower top_k or shorten the query or candidate texts.`,
    );
  }
}
