/**
 * A judge that holds every request until the test opens its gate (the mock answers then), so a test can
 * keep calls in flight for as long as it needs; an aborted request is counted and fails CANCELLED.
 */
import { cancelled } from '../../src/judgment/errors';
import type { CallContext, JudgmentProvider } from '../../src/judgment/provider';
import type { SystemOneRequest } from '../../src/judgment/types';
import { MockProvider } from '../../src/providers/mock/provider';

export class GatedProvider implements JudgmentProvider {
  readonly id = 'mock';
  readonly calibrated = false;
  private readonly inner = new MockProvider();
  private waiters: Array<() => void> = [];
  /** Requests that arrived, were aborted while held, and are held now. */
  arrived = 0;
  aborted = 0;

  get held(): number {
    return this.waiters.length;
  }

  async systemOne(request: SystemOneRequest, ctx: CallContext): Promise<unknown> {
    this.arrived++;
    await new Promise<void>((resolve, reject) => {
      const release = () => {
        ctx.signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        this.waiters = this.waiters.filter((w) => w !== release);
        this.aborted++;
        reject(cancelled());
      };
      if (ctx.signal.aborted) return onAbort();
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(release);
    });
    return this.inner.systemOne(request, ctx);
  }

  /** Lets every held request through. */
  open(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** Resolves once `n` requests are held (polls every 10 ms, rejects after `ms`). */
  async untilHeld(n: number, ms = 5_000): Promise<void> {
    const end = Date.now() + ms;
    while (this.held < n) {
      if (Date.now() > end) throw new Error(`GatedProvider: ${this.held} of ${n} requests held after ${ms} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}
