/**
 * The ledger sink of a long-running host (the extension): opens the JSONL ledger on the first record (activation writes nothing),
 * follows a changed path, and reports a failure once instead of on every record.
 */
import { JsonlLedger } from './jsonl';
import type { DecisionRecord } from './record';
import type { LedgerSink } from './sink';

const NO_SECRETS: readonly string[] = [];

export class LazyLedger implements LedgerSink {
  private ledger?: JsonlLedger;
  private ledgerSecrets?: readonly string[];
  private failedPath?: string;

  /**
   * `path()` is read at every append; `onError` gets one message per path that cannot be opened or written;
   * `secrets()` (the API key) never reach the file — a different list (by identity) reopens the sink with it.
   */
  constructor(
    private readonly path: () => string,
    private readonly onError: (message: string) => void,
    private readonly secrets: () => readonly string[] = () => NO_SECRETS,
  ) {}

  /** The path records currently go to. */
  get currentPath(): string {
    return this.path();
  }

  async append(record: DecisionRecord): Promise<void> {
    const path = this.path();
    const secrets = this.secrets();
    if (this.ledger && (this.ledger.path !== path || this.ledgerSecrets !== secrets)) this.close();
    try {
      if (!this.ledger) {
        this.ledger = JsonlLedger.open(path, { secrets });
        this.ledgerSecrets = secrets;
      }
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
