/**
 * `jevcp doctor` check for the openai provider: does the endpoint answer a one-token chat
 * completion with top_logprobs, and does the model put the option labels among its top tokens?
 * One probe request (noul question, labels Y/N), at most one attempt, within `timeoutMs`.
 */
import { JevError, configError, toJevError, type JevErrorDetails } from '../../judgment/errors';
import { normalizeBaseUrl } from '../base-url';
import { resolveRetryOptions } from '../http-retry';
import { SpendCap } from '../spend-cap';
import { completionBody, readCompletion } from './completion';
import { labelDistribution } from './distribution';
import { postJson } from './http';
import { noulPrompt } from './prompt';
import { chatCompletionsUrl, requestHeaders } from './provider';

/** Inputs of the logprobs check; same meaning as OpenAiProviderOptions. */
export interface LogprobsCheckOptions {
  baseUrl: string;
  apiKey?: string;
  /** Model name sent to the endpoint (JEV_MODEL). */
  model: string;
  /** Shared process cap; the probe counts as one attempt. Default: no cap. */
  spendCap?: SpendCap;
  fetchImpl?: typeof fetch;
  /** Deadline of the probe, ms (default 10 000). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Outcome of the check. No secrets: the endpoint is the checked base URL's origin + path. */
export interface LogprobsCheck {
  ok: boolean;
  /** `…/v1/chat/completions` that was probed (undefined when the base URL itself is invalid). */
  endpoint?: string;
  model: string;
  /** Number of alternatives the endpoint returned for the first token (20 asked). */
  top_logprobs?: number;
  /** Labels (Y, N) that appeared among them; absent ones are floored in real judgments. */
  labels_found?: string[];
  /** P(yes) of the probe ("2 + 2 = 4" is correct) — a sanity signal, expected high. */
  noul?: number;
  /** One line for humans: what works, or what to change. */
  message: string;
  error?: JevErrorDetails;
}

const PROBE_STATE = '2 + 2 = 4';
const PROBE_QUESTION = { type: 'noul' as const, instructions: 'Is the arithmetic in the state correct?' };

/**
 * Runs the probe. Never throws: failures come back as `ok: false` with `error` {code, message,
 * retryable} — CONFIG_ERROR when the endpoint returns no logprobs (or the base URL/key is unusable),
 * INVALID_RESPONSE when neither Y nor N is among the top tokens, API_ERROR/TIMEOUT otherwise.
 */
export async function checkLogprobs(options: LogprobsCheckOptions): Promise<LogprobsCheck> {
  const model = options.model.trim();
  let endpoint: string | undefined;
  try {
    if (options.baseUrl.trim() === '') throw configError('JEV_BASE_URL must be set for the openai provider.');
    endpoint = chatCompletionsUrl(normalizeBaseUrl(options.baseUrl));
    const headers = requestHeaders(options.apiKey);
    const prompt = noulPrompt(PROBE_STATE, PROBE_QUESTION);
    const signal = options.signal ?? new AbortController().signal;
    const body = await postJson(
      {
        url: endpoint,
        headers,
        payload: JSON.stringify(completionBody(model, prompt.messages)),
        fetchImpl: options.fetchImpl ?? ((input, init) => globalThis.fetch(input, init)),
        spendCap: options.spendCap ?? new SpendCap(),
        retry: resolveRetryOptions({ maxAttempts: 1 }),
      },
      { signal, deadline: Date.now() + (options.timeoutMs ?? 10_000) },
    );
    const completion = readCompletion(body, prompt.messages);
    const { probabilities, floored } = labelDistribution(completion.top, prompt.labels, completion.chosen);
    const found = prompt.labels.map((l) => l.label).filter((l) => !floored.includes(l));
    return {
      ok: true,
      endpoint,
      model,
      top_logprobs: completion.top.length,
      labels_found: found,
      noul: probabilities[0],
      message: `logprobs supported: ${completion.top.length} alternatives per token; labels found ${found.join(', ')}; probe P(yes) = ${probabilities[0]!.toFixed(3)}.`,
    };
  } catch (err) {
    const error = err instanceof JevError ? err : toJevError(err);
    return { ok: false, endpoint, model, message: error.message, error: error.toJSON() };
  }
}
