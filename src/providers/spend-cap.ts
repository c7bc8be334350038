import { JevError } from '../judgment/errors';

/**
 * Process-wide cap on physical upstream attempts (retries included). Counters never reset;
 * once tripped every call fails until the process restarts.
 */
export class SpendCap {
  private spent = 0;

  /** `maxAttempts` undefined means no cap. Throws RangeError for a non-positive or non-integer cap. */
  constructor(readonly maxAttempts?: number) {
    if (maxAttempts !== undefined && (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1)) {
      throw new RangeError('spend cap must be a positive integer number of attempts');
    }
  }

  /** Attempts used so far. */
  get used(): number {
    return this.spent;
  }

  /**
   * Reserves one attempt before it is sent. Throws JevError API_ERROR (not retryable) naming the limit
   * when the cap is reached; nothing is sent then.
   */
  beforeAttempt(): void {
    if (this.maxAttempts !== undefined && this.spent >= this.maxAttempts) {
      throw new JevError(
        'API_ERROR',
        `Spend cap reached: attempts spent ${this.spent} of ${this.maxAttempts}; restart the server to continue.`,
        { retryable: false },
      );
    }
    this.spent++;
  }

  /**
   * Gives back one attempt reserved by beforeAttempt whose request is known never to have been sent
   * (cancelled before it left), so it counts neither against the cap nor in `used`.
   */
  refund(): void {
    if (this.spent > 0) this.spent--;
  }
}
