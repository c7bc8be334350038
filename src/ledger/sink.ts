import type { DecisionRecord } from './record';

/** Where decision records go. `append` must never throw into the judgment path's result. */
export interface LedgerSink {
  append(record: DecisionRecord): Promise<void>;
}
