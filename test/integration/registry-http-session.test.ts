/**
 * Streamable HTTP sessions of the registry's client: closing a connection (shutdown or restart) ends its
 * session with DELETE, checked at a real SDK server on 127.0.0.1 (test/helpers/mcp-http-server.ts, which
 * records DELETEs and open sessions) and at the npm `@modelcontextprotocol/server-everything` run as a
 * Streamable HTTP server (it logs each session termination it receives). A server's
 * notifications/tools/list_changed refreshes its tools in the registry.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ToolRegistry, type RegistryEvent } from '../../src/registry/registry';
import { startHttpMcpServer, type TestHttpServer } from '../helpers/mcp-http-server';
import { closedPort } from '../helpers/raw-http';

const root = join(__dirname, '..', '..');
const EVERYTHING = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const all = { name: 'ops', tools: ['*/*'] };

async function until<T>(what: string, probe: () => T | undefined | false, ms = 8_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('Streamable HTTP sessions: DELETE on close, tools/list_changed refreshes', () => {
  let web: TestHttpServer;
  before(async () => {
    web = await startHttpMcpServer(undefined, { addTool: true });
  });
  after(() => web?.close());

  it('shutdown ends the session with DELETE', async () => {
    const reg = new ToolRegistry({ servers: [{ name: 'web', source: 'config', config: { url: web.url } }] });
    const [view] = await reg.start();
    assert.equal(view!.status.state, 'ready', view!.status.reason);
    const sid = reg.server('web')!.client!.transport!.sessionId!;
    assert.ok(web.openSessions().includes(sid));
    await reg.shutdown();
    assert.ok(web.deletes().includes(sid), 'the server got DELETE for the session');
    assert.ok(!web.openSessions().includes(sid), 'and closed it');
  });

  it('a restart ends the old session with DELETE before the new one starts', async () => {
    const reg = new ToolRegistry({ servers: [{ name: 'web', source: 'config', config: { url: web.url } }] });
    await reg.start();
    const conn = reg.server('web')!;
    const first = conn.client!.transport!.sessionId!;
    assert.equal((await conn.restart()).state, 'ready');
    const second = conn.client!.transport!.sessionId!;
    assert.notEqual(second, first);
    assert.ok(web.deletes().includes(first));
    assert.ok(!web.openSessions().includes(first));
    await reg.shutdown();
    assert.ok(web.deletes().includes(second));
  });

  it('notifications/tools/list_changed refreshes the server’s tools', async () => {
    const events: RegistryEvent[] = [];
    const reg = new ToolRegistry({ servers: [{ name: 'web', source: 'config', config: { url: web.url } }], onEvent: (e) => events.push(e) });
    try {
      await reg.start();
      assert.equal(reg.resolve('web/extra'), undefined);
      await reg.call('ops', all, 'web/add_tool', {});
      await until('web/extra to be listed', () => reg.resolve('web/extra'));
      assert.deepEqual(await reg.call('ops', all, 'web/extra', {}), { extra: true });
      const listed = events.filter((e): e is Extract<RegistryEvent, { type: 'server.tools' }> => e.type === 'server.tools');
      assert.ok(listed.at(-1)!.tools.includes('web/extra'));
      assert.ok(listed.length >= 2, 'one listing at start, one after the notification');
    } finally {
      await reg.shutdown();
    }
  });
});

describe('server-everything over Streamable HTTP', () => {
  let child: ChildProcess;
  let url: string;
  let stdout = '';
  before(async () => {
    const port = await closedPort();
    child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    await until('server-everything to listen', () => /listening on port/i.test(stderr + stdout), 15_000);
    url = `http://127.0.0.1:${port}/mcp`;
  });
  after(() => {
    child?.kill('SIGKILL');
  });

  it('gets DELETE for the session when the registry shuts down', async () => {
    const reg = new ToolRegistry({ servers: [{ name: 'everything', source: 'config', config: { url } }] });
    const [view] = await reg.start();
    assert.equal(view!.status.state, 'ready', view!.status.reason);
    assert.ok(view!.tools.includes('everything/echo'));
    assert.deepEqual(await reg.call('ops', all, 'everything/echo', { message: 'hi' }), { text: 'Echo: hi' });
    const sid = reg.server('everything')!.client!.transport!.sessionId!;
    assert.ok(sid);
    await reg.shutdown();
    await until('the termination to be logged', () => stdout.includes(`Received session termination request for session ${sid}`));
  });
});
