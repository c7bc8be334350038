/**
 * Browser-bundle stand-in for `node:crypto` (scripts/build.mjs maps it for the webview what-if chunk):
 * the JudgmentService only needs randomUUID to label its (unsaved) replay record.
 */
export function randomUUID(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  // Not a security token: only an id for a record the what-if view never stores.
  return `whatif-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
