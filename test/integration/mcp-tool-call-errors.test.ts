/**
 * `tools/call` protocol errors (src/mcp/tool-call-errors.ts) as a client sees them on the wire: raw
 * JSON-RPC over real Streamable HTTP (the factory server and the gateway) and over the stdio of a real
 * `jevcp serve` process. An unknown tool and malformed params get error -32602 with one line naming the
 * field; a known tool's bad arguments stay a tool result with isError.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { createGatewaySession } from '../../src/mcp/gateway';
import { McpHttpEndpoint, type EndpointInfo } from '../../src/mcp/http-endpoint';
import { createMcpServer } from '../../src/mcp/server';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';
import { MockProvider } from '../../src/providers/mock/provider';
import { ALL_TOOLS } from '../../src/tools';
import { JudgmentService } from '../../src/tools/judgment-service';
import { rawPost, RAW_INITIALIZE } from '../helpers/raw-http';
import { CLI, cleanEnv, ensureBuilt, ROOT } from './mcp-fixtures';

type Reply = { id?: unknown; result?: { isError?: boolean; content?: Array<{ text?: string }> }; error?: { code: number; message: string; data?: unknown } };

/** The malformed calls and the one-line messages expected for each. */
const MALFORMED: Array<[string, unknown, RegExp]> = [
  ['name missing', { arguments: {} }, /^Invalid tools\/call params: params\.name: expected string, received undefined$/],
  ['name a number', { name: 5 }, /^Invalid tools\/call params: params\.name: expected string, received number$/],
  ['arguments a string', { name: 'jev_step', arguments: 'go' }, /^Invalid tools\/call params: params\.arguments: expected record, received string$/],
  ['arguments an array', { name: 'jev_step', arguments: [1] }, /^Invalid tools\/call params: params\.arguments: expected record, received array$/],
  ['params missing', undefined, /^Invalid tools\/call params: params: expected object, received undefined$/],
];

function assertProtocolError(reply: Reply, pattern: RegExp, what: string): void {
  assert.equal(reply.result, undefined, `${what}: a protocol error, not a tool result: ${JSON.stringify(reply)}`);
  assert.equal(reply.error?.code, -32602, `${what}: ${JSON.stringify(reply)}`);
  assert.match(reply.error.message, pattern, what);
  assert.doesNotMatch(reply.error.message, /\n/, `${what}: one line`);
  assert.equal(reply.error.data, undefined, `${what}: no validation dump`);
}

const service = new JudgmentService({ provider: new MockProvider(), tools: ALL_TOOLS, floors: DEFAULT_FLOORS, model: 'jev-latest' });

/** The reply to one request, from an SSE stream or a JSON body. */
function replyOf(text: string): Reply {
  const data = /^data: (.+)$/m.exec(text);
  return JSON.parse(data ? data[1]! : text) as Reply;
}

for (const kind of ['factory server', 'gateway'] as const) {
  describe(`over Streamable HTTP (${kind})`, () => {
    const endpoint = new McpHttpEndpoint({
      createSession: () =>
        kind === 'gateway'
          ? createGatewaySession({ agent: 'editor', service, registry: () => undefined, manifest: () => ({ name: 'editor', tools: ['jev_*'] }), floors: () => DEFAULT_FLOORS, record: () => undefined })
          : { server: createMcpServer(service) },
    });
    let info: EndpointInfo;
    let headers: Record<string, string>;
    let id = 10;
    const call = async (params: unknown): Promise<Reply> => {
      const r = await rawPost(info.url, headers, JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', ...(params === undefined ? {} : { params }) }));
      assert.equal(r.status, 200, r.text);
      return replyOf(r.text);
    };

    before(async () => {
      info = await endpoint.start();
      const init = await rawPost(info.url, { authorization: `Bearer ${info.token}` }, RAW_INITIALIZE);
      headers = { authorization: `Bearer ${info.token}`, 'mcp-session-id': init.headers['mcp-session-id'] as string, 'mcp-protocol-version': '2025-06-18' };
      await rawPost(info.url, headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    });
    after(() => endpoint.stop());

    test('an unknown tool gets -32602 naming it', async () => {
      assertProtocolError(await call({ name: 'no_such_tool', arguments: {} }), /^Unknown tool: "no_such_tool"$/, 'unknown');
    });

    test('malformed params get -32602 with one line naming the field', async () => {
      for (const [what, params, pattern] of MALFORMED) assertProtocolError(await call(params), pattern, what);
    });

    test('a known tool with bad arguments is still a tool result with isError (the model can correct it)', async () => {
      const reply = await call({ name: 'jev_step', arguments: { task: 5 } });
      assert.equal(reply.error, undefined);
      assert.equal(reply.result?.isError, true);
      assert.match(reply.result?.content?.[0]?.text ?? '', /INVALID_INPUT/);
    });

    if (kind === 'gateway') {
      test('a judgment tool the agent is not granted keeps its refusal naming the rule', async () => {
        const reply = await call({ name: 'ask_noul', arguments: {} });
        assert.equal(reply.result?.isError, true);
        assert.match(reply.result?.content?.[0]?.text ?? '', /may not call ask_noul: /);
      });
    }
  });
}

describe('over stdio (`jevcp serve`)', () => {
  let child: ChildProcessWithoutNullStreams;
  const waiting = new Map<unknown, (reply: Reply) => void>();
  let id = 100;

  const request = (method: string, params?: unknown): Promise<Reply> => {
    const myId = ++id;
    const reply = new Promise<Reply>((resolve) => waiting.set(myId, resolve));
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: myId, method, ...(params === undefined ? {} : { params }) })}\n`);
    return reply;
  };

  before(async () => {
    ensureBuilt();
    child = spawn(process.execPath, [CLI, 'serve'], { cwd: ROOT, env: cleanEnv({ JEV_MOCK: '1' }) });
    let buffered = '';
    child.stdout.on('data', (c: Buffer) => {
      buffered += c.toString('utf8');
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        const reply = JSON.parse(line) as Reply;
        waiting.get(reply.id)?.(reply);
        waiting.delete(reply.id);
      }
    });
    const init = await request('initialize', JSON.parse(RAW_INITIALIZE).params);
    assert.ok(init.result, JSON.stringify(init));
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  });
  after(async () => {
    child.stdin.end();
    if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
  });

  test('an unknown tool gets -32602 naming it', async () => {
    assertProtocolError(await request('tools/call', { name: 'no_such_tool', arguments: {} }), /^Unknown tool: "no_such_tool"$/, 'unknown');
  });

  test('malformed params get -32602 with one line naming the field', async () => {
    for (const [what, params, pattern] of MALFORMED) assertProtocolError(await request('tools/call', params), pattern, what);
  });

  test('the server keeps answering afterwards', async () => {
    const reply = await request('tools/list');
    assert.equal((reply.result as unknown as { tools: unknown[] }).tools.length, ALL_TOOLS.length);
  });
});
