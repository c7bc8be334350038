import type { CallContext, JudgmentProvider } from './provider';
import { LARGEST_REQUEST_INPUT_TOKENS } from './provider';
import { fitState, MAX_TOTAL_TOKENS } from './budget';
import { cancelled, inputTooLarge, JevError, toJevError } from './errors';
import { recordRequestBody } from './request-body';
import type { Judged, QuestionMap, SystemOneRequest } from './types';
import { validateResponseWithRaw } from './validate';

/**
 * How judge() treats a state over the budget:
 * - 'cut' (default; the jev tools): cut it with the marker and report `truncated` and
 *   incomplete coverage, which the jev tools turn into "never auto";
 * - 'refuse' (the judgevet tools, whose results have no truncated/coverage field):
 *   INPUT_TOO_LARGE before any request, and INPUT_TOO_LARGE when the provider counts more than 64 000
 *   input tokens, so a partial judgment can never reach the caller.
 */
export interface JudgeOptions {
  truncate?: 'cut' | 'refuse';
}

/** Input tokens of the largest upstream request: the provider's per-request figure when it reports one, else usage. */
function requestInputTokens(body: unknown, summed: number): number {
  const largest = typeof body === 'object' && body !== null ? (body as { [LARGEST_REQUEST_INPUT_TOKENS]?: unknown })[LARGEST_REQUEST_INPUT_TOKENS] : undefined;
  return typeof largest === 'number' && Number.isFinite(largest) && largest >= 0 ? largest : summed;
}

/** 64000 → "64 000" (how our messages write token counts). */
const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

/** INPUT_TOO_LARGE naming `state`, its estimate and the budget the questions leave for it (ask once more, shorter). */
function oversizedState(tokens: number, budget: number): JevError {
  return inputTooLarge(
    `state is too large to judge whole: about ${grouped(tokens)} estimated tokens (chars/4), over the ` +
      `${grouped(budget)}-token budget these questions leave for it; shorten the state and ask again.`,
  );
}

/** Throws CANCELLED when the signal aborted, TIMEOUT when the deadline passed. */
export function checkDeadline(ctx: CallContext): void {
  if (ctx.signal.aborted) throw cancelled();
  if (Date.now() >= ctx.deadline) throw new JevError('TIMEOUT', 'The judgment deadline passed.', { retryable: true });
}

/**
 * One System One request on the judgment path: fit the state to the budget (or refuse it, see
 * JudgeOptions), ask the provider, validate the answers against the questions (probabilities normalised,
 * the answers as sent kept in `rawAnswers` when they differ), and treat a provider
 * count over 64 000 input tokens as incomplete coverage ('cut') or INPUT_TOO_LARGE ('refuse') Throws JevError; never returns unvalidated answers.
 */
export async function judge(
  provider: JudgmentProvider,
  ctx: CallContext,
  state: unknown,
  questions: QuestionMap,
  model: string,
  options: JudgeOptions = {},
): Promise<Judged> {
  const refuse = options.truncate === 'refuse';
  // Questions over budget throw here; a state cut to fit is refused before any request when asked to.
  const fitted = fitState(state, questions, { cut: !refuse });
  if (refuse && fitted.truncated) throw oversizedState(fitted.originalTokens, fitted.budget);
  checkDeadline(ctx);
  const request: SystemOneRequest = { state: fitted.state, questions, model };
  if (fitted.json) recordRequestBody(request, fitted.json);
  let body: unknown;
  try {
    body = await provider.systemOne(request, ctx);
  } catch (err) {
    if (ctx.signal.aborted) throw cancelled();
    throw toJevError(err);
  }
  const { response, rawAnswers } = validateResponseWithRaw(questions, body);
  const raw = rawAnswers ? { rawAnswers } : {};
  checkDeadline(ctx);
  const counted = requestInputTokens(body, response.usage.input_tokens);
  if (counted > MAX_TOTAL_TOKENS) {
    if (refuse) {
      throw inputTooLarge(
        `the provider counted ${grouped(counted)} input tokens, over the ${grouped(MAX_TOTAL_TOKENS)}-token request budget; shorten the state and ask again.`,
      );
    }
    return { response, ...raw, truncated: true, coverage: { ...fitted.coverage, complete: false } };
  }
  return { response, ...raw, truncated: fitted.truncated, coverage: fitted.coverage };
}
