import { inputTooLarge } from './errors';
import { questionJson } from './fixed-questions';
import type { Coverage, QuestionMap } from './types';

/** Whole-request budget in estimated tokens (the vendor's limit is 64k). */
export const MAX_TOTAL_TOKENS = 64_000;
/** Budget for state plus the longest single question, estimated tokens. */
export const MAX_STATE_PLUS_LONGEST_QUESTION_TOKENS = 32_000;
/** Appended to cut text: newline + "…[truncated]" (13 UTF-16 units). */
export const TRUNCATION_MARKER = '\n…[truncated]';

/** Serializes a state for estimation: strings as-is, null/undefined as "", else JSON. */
export function stringifyState(state: unknown): string {
  if (typeof state === 'string') return state;
  if (state === null || state === undefined) return '';
  return JSON.stringify(state);
}

/**
 * Estimated tokens of `text`: ceil(ascii/4 + nonAscii), so every non-ASCII UTF-16 unit costs at least one
 * token (the "chars/4" estimator).
 */
export function estimateTokens(text: string): number {
  const other = nonAsciiUnits(text);
  return Math.ceil((text.length - other) / 4 + other);
}

// Without the `u` flag a regex reads UTF-16 units, so a lone surrogate counts like any other unit.
const ALL_ASCII = /^[\x00-\x7f]*$/;
const NON_ASCII_RUNS = /[^\x00-\x7f]+/g;

/**
 * Count of UTF-16 units ≥ 0x80 in `text`. The regex engine scans far faster than a charCodeAt loop: a
 * single anchored test for the common pure-ASCII case, else the length lost by deleting non-ASCII runs.
 */
function nonAsciiUnits(text: string): number {
  if (ALL_ASCII.test(text)) return 0;
  return text.length - text.replace(NON_ASCII_RUNS, '').length;
}

/**
 * Cuts `text` to at most `max` UTF-16 units including the marker, never splitting a surrogate pair.
 * When `max` is shorter than the marker, returns the first `max` units of the marker.
 */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max < TRUNCATION_MARKER.length) return TRUNCATION_MARKER.slice(0, Math.max(0, max));
  let cut = max - TRUNCATION_MARKER.length;
  if (cut > 0 && isHighSurrogate(text.charCodeAt(cut - 1))) cut--;
  return text.slice(0, cut) + TRUNCATION_MARKER;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** Longest prefix of `text` (plus marker) whose estimate fits `budget` tokens. Binary search on length. */
function truncateToTokens(text: string, budget: number): string {
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (estimateTokens(truncateText(text, mid)) <= budget) lo = mid;
    else hi = mid - 1;
  }
  return truncateText(text, lo);
}

/** A state fitted to the request budget. */
export interface FittedState {
  /** The original value when it fits, else the cut JSON/string with the marker. */
  state: unknown;
  truncated: boolean;
  coverage: Coverage;
  /** Estimated tokens of the whole state before any cut. */
  originalTokens: number;
  /** Estimated tokens the questions leave for the state (stateTokenBudget). */
  budget: number;
  /**
   * JSON text of `state` and of the question map exactly as `JSON.stringify` writes them inside a request
   * body, when the estimate already produced it (so a provider need not serialize them again); absent
   * when it could differ (a value with its own toJSON, a string state, which the estimate reads raw).
   */
  json?: { state: string; questions: string };
}

/** Estimated token sizes of a question map: whole map and longest single question. */
export function questionEstimates(questions: QuestionMap): { questions: number; longest: number } {
  const { json: _json, ...estimates } = questionEstimatesWithJson(questions);
  return estimates;
}

/**
 * questionEstimates plus the map's JSON text, composed from the per-question texts the estimate needs
 * anyway; `json` is undefined when composing could differ from JSON.stringify (see below).
 */
function questionEstimatesWithJson(questions: QuestionMap): { questions: number; longest: number; json?: string } {
  // The map's JSON is `{` + `"id":<question JSON>` joined by `,` + `}`, and the estimate only counts
  // ASCII and other units, so the map total is summed from each question's JSON instead of serializing
  // the map a second time. A value with toJSON (which may depend on its key) or a map with its own
  // toJSON falls back to serializing the whole map.
  let longest = 0;
  let units = 1; // "{"
  let other = 0;
  let entries = 0;
  let composable = !Array.isArray(questions) && typeof (questions as { toJSON?: unknown }).toJSON !== 'function';
  const parts: string[] = [];
  for (const [id, q] of Object.entries(questions)) {
    const { json, nonAscii: qOther } = questionJson(q, nonAsciiUnits);
    longest = Math.max(longest, Math.ceil((json.length - qOther) / 4 + qOther));
    if (!composable) continue;
    if (typeof (q as { toJSON?: unknown } | null)?.toJSON === 'function') {
      composable = false;
      continue;
    }
    const key = JSON.stringify(id);
    units += key.length + 1 + json.length + (entries > 0 ? 1 : 0); // key ":" value, "," between entries
    other += nonAsciiUnits(key) + qOther;
    parts.push(`${key}:${json}`);
    entries++;
  }
  units += 1; // "}"
  if (!composable) return { questions: estimateTokens(JSON.stringify(questions)), longest };
  return { questions: Math.ceil((units - other) / 4 + other), longest, json: `{${parts.join(',')}}` };
}

/**
 * Estimated tokens left for the state: min(64 000 − Q, 32 000 − L), where Q is the whole question map
 * and L the longest question, both in estimated tokens. Negative when the questions
 * alone are over budget.
 */
export function stateTokenBudget(q: number, longest: number): number {
  return Math.min(MAX_TOTAL_TOKENS - q, MAX_STATE_PLUS_LONGEST_QUESTION_TOKENS - longest);
}

/**
 * Fits `state` into stateTokenBudget estimated tokens. With `cut: false` a state over
 * the budget is not cut (a caller that refuses it skips the search): it comes back whole with
 * `truncated: true`. Throws JevError INPUT_TOO_LARGE when the questions alone exceed the budget (before
 * any request).
 */
export function fitState(state: unknown, questions: QuestionMap, options: { cut?: boolean } = {}): FittedState {
  const { questions: q, longest, json: questionsJson } = questionEstimatesWithJson(questions);
  const budget = stateTokenBudget(q, longest);
  if (budget < 0) {
    throw inputTooLarge(`questions exceed the estimated context budget (${q} tokens in all, ${longest} in the longest question); shorten them.`);
  }
  const raw = stringifyState(state);
  const rawTokens = estimateTokens(raw);
  const truncated = rawTokens > budget;
  const cut = truncated && options.cut !== false;
  const fitted = cut ? truncateToTokens(raw, budget) : raw;
  // `raw` is the state's JSON text inside a body only for an object or array without its own toJSON (called with another key there).
  const rawIsJson = !truncated && typeof state === 'object' && state !== null && typeof (state as { toJSON?: unknown }).toJSON !== 'function';
  return {
    state: cut ? fitted : state,
    truncated,
    originalTokens: rawTokens,
    budget,
    ...(rawIsJson && questionsJson !== undefined ? { json: { state: raw, questions: questionsJson } } : {}),
    coverage: {
      complete: !truncated,
      original_chars: raw.length,
      evaluated_chars: cut ? Math.max(0, fitted.length - TRUNCATION_MARKER.length) : raw.length,
      estimated_tokens: { state: cut ? estimateTokens(fitted) : rawTokens, questions: q, longest_question: longest },
      estimator: 'chars/4',
    },
  };
}

/** Coverage of a result that evaluated no semantic state (local policy only). */
export function localCoverage(): Coverage {
  return {
    complete: true,
    original_chars: 0,
    evaluated_chars: 0,
    estimated_tokens: { state: 0, questions: 0, longest_question: 0 },
    estimator: 'chars/4',
  };
}
