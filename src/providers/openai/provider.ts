/**
 * The `openai` provider: System One-style judgments from any OpenAI-compatible
 * `/v1/chat/completions` endpoint that returns logprobs (llama.cpp server, vLLM, OpenAI, …).
 *
 * Each question becomes one (or, past 26 options, several) one-token completions; the answer is read
 * from the first token's top_logprobs over the option labels (see distribution.ts for the floor rule,
 * tournament.ts for large option lists, answers.ts for the answer shapes).
 */
import { LARGEST_REQUEST_INPUT_TOKENS } from '../../judgment/provider';
import { setMaxListeners } from 'node:events';
import { JevError, aboutQuestion, cancelled, configError, invalidInput, toJevError } from '../../judgment/errors';
import type { Answer, ChoiceQuestion, Question, ScoreQuestion, SystemOneRequest, SystemOneResponse, Usage } from '../../judgment/types';
import { normalizeBaseUrl } from '../base-url';
import { resolveRetryOptions, type RetryOptions } from '../http-retry';
import type { CallContext, JudgmentProvider } from '../../judgment/provider';
import type { SpendCap } from '../spend-cap';
import { choiceAnswer, noulAnswer, scoreAnswer } from './answers';
import { completionBody, readCompletion } from './completion';
import { labelDistribution } from './distribution';
import { postJson } from './http';
import { Limiter } from './limiter';
import { LABEL_ALPHABET, noulPrompt, optionsPrompt, renderState, type ClosedPrompt, type PromptOption } from './prompt';
import { tournament } from './tournament';

/** Options of an OpenAiProvider. */
export interface OpenAiProviderOptions {
  /**
   * API root of the server, e.g. `http://127.0.0.1:8080` or `https://api.openai.com/v1` (a trailing `/v1`
   * is accepted). Checked with normalizeBaseUrl: https anywhere, plain http only on loopback. Required.
   */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>` when non-empty; visible ASCII only. */
  apiKey?: string;
  /** Process-wide attempt cap; consulted before every physical request, retries included. */
  spendCap: SpendCap;
  /** Defaults to the global fetch. */
  fetchImpl?: typeof fetch;
  /** Requests in flight at once across every call of this provider (default 4, integer ≥ 1). */
  concurrency?: number;
  /** Defaults: 3 attempts, 500 ms base, 5 000 ms max backoff. */
  retry?: Partial<RetryOptions>;
}

/** Default number of requests in flight at once. */
export const DEFAULT_CONCURRENCY = 4;

/** `{base}/v1/chat/completions`, or `{base}/chat/completions` when the base already ends in `/v1`. */
export function chatCompletionsUrl(normalizedBase: string): string {
  return /\/v1$/i.test(normalizedBase) ? `${normalizedBase}/chat/completions` : `${normalizedBase}/v1/chat/completions`;
}

/** Validates and builds request headers (key kept out of errors). Throws CONFIG_ERROR for an unsendable key. */
export function requestHeaders(apiKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  const key = apiKey?.trim();
  if (key) {
    if (!/^[\x21-\x7e]+$/.test(key)) {
      throw configError('JEV_API_KEY contains characters an HTTP header cannot carry (only visible ASCII, no spaces); copy the key again.');
    }
    headers.Authorization = `Bearer ${key}`;
  }
  return headers;
}

/** The model id of this provider's answers for the configured `model`: `openai:<model>`. */
export function openAiModelId(model: string): string {
  return `openai:${model}`;
}

/**
 * Judgment provider over an OpenAI-compatible chat completions endpoint; model id `openai:<model>`,
 * marked uncalibrated (the probabilities are a local model's token probabilities).
 *
 * Per request: every question goes out in parallel (bounded by `concurrency`, shared by all calls of
 * this provider), all under the call's ONE deadline `ctx.deadline` and cancellation `ctx.signal`; the
 * first failure aborts the rest. Usage is the sum over all completions. Timing, retries, spend cap and
 * error codes follow systemone (see http.ts).
 *
 * Errors (JevError): TIMEOUT, CANCELLED, API_ERROR, INPUT_TOO_LARGE, CONFIG_ERROR (no logprobs, bad
 * base URL or key), INVALID_RESPONSE (no choices, a logprob that is not a finite number ≤ 0, no label among
 * the top tokens), INVALID_INPUT (state not serializable, unknown question type); a question's
 * INVALID_RESPONSE / INVALID_INPUT message starts with `Question "<id>": `. Never answers a question it did
 * not ask.
 */
export class OpenAiProvider implements JudgmentProvider {
  readonly id = 'openai';
  readonly calibrated = false;
  /** Full endpoint URL. */
  readonly endpoint: string;
  readonly retry: Readonly<RetryOptions>;
  readonly concurrency: number;
  private readonly spendCap: SpendCap;
  private readonly fetchImpl: typeof fetch;
  private readonly limiter: Limiter;
  // #private: invisible to JSON.stringify and util.inspect, so the key cannot leak via logs.
  readonly #headers: Record<string, string>;

  /** Throws JevError CONFIG_ERROR (base URL, key) or RangeError (concurrency, retry) naming the field. */
  constructor(options: OpenAiProviderOptions) {
    if (typeof options.baseUrl !== 'string' || options.baseUrl.trim() === '') {
      throw configError('JEV_BASE_URL must be set for the openai provider (e.g. http://127.0.0.1:8080 for llama.cpp server).');
    }
    this.endpoint = chatCompletionsUrl(normalizeBaseUrl(options.baseUrl));
    this.retry = Object.freeze(resolveRetryOptions(options.retry));
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.limiter = new Limiter(this.concurrency);
    this.spendCap = options.spendCap;
    this.fetchImpl = options.fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
    this.#headers = requestHeaders(options.apiKey);
  }

  /** True when requests carry an Authorization header. */
  get hasApiKey(): boolean {
    return 'Authorization' in this.#headers;
  }

  /** Answers every question of `request`; returns a System One body `{model, usage, answers}`. */
  async systemOne(request: SystemOneRequest, ctx: CallContext): Promise<SystemOneResponse & { [LARGEST_REQUEST_INPUT_TOKENS]: number }> {
    const model = typeof request.model === 'string' ? request.model.trim() : '';
    if (model === '') throw invalidInput('The request names no model (JEV_MODEL).');
    let stateText: string;
    try {
      stateText = renderState(request.state);
    } catch {
      throw invalidInput('The state could not be serialized as JSON (state must be plain JSON data).');
    }

    // One internal signal: caller cancellation, the deadline, or the first failing question stops all.
    const inner = new AbortController();
    // Every queued question and in-flight attempt listens to this signal; dozens are normal here.
    setMaxListeners(0, inner.signal);
    const onCancel = () => inner.abort(cancelled());
    if (ctx.signal.aborted) onCancel();
    else ctx.signal.addEventListener('abort', onCancel, { once: true });
    const deadlineTimer = setTimeout(
      () => inner.abort(new JevError('TIMEOUT', 'The OpenAI-compatible endpoint did not answer before the call deadline (JEV_TIMEOUT_MS).', { retryable: true })),
      Math.min(Math.max(0, ctx.deadline - Date.now()), 2 ** 31 - 1),
    );
    const scope: CallContext = { signal: inner.signal, deadline: ctx.deadline };
    const usage: Usage = { input_tokens: 0, output_tokens: 0 };
    let largestRequest = 0;
    const ask = async (prompt: ClosedPrompt): Promise<number[]> => {
      const payload = JSON.stringify(completionBody(model, prompt.messages));
      const body = await this.limiter.run(scope.signal, () =>
        postJson({ url: this.endpoint, headers: this.#headers, payload, fetchImpl: this.fetchImpl, spendCap: this.spendCap, retry: this.retry }, scope),
      );
      const completion = readCompletion(body, prompt.messages);
      usage.input_tokens += completion.usage.input_tokens;
      largestRequest = Math.max(largestRequest, completion.usage.input_tokens);
      usage.output_tokens += completion.usage.output_tokens;
      return labelDistribution(completion.top, prompt.labels, completion.chosen).probabilities;
    };

    try {
      const entries = Object.entries(request.questions ?? {});
      const answered = await Promise.all(
        entries.map(([id, question]) =>
          answerQuestion(question, stateText, ask).catch((err: unknown) => {
            // An unreadable or impossible answer belongs to its question; transport failures do not.
            const failure = err instanceof JevError && (err.code === 'INVALID_RESPONSE' || err.code === 'INVALID_INPUT') ? aboutQuestion(id, err) : err;
            if (!inner.signal.aborted) inner.abort(failure);
            throw failure;
          }),
        ),
      );
      // fromEntries keeps every id an own property (even "__proto__").
      const answers = Object.fromEntries(entries.map(([id], i) => [id, answered[i]!])) as Record<string, Answer>;
      // Every question is its own request repeating the state: the context budget applies per request.
      return { model: openAiModelId(model), usage, answers, [LARGEST_REQUEST_INPUT_TOKENS]: largestRequest };
    } catch (err) {
      if (ctx.signal.aborted) throw cancelled();
      const reason: unknown = inner.signal.aborted ? inner.signal.reason : err;
      throw toJevError(reason instanceof JevError ? reason : err);
    } finally {
      clearTimeout(deadlineTimer);
      ctx.signal.removeEventListener('abort', onCancel);
    }
  }
}

/** Answers one question through `ask` (one round per ≤ 26 options). */
async function answerQuestion(question: Question, stateText: string, ask: (prompt: ClosedPrompt) => Promise<number[]>): Promise<Answer> {
  switch (question?.type) {
    case 'noul': {
      const [pYes] = await ask(noulPrompt(stateText, question));
      return noulAnswer(pYes!);
    }
    case 'choice': {
      const keys = Object.keys(question.criteria ?? {});
      if (keys.length === 0) throw invalidInput('A choice question needs at least one option.');
      const options: PromptOption[] = keys.map((key) => ({ key, text: question.criteria[key] ?? null }));
      return choiceAnswer(keys, await distributionOver(question, options, stateText, ask));
    }
    case 'score': {
      const levels = Array.isArray(question.criteria) ? question.criteria.map(String) : [];
      if (levels.length === 0) throw invalidInput('A score question needs at least one level.');
      const options: PromptOption[] = levels.map((text, i) => ({ key: String(i), text }));
      return scoreAnswer(levels, await distributionOver(question, options, stateText, ask));
    }
    default:
      throw invalidInput(`Unknown question type ${JSON.stringify((question as { type?: unknown })?.type)}.`);
  }
}

function distributionOver(
  question: ChoiceQuestion | ScoreQuestion,
  options: PromptOption[],
  stateText: string,
  ask: (prompt: ClosedPrompt) => Promise<number[]>,
): Promise<number[]> {
  return tournament(options.length, (indexes) => ask(optionsPrompt(stateText, question, indexes.map((i) => options[i]!))), LABEL_ALPHABET.length);
}
