/**
 * Wire shapes of `POST {base}/v1/chat/completions` as this provider uses them: the one-token logprobs
 * request, and what is read back (the first token's top_logprobs and the usage counts).
 */
import { estimateTokens } from '../../judgment/budget';
import { JevError, invalidResponse } from '../../judgment/errors';
import type { Usage } from '../../judgment/types';
import { logprobProblem, type TokenLogprob } from './distribution';
import type { ChatMessage } from './prompt';

/** Alternatives requested for the first token (OpenAI's maximum). */
export const TOP_LOGPROBS = 20;

/** Setting names an operator changes when the endpoint gives no logprobs. */
const NO_LOGPROBS_HINT = 'point JEV_BASE_URL (jevPanel.baseUrl) at a server that supports them (llama.cpp server, vLLM, OpenAI), or choose another JEV_PROVIDER (jevPanel.provider)';

/**
 * Request body: one token, greedy, with the top 20 alternatives of that token.
 * `model` is sent as given (llama.cpp ignores it; vLLM and OpenAI need the served model name).
 */
export function completionBody(model: string, messages: ChatMessage[]): Record<string, unknown> {
  return { model, messages, max_tokens: 1, temperature: 0, logprobs: true, top_logprobs: TOP_LOGPROBS, n: 1, stream: false };
}

/** What one completion contributes: the first token's alternatives and the token counts. */
export interface CompletionResult {
  top: TokenLogprob[];
  /** The generated token itself, when reported. */
  chosen?: TokenLogprob;
  usage: Usage;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** Where the first generated token's logprobs sit in a chat completion body. */
const FIRST_TOKEN_PATH = 'choices[0].logprobs.content[0]';

/**
 * One `{token, logprob}` entry at `path` (e.g. `choices[0].logprobs.content[0].top_logprobs[2]`).
 * Throws INVALID_RESPONSE naming the path and the kind of problem (never the value) when it is not an
 * object, its token is not a string, or its logprob is not a finite number ≤ 0: a broken entry is
 * neither skipped nor clamped.
 */
function toTokenLogprob(v: unknown, path: string): TokenLogprob {
  const invalid = (what: string) => invalidResponse(`The OpenAI-compatible endpoint returned an invalid first-token logprob entry: ${path}${what}.`);
  if (!isObject(v)) throw invalid(' is not an object');
  if (typeof v.token !== 'string') throw invalid(`.token is ${v.token === undefined ? 'missing' : 'not a string'}`);
  const problem = logprobProblem(v.logprob);
  if (problem) throw invalid(`.logprob is ${problem}; it must be a finite number ≤ 0`);
  return { token: v.token, logprob: v.logprob as number };
}

/**
 * Reads a chat completion body. `messages` estimate the prompt size (chars/4) when the server reports no
 * usage; completion tokens then count as 1 (max_tokens).
 * Throws JevError CONFIG_ERROR when the body carries no logprobs for the first token (the endpoint
 * ignored `logprobs`/`top_logprobs`), INVALID_RESPONSE when it has no choices at all or a first-token
 * entry is malformed (logprob not a finite number ≤ 0, token not a string). The chosen token's own
 * logprob may be absent; when present it is checked like the others.
 */
export function readCompletion(body: unknown, messages: ChatMessage[]): CompletionResult {
  if (!isObject(body) || !Array.isArray(body.choices) || body.choices.length === 0 || !isObject(body.choices[0])) {
    throw invalidResponse('The OpenAI-compatible endpoint answered without choices.');
  }
  const logprobs = body.choices[0].logprobs;
  const first: unknown = isObject(logprobs) && Array.isArray(logprobs.content) ? logprobs.content[0] : undefined;
  const top = isObject(first) && Array.isArray(first.top_logprobs)
    ? first.top_logprobs.map((entry, i) => toTokenLogprob(entry, `${FIRST_TOKEN_PATH}.top_logprobs[${i}]`))
    : [];
  if (top.length === 0) {
    throw new JevError(
      'CONFIG_ERROR',
      `The endpoint returned no logprobs (no top_logprobs for the first token); the openai provider needs them — ${NO_LOGPROBS_HINT}.`,
    );
  }
  const usage = isObject(body.usage) && isCount(body.usage.prompt_tokens) && isCount(body.usage.completion_tokens)
    ? { input_tokens: body.usage.prompt_tokens, output_tokens: body.usage.completion_tokens }
    : { input_tokens: estimateTokens(messages.map((m) => m.content).join('\n')), output_tokens: 1 };
  // The chosen token without a logprob is simply not reported; with a broken one the body is invalid.
  const chosen = isObject(first) && first.logprob !== undefined ? toTokenLogprob(first, FIRST_TOKEN_PATH) : undefined;
  return { top, chosen, usage };
}
