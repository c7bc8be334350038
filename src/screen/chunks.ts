import { estimateTokens, questionEstimates, stateTokenBudget } from '../judgment/budget';
import { inputTooLarge } from '../judgment/errors';
import { packScreen, screenState } from '../tools/jev-screen';

/**
 * Cutting long content into chunks jev_screen judges whole. jev_screen fits its state ({text, purpose} as
 * JSON) into the judgment budget and cuts what does not fit (then it never says pass), so a chunk is kept
 * within that budget here: each chunk is judged in full.
 */

/** Estimated tokens jev_screen leaves for its state, with and without a purpose (its questions differ). */
function stateBudget(withPurpose: boolean): number {
  const { questions, longest } = questionEstimates(packScreen(withPurpose));
  return stateTokenBudget(questions, longest);
}
const STATE_BUDGET = { withPurpose: stateBudget(true), without: stateBudget(false) };

/**
 * Default largest chunk, characters: jev_screen's state budget (tokens, with a purpose) at the estimator's
 * 4 ASCII characters per token, less room for the JSON around the text. Non-ASCII text fits fewer
 * characters; chunkText measures tokens too.
 */
export const DEFAULT_BUDGET_CHARS = Math.floor(STATE_BUDGET.withPurpose * 4) - 1_000;
/** Default most chunks per content: about jev_screen's own input cap (MAX_TEXT_CHARS, 1 000 000) at the default budget. */
export const DEFAULT_MAX_CHUNKS = 8;
/** Default overlap between neighbouring chunks, characters (capped at a tenth of the budget). */
export const DEFAULT_OVERLAP_CHARS = 2_000;

/** A chunk as a range of UTF-16 units: text.slice(start, end). */
export interface ChunkRange {
  start: number;
  end: number;
}

/** Options of chunkText (characters are UTF-16 units). */
export interface ChunkOptions {
  budgetChars: number;
  overlapChars: number;
  maxChunks: number;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** True when `slice` with `purpose`, as jev_screen sends it, fits jev_screen's state budget uncut. */
function fits(slice: string, purpose: string | undefined, budget: number): boolean {
  return estimateTokens(JSON.stringify(screenState({ text: slice, purpose }))) <= budget;
}

/**
 * Cuts `text` into at most `maxChunks` ranges of at most `budgetChars` characters that each fit jev_screen's
 * state budget with `purpose`; neighbours share `overlapChars` so an instruction across a cut is seen whole
 * in one chunk. `cut` is true when the ranges stop before the end of `text`. Never splits a surrogate pair.
 * Throws JevError INPUT_TOO_LARGE when the purpose alone leaves no room for text.
 */
export function chunkText(text: string, purpose: string | undefined, options: ChunkOptions): { ranges: ChunkRange[]; cut: boolean } {
  const hasPurpose = purpose !== undefined && purpose.trim() !== '';
  const budget = hasPurpose ? STATE_BUDGET.withPurpose : STATE_BUDGET.without;
  const ranges: ChunkRange[] = [];
  let start = 0;
  while (ranges.length < options.maxChunks) {
    let end = Math.min(text.length, start + options.budgetChars);
    if (!fits(text.slice(start, end), purpose, budget)) {
      // Largest end that fits (non-ASCII or escaped text costs more tokens per character).
      let lo = start;
      let hi = end - 1;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (fits(text.slice(start, mid), purpose, budget)) lo = mid;
        else hi = mid - 1;
      }
      end = lo;
    }
    if (end < text.length && end > start + 1 && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    if (end <= start && text.length > 0) throw inputTooLarge('purpose: too long to screen any text with it; shorten it.');
    ranges.push({ start, end });
    if (end >= text.length) return { ranges, cut: false };
    // Overlap only when the chunk is long enough to still move forward by more than it repeats.
    start = end - start > 2 * options.overlapChars ? end - options.overlapChars : end;
  }
  return { ranges, cut: true };
}
