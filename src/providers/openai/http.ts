/**
 * One JSON POST to an OpenAI-compatible endpoint with the systemone timing, retry and error rules
 * (jev-tools-spec §2.5–2.7, judgevet-spec §1.6–1.7). The retry arithmetic is shared with systemone
 * (../http-retry); the request loop is this provider's own because systemone keeps its loop private.
 *
 * - Deadline: every attempt, body read and retry wait ends by `scope.deadline` (epoch ms) → TIMEOUT.
 * - Cancellation: `scope.signal` aborts the in-flight request (its socket closes) or the wait. When the
 *   signal's `reason` is a JevError (the provider aborts with TIMEOUT or CANCELLED), that error is thrown;
 *   otherwise CANCELLED.
 * - Retries: 408, 429, 5xx and connection errors, at most `retry.maxAttempts` attempts; wait =
 *   `retry-after-ms`/`Retry-After` (capped at 60 s) or backoff with 25 % subtractive jitter. A wait that
 *   would end at or after the deadline is not taken: the last upstream error is raised at once.
 * - Spend cap: `spendCap.beforeAttempt()` before every physical attempt.
 * - Redirects are refused (`redirect: 'manual'`, any 3xx → API_ERROR, not retried).
 * - Errors name the status, never the response body or the key. 400s are scanned (not echoed) for two
 *   markers: a context-window overflow → INPUT_TOO_LARGE; a refused `logprobs` parameter → CONFIG_ERROR.
 */
import { JevError, invalidResponse } from '../../judgment/errors';
import { MAX_RETRY_HINT_MS, backoffDelay, isRetryableStatus, retryHintMs, sleep, type RetryOptions } from '../http-retry';
import type { SpendCap } from '../spend-cap';

/** What one POST needs; `headers` already carry the key (never logged). */
export interface PostJsonOptions {
  url: string;
  headers: Record<string, string>;
  /** Serialized body, resent unchanged on every retry. */
  payload: string;
  fetchImpl: typeof fetch;
  spendCap: SpendCap;
  retry: Readonly<RetryOptions>;
}

/** Signal and absolute deadline (epoch ms) bounding the POST and its retries. */
export interface PostScope {
  signal: AbortSignal;
  deadline: number;
}

/** Largest 2xx body read, bytes (a one-token completion with 20 logprobs is a few KiB). */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Setting names quoted in messages. */
export const SETTINGS_HINT = 'JEV_BASE_URL (jevPanel.baseUrl)';

interface RetryableFailure {
  what: string;
  status?: number;
  hintMs?: number;
  cause?: unknown;
}

type AttemptOutcome = { ok: true; body: unknown } | { ok: false; retry: RetryableFailure };

const CONNECTION_CODES: Record<string, string> = {
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  ECONNABORTED: 'connection aborted',
  ECONNREFUSED: 'connection refused',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CLOSED: 'connection closed',
  ETIMEDOUT: 'connect timeout',
  UND_ERR_CONNECT_TIMEOUT: 'connect timeout',
  UND_ERR_HEADERS_TIMEOUT: 'no response headers in time',
  UND_ERR_BODY_TIMEOUT: 'response body stalled',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EAI_AGAIN: 'temporary DNS failure',
};

const cancelled = () => new JevError('CANCELLED', 'The request to the OpenAI-compatible endpoint was cancelled.');
const timeout = () =>
  new JevError('TIMEOUT', 'The OpenAI-compatible endpoint did not answer before the call deadline (JEV_TIMEOUT_MS).', { retryable: true });

/** The error for a stopped scope: the signal's JevError reason, CANCELLED, or TIMEOUT when time ran out. */
function stopped(scope: PostScope, timedOut: boolean): JevError | undefined {
  if (scope.signal.aborted) return scope.signal.reason instanceof JevError ? scope.signal.reason : cancelled();
  if (timedOut || Date.now() >= scope.deadline) return timeout();
  return undefined;
}

/**
 * POSTs `options.payload` and returns the parsed JSON body of a 2xx answer (unvalidated).
 * Throws JevError: TIMEOUT, CANCELLED, API_ERROR (status/network/redirect/spend cap), INPUT_TOO_LARGE,
 * CONFIG_ERROR (logprobs refused), INVALID_RESPONSE (2xx body not JSON or too large).
 */
export async function postJson(options: PostJsonOptions, scope: PostScope): Promise<unknown> {
  for (let attempt = 1; ; attempt++) {
    const stop = stopped(scope, false);
    if (stop) throw stop;
    options.spendCap.beforeAttempt();
    const outcome = await attemptOnce(options, scope);
    if (outcome.ok) return outcome.body;
    const failure = outcome.retry;
    if (attempt >= options.retry.maxAttempts) throw exhausted(failure, attempt, '');
    const hint = failure.hintMs === undefined ? undefined : Math.min(failure.hintMs, MAX_RETRY_HINT_MS);
    const wait = hint ?? backoffDelay(attempt, options.retry);
    if (Date.now() + wait >= scope.deadline) {
      throw exhausted(failure, attempt, `; not retried: the ${hint === undefined ? 'next attempt' : 'server-requested wait'} would end after the call deadline`);
    }
    try {
      await sleep(wait, scope.signal);
    } catch {
      throw stopped(scope, false) ?? cancelled();
    }
  }
}

async function attemptOnce(options: PostJsonOptions, scope: PostScope): Promise<AttemptOutcome> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, Math.min(Math.max(1, scope.deadline - Date.now()), 2 ** 31 - 1));
  const onAbort = () => controller.abort();
  scope.signal.addEventListener('abort', onAbort, { once: true });
  try {
    let res: Response;
    try {
      res = await options.fetchImpl(options.url, {
        method: 'POST',
        headers: options.headers,
        body: options.payload,
        redirect: 'manual',
        signal: controller.signal,
      });
    } catch (err) {
      const stop = stopped(scope, timedOut);
      if (stop) throw stop;
      return { ok: false, retry: networkFailure(err) };
    }
    try {
      return await readResponse(res);
    } catch (err) {
      const stop = stopped(scope, timedOut);
      if (stop) throw stop;
      if (err instanceof JevError) throw err;
      return { ok: false, retry: networkFailure(err) };
    }
  } finally {
    clearTimeout(timer);
    scope.signal.removeEventListener('abort', onAbort);
  }
}

function exhausted(failure: RetryableFailure, attempts: number, suffix: string): JevError {
  const tries = `after ${attempts} attempt${attempts === 1 ? '' : 's'}`;
  const message =
    failure.status === undefined
      ? `Could not reach the OpenAI-compatible endpoint (${failure.what}) ${tries}${suffix}; check ${SETTINGS_HINT} and that the server is running.`
      : `OpenAI-compatible endpoint request failed (${failure.what}) ${tries}${suffix}.`;
  return new JevError('API_ERROR', message, { retryable: true, status: failure.status, cause: failure.cause });
}

function causeCodes(err: unknown): string[] {
  const codes: string[] = [];
  let cur: unknown = err;
  for (let depth = 0; depth < 6 && typeof cur === 'object' && cur !== null; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    cur = (cur as { cause?: unknown }).cause;
  }
  return codes;
}

/** A fetch rejection that was not our abort: retryable connection failure, or a thrown final error. */
function networkFailure(err: unknown): RetryableFailure {
  if (err instanceof JevError) throw err;
  const codes = causeCodes(err);
  for (const code of codes) {
    const what = CONNECTION_CODES[code];
    if (what) return { what, cause: err };
  }
  if (codes.includes('ENOTFOUND')) {
    throw new JevError('API_ERROR', `The OpenAI-compatible endpoint's host was not found (DNS); check ${SETTINGS_HINT}.`, { retryable: false });
  }
  if (codes.some((c) => /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|TLS/i.test(c))) {
    throw new JevError('API_ERROR', `The OpenAI-compatible endpoint's TLS certificate was rejected; check ${SETTINGS_HINT}.`, { retryable: false });
  }
  throw new JevError('API_ERROR', 'The request to the OpenAI-compatible endpoint failed before any response (network error).', { retryable: false, cause: err });
}

async function readResponse(res: Response): Promise<AttemptOutcome> {
  const status = res.status;
  if (status >= 200 && status <= 299) {
    const text = await readText(res, MAX_RESPONSE_BYTES);
    if (text === undefined) throw invalidResponse(`The OpenAI-compatible endpoint answered HTTP ${status} with a body larger than ${MAX_RESPONSE_BYTES} bytes.`);
    try {
      return { ok: true, body: JSON.parse(text) as unknown };
    } catch {
      throw invalidResponse(`The OpenAI-compatible endpoint answered HTTP ${status} with a body that is not JSON.`);
    }
  }
  if (isRetryableStatus(status)) {
    discard(res);
    return { ok: false, retry: { what: `HTTP ${status}`, status, hintMs: retryHintMs(res.headers) } };
  }
  if (res.type === 'opaqueredirect' || (status >= 300 && status <= 399)) {
    discard(res);
    throw new JevError('API_ERROR', `The OpenAI-compatible endpoint answered with a redirect (HTTP ${status}), which was refused; set ${SETTINGS_HINT} to the final address.`, { retryable: false, status });
  }
  if (status === 401 || status === 403) {
    discard(res);
    throw new JevError('API_ERROR', `The OpenAI-compatible endpoint refused the credentials (HTTP ${status}); check JEV_API_KEY.`, { retryable: false, status });
  }
  if (status === 404) {
    discard(res);
    throw new JevError('API_ERROR', `The OpenAI-compatible endpoint or model was not found (HTTP 404); check ${SETTINGS_HINT} and JEV_MODEL (the served model name).`, { retryable: false, status });
  }
  if (status === 413) {
    discard(res);
    throw new JevError('INPUT_TOO_LARGE', 'The OpenAI-compatible endpoint refused the request as too large (HTTP 413); shorten the state.', { retryable: false, status });
  }
  if (status >= 400 && status <= 499) {
    // Only markers are looked for; the body is never echoed.
    const text = (await readText(res, MAX_ERROR_BODY_BYTES).catch(() => undefined)) ?? '';
    if (/context[ _-]?(length|size|window)|maximum context|too many tokens|exceeds? the (available )?context/i.test(text)) {
      throw new JevError('INPUT_TOO_LARGE', `The prompt exceeds the model's context window (HTTP ${status}); shorten the state or serve the model with a larger context.`, { retryable: false, status });
    }
    if (/logprob/i.test(text)) {
      throw new JevError('CONFIG_ERROR', `The endpoint rejected the logprobs parameters (HTTP ${status}); the openai provider needs an endpoint that returns top_logprobs — change ${SETTINGS_HINT} or JEV_PROVIDER.`, { retryable: false, status });
    }
    throw new JevError('API_ERROR', `The OpenAI-compatible endpoint rejected the request (HTTP ${status}).`, { retryable: false, status });
  }
  discard(res);
  throw new JevError('API_ERROR', `The OpenAI-compatible endpoint answered with unexpected HTTP status ${status}.`, { retryable: false, status });
}

function discard(res: Response): void {
  res.body?.cancel().catch(() => undefined);
}

/** Reads the body as UTF-8 up to `limit` bytes; undefined when larger. Rejects when the stream breaks. */
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
