import { createHash } from 'node:crypto';

/**
 * The deterministic `oracle` tool: the same seed always draws the same omen,
 * in-process and over MCP (oracle-server.ts serves this very function).
 */

/** The eight omens, in the fixed order the index rule selects from. */
export const OMENS: readonly string[] = Object.freeze([
  'A door will open only for the one who has forgotten why they knocked.',
  'The coin keeps falling on the face you did not call.',
  'Your map shows a country that has not yet decided what it is.',
  'A bell sounds a moment before anyone strikes it.',
  'A shadow reaches the room before the one who casts it.',
  'A name belongs to whoever speaks it last.',
  'The staircase counts its steps differently each time you climb it.',
  'A letter waits for you, addressed to a regret you have not yet earned.',
]);

/** Tool name and description (one line ending with the params hint), identical on every transport. */
export const ORACLE_NAME = 'oracle';
export const ORACLE_DESCRIPTION = 'Draw a single cryptic omen for the scene at hand. Params: {seed: str}.';

/** JSON Schema (2020-12) of the oracle's params: `{seed?: string}`, extra keys allowed and ignored. */
export const ORACLE_INPUT_SCHEMA: Record<string, unknown> = Object.freeze({
  type: 'object',
  properties: { seed: { type: 'string', description: 'Text the omen is drawn from; default "".' } },
});

/**
 * Draws the omen for `seed`: SHA-256 of its UTF-8 bytes as lowercase hex, the first 6 hex characters read
 * as an integer, modulo 8, indexes OMENS. Returns `{omen}` (exactly one key).
 * Throws TypeError naming the field when `seed` is not a string (no silent coercion).
 */
export function drawOmen(seed: unknown = ''): { omen: string } {
  if (typeof seed !== 'string') throw new TypeError(`seed: must be a string (got ${seed === null ? 'null' : typeof seed})`);
  const hex = createHash('sha256').update(seed, 'utf8').digest('hex');
  return { omen: OMENS[parseInt(hex.slice(0, 6), 16) % OMENS.length] };
}
