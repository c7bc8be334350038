import { closeSync, fchmodSync, fstatSync, openSync, readFileSync, readSync, writeSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { configError } from '../judgment/errors';
import { redactSecrets, REDACTED, usableSecrets } from '../judgment/redact';
import { DEFAULT_MAX_RECORDED_BYTES, boundRecord } from './bound';
import { RECORD_KINDS, type DecisionRecord, type RecordKind } from './record';
import type { LedgerSink } from './sink';
import { makeDirs } from './make-dirs';

/** Options of `JsonlLedger.open`. */
export interface JsonlLedgerOptions {
  /** Strings never written to the file (each occurrence becomes `[REDACTED]`); under 8 characters ignored. */
  secrets?: readonly string[];
  /** Cap of a record's input and result, bytes (bound.ts boundRecord; default 65 536). */
  maxRecordedBytes?: number;
}

/**
 * Append-only JSONL decision ledger: one compact JSON DecisionRecord per line, each
 * line written with a single `write` on an O_APPEND descriptor, so concurrent writers never interleave
 * inside a line and a crash can only leave the LAST line half-written. File mode 0600 (the records hold
 * task text, diffs and evidence); the parent directory is created (0700) when missing.
 */
export class JsonlLedger implements LedgerSink {
  private fd: number | undefined;

  private constructor(
    readonly path: string,
    fd: number,
    private readonly secrets: readonly string[],
    private readonly maxRecordedBytes: number,
  ) {
    this.fd = fd;
  }

  /**
   * Opens (creating if needed) the ledger at `path`. An existing file that is group/world accessible is
   * narrowed to 0600. If the file ends in a torn line (no final newline), a newline is written first so
   * the next record starts on its own line and the torn one stays an unreadable line that readers skip.
   * `options.secrets` (the configured API key; strings under 8 characters are ignored) are replaced by
   * `[REDACTED]` in every line before it is written — a last line of defence behind the JudgmentService's redaction.
   * Throws JevError CONFIG_ERROR `Cannot open the ledger file …` with the OS error code.
   */
  static open(path: string, options: JsonlLedgerOptions = {}): JsonlLedger {
    let fd: number;
    try {
      makeDirs(dirname(path), 0o700);
      fd = openSync(path, 'a', 0o600);
    } catch (err) {
      throw configError(`Cannot open the ledger file ${JSON.stringify(path)} (${errorCode(err)}).`);
    }
    try {
      const stat = fstatSync(fd);
      // Only a regular file of ours is narrowed: never a device or FIFO the user pointed us at.
      if (process.platform !== 'win32' && stat.isFile() && (stat.mode & 0o077) !== 0) fchmodSync(fd, 0o600);
      if (stat.size > 0 && lastByte(path, stat.size) !== 0x0a) writeSync(fd, '\n');
    } catch (err) {
      closeSync(fd);
      throw configError(`Cannot prepare the ledger file ${JSON.stringify(path)} (${errorCode(err)}).`);
    }
    return new JsonlLedger(path, fd, usableSecrets(options.secrets), options.maxRecordedBytes ?? DEFAULT_MAX_RECORDED_BYTES);
  }

  /**
   * Appends one record as one line of at most LEDGER_LINE_MAX_BYTES: an input or result above the cap is
   * replaced by a marker with its original size and a preview (bound.ts). Rejects with an Error when closed or the write fails (JudgmentService
   * ignores ledger failures, so a judgment is never changed by them). Non-finite numbers cannot occur
   * in JSON text; `JSON.stringify` writes them as null.
   */
  async append(record: DecisionRecord): Promise<void> {
    if (this.fd === undefined) throw new Error('ledger is closed');
    const line = Buffer.from(`${this.serialize(boundRecord(record, this.maxRecordedBytes))}\n`, 'utf8');
    let offset = 0;
    // One write for the whole line; a short write (rare, e.g. disk full) continues where it stopped.
    while (offset < line.length) offset += writeSync(this.fd, line, offset, line.length - offset);
  }

  /** The record as one JSON line without any secret (as JSON text, i.e. escaped, inside strings). */
  private serialize(record: DecisionRecord): string {
    const text = JSON.stringify(record);
    if (this.secrets.length === 0) return text;
    let out = text;
    for (const secret of this.secrets) {
      const escaped = JSON.stringify(secret).slice(1, -1);
      if (out.includes(escaped)) out = out.split(escaped).join(REDACTED);
    }
    if (out === text) return text;
    try {
      JSON.parse(out);
      return out;
    } catch {
      // A secret with unusual characters was cut across JSON escapes: redact the values, then serialize.
      return JSON.stringify(redactSecrets(record, this.secrets));
    }
  }

  /** Closes the file; later appends reject. Idempotent. */
  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}

function lastByte(path: string, size: number): number {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(1);
    readSync(fd, buf, 0, 1, size - 1);
    return buf[0]!;
  } finally {
    closeSync(fd);
  }
}

function errorCode(err: unknown): string {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' ? code : 'error';
}

/** A line of the ledger that was not returned as a record, and why. Lines are numbered from 1. */
export interface SkippedLine {
  line: number;
  reason: 'torn last line' | 'invalid JSON' | 'not a decision record';
}

/** Result of reading a ledger: the records in file order and every line that was skipped. */
export interface LedgerContents {
  records: DecisionRecord[];
  skipped: SkippedLine[];
}

/**
 * Reads a ledger tolerantly. A last line without its newline is a torn write and is skipped (and
 * reported) even if it happens to parse; other lines that are not JSON, or not a version-1 record
 * (`v`, `kind`, `id`, `tool`, `time` checked), are skipped and reported; blank lines are ignored.
 * A record is never pieced together from parts of lines. Missing file → no records.
 * Throws the fs error for other read failures.
 */
export function readLedger(path: string): LedgerContents {
  if (!existsSync(path)) return { records: [], skipped: [] };
  return parseLedger(readFileSync(path, 'utf8'));
}

/** Records in the last `maxBytes` of a ledger file (the first, partial line of the window is dropped). */
export function readLedgerTail(path: string, maxBytes: number): DecisionRecord[] {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - maxBytes);
    const buf = Buffer.alloc(size - start);
    let read = 0;
    while (read < buf.length) {
      const n = readSync(fd, buf, read, buf.length - read, start + read);
      if (n === 0) break;
      read += n;
    }
    let text = buf.subarray(0, read).toString('utf8');
    if (start > 0) text = text.slice(text.indexOf('\n') + 1);
    return parseLedger(text).records;
  } finally {
    closeSync(fd);
  }
}

/** Parses ledger text (see `readLedger`). */
export function parseLedger(text: string): LedgerContents {
  const records: DecisionRecord[] = [];
  const skipped: SkippedLine[] = [];
  const lines = text.split('\n');
  // After the final '\n' split() yields '' — anything else there is an unterminated (torn) line.
  const tail = lines.pop() ?? '';
  lines.forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      skipped.push({ line: i + 1, reason: 'invalid JSON' });
      return;
    }
    if (isDecisionRecord(value)) records.push(value);
    else skipped.push({ line: i + 1, reason: 'not a decision record' });
  });
  if (tail.trim() !== '') skipped.push({ line: lines.length + 1, reason: 'torn last line' });
  return { records, skipped };
}

/** Structural check of a parsed line: a version-1 record of one of RECORD_KINDS. */
export function isDecisionRecord(value: unknown): value is DecisionRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const r = value as Record<string, unknown>;
  return (
    r.v === 1 &&
    RECORD_KINDS.includes(r.kind as RecordKind) &&
    typeof r.id === 'string' &&
    typeof r.tool === 'string' &&
    typeof r.time === 'string' &&
    Array.isArray(r.exchanges ?? [])
  );
}
