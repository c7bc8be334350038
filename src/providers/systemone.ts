import { JevError, configError, invalidInput, invalidResponse } from '../judgment/errors';
import type { SystemOneRequest } from '../judgment/types';
import { normalizeBaseUrl } from './base-url';
import {
  MAX_RETRY_HINT_MS,
  backoffDelay,
  isRetryableStatus,
  resolveRetryOptions,
  retryHintMs,
  sleep,
  type RetryOptions,
} from './http-retry';
import type { CallContext, JudgmentProvider } from './port';
import type { SpendCap } from './spend-cap';

/** Options of a SystemOneProvider. */
export interface SystemOneProviderOptions {
  /** API root, e.g. `https://api.typesafe.ai` or `http://localhost:11434`; checked with normalizeBaseUrl (§7.2). */
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
/** Largest 4xx body read when looking for the max_tokens_exceeded marker, bytes. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** A failure that another attempt may cure (408, 429, 5xx, connection errors). */
interface RetryableFailure {
  /** "HTTP 503 (service unavailable)" or "connection reset"; never upstream text. */
  what: string;
  status?: number;
  /** Server wait hint, ms, uncapped. */
  hintMs?: number;
  cause?: unknown;
}

type AttemptOutcome = { ok: true; body: unknown } | { ok: false; retry: RetryableFailure };

const STATUS_LABEL: Record<number, string> = {
  408: 'request timeout',
  429: 'rate limited',
  500: 'internal server error',
  502: 'bad gateway',
  503: 'service unavailable',
  504: 'gateway timeout',
  529: 'overloaded',
};

const httpWhat = (status: number) => `HTTP ${status}${STATUS_LABEL[status] ? ` (${STATUS_LABEL[status]})` : ''}`;

/** Retryable network error codes (anywhere in the cause chain) → plain description. */
const CONNECTION_CODES: Record<string, string> = {
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  ECONNABORTED: 'connection aborted',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CLOSED: 'connection closed',
  ECONNREFUSED: 'connection refused',
  ETIMEDOUT: 'connect timeout',
  UND_ERR_CONNECT_TIMEOUT: 'connect timeout',
  UND_ERR_HEADERS_TIMEOUT: 'no response headers in time',
  UND_ERR_BODY_TIMEOUT: 'response body stalled',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EAI_AGAIN: 'temporary DNS failure',
};

/** Codes and messages found along an error's cause chain (bounded depth). */
function causeChain(err: unknown): { codes: string[]; messages: string[] } {
  const codes: string[] = [];
  const messages: string[] = [];
  let cur: unknown = err;
  for (let depth = 0; depth < 6 && typeof cur === 'object' && cur !== null; depth++) {
    const e = cur as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof e.code === 'string') codes.push(e.code);
    if (typeof e.message === 'string') messages.push(e.message);
    cur = e.cause;
  }
  return { codes, messages };
}

/**
 * The `systemone` provider: `POST {baseUrl}/v1/systemone` with `{state, questions, model}`
 * (jev-tools-spec §2, judgevet-spec §1). Works with TypeSafe, Ollama and Kev.
 *
 * Timing (jev-tools-spec §2.5): one deadline per tool call (`ctx.deadline`) bounds every attempt, body
 * read and retry wait; passing it → JevError TIMEOUT (retryable). `ctx.signal` aborts the in-flight
 * request (its socket is closed) or the wait → CANCELLED.
 *
 * Retries (judgevet-spec §1.6, improved): 408, 429, 5xx and connection errors, at most
 * `retry.maxAttempts` attempts in all; wait = the server's `retry-after-ms`/`Retry-After` hint (capped
 * at 60 s) or else exponential backoff base×2^(n−1) capped at max with subtractive 25 % jitter.
 * Chosen rule: when the wait would end at or after the deadline, the call fails NOW with the last
 * upstream error (API_ERROR, retryable) instead of sleeping into a TIMEOUT — the caller learns the real
 * cause and gets its time back.
 *
 * Spend cap (judgevet-spec §1.7): `spendCap.beforeAttempt()` runs before every physical attempt; its
 * error ends the call and nothing is sent.
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
   * Throws JevError CONFIG_ERROR for a base URL that breaks §7.2 or a key with characters an HTTP header
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
      // Serialized once; the same bytes are resent on every retry.
      payload = JSON.stringify({ state: request.state, questions: request.questions, model: request.model });
    } catch {
      throw invalidInput('The System One request could not be serialized as JSON (state must be plain JSON data).');
    }
    for (let attempt = 1; ; attempt++) {
      throwIfStopped(ctx, false);
      this.spendCap.beforeAttempt();
      const outcome = await this.attempt(payload, ctx);
      if (outcome.ok) return outcome.body;
      const failure = outcome.retry;
      if (attempt >= this.retry.maxAttempts) throw exhausted(failure, attempt, '');
      const hint = failure.hintMs === undefined ? undefined : Math.min(failure.hintMs, MAX_RETRY_HINT_MS);
      const wait = hint ?? backoffDelay(attempt, this.retry);
      if (Date.now() + wait >= ctx.deadline) {
        const why = hint === undefined
          ? `the next attempt (in ${Math.round(wait)} ms) would start after the call deadline`
          : `the server asked to wait ${formatMs(hint)}, past the call deadline`;
        throw exhausted(failure, attempt, `; not retried: ${why}`);
      }
      try {
        await sleep(wait, ctx.signal);
      } catch {
        throw cancelled();
      }
    }
  }

  /** One physical request under the remaining deadline; throws final JevErrors, returns retryable ones. */
  private async attempt(payload: string, ctx: CallContext): Promise<AttemptOutcome> {
    const controller = new AbortController();
    let timedOut = false;
    const remaining = Math.max(1, ctx.deadline - Date.now());
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, Math.min(remaining, 2 ** 31 - 1));
    const onCancel = () => controller.abort();
    ctx.signal.addEventListener('abort', onCancel, { once: true });
    try {
      let res: Response;
      try {
        res = await this.fetchImpl(this.endpoint, {
          method: 'POST',
          headers: this.#headers,
          body: payload,
          redirect: 'error',
          signal: controller.signal,
        });
      } catch (err) {
        throwIfStopped(ctx, timedOut);
        return { ok: false, retry: networkFailure(err) };
      }
      try {
        return await readResponse(res);
      } catch (err) {
        throwIfStopped(ctx, timedOut);
        if (err instanceof JevError) throw err;
        // The connection broke while the body was streaming.
        return { ok: false, retry: networkFailure(err) };
      }
    } finally {
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onCancel);
    }
  }
}

const cancelled = () => new JevError('CANCELLED', 'The System One request was cancelled.');

/** CANCELLED when the caller aborted; TIMEOUT when the attempt timer fired or the deadline passed. */
function throwIfStopped(ctx: CallContext, timedOut: boolean): void {
  if (ctx.signal.aborted) throw cancelled();
  if (timedOut || Date.now() >= ctx.deadline) {
    throw new JevError('TIMEOUT', 'System One did not answer before the call deadline (JEV_TIMEOUT_MS).', { retryable: true });
  }
}

const formatMs = (ms: number) => (ms >= 1000 ? `${Number((ms / 1000).toFixed(1))} s` : `${Math.round(ms)} ms`);

/** The final error of a retryable failure that will not be retried any more. */
function exhausted(failure: RetryableFailure, attempts: number, suffix: string): JevError {
  const tries = `after ${attempts} attempt${attempts === 1 ? '' : 's'}`;
  const message = failure.status === undefined
    ? `Could not reach System One (${failure.what}) ${tries}${suffix}; check JEV_BASE_URL and that the server is running.`
    : `System One request failed (${failure.what}) ${tries}${suffix}.`;
  return new JevError('API_ERROR', message, { retryable: true, status: failure.status, cause: failure.cause });
}

/** Classifies a fetch rejection that was not our own abort. Throws for failures a retry cannot cure. */
function networkFailure(err: unknown): RetryableFailure {
  if (err instanceof JevError) throw err;
  const { codes, messages } = causeChain(err);
  if (messages.some((m) => /redirect/i.test(m))) {
    throw new JevError('API_ERROR', 'System One answered with a redirect, which was refused; set JEV_BASE_URL to the final address.', { retryable: false });
  }
  for (const code of codes) {
    const what = CONNECTION_CODES[code];
    if (what) return { what, cause: err };
  }
  if (codes.includes('ENOTFOUND')) {
    throw new JevError('API_ERROR', 'The System One host was not found (DNS); check JEV_BASE_URL.', { retryable: false });
  }
  if (codes.some((c) => /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|TLS/i.test(c))) {
    throw new JevError('API_ERROR', 'The System One TLS certificate was rejected; check JEV_BASE_URL.', { retryable: false });
  }
  if (messages.some((m) => m === 'bad port')) {
    throw new JevError('API_ERROR', 'fetch refuses the port in JEV_BASE_URL (a blocked port); use another port.', { retryable: false });
  }
  throw new JevError('API_ERROR', 'The System One request failed before any response (network error).', { retryable: false, cause: err });
}

/** Maps a response to the parsed body, a retryable failure, or a thrown final JevError. */
async function readResponse(res: Response): Promise<AttemptOutcome> {
  const status = res.status;
  if (status >= 200 && status <= 299) {
    const text = await readText(res, MAX_RESPONSE_BYTES);
    if (text === undefined) throw invalidResponse(`System One answered HTTP ${status} with a body larger than ${MAX_RESPONSE_BYTES} bytes.`);
    try {
      return { ok: true, body: JSON.parse(text) as unknown };
    } catch {
      throw invalidResponse(`System One answered HTTP ${status} with a body that is not JSON.`);
    }
  }
  if (isRetryableStatus(status)) {
    discard(res);
    return { ok: false, retry: { what: httpWhat(status), status, hintMs: retryHintMs(res.headers) } };
  }
  if (status >= 300 && status <= 399) {
    discard(res);
    throw new JevError('API_ERROR', `System One answered with a redirect (HTTP ${status}), which was refused; set JEV_BASE_URL to the final address.`, { retryable: false, status });
  }
  if (status === 401 || status === 403) {
    discard(res);
    throw new JevError('API_ERROR', `System One authentication failed (HTTP ${status}); check JEV_API_KEY.`, { retryable: false, status });
  }
  if (status === 404) {
    discard(res);
    throw new JevError('API_ERROR', 'System One endpoint was not found (HTTP 404); check JEV_BASE_URL (the API root, without /v1/systemone).', { retryable: false, status });
  }
  if (status === 413) {
    discard(res);
    throw new JevError('INPUT_TOO_LARGE', 'System One refused the request as too large (HTTP 413); shorten the state or the questions.', { retryable: false, status });
  }
  if (status >= 400 && status <= 499) {
    // Matched by marker, not by status (judgevet-spec §1.5); only the marker is read, never echoed.
    const text = await readText(res, MAX_ERROR_BODY_BYTES).catch(() => undefined);
    if (text !== undefined && isMaxTokensExceeded(text)) {
      throw new JevError('INPUT_TOO_LARGE', `System One reported the input exceeds the model's token limit (HTTP ${status}); shorten the state or the questions.`, { retryable: false, status });
    }
    throw new JevError('API_ERROR', `System One rejected the request (HTTP ${status}).`, { retryable: false, status });
  }
  discard(res);
  throw new JevError('API_ERROR', `System One answered with unexpected HTTP status ${status}.`, { retryable: false, status });
}

function isMaxTokensExceeded(text: string): boolean {
  try {
    const body = JSON.parse(text) as { detail?: { error_type?: unknown } } | null;
    return typeof body === 'object' && body !== null && body.detail?.error_type === 'max_tokens_exceeded';
  } catch {
    return false;
  }
}

/** Drops a body we will not read, so the connection is released. */
function discard(res: Response): void {
  res.body?.cancel().catch(() => undefined);
}

/**
 * Reads the body as UTF-8 up to `limit` bytes; undefined when larger. Invalid UTF-8 is replaced
 * (JSON.parse then decides). Rejects when the stream breaks or is aborted.
 */
async function readText(res: Response, limit: number): Promise<string | undefined> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    discard(res);
    return undefined;
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
