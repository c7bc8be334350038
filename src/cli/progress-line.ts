import type { CallProgress } from '../registry/connection-types';
import { safeText } from './safe-text';

/** Least time between two printed progress lines, ms: a server may notify many times a second. */
export const PROGRESS_LINE_INTERVAL_MS = 1_000;

/**
 * One stderr line per progress notification of a running tool call, at most one per
 * PROGRESS_LINE_INTERVAL_MS (the first always), e.g.
 * `jevcp: progress of srv__build: 12/80 (15 %) — compiling` — so a long call is seen to be alive.
 * `now` is the clock in ms (tests pass their own). The message is escaped like every human line (safe-text.ts).
 */
export function progressPrinter(stderr: { write(text: string): unknown }, tool: string, now: () => number = Date.now): (progress: CallProgress) => void {
  let last = -Infinity;
  return (p) => {
    const t = now();
    if (t - last < PROGRESS_LINE_INTERVAL_MS) return;
    last = t;
    stderr.write(`${safeText(`jevcp: progress of ${tool}: ${progressText(p)}`)}\n`);
  };
}

/** `12/80 (15 %) — message`, `12 — message` without a total; percent rounded down, never above 100. */
export function progressText(p: CallProgress): string {
  const total = typeof p.total === 'number' && Number.isFinite(p.total) && p.total > 0 ? p.total : undefined;
  const amount = total === undefined ? `${p.progress}` : `${p.progress}/${total} (${Math.min(100, Math.floor((p.progress / total) * 100))} %)`;
  const message = typeof p.message === 'string' && p.message.trim() !== '' ? ` — ${p.message.trim().slice(0, 200)}` : '';
  return amount + message;
}
