/**
 * Health of the live judgment backend, from the outcomes of its last calls (a dead backend must not show a
 * green check just because its configuration looks valid). Pure.
 */
import type { RecordKind } from '../ledger/record';
/** Error codes that mean the backend (provider, network, configuration) failed, not the caller's input. */
export const BACKEND_FAILURE_CODES: ReadonlySet<string> = new Set(['API_ERROR', 'TIMEOUT', 'CONFIG_ERROR', 'INVALID_RESPONSE']);

/** The last backend failure: error code and (already redacted) message. */
export interface BackendFailure {
  code: string;
  message: string;
}

/**
 * Tracks the last outcome of decision calls. A failed call with a backend code marks the backend failed; a
 * later successful decision clears it; other outcomes (bad input, spend cap, executions) leave it as is.
 */
export class BackendHealth {
  private last?: BackendFailure;

  /** The last failure not yet followed by a success, if any. */
  get failure(): BackendFailure | undefined {
    return this.last;
  }

  /** Takes in one ledger record (DecisionRecord: kind and error); returns true when the health changed. */
  observe(record: { kind: RecordKind; error?: { code: string; message: string } }): boolean {
    if (record.kind !== 'decision') return false;
    const before = this.last;
    if (!record.error) this.last = undefined;
    else if (BACKEND_FAILURE_CODES.has(record.error.code)) this.last = { code: record.error.code, message: record.error.message };
    return before?.code !== this.last?.code || before?.message !== this.last?.message;
  }

  /** Forgets the last outcome (the backend configuration changed). Returns true when there was a failure. */
  reset(): boolean {
    const had = this.last !== undefined;
    this.last = undefined;
    return had;
  }

  /** Status line text, e.g. `Last call failed: API_ERROR — connection refused`; undefined when healthy. */
  describe(): string | undefined {
    return this.last ? `Last call failed: ${this.last.code} — ${this.last.message}` : undefined;
  }
}
