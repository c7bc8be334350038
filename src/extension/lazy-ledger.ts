/**
 * The extension's ledger sink: opens the JSONL ledger on the first record (activation writes nothing),
 * follows a changed path, and reports a failure once instead of on every record. No `vscode` import.
 */
import { JsonlLedger } from '../ledger/jsonl';
import type { DecisionRecord } from '../ledger/record';
import type { LedgerSink } from '../ledger/sink';

export class LazyLedger implements LedgerSink {
  private ledger?: JsonlLedger;
  private failedPath?: string;

  /** `path()` is read at every append; `onError` gets one message per path that cannot be opened or written. */
  constructor(
    private readonly path: () => string,
    private readonly onError: (message: string) => void,
  ) {}

  /** The path records currently go to. */
  get currentPath(): string {
    return this.path();
  }

  async append(record: DecisionRecord): Promise<void> {
    const path = this.path();
    if (this.ledger && this.ledger.path !== path) this.close();
    try {
      this.ledger ??= JsonlLedger.open(path);
      await this.ledger.append(record);
      this.failedPath = undefined;
    } catch (err) {
      if (this.failedPath !== path) this.onError(`Cannot write the decision ledger: ${(err as Error).message}`);
      this.failedPath = path;
      throw err;
    }
  }

  close(): void {
    this.ledger?.close();
    this.ledger = undefined;
  }
}
