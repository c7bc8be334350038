/**
 * `jevcp serve --http PORT` end to end: the built dist/cli.js as a child process, the URL and token read
 * from its stderr, real HTTP on 127.0.0.1 (raw requests for the security checks, the SDK client with
 * StreamableHTTPClientTransport for the tools), a fake System One upstream for cancellation and shutdown,
 * real ledger files.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startFakeSystemOne, type FakeSystemOne } from '../helpers/fake-systemone';
import { CLI, cleanEnv, ensureBuilt, ROOT, TOOL_NAMES, VALID_INPUTS } from './mcp-fixtures';
import { alive } from '../helpers/processes';
import { rawPost, RAW_INITIALIZE } from '../helpers/raw-http';

const KEY = 'sk-serve-http-test-secret-4b1e';

interface Served {
  child: ChildProcess;
  url: string;
  port: number;
  /** The generated token as printed (undefined when JEV_HTTP_TOKEN supplied it). */
  token?: string;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children: ChildProcess[] = [];
const clients: Client[] = [];
let scratch: string;

/** Spawns `jevcp serve --http <port>` and resolves once its start-up notice is complete on stderr. */
function serve(env: Record<string, string>, port = '0'): Promise<Served> {
  ensureBuilt();
  const child = spawn(process.execPath, [CLI, 'serve', '--http', port], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve --http did not start in 15 s; stderr: ${err}`)), 15_000);
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString('utf8');
      const url = /at (http:\/\/127\.0\.0\.1:(\d+)\/mcp) /.exec(err);
      const header = /^Authorization: Bearer (.+)$/m.exec(err);
      if (!url || !header) return;
      clearTimeout(timer);
      const token = header[1]!.startsWith('<') ? undefined : header[1];
      resolve({ child, url: url[1]!, port: Number(url[2]), token, stdout: () => out, stderr: () => err, exited });
    });
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`serve --http exited (${code}) before starting; stderr: ${err}`));
    });
  });
}

/** Runs `jevcp serve --http <port>` expecting it to fail at start. */
async function serveFails(env: Record<string, string>, port: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  ensureBuilt();
  const child = spawn(process.execPath, [CLI, 'serve', '--http', port], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}

/** An SDK client connected over Streamable HTTP with `Authorization: Bearer <token>`. */
async function connect(served: Served, token = served.token!): Promise<Client> {
  const client = new Client({ name: 'serve-http-test', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  clients.push(client);
  return client;
}

/** A raw POST to the endpoint (so Host can be set freely). */
const post = (port: number, headers: Record<string, string>, body: string) => rawPost(`http://127.0.0.1:${port}/mcp`, headers, body);


function ledgerLines(path: string): Array<Record<string, any>> {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
}

before(() => {
  scratch = mkdtempSync(join(tmpdir(), 'jev-serve-http-'));
});

after(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe('serve --http with the mock judge', () => {
  let served: Served;
  const ledger = () => join(scratch, 'mock.jsonl');

  before(async () => {
    served = await serve(cleanEnv({ JEV_LEDGER: ledger() }));
  });

  it('prints the URL and a generated 256-bit token once on stderr; stdout stays empty', () => {
    assert.match(served.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.match(served.token ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.equal(served.stderr().split(served.token!).length - 1, 1, 'the token appears exactly once');
    assert.match(served.stderr(), /using the mock judge/);
    assert.equal(served.stdout(), '');
  });

  it('401 without or with a wrong token; 403 for a foreign Host or Origin; the loopback Origin is accepted', async () => {
    const auth = { authorization: `Bearer ${served.token}` };
    const none = await post(served.port, {}, RAW_INITIALIZE);
    assert.equal(none.status, 401);
    assert.match(none.text, /Unauthorized/);
    assert.equal((await post(served.port, { authorization: `Bearer ${served.token!.slice(1)}A` }, RAW_INITIALIZE)).status, 401);
    assert.equal((await post(served.port, { ...auth, host: `evil.example:${served.port}` }, RAW_INITIALIZE)).status, 403);
    assert.equal((await post(served.port, { ...auth, host: `127.0.0.1:${served.port + 1}` }, RAW_INITIALIZE)).status, 403);
    assert.equal((await post(served.port, { ...auth, origin: 'http://evil.example' }, RAW_INITIALIZE)).status, 403);
    // A foreign Host is refused even without a token (the rebinding check comes first).
    assert.equal((await post(served.port, { host: `evil.example:${served.port}` }, RAW_INITIALIZE)).status, 403);
    assert.equal((await post(served.port, { ...auth, origin: `http://localhost:${served.port}` }, RAW_INITIALIZE)).status, 200);
  });

  it('lists the 14 tools and answers jev_step (text = structuredContent), recorded as agent mcp in JEV_LEDGER', async () => {
    const client = await connect(served);
    const { tools } = await client.listTools();
    assert.equal(tools.length, 14);
    assert.deepEqual(tools.map((t) => t.name).sort(), [...TOOL_NAMES].sort());
    const result = await client.callTool({ name: 'jev_step', arguments: structuredClone(VALID_INPUTS.jev_step!) });
    assert.notEqual(result.isError, true);
    const content = result.content as Array<{ type: string; text: string }>;
    assert.equal(content[0]!.type, 'text');
    assert.deepEqual(JSON.parse(content[0]!.text), result.structuredContent);
    const step = ledgerLines(ledger()).filter((r) => r.tool === 'jev_step');
    assert.equal(step.length, 1);
    assert.equal(step[0]!.agent, 'mcp');
    assert.deepEqual(step[0]!.result, result.structuredContent);
  });

  it('exits 0 on SIGTERM and leaves no process behind', async () => {
    await connect(served);
    assert.ok(served.child.kill('SIGTERM'));
    const { code, signal } = await served.exited;
    assert.equal(code, 0);
    assert.equal(signal, null);
    assert.equal(alive(served.child.pid!), false);
    assert.match(served.stderr(), /stopped \(SIGTERM\)\n$/);
    assert.equal(served.stdout(), '');
    await assert.rejects(post(served.port, { authorization: `Bearer ${served.token}` }, RAW_INITIALIZE), /ECONNREFUSED/);
  });
});

describe('serve --http against a System One upstream', () => {
  let fake: FakeSystemOne;

  before(async () => {
    fake = await startFakeSystemOne();
  });
  after(async () => {
    await fake.close();
  });

  it('a client cancellation aborts the upstream request (the fake sees its socket close) and is recorded CANCELLED', async () => {
    const ledger = join(scratch, 'cancel.jsonl');
    const served = await serve(cleanEnv({ JEV_BASE_URL: fake.url, JEV_API_KEY: KEY, JEV_TIMEOUT_MS: '20000', JEV_LEDGER: ledger }));
    const client = await connect(served);
    const before = { requests: fake.count(), closed: fake.closedSockets() };
    fake.script({ hang: true });
    const controller = new AbortController();
    const call = client.callTool({ name: 'jev_step', arguments: structuredClone(VALID_INPUTS.jev_step!) }, undefined, { signal: controller.signal });
    const rejected = assert.rejects(call, /abort|cancel/i);
    // Cancel once the upstream request has arrived (it hangs there).
    while (fake.count() === before.requests) await new Promise((r) => setTimeout(r, 20));
    controller.abort('user cancelled');
    await rejected;
    await fake.waitForClosedSockets(before.closed + 1, 5_000);
    // No retry after a cancellation.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(fake.count(), before.requests + 1);
    assert.equal(fake.requests.at(-1)!.path, '/v1/systemone');
    const record = ledgerLines(ledger).at(-1)!;
    assert.equal(record.tool, 'jev_step');
    assert.equal(record.error?.code, 'CANCELLED');
    assert.equal(record.result, undefined);
    assert.doesNotMatch(readFileSync(ledger, 'utf8'), new RegExp(KEY));
    served.child.kill('SIGTERM');
    assert.equal((await served.exited).code, 0);
    assert.doesNotMatch(served.stderr(), new RegExp(KEY));
  });

  it('SIGTERM during a call cancels it: the upstream request is aborted, the client gets CANCELLED (recorded), exit 0', async () => {
    const ledger = join(scratch, 'shutdown.jsonl');
    const served = await serve(cleanEnv({ JEV_BASE_URL: fake.url, JEV_API_KEY: KEY, JEV_TIMEOUT_MS: '20000', JEV_LEDGER: ledger }));
    const client = await connect(served);
    const before = { requests: fake.count(), closed: fake.closedSockets() };
    fake.script({ hang: true });
    const call = client.callTool({ name: 'jev_gate', arguments: structuredClone(VALID_INPUTS.jev_gate!) });
    while (fake.count() === before.requests) await new Promise((r) => setTimeout(r, 20));
    const t0 = Date.now();
    served.child.kill('SIGTERM');
    const result = await call;
    assert.ok(Date.now() - t0 < 3_000, 'answered during shutdown, not at the client timeout');
    assert.equal(result.isError, true, 'an error result, never an approval');
    assert.equal(result.structuredContent, undefined);
    assert.match(JSON.stringify(result.content), /CANCELLED/);
    const { code } = await served.exited;
    assert.equal(code, 0);
    await fake.waitForClosedSockets(before.closed + 1, 5_000);
    const record = ledgerLines(ledger).at(-1)!;
    assert.equal(record.tool, 'jev_gate');
    assert.equal(record.error?.code, 'CANCELLED');
    assert.equal(alive(served.child.pid!), false);
  });
});

describe('serve --http configuration', () => {
  it('uses JEV_HTTP_TOKEN without printing it; the generated token is not accepted', async () => {
    const token = 'serve-http-fixed-token_0123456789ABCDEFGH';
    const served = await serve(cleanEnv({ JEV_HTTP_TOKEN: token }));
    try {
      assert.equal(served.token, undefined);
      assert.doesNotMatch(served.stderr(), new RegExp(token));
      assert.match(served.stderr(), /token from JEV_HTTP_TOKEN/);
      const client = await connect(served, token);
      assert.equal((await client.listTools()).tools.length, 14);
      assert.equal((await post(served.port, { authorization: 'Bearer x'.padEnd(50, 'y') }, RAW_INITIALIZE)).status, 401);
    } finally {
      served.child.kill('SIGTERM');
      assert.equal((await served.exited).code, 0);
    }
  });

  it('a JEV_HTTP_TOKEN shorter than 32 characters exits 2, naming the variable, without echoing it', async () => {
    const r = await serveFails(cleanEnv({ JEV_HTTP_TOKEN: 'short-secret-value' }), '0');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /CONFIG_ERROR: JEV_HTTP_TOKEN must be at least 32 characters \(got 18\)/);
    assert.doesNotMatch(r.stderr, /short-secret-value/);
    assert.equal(r.stdout, '');
  });

  it('JEV_HTTP_MAX_SESSIONS caps the sessions: the initialize past it gets 503 + Retry-After; a bad value exits 2 naming it', async () => {
    const served = await serve(cleanEnv({ JEV_HTTP_MAX_SESSIONS: '1', JEV_HTTP_SESSION_IDLE_MS: '60000' }));
    try {
      const auth = { authorization: `Bearer ${served.token}` };
      assert.equal((await post(served.port, auth, RAW_INITIALIZE)).status, 200);
      const refused = await post(served.port, auth, RAW_INITIALIZE);
      assert.equal(refused.status, 503);
      assert.match(String(refused.headers['retry-after']), /^\d+$/);
    } finally {
      served.child.kill('SIGTERM');
      assert.equal((await served.exited).code, 0);
    }
    for (const [name, value] of [['JEV_HTTP_MAX_SESSIONS', '0'], ['JEV_HTTP_SESSION_IDLE_MS', '10s']]) {
      const r = await serveFails(cleanEnv({ [name!]: value! }), '0');
      assert.equal(r.code, 2);
      assert.match(r.stderr, new RegExp(`CONFIG_ERROR: ${name} must be a whole number`));
    }
  });

  it('a bad PORT exits 2; a port already in use exits 3 saying so', async () => {
    for (const bad of ['abc', '65536', '80.5', '0x50', '']) {
      const r = await serveFails(cleanEnv(), bad);
      assert.equal(r.code, 2, bad);
      assert.match(r.stderr, /--http PORT must be an integer from 0 to 65535/);
    }
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    try {
      const port = (holder.address() as { port: number }).port;
      const r = await serveFails(cleanEnv(), String(port));
      assert.equal(r.code, 3);
      assert.match(r.stderr, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port} \\(EADDRINUSE\\)`));
    } finally {
      holder.close();
    }
  });
});
