/**
 * The Streamable HTTP endpoint (src/mcp/http-endpoint.ts) serving the extension's editor sessions, outside
 * VS Code: real HTTP on 127.0.0.1, the SDK client, the bearer token, Host/Origin checks, sessions, grants of
 * the `editor` agent, raw arguments, a real external MCP server (a stdio fixture) exposed under a namespaced
 * name, and the fixed port/token options `jevcp serve --http` uses.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { DecisionRecord } from '../../src/ledger/record';
import { createGatewaySession } from '../../src/mcp/gateway';
import { bearerTokenProblem, McpHttpEndpoint, type EndpointInfo } from '../../src/mcp/http-endpoint';
import { createMcpServer } from '../../src/mcp/server';
import { SAMPLE_STEP_INPUT } from '../../src/tools/sample-step';
import type { AgentManifest } from '../../src/registry/manifest';
import { ToolRegistry } from '../../src/registry/registry';
import { MockProvider } from '../../src/providers/mock/provider';
import { ALL_TOOLS } from '../../src/tools';
import { JudgmentService } from '../../src/tools/judgment-service';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';
import { rawPost, RAW_INITIALIZE } from '../helpers/raw-http';

const records: DecisionRecord[] = [];
const service = new JudgmentService({ provider: new MockProvider(), tools: ALL_TOOLS, floors: DEFAULT_FLOORS, model: 'jev-latest', onRecord: (r) => records.push(r) });
let manifest: AgentManifest = { name: 'editor', tools: ALL_TOOLS.map((t) => t.name) };
let registry: ToolRegistry | undefined;
const endpoint = new McpHttpEndpoint({
  createSession: () =>
    createGatewaySession({ agent: 'editor', service, registry: () => registry, manifest: () => manifest, floors: () => DEFAULT_FLOORS, record: (r) => records.push(r) }),
});
let info: EndpointInfo;
const clients: Client[] = [];

async function connect(headers: Record<string, string> = { Authorization: `Bearer ${info.token}` }): Promise<Client> {
  const client = new Client({ name: 'endpoint-test', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(info.url), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

/** A raw POST to the endpoint (so Host and Origin can be set freely). */
const post = (headers: Record<string, string>, body: string, path = '/mcp') => rawPost(`http://127.0.0.1:${info.port}${path}`, headers, body);


before(async () => {
  info = await endpoint.start();
});
after(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await endpoint.stop();
  await registry?.shutdown();
});

describe('endpoint security', () => {
  test('listens on 127.0.0.1 with a 256-bit URL-safe token; start() is idempotent', async () => {
    assert.match(info.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.match(info.token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(await endpoint.start(), info);
  });

  test('401 without or with a wrong token, 403 for a foreign Host or Origin, 404 elsewhere, 400 for bad JSON', async () => {
    const auth = { authorization: `Bearer ${info.token}` };
    assert.equal((await post({}, RAW_INITIALIZE)).status, 401);
    assert.equal((await post({ authorization: `Bearer ${info.token}x` }, RAW_INITIALIZE)).status, 401);
    assert.equal((await post({ authorization: `Basic ${info.token}` }, RAW_INITIALIZE)).status, 401);
    assert.equal((await post({ ...auth, host: `attacker.example:${info.port}` }, RAW_INITIALIZE)).status, 403);
    assert.equal((await post({ ...auth, origin: 'https://attacker.example' }, RAW_INITIALIZE)).status, 403);
    assert.equal((await post({ ...auth, origin: `http://127.0.0.1:${info.port}` }, RAW_INITIALIZE)).status, 200);
    // The IPv6 loopback is loopback too.
    assert.equal((await post({ ...auth, host: `[::1]:${info.port}` }, RAW_INITIALIZE)).status, 200);
    assert.equal((await post({ ...auth, host: `[::1]:${info.port}`, origin: `http://[::1]:${info.port}` }, RAW_INITIALIZE)).status, 200);
    assert.equal((await post({ ...auth, host: `[::2]:${info.port}` }, RAW_INITIALIZE)).status, 403);
    assert.equal((await post(auth, RAW_INITIALIZE, '/other')).status, 404);
    assert.equal((await post(auth, '{not json')).status, 400);
    const noSession = await post(auth, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    assert.equal(noSession.status, 400);
    const unknown = await post({ ...auth, 'mcp-session-id': 'no-such-session' }, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    assert.equal(unknown.status, 404);
  });

  test('an unauthorized initialize opens no session', async () => {
    const before = endpoint.sessionCount;
    await post({}, RAW_INITIALIZE);
    assert.equal(endpoint.sessionCount, before);
  });
});

describe('editor tools', () => {
  test('tools/list gives the 14 judgment tools; jev_step runs as agent editor and is recorded', async () => {
    const client = await connect();
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.deepEqual(names, ALL_TOOLS.map((t) => t.name));
    const n = records.length;
    const result = await client.callTool({ name: 'jev_step', arguments: structuredClone(SAMPLE_STEP_INPUT) as Record<string, unknown> });
    assert.notEqual(result.isError, true);
    assert.equal(records.length, n + 1);
    const record = records.at(-1)!;
    assert.equal(record.agent, 'editor');
    assert.equal(record.tool, 'jev_step');
    assert.deepEqual(result.structuredContent, record.result);
  });

  test('a top-level __proto__ argument reaches the tool as sent (and is rejected by it)', async () => {
    const client = await connect();
    const args = JSON.parse('{"__proto__": {"x": 1}, "task": "t", "observation": "o"}') as Record<string, unknown>;
    const result = await client.callTool({ name: 'jev_step', arguments: args });
    assert.equal(result.isError, true);
    assert.match(JSON.stringify(result.content), /__proto__/);
  });

  test('grants apply per request: a revoked tool is neither listed nor callable, and the refusal names the rule', async () => {
    const client = await connect();
    manifest = { name: 'editor', tools: ['jev_*', '!jev_gate'] };
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('jev_step') && !names.includes('jev_gate') && !names.includes('ask_noul'));
      const refused = await client.callTool({ name: 'jev_gate', arguments: {} });
      assert.equal(refused.isError, true);
      assert.match(JSON.stringify(refused.content), /may not call jev_gate: denied by/);
      await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), (err: { code?: number }) => err.code === -32602);
    } finally {
      manifest = { name: 'editor', tools: ALL_TOOLS.map((t) => t.name) };
    }
  });

  test('a granted external tool is exposed as <server>__<tool>, called through the registry and recorded', async () => {
    const markers = mkdtempSync(join(tmpdir(), 'jev-endpoint-'));
    registry = new ToolRegistry({
      servers: [{ name: 'fixture', source: 'config', config: { command: process.execPath, args: [join(__dirname, '../host/fixtures/marker-server.mjs'), 'fixture'], env: { MARKER_DIR: markers } } }],
    });
    await registry.start();
    assert.equal(readFileSync(join(markers, 'fixture.spawned'), 'utf8').length > 0, true);
    manifest = { name: 'editor', tools: ['jev_step', 'fixture/echo'] };
    try {
      const client = await connect();
      assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['jev_step', 'fixture__echo']);
      const result = await client.callTool({ name: 'fixture__echo', arguments: { text: 'hi' } });
      assert.deepEqual(result, { content: [{ type: 'text', text: JSON.stringify({ echoed: 'hi', server: 'fixture' }) }] });
      const record = records.at(-1)!;
      assert.equal(record.kind, 'execution');
      assert.equal(record.tool, 'fixture/echo');
      assert.equal(record.agent, 'editor');
      // Bad arguments are refused by the registry's schema check and recorded as an error.
      const bad = await client.callTool({ name: 'fixture__echo', arguments: { text: 42 } });
      assert.equal(bad.isError, true);
      assert.ok(records.at(-1)!.error);
      // Revoked: not listed; a call is refused by the registry's capability check (recorded), while a name no server has is -32602.
      manifest = { name: 'editor', tools: ['jev_step', '!fixture/*'] };
      const refused = await client.callTool({ name: 'fixture__echo', arguments: { text: 'again' } });
      assert.equal(refused.isError, true);
      assert.match(JSON.stringify(refused.content), /may not call fixture\/echo: denied by \\"!fixture\/\*\\"/);
      assert.equal(records.at(-1)!.tool, 'fixture/echo');
      assert.ok(records.at(-1)!.error);
      await assert.rejects(client.callTool({ name: 'fixture__nope', arguments: {} }), (err: { code?: number }) => err.code === -32602);
    } finally {
      manifest = { name: 'editor', tools: ALL_TOOLS.map((t) => t.name) };
    }
  });

  test('a session the client ends (DELETE) leaves the endpoint', async () => {
    const client = await connect();
    await client.listTools();
    const open = endpoint.sessionCount;
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    assert.equal(endpoint.sessionCount, open - 1);
  });

  test('stop() closes the sessions; a new start() has a new port or token', async () => {
    const old = info;
    await endpoint.stop();
    assert.equal(endpoint.sessionCount, 0);
    info = await endpoint.start();
    assert.notEqual(info.token, old.token);
  });
});

describe('fixed port and token', () => {
  test('a given token (and port) is used across restarts; the wrong token still gets 401', async () => {
    const token = 'fixed-token-for-tests_0123456789abcdef';
    const fixed = new McpHttpEndpoint({ token, createSession: () => ({ server: createMcpServer(service) }) });
    try {
      const first = await fixed.start();
      assert.equal(first.token, token);
      await fixed.stop();
      const again = new McpHttpEndpoint({ token, port: first.port, createSession: () => ({ server: createMcpServer(service) }) });
      const second = await again.start();
      try {
        assert.equal(second.port, first.port);
        const client = new Client({ name: 'fixed', version: '0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(second.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
        assert.equal((await client.listTools()).tools.length, ALL_TOOLS.length);
        await client.close();
        const wrong = new Client({ name: 'wrong', version: '0' });
        await assert.rejects(wrong.connect(new StreamableHTTPClientTransport(new URL(second.url), { requestInit: { headers: { Authorization: `Bearer ${token.slice(1)}x` } } })), /401|Unauthorized/);
      } finally {
        await again.stop();
      }
    } finally {
      await fixed.stop();
    }
  });

  test('a short or non-token68 token and a bad port are refused when the endpoint is built', () => {
    assert.match(bearerTokenProblem('x'.repeat(31)) ?? '', /at least 32 characters \(got 31\)/);
    assert.equal(bearerTokenProblem('x'.repeat(32)), undefined);
    assert.match(bearerTokenProblem(`${'x'.repeat(32)} y`) ?? '', /may contain only/);
    assert.match(bearerTokenProblem(`${'x'.repeat(32)}=a`) ?? '', /may contain only/);
    const createSession = () => ({ server: createMcpServer(service) });
    assert.throws(() => new McpHttpEndpoint({ token: 'short', createSession }), /token must be at least 32/);
    assert.throws(() => new McpHttpEndpoint({ port: 70_000, createSession }), /port must be an integer in 0–65535/);
  });
});
