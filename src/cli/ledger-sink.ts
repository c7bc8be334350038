import type { JsonlLedger } from '../ledger/jsonl';
import type { DecisionRecord } from '../ledger/record';
import type { LedgerSink } from '../ledger/sink';
import { findTooDeep, MAX_ARGUMENT_DEPTH } from '../tools/schemas';
import { errnoCode, fsReason } from './fs-reason';
import { clip, safeText } from './safe-text';

/** What a record's `input` becomes when the arguments were too deeply nested to be written (they were refused). */
export const DEEP_INPUT_PLACEHOLDER = Object.freeze({
  not_recorded: `the arguments were nested deeper than ${MAX_ARGUMENT_DEPTH} levels and were refused; they are not written to the ledger`,
});

/**
 * The CLI's sink in front of the JSONL ledger (every command and `jevcp serve`). JudgmentService ignores
 * ledger failures so a judgment is never changed by them; this sink makes them visible instead of silent: a failed
 * append (disk full, file removed, …) prints one line on `stderr`,
 * `jevcp: could not write the ledger (<path>): <reason>`, and the command's result and exit code stand.
 * A call refused for nesting deeper than MAX_ARGUMENT_DEPTH is still recorded, with its `input` replaced by
 * DEEP_INPUT_PLACEHOLDER (such a value cannot be serialized safely).
 */
export class ReportingLedger implements LedgerSink {
  constructor(
    private readonly file: JsonlLedger,
    private readonly stderr: NodeJS.WritableStream,
  ) {}

  /** Path of the ledger file. */
  get path(): string {
    return this.file.path;
  }

  /** Appends `record`; never rejects (a failure is reported on stderr). */
  async append(record: DecisionRecord): Promise<void> {
    const kept = findTooDeep(record.input, MAX_ARGUMENT_DEPTH) ? { ...record, input: DEEP_INPUT_PLACEHOLDER } : record;
    try {
      await this.file.append(kept);
    } catch (err) {
      const reason = errnoCode(err) ? fsReason(err) : clip(String((err as Error)?.message ?? err));
      this.stderr.write(safeText(`jevcp: could not write the ledger (${this.file.path}): ${reason}\n`));
    }
  }

  /** Closes the file (idempotent). */
  close(): void {
    this.file.close();
  }
}
