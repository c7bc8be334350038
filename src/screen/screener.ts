import { toJevError } from '../judgment/errors';
import { contentKey, LruCache } from './cache';
import { chunkText, DEFAULT_BUDGET_CHARS, DEFAULT_MAX_CHUNKS, DEFAULT_OVERLAP_CHARS } from './chunks';
import { chunkVerdict, combineVerdicts, unscreenedOutcome, type ChunkVerdict } from './outcome';
import type { ScreenError, ScreenOutcome, Screener, ScreenerOptions, ScreenRequest } from './types';

/**
 * The screener: what the agent is about to read goes through jev_screen first, once per distinct content
 * in a session. No I/O of its own: the judgment comes from the injected judge.
 */

/** Default deadline of one whole screen, ms. */
export const DEFAULT_SCREEN_TIMEOUT_MS = 60_000;
/** Default number of distinct contents remembered. */
export const DEFAULT_CACHE_SIZE = 500;
/** Default chunks judged at the same time. */
export const DEFAULT_CONCURRENCY = 4;
/** Smallest accepted budgetChars: below it the JSON around a chunk would outweigh the chunk. */
export const MIN_BUDGET_CHARS = 16;

/** A judgment in progress, shared by every identical screen that arrives before it ends. */
interface Flight {
  promise: Promise<ScreenOutcome>;
  controller: AbortController;
  waiters: number;
}

/** A failure as {code, message}: a JevError keeps its code; anything else is classified by toJevError. */
function screenError(err: unknown): ScreenError {
  const e = toJevError(err);
  return { code: e.code, message: e.message };
}

/** `outcome` and its parts made read-only: a caller changing the copy it got cannot change the cache. */
function frozen(outcome: ScreenOutcome): ScreenOutcome {
  if (outcome.recommendation) Object.freeze(outcome.recommendation);
  if (outcome.error) Object.freeze(outcome.error);
  Object.freeze(outcome.decisionIds);
  return Object.freeze(outcome);
}

function checkInteger(name: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min) throw new RangeError(`${name} must be an integer >= ${min}; got ${value}`);
  return value;
}

/**
 * Creates a screener (options: see ScreenerOptions; characters are UTF-16 units, times ms). Throws RangeError
 * for an option out of range: budgetChars < MIN_BUDGET_CHARS, overlapChars ≥ budgetChars / 2, maxChunks,
 * concurrency or cacheSize < 1, timeoutMs ≤ 0, or a mode other than `warn` / `strict`.
 */
export function createScreener(options: ScreenerOptions): Screener {
  const judge = options.judge;
  const mode = options.mode ?? 'warn';
  if (mode !== 'warn' && mode !== 'strict') throw new RangeError(`mode must be "warn" or "strict"; got ${String(mode)}`);
  const budgetChars = checkInteger('budgetChars', options.budgetChars ?? DEFAULT_BUDGET_CHARS, MIN_BUDGET_CHARS);
  const overlapChars = checkInteger('overlapChars', options.overlapChars ?? Math.min(DEFAULT_OVERLAP_CHARS, Math.floor(budgetChars / 10)), 0);
  if (overlapChars * 2 >= budgetChars) throw new RangeError(`overlapChars must be below half of budgetChars (${budgetChars}); got ${overlapChars}`);
  const maxChunks = checkInteger('maxChunks', options.maxChunks ?? DEFAULT_MAX_CHUNKS, 1);
  const concurrency = checkInteger('concurrency', options.concurrency ?? DEFAULT_CONCURRENCY, 1);
  const timeoutMs = options.timeoutMs ?? DEFAULT_SCREEN_TIMEOUT_MS;
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs)) throw new RangeError(`timeoutMs must be a finite number > 0; got ${timeoutMs}`);
  const cache = new LruCache<ScreenOutcome>(checkInteger('cacheSize', options.cacheSize ?? DEFAULT_CACHE_SIZE, 1));
  const inflight = new Map<string, Flight>();

  /** Judges every chunk of `text` (at most `concurrency` at a time) and combines them. Never rejects. */
  async function judgeAll(text: string, purpose: string | undefined, source: string | undefined, signal: AbortSignal): Promise<ScreenOutcome> {
    let chunking: ReturnType<typeof chunkText>;
    try {
      chunking = chunkText(text, purpose, { budgetChars, overlapChars, maxChunks });
    } catch (err) {
      return unscreenedOutcome(screenError(err), text.length);
    }
    const { ranges, cut } = chunking;
    const n = ranges.length;
    // A block anywhere decides the outcome: the chunks still running are stopped.
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const verdicts: ChunkVerdict[] = [];
    let next = 0;
    const worker = async () => {
      while (next < n) {
        const i = next++;
        if (stop.signal.aborted) {
          verdicts[i] = { ok: false, error: { code: 'CANCELLED', message: 'The screen was stopped before this chunk was judged.' } };
          continue;
        }
        const where = n > 1 ? `chunk ${i + 1} of ${n}` : undefined;
        const chunkSource = where && source ? `${source}, ${where}` : (where ?? source);
        try {
          verdicts[i] = chunkVerdict(await judge(text.slice(ranges[i]!.start, ranges[i]!.end), purpose, stop.signal, chunkSource));
        } catch (err) {
          verdicts[i] = { ok: false, error: screenError(err) };
        }
        const v = verdicts[i]!;
        if (v.ok && v.action === 'block') stop.abort();
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    return combineVerdicts(verdicts, { cut, screenedChars: ranges[n - 1]!.end, totalChars: text.length });
  }

  /** Starts the shared judgment of one content under the screen deadline; caches a judged outcome. */
  function startFlight(key: string, text: string, purpose: string | undefined, source: string | undefined): Flight {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<ScreenOutcome>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve(unscreenedOutcome({ code: 'TIMEOUT', message: `The screen took longer than ${timeoutMs} ms.` }, text.length));
      }, timeoutMs);
    });
    const flight: Flight = { controller, waiters: 0, promise: Promise.resolve(undefined as unknown as ScreenOutcome) };
    // The race also ends a screen whose judge ignores the abort signal.
    flight.promise = Promise.race([judgeAll(text, purpose, source, controller.signal), timedOut]).then((outcome) => {
      clearTimeout(timer);
      if (inflight.get(key) === flight) inflight.delete(key);
      // A failure is not remembered: the next identical screen tries again.
      if (outcome.kind !== 'unscreened' && !controller.signal.aborted) cache.set(key, frozen(outcome));
      return outcome;
    });
    inflight.set(key, flight);
    return flight;
  }

  /** Waits for `flight` on behalf of one caller; the caller's abort ends only its own wait. */
  async function waitFor(key: string, flight: Flight, signal: AbortSignal | undefined, totalChars: number): Promise<ScreenOutcome> {
    flight.waiters++;
    if (!signal) {
      try {
        return await flight.promise;
      } finally {
        flight.waiters--;
      }
    }
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<ScreenOutcome>((resolve) => {
      onAbort = () => resolve(unscreenedOutcome({ code: 'CANCELLED', message: 'The screen was cancelled.' }, totalChars));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const outcome = await Promise.race([flight.promise, aborted]);
      if (outcome.kind === 'unscreened' && outcome.error?.code === 'CANCELLED' && signal.aborted && flight.waiters === 1) {
        // The last one waiting left: nobody needs the judgment any more.
        if (inflight.get(key) === flight) inflight.delete(key);
        flight.controller.abort();
      }
      return outcome;
    } finally {
      flight.waiters--;
      signal.removeEventListener('abort', onAbort!);
    }
  }

  return {
    mode,
    get cacheEntries() {
      return cache.size;
    },
    async screen(request: ScreenRequest): Promise<ScreenOutcome> {
      const { text, source, signal } = request;
      if (typeof text !== 'string') return unscreenedOutcome({ code: 'INVALID_INPUT', message: 'text: must be a string.' }, 0);
      const purpose = request.purpose !== undefined && request.purpose.trim() !== '' ? request.purpose : undefined;
      if (signal?.aborted) return unscreenedOutcome({ code: 'CANCELLED', message: 'The screen was cancelled.' }, text.length);
      const key = contentKey(text, purpose);
      const hit = cache.get(key);
      if (hit) return { ...hit, decisionIds: [...hit.decisionIds], fromCache: true };
      const joined = inflight.get(key);
      const outcome = await waitFor(key, joined ?? startFlight(key, text, purpose, source), signal, text.length);
      // A screen that joined one in flight made no judge call of its own.
      return { ...outcome, decisionIds: [...outcome.decisionIds], fromCache: joined !== undefined && outcome.kind !== 'unscreened' };
    },
  };
}
