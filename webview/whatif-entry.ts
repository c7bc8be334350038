import { recompute, supportsWhatIf } from '../src/panel/whatif';
import { WHAT_IF_GLOBAL, type WhatIfApi } from './whatif-model';

/**
 * Entry of the lazily loaded what-if chunk (dist/webview-whatif.js). It carries the tool code and zod,
 * which the feed does not need, so the main bundle stays small and paints first. The loader in
 * whatif-loader.ts inserts this script with the page's nonce and picks the API up from the global.
 */
const api: WhatIfApi = { recompute, supportsWhatIf };
(globalThis as Record<string, unknown>)[WHAT_IF_GLOBAL] = api;
