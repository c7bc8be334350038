/**
 * The panel's live decision feed: the newest rows (up to 10 000) and the newest full records (for the
 * detail view), with a fallback to the ledger file for older records; plus the registry calls still
 * running with their last progress notification (from the registry's events, see `callEvent`).
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
  private readonly runningCalls = new Map<number, FeedProgress>();
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
      this.runningCalls.delete(event.call);
      this.runningCalls.set(event.call, { call: event.call, tool: event.tool, agent: event.agent, progress, elapsed_ms: event.elapsed_ms, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) });
      while (this.runningCalls.size > MAX_RUNNING) this.runningCalls.delete(this.runningCalls.keys().next().value!);
    } else if (event.type !== 'tool.call' || !this.runningCalls.delete(event.call)) {
      return;
    }
    const running = this.running();
    for (const listener of this.progressListeners) listener(running);
  }

  /** Calls still running that reported progress, in the order they started (a copy). */
  running(): FeedProgress[] {
    return [...this.runningCalls.values()].sort((a, b) => a.call - b.call);
  }

  /** Listens for changes of the running calls; returns the unsubscribe function. */
  onProgress(listener: (running: FeedProgress[]) => void): () => void {
    this.progressListeners.add(listener);
    return () => this.progressListeners.delete(listener);
  }
}
