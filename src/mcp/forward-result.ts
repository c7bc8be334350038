/**
 * What the gateway (gateway-calls.ts) forwards of an external tool's result: the server's own result
 * (plain text stays plain text; structuredContent only when the server gave one), cut to a size every
 * client can read. A result whose JSON text exceeds the cap loses its structuredContent (a cut object would
 * not match the server's shape), keeps its content blocks up to the cap (a text block is cut inside, a
 * binary or resource block that does not fit is dropped), and ends with a text block, the marker, that
 * says what was cut and where the ledger keeps its bounded copy; `_meta["jevcp/cut"]` says the same for
 * programs.
 *
 * Why 1 MiB by default: the MCP SDK's stdio client drops the connection at a 10 MiB line
 * (STDIO_DEFAULT_MAX_BUFFER_SIZE of @modelcontextprotocol/sdk/shared/stdio), and the same result arrives
 * as one line there or one SSE event over HTTP; 1 MiB (about 250 000 tokens of text) is ten times under
 * it with the JSON-RPC envelope, and already more than a model reads in one turn.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { headBytes } from '../ledger/bound';

/** Default cap of one forwarded result, bytes of its JSON text (1 MiB). */
export const DEFAULT_FORWARD_MAX_BYTES = 1_048_576;
/** Smallest and largest cap accepted: room for the marker; under the SDK stdio client's 10 MiB line. */
export const MIN_FORWARD_MAX_BYTES = 4_096;
export const MAX_FORWARD_MAX_BYTES = 8_388_608;
/** Bytes kept free for the marker block and `_meta` within the cap. */
const MARKER_ROOM = 2_048;

/** The cap and the words of a marker. */
export interface ForwardCap {
  /** Cap of one forwarded result, bytes of JSON (content and structuredContent together). */
  maxBytes: number;
  /** The setting that sets it, as the user writes it (`JEV_GATEWAY_MAX_RESULT_BYTES`, `jevPanel.…`). */
  setting: string;
  /** Where the call's record is kept, in words (`the ledger /p/ledger.jsonl`); absent: not recorded. */
  recordedIn?: string;
}

/** `_meta["jevcp/cut"]` of a cut result. */
export interface ForwardCut {
  original_bytes: number;
  forwarded_bytes: number;
  max_bytes: number;
  structured_content_dropped: boolean;
  /** The text block cut inside, if one was: its index (0-based), its text's bytes (UTF-8), and those kept. */
  cut_block?: { index: number; text_bytes: number; kept_bytes: number };
  /** Content blocks left out at the end. */
  left_out_blocks: number;
  /** The ledger record of the call (its id), holding a copy bounded by JEV_MAX_RECORDED_BYTES. */
  record_id: string;
}

type Block = CallToolResult['content'][number];

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? 'null', 'utf8');
}

/**
 * The result to forward for `raw` (a successful external result), within `cap.maxBytes` bytes of JSON
 * (plus at most MARKER_ROOM for the marker). `recordId`: the id of the call's ledger record. Returns only
 * `content` and, when the server sent one and nothing was cut, `structuredContent`.
 */
export function forwardResult(raw: CallToolResult, cap: ForwardCap, recordId: string): CallToolResult {
  const content: Block[] = Array.isArray(raw.content) ? raw.content : [];
  const structured = raw.structuredContent;
  const whole: CallToolResult = { content, ...(structured === undefined ? {} : { structuredContent: structured }) };
  const original = jsonBytes(whole);
  if (original <= cap.maxBytes) return whole;

  let left = Math.max(0, cap.maxBytes - MARKER_ROOM) - jsonBytes({ content: [] });
  const kept: Block[] = [];
  let cutBlock: ForwardCut['cut_block'];
  // Blocks are kept in order up to the first that does not fit; a text block is cut inside, the rest left out.
  for (const [i, block] of content.entries()) {
    const size = jsonBytes(block) + 1; // with its comma
    if (size <= left) {
      kept.push(block);
      left -= size;
      continue;
    }
    if (block.type === 'text' && left > 256) {
      const head = textHead(block.text, left - (size - 1 - jsonBytes(block.text)));
      kept.push({ ...block, text: head });
      cutBlock = { index: i, text_bytes: Buffer.byteLength(block.text, 'utf8'), kept_bytes: Buffer.byteLength(head, 'utf8') };
    }
    break;
  }
  const fromContent = kept.length;
  // Only structuredContent, too big: the head of its JSON text, as a text block.
  if (content.length === 0 && structured !== undefined) kept.push({ type: 'text', text: textHead(JSON.stringify(structured), left - 64) });

  const cut: ForwardCut = {
    original_bytes: original,
    forwarded_bytes: jsonBytes({ content: kept }),
    max_bytes: cap.maxBytes,
    structured_content_dropped: structured !== undefined,
    ...(cutBlock === undefined ? {} : { cut_block: cutBlock }),
    left_out_blocks: content.length - fromContent,
    record_id: recordId,
  };
  return { content: [...kept, { type: 'text', text: markerText(cut, cap, content.length) }], _meta: { 'jevcp/cut': cut } };
}

/** The head of `text` whose JSON string (quotes and escapes included) is at most `max` bytes. */
function textHead(text: string, max: number): string {
  let head = headBytes(text, Math.max(0, max - 2));
  // Escapes (\n, \", \u0000) make the JSON longer than the text: shrink by the excess until it fits.
  for (let excess = jsonBytes(head) - max; excess > 0; excess = jsonBytes(head) - max) {
    head = headBytes(head, Math.max(0, Buffer.byteLength(head, 'utf8') - excess));
  }
  return head;
}

function markerText(cut: ForwardCut, cap: ForwardCap, blocks: number): string {
  const parts: string[] = [];
  const c = cut.cut_block;
  if (c) parts.push(`text block ${c.index + 1} of ${blocks} is cut after ${c.kept_bytes} of its ${c.text_bytes} bytes`);
  if (cut.left_out_blocks > 0) {
    const from = blocks - cut.left_out_blocks + 1;
    parts.push(from === blocks ? `content block ${blocks} of ${blocks} is left out` : `content blocks ${from}–${blocks} of ${blocks} are left out`);
  }
  if (cut.structured_content_dropped) parts.push(blocks === 0 ? 'structuredContent is shown as the head of its JSON text' : 'structuredContent is left out');
  const where = cap.recordedIn
    ? `The call is recorded as ${cut.record_id} in ${cap.recordedIn}, with a copy of the result bounded by JEV_MAX_RECORDED_BYTES (default 65 536 bytes); the whole result is kept nowhere.`
    : 'The call was not recorded (no ledger: JEV_LEDGER is not set), so the rest of the result is kept nowhere.';
  return (
    `[jevcp: result cut] The tool's result is ${cut.original_bytes} bytes of JSON, more than the ${cap.maxBytes} this gateway forwards (${cap.setting}); ` +
    `${cut.forwarded_bytes} bytes were forwarded: ${parts.join('; ')}. ${where} To read the rest, ask the tool for less at a time (a narrower query, a page or range), or raise ${cap.setting}.`
  );
}
