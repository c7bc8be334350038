/**
 * forwardResult (src/mcp/forward-result.ts): what the gateway forwards of an external result. Under the cap
 * the server's own result passes as it is; over it, structuredContent is left out, content is cut in order
 * (a text block inside, escapes counted), and a marker block plus `_meta["jevcp/cut"]` say what was cut and
 * name the ledger record.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { forwardResult, type ForwardCap, type ForwardCut } from '../../src/mcp/forward-result';

const cap = (maxBytes: number): ForwardCap => ({ maxBytes, setting: 'JEV_GATEWAY_MAX_RESULT_BYTES', recordedIn: 'the ledger L' });
const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
const cutOf = (r: CallToolResult) => (r._meta as { 'jevcp/cut': ForwardCut })['jevcp/cut'];
const texts = (r: CallToolResult) => (r.content as Array<{ text?: string }>).map((b) => b.text ?? '');

describe('forwardResult', () => {
  it('under the cap: content and structuredContent as the server sent them; plain text stays plain text', () => {
    assert.deepEqual(forwardResult({ content: [{ type: 'text', text: 'hi' }] }, cap(8_192), 'r1'), { content: [{ type: 'text', text: 'hi' }] });
    const structured = { content: [{ type: 'text' as const, text: '{"a":1}' }], structuredContent: { a: 1 } };
    assert.deepEqual(forwardResult(structured, cap(8_192), 'r1'), structured);
  });

  it('over the cap: the text block is cut, structuredContent left out, later blocks left out, the marker names the record', () => {
    const raw: CallToolResult = {
      content: [{ type: 'text', text: 'a'.repeat(3_000) }, { type: 'text', text: 'b'.repeat(10_000) }, { type: 'image', data: 'Q'.repeat(5_000), mimeType: 'image/png' }],
      structuredContent: { big: 'c'.repeat(10_000) },
    };
    const out = forwardResult(raw, cap(8_192), 'rec-42');
    assert.ok(bytes(out) <= 8_192 + 2_048, `${bytes(out)} bytes`);
    assert.equal(out.structuredContent, undefined);
    const [first, second, marker] = texts(out);
    assert.equal(first, 'a'.repeat(3_000));
    assert.match(second!, /^b+$/);
    assert.equal(out.content.length, 3);
    const cut = cutOf(out);
    assert.deepEqual({ ...cut, cut_block: { ...cut.cut_block, kept_bytes: 0 } }, {
      original_bytes: bytes(raw), forwarded_bytes: cut.forwarded_bytes, max_bytes: 8_192, structured_content_dropped: true,
      cut_block: { index: 1, text_bytes: 10_000, kept_bytes: 0 }, left_out_blocks: 1, record_id: 'rec-42',
    });
    assert.equal(cut.cut_block!.kept_bytes, second!.length);
    assert.match(marker!, /text block 2 of 3 is cut after \d+ of its 10000 bytes; content block 3 of 3 is left out; structuredContent is left out\. The call is recorded as rec-42 in the ledger L/);
  });

  it('escapes count: a text of newlines and quotes is cut to the cap of its JSON, and never splits a character', () => {
    const out = forwardResult({ content: [{ type: 'text', text: '\n"\u0001é😀'.repeat(5_000) }] }, cap(4_096), 'r');
    assert.ok(bytes(out.content[0]) <= 4_096, `${bytes(out.content[0])}`);
    assert.doesNotMatch(texts(out)[0]!, /\uFFFD|[\uD800-\uDBFF]$/);
  });

  it('only structuredContent, too big: the head of its JSON as text; not recorded says so', () => {
    const out = forwardResult({ content: [], structuredContent: { rows: 'r'.repeat(20_000) } }, { maxBytes: 4_096, setting: 'S' }, 'r');
    assert.match(texts(out)[0]!, /^\{"rows":"rrrr/);
    assert.match(texts(out)[1]!, /structuredContent is shown as the head of its JSON text\. The call was not recorded/);
  });
});
