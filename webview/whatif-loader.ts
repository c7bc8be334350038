import { WHAT_IF_GLOBAL, type WhatIfApi } from './whatif-model';

/**
 * Loads the what-if chunk (dist/webview-whatif.js, next to dist/webview.js) on first use. The script
 * element carries the nonce of the page's own script, so the webview's strict CSP (`script-src
 * 'nonce-…'`) admits it; no other source is ever loaded.
 */

// Captured while this bundle's top level runs: the <script> that loaded dist/webview.js.
const self = typeof document !== 'undefined' ? (document.currentScript as HTMLScriptElement | null) : null;
let loading: Promise<WhatIfApi> | undefined;

/** URL of the chunk next to the running script; undefined when that script is unknown. */
export function chunkUrl(scriptSrc: string | undefined): string | undefined {
  if (!scriptSrc) return undefined;
  try {
    return new URL('webview-whatif.js', scriptSrc).toString();
  } catch {
    return undefined;
  }
}

/** Resolves with the what-if API; rejects with a message naming the chunk when it cannot load. */
export function loadWhatIf(): Promise<WhatIfApi> {
  const ready = (globalThis as Record<string, unknown>)[WHAT_IF_GLOBAL] as WhatIfApi | undefined;
  if (ready) return Promise.resolve(ready);
  loading ??= new Promise<WhatIfApi>((resolve, reject) => {
    const url = chunkUrl(self?.src);
    if (!url) return reject(new Error('cannot locate webview-whatif.js: the panel script has no src'));
    const s = document.createElement('script');
    const nonce = self?.nonce || self?.getAttribute('nonce');
    if (nonce) s.nonce = nonce;
    s.src = url;
    s.onload = () => {
      const api = (globalThis as Record<string, unknown>)[WHAT_IF_GLOBAL] as WhatIfApi | undefined;
      if (api) resolve(api);
      else reject(new Error('webview-whatif.js loaded but did not register its API'));
    };
    s.onerror = () => {
      loading = undefined; // allow a retry
      reject(new Error('webview-whatif.js failed to load (is it packaged, and does the CSP nonce apply?)'));
    };
    document.head.appendChild(s);
  });
  return loading;
}
