import type { CallContext, JudgmentProvider } from '../providers/port';
import { fitState } from './budget';
import { JevError, toJevError } from './errors';
import type { Judged, QuestionMap } from './types';
import { validateResponse } from './validate';
import { MAX_TOTAL_TOKENS } from './budget';
import { LARGEST_REQUEST_INPUT_TOKENS } from '../providers/port';

/** Input tokens of the largest upstream request: the provider's per-request figure when it reports one, else usage. */
function requestInputTokens(body: unknown, summed: number): number {
  const largest = typeof body === 'object' && body !== null ? (body as { [LARGEST_REQUEST_INPUT_TOKENS]?: unknown })[LARGEST_REQUEST_INPUT_TOKENS] : undefined;
  return typeof largest === 'number' && Number.isFinite(largest) && largest >= 0 ? largest : summed;
}

/** Throws CANCELLED when the signal aborted, TIMEOUT when the deadline passed. */
export function checkDeadline(ctx: CallContext): void {
  if (ctx.signal.aborted) throw new JevError('CANCELLED', 'The request was cancelled.');
  if (Date.now() >= ctx.deadline) throw new JevError('TIMEOUT', 'The judgment deadline passed.', { retryable: true });
}

/**
 * One System One request on the judgment path: fit the state to the budget, ask the provider,
 * validate the answers against the questions, and mark coverage incomplete when the provider reports
 * more than 64 000 input tokens (jev-tools-spec §2.6). Throws JevError; never returns unvalidated answers.
 */
export async function judge(
  provider: JudgmentProvider,
  ctx: CallContext,
  state: unknown,
  questions: QuestionMap,
  model: string,
): Promise<Judged> {
  const fitted = fitState(state, questions);
  checkDeadline(ctx);
  let body: unknown;
  try {
    body = await provider.systemOne({ state: fitted.state, questions, model }, ctx);
  } catch (err) {
    if (ctx.signal.aborted) throw new JevError('CANCELLED', 'The request was cancelled.');
    throw toJevError(err);
  }
  const response = validateResponse(questions, body);
  checkDeadline(ctx);
  if (requestInputTokens(body, response.usage.input_tokens) > MAX_TOTAL_TOKENS) {
    return { response, truncated: true, coverage: { ...fitted.coverage, complete: false } };
  }
  return { response, truncated: fitted.truncated, coverage: fitted.coverage };
}
