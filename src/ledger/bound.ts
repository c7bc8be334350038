/**
 * Size bounds of what is recorded and printed: a tool's input or result larger than a cap is replaced by
 * an explicit marker that keeps the original size and a preview (the first bytes of its JSON text), and a
 * ledger line never exceeds LEDGER_LINE_MAX_BYTES. A 5 MB tool result or a refused 5 MB state thus costs
 * one line of about twice the cap, not 5 MB.
 */
import type { CutValue } from './cut-value';
import type { DecisionRecord } from './record';

export { isCutValue, type CutValue } from './cut-value';

/** Default cap of one recorded value (input, result), bytes of its JSON text (64 KiB). */
export const DEFAULT_MAX_RECORDED_BYTES = 65_536;
/** Smallest and largest cap accepted (JEV_MAX_RECORDED_BYTES); the largest keeps lines under the bound. */
export const MIN_RECORDED_BYTES = 1_024;
export const MAX_RECORDED_BYTES = 262_144;
/** Upper bound of one ledger line, bytes including its newline (1 MiB), whatever the record holds. */
export const LEDGER_LINE_MAX_BYTES = 1_048_576;

function jsonBytes(value: unknown): { text: string; bytes: number } | undefined {
  try {
    const text = JSON.stringify(value) ?? 'null';
    return { text, bytes: Buffer.byteLength(text, 'utf8') };
  } catch {
    return undefined; // too deep or cyclic: cannot be written at all
  }
}

/** The first `max` bytes (UTF-8) of `text` as a string, never splitting a character. */
export function headBytes(text: string, max: number): string {
  let head = text.slice(0, max);
  // A lone high surrogate at the end would become U+FFFD.
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  const buf = Buffer.from(head, 'utf8');
  if (buf.length <= max) return buf.toString('utf8');
  let end = max;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString('utf8');
}

/**
 * `value` itself when its JSON text is at most `maxBytes`, else a CutValue whose preview is the first
 * `maxBytes − 256` bytes (so the marker stays within `maxBytes` plus JSON escaping of the preview).
 * A value that cannot be serialized becomes a CutValue with an empty preview.
 */
export function capValue(value: unknown, maxBytes: number, reason = `larger than the cap of ${maxBytes} bytes`): unknown {
  const size = jsonBytes(value);
  if (size && size.bytes <= maxBytes) return value;
  if (!size) return { $cut: { original_bytes: -1, kept_bytes: 0, reason: 'cannot be serialized (too deeply nested or cyclic)' }, preview: '' } satisfies CutValue;
  const preview = headBytes(size.text, Math.max(0, maxBytes - 256));
  return { $cut: { original_bytes: size.bytes, kept_bytes: Buffer.byteLength(preview, 'utf8'), reason }, preview } satisfies CutValue;
}

/**
 * `record` with `input` and `result` capped at `maxBytes` each (capValue), and then, if its line would
 * still exceed LEDGER_LINE_MAX_BYTES, its questions, exchanges, provider response and error message cut
 * too (the record then cannot be replayed; the markers say so). Returns `record` itself when nothing was
 * cut. The returned record's JSON line is at most LEDGER_LINE_MAX_BYTES.
 */
export function boundRecord(record: DecisionRecord, maxBytes = DEFAULT_MAX_RECORDED_BYTES): DecisionRecord {
  const cap = Math.min(Math.max(maxBytes, MIN_RECORDED_BYTES), MAX_RECORDED_BYTES);
  const input = capValue(record.input, cap);
  const result = 'result' in record ? capValue(record.result, cap) : undefined;
  let out: DecisionRecord = input === record.input && result === record.result ? record : { ...record, input, ...('result' in record ? { result } : {}) };
  const fits = (r: DecisionRecord) => (jsonBytes(r)?.bytes ?? Infinity) + 1 <= LEDGER_LINE_MAX_BYTES;
  if (fits(out)) return out;
  const small = Math.floor(cap / 4);
  const why = 'the record would exceed the ledger line bound; not replayable';
  const message = out.error?.message;
  out = {
    ...out,
    questions: null,
    response: null,
    exchanges: [],
    cut_exchanges: capValue({ questions: record.questions, response: record.response, exchanges: record.exchanges }, small, why),
    ...(out.error && message !== undefined && message.length > small ? { error: { ...out.error, message: `${message.slice(0, small)}…` } } : {}),
  };
  if (fits(out)) return out;
  // Last resort: every free-text field cut hard (a pathological agent name or source).
  return { ...out, agent: out.agent.slice(0, 256), tool: out.tool.slice(0, 256), ...(out.source ? { source: out.source.slice(0, 256) } : {}), input: capValue(out.input, small), ...('result' in out ? { result: capValue(out.result, small) } : {}) };
}
