/**
 * A counting semaphore bounding how many upstream requests are in flight at once: the questions
 * of one tool call go out in parallel under this limit. First come, first served.
 */
export class Limiter {
  private active = 0;
  private readonly waiting: Array<{ grant: () => void }> = [];

  /** `max` ≥ 1 requests at a time. Throws RangeError naming `concurrency` otherwise. */
  constructor(readonly max: number) {
    if (!Number.isSafeInteger(max) || max < 1) throw new RangeError('concurrency must be a positive integer');
  }

  /** Requests currently holding a slot. */
  get inFlight(): number {
    return this.active;
  }

  /**
   * Runs `task` once a slot is free and releases the slot when it settles. While waiting, an abort of
   * `signal` rejects with `signal.reason` (no slot taken, task never started).
   */
  async run<T>(signal: AbortSignal, task: () => Promise<T>): Promise<T> {
    await this.acquire(signal);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.active < this.max) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry = {
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          this.active++;
          resolve();
        },
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  private release(): void {
    this.active--;
    this.waiting.shift()?.grant();
  }
}
