import { truncateText } from '../judgment/budget';
import { MAX_TEXT_CHARS } from '../tools/schemas';

/** A staged diff made acceptable to jev_gate's `diff` field. */
export interface CappedDiff {
  /** The diff, cut (with the truncation marker) when it was longer than the field allows. */
  diff: string;
  /** Length of the whole staged diff, UTF-16 units. */
  originalChars: number;
  /** Whether the diff was cut here. */
  cut: boolean;
}

/**
 * Cuts a staged diff longer than jev_gate's `diff` limit (MAX_TEXT_CHARS) to that limit, keeping the
 * start and appending the truncation marker, so a huge change is judged on what fits instead of being
 * refused as invalid input. Safe because a cut diff (1 000 000 units) is always far above the request
 * budget (MAX_STATE_PLUS_LONGEST_QUESTION_TOKENS, judgment/budget.ts): the budget truncates the state
 * again, coverage is incomplete, and the gate can never answer auto on it.
 */
export function capStagedDiff(diff: string): CappedDiff {
  if (diff.length <= MAX_TEXT_CHARS) return { diff, originalChars: diff.length, cut: false };
  return { diff: truncateText(diff, MAX_TEXT_CHARS), originalChars: diff.length, cut: true };
}
