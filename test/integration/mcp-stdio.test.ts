/**
 * MCP round trip over real stdio: `node dist/cli.js serve` driven by the SDK Client, answered by the fake
 * System One server through the real HTTP provider (and by the mock judge).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readLedger } from '../../src/ledger/jsonl';
import { startFakeSystemOne, type FakeSystemOne } from '../helpers/fake-systemone';
import { cleanEnv, connectServer, TOOL_NAMES, VALID_INPUTS, type ServerConnection } from './mcp-fixtures';
import { version } from '../../package.json';

const PACK_URIS = ['coding-loop', 'tool-route', 'step', 'review', 'verify', 'screen', 'rank', 'gate'].map((id) => `jev://packs/${id}`);

function textOf(result: CallToolResult): string {
  assert.equal(result.content.length, 1, 'exactly one content block');
  const block = result.content[0]!;
  assert.equal(block.type, 'text');
  return (block as { text: string }).text;
}

describe('MCP over stdio with the fake System One server', () => {
  let fake: FakeSystemOne;
  let conn: ServerConnection;
  let dir: string;
  let ledgerPath: string;

  before(async () => {
    fake = await startFakeSystemOne();
    dir = mkdtempSync(join(tmpdir(), 'jev-mcp-'));
    ledgerPath = join(dir, 'ledger.jsonl');
    conn = await connectServer(cleanEnv({ JEV_BASE_URL: fake.url, JEV_API_KEY: 'test-key-do-not-log-7f3a', JEV_LEDGER: ledgerPath, JEV_TIMEOUT_MS: '10000' }));
  });
  after(async () => {
    await conn?.close();
    await fake?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('identifies itself, declares tools + resources, and keeps instructions under 1 500 characters', () => {
    assert.deepEqual(conn.client.getServerVersion(), { name: 'jev-control-panel', version });
    const caps = conn.client.getServerCapabilities();
    assert.ok(caps?.tools, 'tools capability');
    assert.ok(caps?.resources, 'resources capability');
    const instructions = conn.client.getInstructions() ?? '';
    assert.ok(instructions.length > 200, 'instructions present');
    assert.ok(instructions.length < 1500, `instructions are ${instructions.length} characters`);
    assert.match(instructions.slice(0, 400), /Limits/, 'limits of use come first');
  });

  it('lists the 14 tools, each with title, description, inputSchema, outputSchema and annotations', async () => {
    const { tools } = await conn.client.listTools();
    assert.deepEqual(tools.map((t) => t.name), TOOL_NAMES);
    for (const t of tools) {
      assert.ok(t.title && t.title.length > 0, `${t.name} title`);
      assert.ok(t.description && t.description.length > 20, `${t.name} description`);
      assert.equal(t.inputSchema.type, 'object', `${t.name} inputSchema`);
      assert.equal(t.outputSchema?.type, 'object', `${t.name} outputSchema`);
      assert.equal(t.annotations?.readOnlyHint, true, `${t.name} readOnlyHint`);
      assert.equal(t.annotations?.openWorldHint, false, `${t.name} openWorldHint (no Approve Tool Result step in VS Code)`);
      assert.equal(t.annotations?.title, t.title);
    }
  });

  it('calls every tool: the text is exactly the JSON of structuredContent, validated by the client against the output schema', async () => {
    await conn.client.listTools(); // the client caches output-schema validators from the listing
    const before = fake.count();
    for (const name of TOOL_NAMES) {
      const result = (await conn.client.callTool({ name, arguments: VALID_INPUTS[name] })) as CallToolResult;
      const text = textOf(result);
      assert.notEqual(result.isError, true, `${name} failed: ${text}`);
      assert.ok(result.structuredContent, `${name} has structuredContent`);
      assert.deepEqual(JSON.parse(text), result.structuredContent, `${name}: text parses to structuredContent`);
      assert.equal(text, JSON.stringify(result.structuredContent, null, 2), `${name}: text is the 2-space JSON of structuredContent`);
      assert.equal(typeof (result.structuredContent as { model?: unknown }).model, 'string', `${name} names its model`);
    }
    assert.ok(fake.count() - before >= TOOL_NAMES.length, 'every tool reached the fake upstream');
    const auth = fake.requests.at(-1)?.headers.authorization;
    assert.equal(auth, 'Bearer test-key-do-not-log-7f3a', 'the real provider sent the key upstream');
  });

  it('returns failures as isError without structuredContent: JSON error for jev tools, plain text for judgevet tools', async () => {
    const jev = (await conn.client.callTool({ name: 'jev_step', arguments: { task: 'x', observation: 'y', auto_accept: 0.4, review_at: 0.6 } })) as CallToolResult;
    assert.equal(jev.isError, true);
    assert.equal(jev.structuredContent, undefined);
    const parsed = JSON.parse(textOf(jev)) as { error: { code: string; message: string; retryable: boolean } };
    assert.deepEqual(Object.keys(parsed), ['error']);
    assert.equal(parsed.error.code, 'INVALID_INPUT');
    assert.equal(parsed.error.retryable, false);

    const jv = (await conn.client.callTool({ name: 'ask_noul', arguments: { instruction: 'Is it?' } })) as CallToolResult;
    assert.equal(jv.isError, true);
    assert.equal(jv.structuredContent, undefined);
    assert.equal(textOf(jv), 'Missing required argument: state');

    // An unknown tool is a protocol error (-32602), not a tool result (test/integration/mcp-tool-call-errors.test.ts).
    await assert.rejects(conn.client.callTool({ name: 'no_such_tool', arguments: {} }), (err: { code?: number; message?: string }) => err.code === -32602 && /Unknown tool: "no_such_tool"/.test(err.message ?? ''));
  });

  it('sees an own top-level __proto__ argument exactly as sent (the SDK parse would drop it)', async () => {
    const before = fake.count();
    const args = JSON.parse('{"__proto__": 1, "task": "t", "observation": "o"}') as Record<string, unknown>;
    assert.ok(Object.hasOwn(args, '__proto__'));
    const jev = (await conn.client.callTool({ name: 'jev_coding_loop', arguments: args })) as CallToolResult;
    assert.equal(jev.isError, true, 'a dropped key would have let this call succeed');
    assert.match(JSON.parse(textOf(jev)).error.message, /__proto__/);

    const nested = JSON.parse('{"task":"t","observation":"o","candidates":[{"id":"a","name":"n","arguments":{"x":{"__proto__":{"admin":true}}},"description":"d","effect":"read_only","authorized":true,"schema_valid":true,"preconditions_met":true}]}');
    const deep = (await conn.client.callTool({ name: 'jev_tool_route', arguments: nested })) as CallToolResult;
    assert.equal(deep.isError, true);
    assert.match(JSON.parse(textOf(deep)).error.message, /candidates\[0\]\.arguments\.x\.__proto__/);

    const judgevet = (await conn.client.callTool({ name: 'ask_noul', arguments: JSON.parse('{"state":"s","instruction":"i","__proto__":{}}') })) as CallToolResult;
    assert.equal(judgevet.isError, true);
    assert.equal(textOf(judgevet), 'Unknown arguments: __proto__');
    assert.equal(fake.count(), before, 'none of them reached the upstream');
  });

  it('lists and reads the 8 jev://packs resources as JSON (then the ui:// decision card, tested in mcp-apps.test.ts)', async () => {
    const listed = (await conn.client.listResources()).resources;
    const resources = listed.filter((r) => r.uri.startsWith('jev://'));
    assert.deepEqual(resources.map((r) => r.uri), PACK_URIS);
    assert.deepEqual(listed.slice(resources.length).map((r) => r.uri.split('/')[2]), ['jev-control-panel'], 'only the card follows the packs');
    for (const r of resources) {
      assert.equal(r.mimeType, 'application/json');
      const read = await conn.client.readResource({ uri: r.uri });
      assert.equal(read.contents.length, 1);
      const body = JSON.parse((read.contents[0] as { text: string }).text) as Record<string, unknown>;
      assert.ok(Object.keys(body).length > 0, `${r.uri} has a body`);
    }
    const step = JSON.parse(((await conn.client.readResource({ uri: 'jev://packs/step' })).contents[0] as { text: string }).text);
    assert.equal(Object.keys(step.example).length, 8 + 3, 'coding-loop (8) + selected + 2 suitability questions');
    const loop = JSON.parse(((await conn.client.readResource({ uri: 'jev://packs/coding-loop' })).contents[0] as { text: string }).text);
    assert.deepEqual(Object.keys(loop).sort(), ['done_enough', 'focus', 'model_tier', 'needs_generation', 'needs_more_context', 'next', 'risk', 'tests_likely_fail']);
    await assert.rejects(conn.client.readResource({ uri: 'jev://packs/nope' }), /Resource not found/);
  });

  it('a client cancellation aborts the upstream request (the fake sees the socket close) and is recorded as CANCELLED', async () => {
    fake.script({ hang: true });
    const closedBefore = fake.closedSockets();
    const countBefore = fake.count();
    const controller = new AbortController();
    const call = conn.client.callTool({ name: 'jev_screen', arguments: { text: 'hang please' } }, undefined, { signal: controller.signal });
    const deadline = Date.now() + 5_000;
    while (fake.count() === countBefore && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.equal(fake.count(), countBefore + 1, 'the request reached the fake upstream');
    controller.abort();
    await assert.rejects(call);
    await fake.waitForClosedSockets(closedBefore + 1, 2_000);
    // The server finishes the call after the abort; its record says CANCELLED.
    const until = Date.now() + 2_000;
    let last;
    do {
      last = readLedger(ledgerPath).records.at(-1);
      if (last?.tool === 'jev_screen' && last.error) break;
      await new Promise((r) => setTimeout(r, 20));
    } while (Date.now() < until);
    assert.equal(last?.tool, 'jev_screen');
    assert.equal(last?.error?.code, 'CANCELLED');
  });

  it('records every call in the ledger and never writes the API key there or to stderr', () => {
    const { records, skipped } = readLedger(ledgerPath);
    assert.deepEqual(skipped, []);
    assert.ok(records.length >= TOOL_NAMES.length + 4);
    assert.ok(records.every((r) => r.agent === 'mcp'));
    const text = JSON.stringify(records);
    assert.ok(!text.includes('test-key-do-not-log-7f3a'), 'the key is not in the ledger');
    assert.ok(!conn.stderr().includes('test-key-do-not-log-7f3a'), 'the key is not on stderr');
  });
});

describe('MCP over stdio with the mock judge', () => {
  let conn: ServerConnection;
  before(async () => {
    conn = await connectServer(cleanEnv({ JEV_MOCK: '1' }));
  });
  after(async () => {
    await conn?.close();
  });

  it('answers every tool with a +mock model, text equal to structuredContent, and says so on stderr', async () => {
    await conn.client.listTools();
    for (const name of TOOL_NAMES) {
      const result = (await conn.client.callTool({ name, arguments: VALID_INPUTS[name] })) as CallToolResult;
      const text = textOf(result);
      assert.notEqual(result.isError, true, `${name} failed: ${text}`);
      assert.deepEqual(JSON.parse(text), result.structuredContent);
      assert.match(String((result.structuredContent as { model?: unknown }).model), /\+mock$|^local-policy$/, `${name} model`);
    }
    assert.match(conn.stderr(), /using the mock judge/);
  });
});
