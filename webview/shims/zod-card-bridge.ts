/**
 * `zod` inside the MCP Apps card's what-if chunk (scripts/build.mjs): the `z` the card's main script
 * published (webview/card/main.ts), so the chunk carries no second zod and its schemas share zod's
 * classes with the rest of the card. Throws, naming the global, when the chunk runs without the card.
 */
import type { z as Z } from 'zod';
import { CARD_ZOD_GLOBAL } from '../whatif-model';

const shared = (globalThis as Record<string, unknown>)[CARD_ZOD_GLOBAL] as typeof Z | undefined;
if (!shared) throw new Error(`the card's what-if chunk needs zod published as globalThis.${CARD_ZOD_GLOBAL} by the card's main script`);

export const z: typeof Z = shared;
