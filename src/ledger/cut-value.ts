/**
 * The marker that replaces a recorded value above the cap (bound.ts), in a file of its own with no Node
 * API so the panel's browser bundle can read it (src/panel/cut-preview.ts).
 */

/** What a value above the cap is replaced with: `$cut` says so and how big it was; `preview` starts its JSON text. */
export interface CutValue {
  $cut: {
    /** Size of the value's JSON text, bytes (UTF-8); -1 when it could not be serialized. */
    original_bytes: number;
    /** Size of `preview`, bytes. */
    kept_bytes: number;
    /** Why: the cap that applied. */
    reason: string;
  };
  /** The first `kept_bytes` bytes of the value's JSON text (not valid JSON on its own). */
  preview: string;
}

/** True for a value that bound.ts `capValue` cut. */
export function isCutValue(value: unknown): value is CutValue {
  if (typeof value !== 'object' || value === null || !('$cut' in value)) return false;
  const v = value as Partial<CutValue>;
  return typeof v.preview === 'string' && typeof v.$cut === 'object' && v.$cut !== null && typeof v.$cut.original_bytes === 'number';
}
