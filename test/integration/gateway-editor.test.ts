/**
 * The agent gateway (src/mcp/gateway.ts) behind the real Streamable HTTP endpoint, with the SDK client and
 * real stdio MCP servers: tool changes reach a connected client as notifications/tools/list_changed while
 * its session stays usable; a call to a granted external tool whose server is still starting waits for it
 * (bounded by the server's startup timeout); every failed call of any kind is recorded.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { DecisionRecord } from '../../src/ledger/record';
import { createGatewaySession } from '../../src/mcp/gateway';
import { McpHttpEndpoint, type EndpointInfo } from '../../src/mcp/http-endpoint';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';
import { MockProvider } from '../../src/providers/mock/provider';
import type { AgentManifest } from '../../src/registry/manifest';
import { ToolRegistry } from '../../src/registry/registry';
import type { NamedServer } from '../../src/registry/servers';
import { ALL_TOOLS } from '../../src/tools';
import { JudgmentService } from '../../src/tools/judgment-service';
import { SAMPLE_STEP_INPUT } from '../../src/tools/sample-step';

const MARKER = join(__dirname, '../host/fixtures/marker-server.mjs');
const FAULTY = join(__dirname, '../fixtures/servers/faulty.mjs');
const markers = mkdtempSync(join(tmpdir(), 'jev-gateway-'));

/** Ledger + feed of the test host: every record the gateway or the service made. */
const records: DecisionRecord[] = [];
const service = new JudgmentService({ provider: new MockProvider(), tools: ALL_TOOLS, floors: DEFAULT_FLOORS, model: 'jev-latest', onRecord: (r) => records.push(r) });
let manifest: AgentManifest = { name: 'editor', tools: ['jev_step', 'jev_rank'] };
let registry: ToolRegistry | undefined;
/** Servers the host "started" through the startServers hook. */
let hostStarts = 0;
const listeners = new Set<() => void>();
const toolsChanged = () => listeners.forEach((l) => l());
const endpoint = new McpHttpEndpoint({
  createSession: () =>
    createGatewaySession({
      agent: 'editor',
      service,
      registry: () => registry,
      manifest: () => manifest,
      floors: () => DEFAULT_FLOORS,
      record: (r) => records.push(r),
      // As the extension's runtime sets it (jevPanel.gatewayMaxResultBytes), smaller for the test.
      resultCap: () => ({ maxBytes: 50_000, setting: 'jevPanel.gatewayMaxResultBytes', recordedIn: "the Jev panel's feed and the ledger L" }),
      startServers: () => {
        hostStarts++;
        void registry?.start();
      },
      onToolsChanged: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    }),
});
let info: EndpointInfo;
const clients: Client[] = [];

async function connect(): Promise<{ client: Client; changes: () => number }> {
  const client = new Client({ name: 'gateway-test', version: '0' });
  let changes = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes++;
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(info.url), { requestInit: { headers: { Authorization: `Bearer ${info.token}` } } }));
  clients.push(client);
  return { client, changes: () => changes };
}

async function useRegistry(servers: NamedServer[], startupTimeoutMs?: number): Promise<void> {
  await registry?.shutdown();
  registry = new ToolRegistry({ servers, connection: startupTimeoutMs ? { startupTimeoutMs } : {} });
}

const marker = (name: string, env: Record<string, string> = {}): NamedServer => ({
  name,
  source: 'config',
  config: { command: process.execPath, args: [MARKER, name], env: { MARKER_DIR: markers, ...env } },
});

async function waitUntil(what: string, check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const text = (result: object) => JSON.stringify((result as { content?: unknown }).content);

before(async () => {
  info = await endpoint.start();
});
afterEach(() => {
  manifest = { name: 'editor', tools: ['jev_step', 'jev_rank'] };
});
after(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await endpoint.stop();
  await registry?.shutdown();
});

describe('tool changes reach a connected client as tools/list_changed', () => {
  test('a grant change notifies once, the re-list follows it, and the same session keeps working', async () => {
    const { client, changes } = await connect();
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['jev_step', 'jev_rank']);
    assert.equal(listeners.size >= 1, true);

    manifest = { name: 'editor', tools: ['jev_step'] };
    toolsChanged();
    await waitUntil('the list_changed notification', () => changes() === 1);
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['jev_step']);

    // Nothing the client sees moved: no notification.
    toolsChanged();
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(changes(), 1);

    const result = await client.callTool({ name: 'jev_step', arguments: structuredClone(SAMPLE_STEP_INPUT) as Record<string, unknown> });
    assert.notEqual(result.isError, true, text(result));
  });

  test('a server whose tools arrive notifies the client; a closed session stops listening', async () => {
    await useRegistry([marker('late')]);
    manifest = { name: 'editor', tools: ['jev_step', 'late/*'] };
    const { client, changes } = await connect();
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['jev_step']);
    await registry!.start();
    toolsChanged();
    await waitUntil('the list_changed notification', () => changes() === 1);
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['jev_step', 'late__echo']);

    const open = listeners.size;
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    await waitUntil('the session to unsubscribe', () => listeners.size === open - 1);
  });
});

describe('a call to a granted external tool whose server is still starting', () => {
  test('waits for the server instead of answering "Unknown tool", and is recorded', async () => {
    await useRegistry([marker('slow', { START_DELAY_MS: '1500' })]);
    manifest = { name: 'editor', tools: ['jev_step', 'slow/echo'] };
    const { client } = await connect();
    const starts = hostStarts;
    const t0 = Date.now();
    // The client calls a name it knows from before (a cached list), while the server has not listed tools.
    const result = await client.callTool({ name: 'slow__echo', arguments: { text: 'after reload' } });
    const waited = Date.now() - t0;
    assert.notEqual(result.isError, true, text(result));
    // Forwarded as the server sent it: one text block, no structuredContent (the server gave none).
    assert.deepEqual(result, { content: [{ type: 'text', text: JSON.stringify({ echoed: 'after reload', server: 'slow' }) }] });
    assert.ok(waited >= 1_400, `the call waited for the start (${waited} ms)`);
    assert.equal(hostStarts, starts + 1, 'the host was asked to start its servers');
    const record = records.at(-1)!;
    assert.equal(record.kind, 'execution');
    assert.equal(record.tool, 'slow/echo');
    assert.equal(record.error, undefined);
  });

  test('the wait is bounded by the startup timeout: a server that never initializes gives a recorded error', async () => {
    await useRegistry([{ name: 'mute', source: 'config', config: { command: process.execPath, args: [FAULTY, '--silent'] } }], 800);
    manifest = { name: 'editor', tools: ['mute/*'] };
    const { client } = await connect();
    const n = records.length;
    const t0 = Date.now();
    const result = await client.callTool({ name: 'mute__ok', arguments: {} });
    const waited = Date.now() - t0;
    assert.equal(result.isError, true);
    assert.doesNotMatch(text(result), /Unknown tool/);
    assert.match(text(result), /mute/);
    assert.ok(waited >= 700 && waited < 5_000, `bounded by the 800 ms startup timeout (${waited} ms)`);
    assert.equal(records.length, n + 1);
    assert.ok(records.at(-1)!.error, 'the failure is recorded');
    assert.equal(records.at(-1)!.agent, 'editor');
  });
});

describe('every failed call is recorded', () => {
  test('unknown tool (-32602), denied judgment tool, denied external tool, server error and timeout each leave one error record', async () => {
    await useRegistry([{ name: 'faulty', source: 'config', config: { command: process.execPath, args: [FAULTY], timeoutMs: 300 } }]);
    await registry!.start();
    manifest = { name: 'editor', tools: ['jev_step', 'faulty/fail', 'faulty/hang', '!faulty/ok'] };
    const { client } = await connect();
    // An unknown name is a protocol error (-32602), recorded first like every other failure.
    const before = records.length;
    await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), (err: Error & { code?: number }) => {
      assert.equal(err.code, -32602);
      assert.match(err.message, /Unknown tool: "no_such_tool"/);
      return true;
    });
    assert.equal(records.length, before + 1, 'the unknown tool is recorded once');
    assert.deepEqual([records.at(-1)!.kind, records.at(-1)!.tool, records.at(-1)!.error?.code], ['execution', 'no_such_tool', 'INVALID_INPUT']);
    const cases: [name: string, result: RegExp, code: string, tool: string][] = [
      ['jev_rank', /may not call jev_rank: /, 'INVALID_INPUT', 'jev_rank'],
      ['faulty__ok', /may not call faulty\/ok: denied by \\"!faulty\/ok\\"/, 'INVALID_INPUT', 'faulty/ok'],
      ['faulty__fail', /the widget is broken/, 'API_ERROR', 'faulty/fail'],
      ['faulty__hang', /did not answer within 300 ms/, 'TIMEOUT', 'faulty/hang'],
    ];
    for (const [name, shown, code, tool] of cases) {
      const n = records.length;
      const result = await client.callTool({ name, arguments: {} });
      assert.equal(result.isError, true, name);
      assert.match(text(result), shown, name);
      assert.equal(records.length, n + 1, `${name} is recorded once`);
      const record = records.at(-1)!;
      assert.equal(record.kind, 'execution', name);
      assert.equal(record.agent, 'editor', name);
      assert.equal(record.tool, tool, name);
      assert.equal(record.error?.code, code, `${name}: ${record.error?.message}`);
    }
  });

  test('a judgment tool that fails is recorded by the service, once', async () => {
    const { client } = await connect();
    const n = records.length;
    const result = await client.callTool({ name: 'jev_step', arguments: { task: 42 } });
    assert.equal(result.isError, true);
    assert.equal(records.length, n + 1);
    assert.equal(records.at(-1)!.kind, 'decision');
    assert.equal(records.at(-1)!.error?.code, 'INVALID_INPUT');
  });
});

describe("the editor's endpoint: external results capped, progress relayed", () => {
  test('a 5 MB result is cut to jevPanel.gatewayMaxResultBytes with a marker naming the record; progress reaches a client that asked', async () => {
    await useRegistry([{ name: 'faulty', source: 'config', config: { command: process.execPath, args: [FAULTY] } }]);
    await registry!.start();
    manifest = { name: 'editor', tools: ['faulty/big', 'faulty/slow'] };
    const { client } = await connect();
    const big = await client.callTool({ name: 'faulty__big', arguments: { bytes: 5 * 1024 * 1024 } });
    assert.ok(Buffer.byteLength(JSON.stringify(big)) < 54_000, `${Buffer.byteLength(JSON.stringify(big))} bytes`);
    const marker = (big.content as Array<{ text: string }>).at(-1)!.text;
    const record = records.at(-1)!;
    assert.equal(record.tool, 'faulty/big');
    assert.ok(marker.includes(`more than the 50000 this gateway forwards (jevPanel.gatewayMaxResultBytes)`), marker);
    assert.ok(marker.includes(`recorded as ${record.id} in the Jev panel's feed and the ledger L`), marker);

    const seen: number[] = [];
    const slow = await client.callTool({ name: 'faulty__slow', arguments: { ms: 1_500, every: 200 } }, undefined, {
      timeout: 1_000,
      resetTimeoutOnProgress: true,
      onprogress: (p) => seen.push(p.progress),
    });
    assert.notEqual(slow.isError, true, text(slow));
    assert.ok(seen.length >= 5, `${seen.length} progress notifications`);
  });
});
