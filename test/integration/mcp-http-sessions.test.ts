/**
 * Sessions of the Streamable HTTP endpoint under pressure (src/mcp/http-sessions.ts), over real HTTP on
 * 127.0.0.1 with the SDK client and raw requests: a busy session is never closed, an initialize beyond
 * the cap gets 503 with Retry-After, an idle session expires and its later use gets 404, and a cancelled
 * call's POST stream ends at once.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { DecisionRecord } from '../../src/ledger/record';
import { McpHttpEndpoint, type EndpointInfo, type EndpointOptions } from '../../src/mcp/http-endpoint';
import { createMcpServer } from '../../src/mcp/server';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';
import { ALL_TOOLS } from '../../src/tools';
import { JudgmentService } from '../../src/tools/judgment-service';
import { SAMPLE_STEP_INPUT } from '../../src/tools/sample-step';
import { GatedProvider } from '../helpers/gated-provider';
import { rawPost, rawPostStream, RAW_INITIALIZE } from '../helpers/raw-http';

const endpoints: McpHttpEndpoint[] = [];
const clients: Client[] = [];

after(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  for (const e of endpoints) await e.stop();
});

interface Harness {
  endpoint: McpHttpEndpoint;
  info: EndpointInfo;
  provider: GatedProvider;
  records: DecisionRecord[];
}

async function start(options: Partial<EndpointOptions>): Promise<Harness> {
  const provider = new GatedProvider();
  const records: DecisionRecord[] = [];
  const service = new JudgmentService({ provider, tools: ALL_TOOLS, floors: DEFAULT_FLOORS, model: 'jev-latest', timeoutMs: 60_000, onRecord: (r) => records.push(r) });
  const endpoint = new McpHttpEndpoint({ createSession: () => ({ server: createMcpServer(service) }), ...options });
  endpoints.push(endpoint);
  return { endpoint, info: await endpoint.start(), provider, records };
}

async function connect(info: EndpointInfo): Promise<Client> {
  const client = new Client({ name: 'sessions-test', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(info.url), { requestInit: { headers: { Authorization: `Bearer ${info.token}` } } }));
  clients.push(client);
  return client;
}

/** A session opened with raw requests (no standalone GET stream): its id and the headers that use it. */
async function rawSession(info: EndpointInfo): Promise<{ id: string; headers: Record<string, string> }> {
  const init = await rawPost(info.url, { authorization: `Bearer ${info.token}` }, RAW_INITIALIZE);
  assert.equal(init.status, 200, init.text);
  const id = init.headers['mcp-session-id'] as string;
  const headers = { authorization: `Bearer ${info.token}`, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' };
  assert.equal((await rawPost(info.url, headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))).status, 202);
  return { id, headers };
}

const stepCall = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'jev_step', arguments: structuredClone(SAMPLE_STEP_INPUT) } });
const step = (client: Client) => client.callTool({ name: 'jev_step', arguments: structuredClone(SAMPLE_STEP_INPUT) as Record<string, unknown> });

async function until(what: string, cond: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('capacity', () => {
  test('with a cap of 2, a session with a call in flight survives new initializes; the one past the cap gets 503 + Retry-After', async () => {
    const { endpoint, info, provider, records } = await start({ maxSessions: 2, idleTimeoutMs: 60_000 });
    const busy = await connect(info);
    const call = step(busy);
    await provider.untilHeld(1);
    const idle = await rawSession(info);
    assert.equal(endpoint.sessionCount, 2);

    for (let i = 0; i < 5; i++) {
      const refused = await rawPost(info.url, { authorization: `Bearer ${info.token}` }, RAW_INITIALIZE);
      assert.equal(refused.status, 503);
      const retryAfter = Number(refused.headers['retry-after']);
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 30, `Retry-After ${refused.headers['retry-after']}`);
      assert.match(refused.text, /too many MCP sessions/);
    }
    assert.equal(endpoint.sessionCount, 2, 'a refused initialize opens no session and closes none');

    provider.open();
    const result = await call;
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
    assert.equal(records.filter((r) => r.tool === 'jev_step' && !r.error).length, 1);
    // The busy session is still usable after the pressure.
    const again = step(busy);
    await provider.untilHeld(1);
    provider.open();
    assert.notEqual((await again).isError, true);

    // Once a place is free (the idle client ends its session), a new initialize succeeds.
    const del = await fetch(info.url, { method: 'DELETE', headers: idle.headers });
    assert.equal(del.status, 200);
    assert.equal(endpoint.sessionCount, 1);
    assert.equal((await rawPost(info.url, { authorization: `Bearer ${info.token}` }, RAW_INITIALIZE)).status, 200);
  });

  test('Retry-After is the short wait, busy or idle (places free up as clients leave), or sooner when an idle session expires sooner', async () => {
    const { info, provider } = await start({ maxSessions: 1, idleTimeoutMs: 60_000 });
    const s = await rawSession(info);
    const idleWait = await rawPost(info.url, { authorization: `Bearer ${info.token}` }, RAW_INITIALIZE);
    assert.equal(idleWait.status, 503);
    assert.equal(idleWait.headers['retry-after'], '2', 'not the idle session\'s expiry a minute away');
    const inFlight = rawPostStream(info.url, s.headers, stepCall(7));
    await provider.untilHeld(1);
    const busyWait = await rawPost(info.url, { authorization: `Bearer ${info.token}` }, RAW_INITIALIZE);
    assert.equal(busyWait.status, 503);
    assert.equal(busyWait.headers['retry-after'], '2');
    provider.open();
    assert.match((await inFlight.ended).text, /"id":7/);

    const soon = await start({ maxSessions: 1, idleTimeoutMs: 900 });
    await rawSession(soon.info);
    const expiring = await rawPost(soon.info.url, { authorization: `Bearer ${soon.info.token}` }, RAW_INITIALIZE);
    assert.equal(expiring.status, 503);
    assert.equal(expiring.headers['retry-after'], '1', 'the idle session expires within a second');
  });
});

describe('idle expiry', () => {
  test('an idle session is closed after the timeout and its later use gets 404; a busy one outlives it', async () => {
    const { endpoint, info, provider } = await start({ idleTimeoutMs: 300 });
    const idle = await rawSession(info);
    const busy = await rawSession(info);
    const call = rawPostStream(info.url, busy.headers, stepCall(3));
    await provider.untilHeld(1);
    await until('the idle session to expire', () => endpoint.sessionCount === 1);
    const late = await rawPost(info.url, idle.headers, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    assert.equal(late.status, 404);
    assert.match(late.text, /Session not found/);

    // The busy session's call is held for several idle timeouts, then answered on its own stream.
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(endpoint.sessionCount, 1);
    provider.open();
    const { text } = await call.ended;
    assert.match(text, /"id":3/);
    assert.match(text, /"structuredContent"/);
    // Idle again now: it expires too.
    await until('the answered session to expire', () => endpoint.sessionCount === 0);
  });

  test('an SDK client holding its GET stream is not idle; once it closes, its session expires', async () => {
    const { endpoint, info } = await start({ idleTimeoutMs: 300 });
    const client = await connect(info);
    await client.listTools();
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(endpoint.sessionCount, 1);
    assert.equal((await client.listTools()).tools.length, ALL_TOOLS.length);
    await client.close();
    await until('the closed client’s session to expire', () => endpoint.sessionCount === 0);
  });
});

describe('cancellation', () => {
  test('after notifications/cancelled the POST stream ends at once, with no answer; the call is aborted and recorded CANCELLED', async () => {
    const { endpoint, info, provider, records } = await start({});
    const s = await rawSession(info);
    const call = rawPostStream(info.url, s.headers, stepCall(11));
    assert.equal((await call.head).status, 200);
    await provider.untilHeld(1);
    const sent = Date.now();
    const cancel = await rawPost(info.url, s.headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 11, reason: 'user' } }));
    assert.equal(cancel.status, 202);
    // Generous bound: the bug was a stream held 25 s and more.
    const ended = await Promise.race([call.ended, sleep(5_000, undefined, { ref: false })]);
    assert.ok(ended, `the POST stream was still open 5 s after the cancellation (received: ${call.received().slice(0, 200)})`);
    call.abort();
    const { text, at } = ended;
    assert.ok(at - sent < 5_000, `stream ended ${at - sent} ms after the cancellation`);
    assert.doesNotMatch(text, /"id":11/, 'no response is sent for a cancelled request');
    assert.equal(provider.aborted, 1);
    await until('the CANCELLED record', () => records.some((r) => r.error?.code === 'CANCELLED'));
    // The session stays open and usable.
    assert.equal(endpoint.sessionCount, 1);
    const next = rawPostStream(info.url, s.headers, stepCall(12));
    await provider.untilHeld(1);
    provider.open();
    assert.match((await next.ended).text, /"id":12/);
  });
});
