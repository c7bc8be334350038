/**
 * The one request loop of the HTTP providers (systemone, openai): a JSON POST under the call's deadline,
 * with retries, spend cap, cancellation and status mapping. Each provider passes its own wording
 * (PostWording); the rules live here only.
 *
 * - Deadline: every attempt, body read and retry wait ends by `ctx.deadline` (epoch ms) → TIMEOUT.
 * - Cancellation: `ctx.signal` aborts the in-flight request (its socket closes) or the wait. When the
 *   signal's `reason` is a JevError, that error is thrown; otherwise CANCELLED.
 * - Retries: 408, 429, 5xx and connection errors, at most `retry.maxAttempts` attempts in all; wait =
 *   the server's `retry-after-ms`/`Retry-After` hint (capped at 60 s) or else backoff with 25 % subtractive
 *   jitter. Chosen rule: a wait that would end at or after the deadline is not taken — the last upstream
 *   error is raised at once (API_ERROR, retryable), so the caller learns the real cause and gets its time back.
 * - Spend cap: `spendCap.beforeAttempt()` before every physical attempt; its error ends the call. An
 *   attempt cancelled before its request left (request-sent.ts) is refunded: nothing was spent.
 * - Redirects are never followed (`redirect: 'manual'`; any 3xx → API_ERROR, not retried).
 * - Bounded reads: a 2xx body above `maxResponseBytes` → INVALID_RESPONSE; error bodies are read (≤ 64 KiB)
 *   only when the provider asks, to look for markers. Messages never quote a body or the key.
 */
import { cancelled, JevError, invalidResponse } from '../judgment/errors';
import { MAX_RETRY_HINT_MS, backoffDelay, isRetryableStatus, retryHintMs, sleep, type RetryOptions } from './http-retry';
import type { CallContext } from '../judgment/provider';
import type { SpendCap } from './spend-cap';
import { knownUnsent, traceRequest } from './request-sent';

/** A fetch failure that no retry cures: host not found, certificate refused, port blocked by fetch, other. */
export type UnreachableKind = 'dns' | 'tls' | 'port' | 'network';

/**
 * A provider's wording of the loop's failures. Strings become the message of the JevError whose code the
 * loop fixes (named per member); `rejected` builds its own error because its code depends on the provider.
 */
export interface PostWording {
  /** CANCELLED. */
  cancelled: string;
  /** TIMEOUT (retryable). */
  timeout: string;
  /**
   * API_ERROR, retryable: a retryable failure given up. `what`: "HTTP 503 (service unavailable)" or
   * "connection reset"; `tries`: "after 3 attempts", plus "; not retried: …" when a wait was skipped;
   * `status` undefined when no HTTP answer came (connection failures).
   */
  exhausted(what: string, tries: string, status: number | undefined): string;
  /** API_ERROR, not retryable: a fetch failure a retry cannot cure. */
  unreachable(kind: UnreachableKind): string;
  /** API_ERROR, not retryable: a 3xx answer (never followed). */
  redirect(status: number): string;
  /** INVALID_RESPONSE: a 2xx whose body breaks `problem` ("with a body that is not JSON", "… larger than N bytes"). */
  invalidBody(status: number, problem: string): string;
  /**
   * The error of any other status (4xx and unexpected ones). `errorText()` reads at most 64 KiB of the
   * body (undefined when larger or unreadable) to look for markers; never put it in a message.
   */
  rejected(status: number, errorText: () => Promise<string | undefined>): Promise<JevError>;
}

/** What one POST needs; `headers` already carry the key (never logged). */
export interface PostJsonOptions {
  url: string;
  headers: Record<string, string>;
  /** Serialized body, resent unchanged on every retry. */
  payload: string;
  fetchImpl: typeof fetch;
  spendCap: SpendCap;
  retry: Readonly<RetryOptions>;
  /** Largest 2xx body read, bytes. */
  maxResponseBytes: number;
  wording: PostWording;
}

/** Largest error body read when a provider looks for markers, bytes. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

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

/**
 * POSTs `options.payload` to `options.url` and returns the parsed JSON body of a 2xx answer (unvalidated).
 * Throws JevError: TIMEOUT, CANCELLED (or the signal's JevError reason), API_ERROR (status, network,
 * redirect, spend cap), INVALID_RESPONSE (2xx body not JSON or too large), and whatever
 * `wording.rejected` returns (e.g. INPUT_TOO_LARGE, CONFIG_ERROR).
 */
export async function postJsonWithRetry(options: PostJsonOptions, ctx: CallContext): Promise<unknown> {
  const { wording, retry } = options;
  for (let attempt = 1; ; attempt++) {
    const stop = stopped(ctx, wording, false);
    if (stop) throw stop;
    options.spendCap.beforeAttempt();
    const outcome = await attemptOnce(options, ctx);
    if (outcome.ok) return outcome.body;
    const failure = outcome.retry;
    if (attempt >= retry.maxAttempts) throw exhausted(wording, failure, attempt, '');
    const hint = failure.hintMs === undefined ? undefined : Math.min(failure.hintMs, MAX_RETRY_HINT_MS);
    const wait = hint ?? backoffDelay(attempt, retry);
    if (Date.now() + wait >= ctx.deadline) {
      const why = hint === undefined
        ? `the next attempt (in ${Math.round(wait)} ms) would start after the call deadline`
        : `the server asked to wait ${formatMs(hint)}, past the call deadline`;
      throw exhausted(wording, failure, attempt, `; not retried: ${why}`);
    }
    try {
      await sleep(wait, ctx.signal);
    } catch {
      throw stopped(ctx, wording, false) ?? cancelled(wording.cancelled);
    }
  }
}

/** The error for a stopped call: the signal's JevError reason, CANCELLED, or TIMEOUT when time ran out. */
function stopped(ctx: CallContext, wording: PostWording, timedOut: boolean): JevError | undefined {
  if (ctx.signal.aborted) return ctx.signal.reason instanceof JevError ? ctx.signal.reason : cancelled(wording.cancelled);
  if (timedOut || Date.now() >= ctx.deadline) return new JevError('TIMEOUT', wording.timeout, { retryable: true });
  return undefined;
}

/** One physical request under the remaining deadline; throws final JevErrors, returns retryable ones. */
async function attemptOnce(options: PostJsonOptions, ctx: CallContext): Promise<AttemptOutcome> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, Math.min(Math.max(1, ctx.deadline - Date.now()), 2 ** 31 - 1));
  const onAbort = () => controller.abort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  // Our own abort (deadline, cancellation) comes first; then a final JevError; else a broken connection.
  const failed = (err: unknown): AttemptOutcome => {
    const stop = stopped(ctx, options.wording, timedOut);
    if (stop) throw stop;
    return { ok: false, retry: networkFailure(err, options.wording) };
  };
  try {
    let res: Response;
    const { trace, result } = traceRequest(() =>
      options.fetchImpl(options.url, {
        method: 'POST',
        headers: options.headers,
        body: options.payload,
        redirect: 'manual',
        signal: controller.signal,
      }),
    );
    try {
      res = await result;
    } catch (err) {
      // Cancelled before the request left: nothing was spent (the deadline is not a cancellation).
      if (ctx.signal.aborted && knownUnsent(trace)) options.spendCap.refund();
      return failed(err);
    }
    try {
      return await readResponse(res, options);
    } catch (err) {
      // Includes the connection breaking while the body was streaming.
      return failed(err);
    }
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

const formatMs = (ms: number) => (ms >= 1000 ? `${Number((ms / 1000).toFixed(1))} s` : `${Math.round(ms)} ms`);

/** The final error of a retryable failure that will not be retried any more. */
function exhausted(wording: PostWording, failure: RetryableFailure, attempts: number, suffix: string): JevError {
  const tries = `after ${attempts} attempt${attempts === 1 ? '' : 's'}${suffix}`;
  const message = wording.exhausted(failure.what, tries, failure.status);
  return new JevError('API_ERROR', message, { retryable: true, status: failure.status, cause: failure.cause });
}

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

/** Classifies a failure that was not our own abort: connection failures are retryable; throws the rest. */
function networkFailure(err: unknown, wording: PostWording): RetryableFailure {
  if (err instanceof JevError) throw err;
  const { codes, messages } = causeChain(err);
  for (const code of codes) {
    const what = CONNECTION_CODES[code];
    if (what) return { what, cause: err };
  }
  let kind: UnreachableKind = 'network';
  if (codes.includes('ENOTFOUND')) kind = 'dns';
  else if (codes.some((c) => /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|TLS/i.test(c))) kind = 'tls';
  else if (messages.some((m) => m === 'bad port')) kind = 'port';
  throw new JevError('API_ERROR', wording.unreachable(kind), { retryable: false, cause: kind === 'network' ? err : undefined });
}

/** Maps a response to the parsed body or a retryable failure; throws the final JevError otherwise. */
async function readResponse(res: Response, options: PostJsonOptions): Promise<AttemptOutcome> {
  const { wording, maxResponseBytes } = options;
  const status = res.status;
  if (status >= 200 && status <= 299) {
    const text = await readText(res, maxResponseBytes);
    if (text === undefined) throw invalidResponse(wording.invalidBody(status, `with a body larger than ${maxResponseBytes} bytes`));
    try {
      return { ok: true, body: JSON.parse(text) as unknown };
    } catch {
      throw invalidResponse(wording.invalidBody(status, 'with a body that is not JSON'));
    }
  }
  if (isRetryableStatus(status)) {
    discard(res);
    const what = `HTTP ${status}${STATUS_LABEL[status] ? ` (${STATUS_LABEL[status]})` : ''}`;
    return { ok: false, retry: { what, status, hintMs: retryHintMs(res.headers) } };
  }
  if (res.type === 'opaqueredirect' || (status >= 300 && status <= 399)) {
    discard(res);
    throw new JevError('API_ERROR', wording.redirect(status), { retryable: false, status });
  }
  let read = false;
  const error = await wording.rejected(status, () => {
    read = true;
    return readText(res, MAX_ERROR_BODY_BYTES).catch(() => undefined);
  });
  if (!read) discard(res);
  throw error;
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
