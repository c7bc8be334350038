/**
 * The panel's live decision feed: the newest rows (up to 10 000) and the newest full records (for the
 * detail view), with a fallback to the ledger file for older records; plus the calls still running: registry
 * calls with their last progress notification (from the registry's events, see `callEvent`) and judgments
 * waiting on their judge (`judgmentStarted` / `judgmentEnded`).
 */
import { existsSync } from 'node:fs';
import { readLedger, readLedgerTail } from '../ledger/jsonl';
import { boundRecord } from '../ledger/bound';
import type { DecisionRecord } from '../ledger/record';
import type { RegistryEvent } from '../registry/registry';
import { feedRowOf, type FeedProgress, type FeedRow } from './protocol';

/** Running calls shown at once; beyond it the oldest are dropped (a call that never ends cannot pile up). */
export const MAX_RUNNING = 50;

/** Rows kept in the feed (the panel renders up to 10 000 decisions). */
export const MAX_FEED_ROWS = 10_000;
/** Full records kept in memory; older ones are read back from the ledger on request. */
export const MAX_MEMORY_RECORDS = 500;
/** Bytes read from the end of the ledger to fill the feed at start. */
export const LEDGER_TAIL_BYTES = 32 * 1024 * 1024;

/** Options of a FeedStore. */
export interface FeedStoreOptions {
  maxRows?: number;
  maxRecords?: number;
  /** Cap of a kept record's input and result, bytes (default 65 536). */
  maxRecordedBytes?: number;
  /** Ledger file to look up records not in memory. */
  ledgerPath?: () => string | undefined;
}

/** Append-only feed with listeners. Rows are in time order, oldest first. */
export class FeedStore {
  private feed: FeedRow[] = [];
  private readonly records = new Map<string, DecisionRecord>();
  private readonly listeners = new Set<(rows: FeedRow[]) => void>();
  /** Registry calls that reported progress, with the time (ms since epoch) they started. */
  private readonly runningCalls = new Map<number, { entry: FeedProgress; started: number }>();
  /** Judgments waiting on their judge, by the store's own number. */
  private readonly judgments = new Map<number, { tool: string; agent: string; started: number }>();
  private nextJudgment = 1;
  private readonly progressListeners = new Set<(running: FeedProgress[]) => void>();
  private loaded = false;

  constructor(private readonly options: FeedStoreOptions = {}) {}

  /**
   * Adds one record (newest) and tells listeners. Returns its row. An input or result above the cap is
   * kept as its preview marker (src/ledger/bound.ts), as the ledger keeps it: the panel shows a preview.
   */
  add(full: DecisionRecord): FeedRow {
    const record = boundRecord(full, this.options.maxRecordedBytes);
    const row = feedRowOf(record);
    this.feed.push(row);
    const maxRows = this.options.maxRows ?? MAX_FEED_ROWS;
    if (this.feed.length > maxRows) this.feed.splice(0, this.feed.length - maxRows);
    this.records.set(record.id, record);
    const maxRecords = this.options.maxRecords ?? MAX_MEMORY_RECORDS;
    while (this.records.size > maxRecords) this.records.delete(this.records.keys().next().value!);
    for (const listener of this.listeners) listener([row]);
    return row;
  }

  /** The rows, oldest first (a copy). */
  rows(): FeedRow[] {
    return this.feed.slice();
  }

  /** Number of rows. */
  get size(): number {
    return this.feed.length;
  }

  /**
   * Fills the feed from the ledger's tail once (the first time a panel asks), placing those rows before
   * anything recorded since. Unreadable lines are skipped (the ledger reader's rule).
   */
  loadFromLedger(): void {
    if (this.loaded) return;
    this.loaded = true;
    const path = this.options.ledgerPath?.();
    if (!path || !existsSync(path)) return;
    const past = readLedgerTail(path, LEDGER_TAIL_BYTES).map(feedRowOf);
    const known = new Set(this.feed.map((r) => r.id));
    const merged = [...past.filter((r) => !known.has(r.id)), ...this.feed];
    const maxRows = this.options.maxRows ?? MAX_FEED_ROWS;
    this.feed = merged.slice(Math.max(0, merged.length - maxRows));
  }

  /** The full record, from memory or else the ledger; undefined when unknown. */
  getRecord(id: string): DecisionRecord | undefined {
    const hit = this.records.get(id);
    if (hit) return hit;
    const path = this.options.ledgerPath?.();
    if (!path) return undefined;
    try {
      return readLedger(path).records.find((r) => r.id === id);
    } catch {
      return undefined;
    }
  }

  /** Listens for appended rows; returns the unsubscribe function. */
  onAppend(listener: (rows: FeedRow[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Takes in a registry event: `tool.progress` updates the call's running entry, `tool.call` (the call
   * ended) removes it; progress listeners get the running calls, oldest first. Other events are ignored.
   */
  callEvent(event: RegistryEvent): void {
    if (event.type === 'tool.progress') {
      const { progress, total, message } = event.progress;
      const entry: FeedProgress = { call: event.call, tool: event.tool, agent: event.agent, progress, elapsed_ms: event.elapsed_ms, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) };
      this.runningCalls.delete(event.call);
      this.runningCalls.set(event.call, { entry, started: event.time - event.elapsed_ms });
      while (this.runningCalls.size > MAX_RUNNING) this.runningCalls.delete(this.runningCalls.keys().next().value!);
    } else if (event.type !== 'tool.call' || !this.runningCalls.delete(event.call)) {
      return;
    }
    this.progressChanged();
  }

  /**
   * A judgment tool call (`tool`, e.g. jev_step, as `agent`) started: it shows as pending until
   * `judgmentEnded` with the returned number, which the caller must call however the call ends (its record,
   * decision or error, is added separately). Beyond MAX_RUNNING pending entries the oldest is dropped.
   */
  judgmentStarted(tool: string, agent: string): number {
    const n = this.nextJudgment++;
    this.judgments.set(n, { tool, agent, started: Date.now() });
    while (this.judgments.size > MAX_RUNNING) this.judgments.delete(this.judgments.keys().next().value!);
    this.progressChanged();
    return n;
  }

  /** The judgment numbered `n` ended (its record is in the feed, or it threw); unknown numbers are ignored. */
  judgmentEnded(n: number): void {
    if (this.judgments.delete(n)) this.progressChanged();
  }

  private progressChanged(): void {
    const running = this.running();
    for (const listener of this.progressListeners) listener(running);
  }

  /**
   * Calls still running, oldest first (a copy): registry calls that reported progress and judgments
   * waiting on their judge (`kind: 'judgment'`, elapsed_ms measured now).
   */
  running(): FeedProgress[] {
    const now = Date.now();
    const calls = [...this.runningCalls.values()];
    const judgments = [...this.judgments].map(([call, j]) => ({
      entry: { call, kind: 'judgment' as const, tool: j.tool, agent: j.agent, elapsed_ms: Math.max(0, now - j.started) },
      started: j.started,
    }));
    return [...calls, ...judgments].sort((a, b) => a.started - b.started || a.entry.call - b.entry.call).map((r) => r.entry);
  }

  /** Listens for changes of the running calls; returns the unsubscribe function. */
  onProgress(listener: (running: FeedProgress[]) => void): () => void {
    this.progressListeners.add(listener);
    return () => this.progressListeners.delete(listener);
  }
}
