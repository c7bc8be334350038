/**
 * How the panel tells a cut value (a tool input or result above the recording cap, src/ledger/bound.ts)
 * from a whole one: a one-line note with the original size, and the preview text to show instead.
 */
import { isCutValue } from '../ledger/cut-value';

/** `1.5 MB`, `64.0 KB`, `512 bytes` (1 KB = 1 024 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1_048_576) return `${(bytes / 1_048_576).toFixed(1)} MB`;
  if (bytes >= 1_024) return `${(bytes / 1_024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}

/**
 * For a cut value: `{ note, preview }`, e.g. note `Cut: 5.0 MB in all (5242897 bytes); the first 63.8 KB are shown.`;
 * undefined for any other value.
 */
export function cutPreview(value: unknown): { note: string; preview: string } | undefined {
  if (!isCutValue(value)) return undefined;
  const { original_bytes: size, kept_bytes: kept, reason } = value.$cut;
  if (size < 0) return { note: `Not recorded: ${reason}.`, preview: '' };
  return { note: `Cut: ${formatBytes(size)} in all (${size} bytes, ${reason}); the first ${formatBytes(kept)} are shown.`, preview: value.preview };
}
