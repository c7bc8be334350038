/**
 * Retry arithmetic for upstream HTTP calls: which statuses are
 * retried, exponential backoff with subtractive jitter, server wait hints (`Retry-After`, `retry-after-ms`),
 * and a wait that a cancellation signal can cut short. No I/O besides timers.
 */

/** Retry settings. Delays in ms. */
export interface RetryOptions {
  /** Total attempts including the first (positive integer). Default 3. */
  maxAttempts: number;
  /** Backoff ceiling of the first retry, ms (finite, ≥ 0). Default 500. */
  baseDelayMs: number;
  /** Largest backoff ceiling, ms (finite, ≥ 0). Default 5 000. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: Readonly<RetryOptions> = Object.freeze({ maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 5_000 });

/** Server wait hints above this are capped to it (ms). */
export const MAX_RETRY_HINT_MS = 60_000;

/** Fraction of the ceiling that jitter may subtract: the wait is uniform in [0.75, 1] × ceiling. */
export const JITTER_FRACTION = 0.25;

/**
 * Fills defaults and checks the fields. Throws RangeError naming the field: `maxAttempts` must be a
 * positive safe integer; `baseDelayMs`/`maxDelayMs` finite numbers ≥ 0.
 */
export function resolveRetryOptions(partial: Partial<RetryOptions> = {}): RetryOptions {
  const out: RetryOptions = { ...DEFAULT_RETRY };
  if (partial.maxAttempts !== undefined) {
    if (!Number.isSafeInteger(partial.maxAttempts) || partial.maxAttempts < 1) {
      throw new RangeError('retry.maxAttempts must be a positive integer');
    }
    out.maxAttempts = partial.maxAttempts;
  }
  for (const key of ['baseDelayMs', 'maxDelayMs'] as const) {
    const v = partial[key];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new RangeError(`retry.${key} must be a finite number >= 0`);
    out[key] = v;
  }
  return out;
}

/** Statuses worth another attempt: 408 (request timeout), 429 (rate limit), every 5xx (incl. 529 overloaded). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/**
 * Backoff after failed attempt `n` (1-based), ms: ceiling = min(maxDelayMs, baseDelayMs × 2^(n−1)),
 * wait = ceiling × (1 − 0.25 × random()), so uniform in [0.75, 1] × ceiling. `random` returns [0,1).
 */
export function backoffDelay(n: number, options: RetryOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, n - 1));
  return ceiling * (1 - JITTER_FRACTION * random());
}

/** Minimal view of response headers (the fetch `Headers` class satisfies it). */
export interface HeaderLookup {
  get(name: string): string | null;
}

/**
 * The server's requested wait before retrying, ms, or undefined when absent or unparsable.
 * `retry-after-ms` (milliseconds, may be fractional) wins over `Retry-After`, which is either
 * delta-seconds (`"2"`, `"1.5"`) or an HTTP date (a date in the past means 0). `now` is epoch ms.
 * The value is NOT capped here; callers cap it with MAX_RETRY_HINT_MS.
 */
export function retryHintMs(headers: HeaderLookup, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms')?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Number(ms);
  const after = headers.get('retry-after')?.trim();
  if (!after) return undefined;
  if (/^\d+(\.\d+)?$/.test(after)) return Number(after) * 1000;
  // Only accept something that looks like an HTTP date, so junk such as "soon" is ignored, not read as 0.
  if (!/[a-z]/i.test(after)) return undefined;
  const date = Date.parse(after);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Rejection reason of `sleep` when its signal aborts. */
export class SleepAborted extends Error {
  constructor() {
    super('wait aborted');
    this.name = 'AbortError';
  }
}

/**
 * Resolves after `ms` (clamped to [0, 2^31−1]); rejects with SleepAborted as soon as `signal` aborts
 * (immediately when it already has). Removes its listener and timer either way.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new SleepAborted());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new SleepAborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.min(Math.max(0, ms), 2 ** 31 - 1));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
