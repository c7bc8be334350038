/**
 * How the four judgevet tools (ask_noul, ask_choice, ask_score, evaluate_policy) ask System One.
 * Their results have no truncated/coverage field (closed schemas) and judgevet
 * itself never cuts a state (the vendor refuses an oversized request), so a state that does not fit is
 * refused instead of silently judged in part.
 */
import { inputTooLarge } from '../judgment/errors';
import type { QuestionMap, SystemOneResponse } from '../judgment/types';
import type { ToolContext } from './types';

/**
 * Judges the whole `state` with the host model, or fails. Throws JevError INPUT_TOO_LARGE before any
 * request when the state is over the estimated budget, and when the provider counts more than 64 000
 * input tokens (judge() with truncate 'refuse'); also when a context reports a cut state anyway.
 * Other JevErrors pass through.
 */
export async function judgeWhole(ctx: ToolContext, state: unknown, questions: QuestionMap): Promise<SystemOneResponse> {
  const judged = await ctx.judge(state, questions, ctx.model, { truncate: 'refuse' });
  // A partial judgment must never become an answer or a policy "pass", whatever judged it.
  if (judged.truncated || !judged.coverage.complete) {
    throw inputTooLarge('state was only partly judged (it did not fit the request budget); shorten the state and ask again.');
  }
  return judged.response;
}
