import { createHash } from 'node:crypto';

/**
 * The screener's memory: one outcome per distinct content and purpose, least recently used dropped first.
 */

/**
 * sha256 (hex) of (text, purpose). Each string is hashed as its UTF-16 units behind its length, so two
 * different pairs never share an input (UTF-8 would fold lone surrogates into U+FFFD); a blank or missing
 * purpose hashes alike, as jev_screen treats both as no purpose.
 */
export function contentKey(text: string, purpose: string | undefined): string {
  const p = purpose !== undefined && purpose.trim() !== '' ? purpose : '';
  const hash = createHash('sha256');
  hash.update(`${text.length}:`);
  hash.update(Buffer.from(text, 'utf16le'));
  hash.update(`:${p.length}:`);
  hash.update(Buffer.from(p, 'utf16le'));
  return hash.digest('hex');
}

/** A map bounded to `capacity` entries that drops the least recently read or written one first. */
export class LruCache<V> {
  private readonly entries = new Map<string, V>();

  /** Throws RangeError unless `capacity` is an integer ≥ 1. */
  constructor(readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError(`cache capacity must be an integer >= 1; got ${capacity}`);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value under `key` (now the most recently used), or undefined. */
  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    // A Map iterates in insertion order: re-inserting makes this the newest.
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Stores `value` under `key`, dropping the least recently used entry when full. */
  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }
}
