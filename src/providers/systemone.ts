import { JevError, configError, invalidInput } from '../judgment/errors';
import { requestBodyJson } from '../judgment/request-body';
import type { SystemOneRequest } from '../judgment/types';
import { normalizeBaseUrl } from './base-url';
import { postJsonWithRetry, type PostWording, type UnreachableKind } from './http-post';
import { resolveRetryOptions, type RetryOptions } from './http-retry';
import type { CallContext, JudgmentProvider } from '../judgment/provider';
import type { SpendCap } from './spend-cap';

/** Options of a SystemOneProvider. */
export interface SystemOneProviderOptions {
  /** API root, e.g. `https://api.typesafe.ai` or `http://localhost:11434`; checked with normalizeBaseUrl. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>` when set (non-empty). Visible ASCII only. */
  apiKey?: string;
  /** Process-wide attempt cap; consulted before every physical attempt, retries included. */
  spendCap: SpendCap;
  /** Defaults to the global fetch (Node ≥ 20, undici). */
  fetchImpl?: typeof fetch;
  /** Defaults: 3 attempts, 500 ms base, 5 000 ms max backoff. */
  retry?: Partial<RetryOptions>;
}

/** Largest 2xx body read, bytes; beyond it the answer is INVALID_RESPONSE (a judgment body is a few KiB). */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/**
 * The `systemone` provider: `POST {baseUrl}/v1/systemone` with `{state, questions, model}`.
 * Works with TypeSafe, Ollama and Kev.
 *
 * Timing, retries, spend cap, cancellation and redirects follow the shared request loop
 * (http-post.ts): one deadline per tool call bounds every
 * attempt and wait; 408/429/5xx/connection errors are retried with backoff or the server's hint; a wait
 * past the deadline is not taken; the spend cap is asked before every physical attempt.
 *
 * Errors (messages name the status, never the response body or the key):
 * 401/403 → API_ERROR (auth); 404 → API_ERROR (endpoint); 413 and any 4xx carrying
 * `detail.error_type == "max_tokens_exceeded"` → INPUT_TOO_LARGE; other 4xx → API_ERROR;
 * 3xx → API_ERROR (redirect refused); 408/429/5xx/connection errors after the last attempt →
 * API_ERROR retryable; a 2xx body that is not JSON → INVALID_RESPONSE.
 * Returns the parsed JSON body unvalidated (`judge()` validates it against the questions).
 */
export class SystemOneProvider implements JudgmentProvider {
  readonly id = 'systemone';
  readonly calibrated = true;
  /** Full endpoint URL (`{baseUrl}/v1/systemone`). */
  readonly endpoint: string;
  readonly retry: Readonly<RetryOptions>;
  private readonly spendCap: SpendCap;
  private readonly fetchImpl: typeof fetch;
  // A #private field: invisible to JSON.stringify and util.inspect, so the key cannot leak via logs.
  readonly #headers: Record<string, string>;

  /**
   * Throws JevError CONFIG_ERROR for a base URL that breaks the base-URL rules (base-url.ts) or a key with characters an HTTP header
   * cannot carry (fetch would otherwise echo the key in its own error); RangeError for bad retry options.
   */
  constructor(options: SystemOneProviderOptions) {
    this.endpoint = `${normalizeBaseUrl(options.baseUrl)}/v1/systemone`;
    this.retry = Object.freeze(resolveRetryOptions(options.retry));
    this.spendCap = options.spendCap;
    this.fetchImpl = options.fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
    this.#headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
    const key = options.apiKey?.trim();
    if (key) {
      if (!/^[\x21-\x7e]+$/.test(key)) {
        throw configError('JEV_API_KEY contains characters an HTTP header cannot carry (only visible ASCII, no spaces); copy the key again.');
      }
      this.#headers.Authorization = `Bearer ${key}`;
    }
  }

  /** True when requests carry an Authorization header. */
  get hasApiKey(): boolean {
    return 'Authorization' in this.#headers;
  }

  /** See the class comment for timing, retries and error mapping. */
  async systemOne(request: SystemOneRequest, ctx: CallContext): Promise<unknown> {
    let payload: string;
    try {
      // Serialized once (judge() usually has the body already); the same bytes are resent on every retry.
      payload = requestBodyJson(request);
    } catch {
      throw invalidInput('The System One request could not be serialized as JSON (state must be plain JSON data).');
    }
    return postJsonWithRetry(
      {
        url: this.endpoint,
        headers: this.#headers,
        payload,
        fetchImpl: this.fetchImpl,
        spendCap: this.spendCap,
        retry: this.retry,
        maxResponseBytes: MAX_RESPONSE_BYTES,
        wording: WORDING,
      },
      ctx,
    );
  }
}

/** This provider's wording of the request loop's failures (http-post.ts); names JEV_BASE_URL/JEV_API_KEY. */
const WORDING: PostWording = {
  cancelled: 'The System One request was cancelled.',
  timeout: 'System One did not answer before the call deadline (JEV_TIMEOUT_MS).',
  exhausted: (what, tries, status) =>
    status === undefined
      ? `Could not reach System One (${what}) ${tries}; check JEV_BASE_URL and that the server is running.`
      : `System One request failed (${what}) ${tries}.`,
  unreachable: (kind) => UNREACHABLE[kind],
  redirect: (status) => `System One answered with a redirect (HTTP ${status}), which was refused; set JEV_BASE_URL to the final address.`,
  invalidBody: (status, problem) => `System One answered HTTP ${status} ${problem}.`,
  rejected,
};

const UNREACHABLE: Record<UnreachableKind, string> = {
  dns: 'The System One host was not found (DNS); check JEV_BASE_URL.',
  tls: 'The System One TLS certificate was rejected; check JEV_BASE_URL.',
  port: 'fetch refuses the port in JEV_BASE_URL (a blocked port); use another port.',
  network: 'The System One request failed before any response (network error).',
};

/** 401/403 auth, 404 endpoint, 413 and the max_tokens_exceeded marker → INPUT_TOO_LARGE, other 4xx, others. */
async function rejected(status: number, errorText: () => Promise<string | undefined>): Promise<JevError> {
  const fail = (message: string, code: 'API_ERROR' | 'INPUT_TOO_LARGE' = 'API_ERROR') => new JevError(code, message, { retryable: false, status });
  if (status === 401 || status === 403) return fail(`System One authentication failed (HTTP ${status}); check JEV_API_KEY.`);
  if (status === 404) return fail('System One endpoint was not found (HTTP 404); check JEV_BASE_URL (the API root, without /v1/systemone).');
  if (status === 413) return fail('System One refused the request as too large (HTTP 413); shorten the state or the questions.', 'INPUT_TOO_LARGE');
  if (status >= 400 && status <= 499) {
    // Matched by marker, not by status; only the marker is read, never echoed.
    const text = await errorText();
    if (text !== undefined && isMaxTokensExceeded(text)) {
      return fail(`System One reported the input exceeds the model's token limit (HTTP ${status}); shorten the state or the questions.`, 'INPUT_TOO_LARGE');
    }
    return fail(`System One rejected the request (HTTP ${status}).`);
  }
  return fail(`System One answered with unexpected HTTP status ${status}.`);
}

function isMaxTokensExceeded(text: string): boolean {
  try {
    const body = JSON.parse(text) as { detail?: { error_type?: unknown } } | null;
    return typeof body === 'object' && body !== null && body.detail?.error_type === 'max_tokens_exceeded';
  } catch {
    return false;
  }
}
