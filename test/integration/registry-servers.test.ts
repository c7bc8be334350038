/**
 * ToolRegistry against real MCP servers: @modelcontextprotocol/server-everything
 * over stdio, @modelcontextprotocol/server-filesystem on a temporary folder, and a Streamable HTTP SDK
 * server on 127.0.0.1. Tools listed and called, grants enforced before any transport is touched (counted
 * at the connection and at the HTTP server), qualified ids, bare-name resolution order, describe().
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { McpConnection } from '../../src/registry/connection';
import { CapabilityViolation, ToolNotFoundError } from '../../src/registry/errors';
import { prepare } from '../../src/registry/prepare';
import { ToolRegistry, type RegistryEvent } from '../../src/registry/registry';
import type { NamedServer } from '../../src/registry/servers';
import { startHttpMcpServer, type TestHttpServer } from '../helpers/mcp-http-server';
import { alive } from '../helpers/processes';

const root = join(__dirname, '..', '..');
const EVERYTHING = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const FILESYSTEM = join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const TOKEN = 'test-token-not-a-secret';

/** Counts calls that reach a connection's transport (a spy on our own class, not on the SDK). */
function countCalls(conn: McpConnection): () => number {
  let n = 0;
  const original = conn.callTool.bind(conn);
  conn.callTool = (...args: Parameters<McpConnection['callTool']>) => {
    n++;
    return original(...args);
  };
  return () => n;
}

describe('registry with real MCP servers (stdio + Streamable HTTP)', () => {
  let dir: string;
  let web: TestHttpServer;
  let main: ToolRegistry;
  let webFirst: ToolRegistry;
  const events: RegistryEvent[] = [];
  const pids: number[] = [];

  const servers = (): Record<string, NamedServer> => ({
    everything: { name: 'everything', source: 'config', config: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
    files: { name: 'files', source: 'config', config: { command: process.execPath, args: [FILESYSTEM, dir] } },
    web: { name: 'web', source: 'config', config: { url: web.url, headers: { Authorization: `Bearer ${TOKEN}` } } },
  });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jev-registry-fs-'));
    writeFileSync(join(dir, 'notes.txt'), 'the parser fails on empty input\n');
    web = await startHttpMcpServer(TOKEN);
    const s = servers();
    main = new ToolRegistry({ servers: [s.everything, s.files, s.web], onEvent: (e) => events.push(e) });
    webFirst = new ToolRegistry({ servers: [s.web, s.everything] });
    const [a, b] = await Promise.all([main.start(), webFirst.start()]);
    for (const view of [...a, ...b]) {
      assert.equal(view.status.state, 'ready', `${view.name}: ${view.status.reason}`);
      if (view.status.pid) pids.push(view.status.pid);
    }
  });

  after(async () => {
    await main?.shutdown();
    await webFirst?.shutdown();
    await web?.close();
    assert.deepEqual(pids.filter(alive), [], 'stdio children are gone after shutdown');
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists each server’s tools under qualified ids, with transports and targets', () => {
    const view = main.status();
    assert.deepEqual(view.map((v) => [v.name, v.transport, v.status.state]), [
      ['everything', 'stdio', 'ready'],
      ['files', 'stdio', 'ready'],
      ['web', 'http', 'ready'],
    ]);
    assert.ok(view[0].tools.includes('everything/echo') && view[0].tools.includes('everything/get-sum'));
    assert.ok(view[1].tools.includes('files/read_text_file') && view[1].tools.includes('files/write_file'));
    assert.deepEqual(view[2].tools, ['web/echo', 'web/add']);
    assert.equal(view[2].target, new URL(web.url).origin + '/mcp');
    assert.ok(!JSON.stringify(view).includes(TOKEN), 'headers never appear in status');
    assert.equal(view[0].timeoutMs, 60_000);
  });

  it('calls tools on every transport through one persistent connection each', async () => {
    const all = { name: 'ops', tools: ['*/*'] };
    const pid = main.server('everything')!.status.pid;
    assert.deepEqual(await main.call('ops', all, 'everything/echo', { message: 'hi' }), { text: 'Echo: hi' });
    assert.deepEqual(await main.call('ops', all, 'everything/get-sum', { a: 2, b: 40 }), { text: 'The sum of 2 and 40 is 42.' });
    const read = await main.call('ops', all, 'files/read_text_file', { path: join(dir, 'notes.txt') });
    assert.match(JSON.stringify(read), /the parser fails on empty input/);
    const before = web.toolCalls();
    assert.deepEqual(await main.call('ops', all, 'web/add', { a: 2, b: 3 }), { sum: 5 });
    assert.equal(web.toolCalls(), before + 1);
    for (let i = 0; i < 20; i++) await main.call('ops', all, 'everything/echo', { message: String(i) });
    assert.equal(main.server('everything')!.status.pid, pid, 'no respawn per call');
  });

  it('resolves a bare name to the first configured server that has it, and reports the qualified id', async () => {
    const bare = { name: 'bare', tools: ['echo', 'add'] };
    events.length = 0;
    assert.deepEqual(await main.call('bare', bare, 'echo', { message: 'x' }), { text: 'Echo: x' });
    assert.deepEqual(await webFirst.call('bare', bare, 'echo', { message: 'x' }), { echo: 'x' });
    assert.deepEqual(await main.call('bare', bare, 'add', { a: 1, b: 1 }), { sum: 2 });
    assert.equal(main.resolve('echo')?.id, 'everything/echo');
    assert.equal(webFirst.resolve('echo')?.id, 'web/echo');
    assert.deepEqual(main.nameConflicts(), ['tool "echo" is offered by everything, web; a bare "echo" resolves to everything/echo']);
    assert.deepEqual(webFirst.nameConflicts(), ['tool "echo" is offered by web, everything; a bare "echo" resolves to web/echo']);
    const ids = events.filter((e) => e.type === 'tool.call').map((e) => (e as { tool: string }).tool);
    assert.deepEqual(ids, ['everything/echo', 'web/add']);
    // The bare grant "echo" reaches only the tool a bare call resolves to.
    await assert.rejects(main.call('bare', bare, 'web/echo', { message: 'x' }), (err: unknown) => {
      assert.ok(err instanceof CapabilityViolation);
      assert.match(err.message, /a bare call of echo resolves to another server/);
      return true;
    });
  });

  it('enforces grants before any transport is touched', async () => {
    const reader = { name: 'reader', tools: ['files/*', '!files/write_file', 'echo'] };
    const filesCalls = countCalls(main.server('files')!);
    const everythingCalls = countCalls(main.server('everything')!);
    const webCalls = countCalls(main.server('web')!);
    const httpBefore = web.toolCalls();
    const target = join(dir, 'written.txt');
    const denied: [string, Record<string, unknown>][] = [
      ['files/write_file', { path: target, content: 'x' }],
      ['write_file', { path: target, content: 'x' }],
      ['web/add', { a: 1, b: 2 }],
      ['add', { a: 1, b: 2 }],
      ['get-sum', { a: 1, b: 2 }],
      ['everything/get-env', {}],
    ];
    for (const [tool, params] of denied) {
      await assert.rejects(main.call('reader', reader, tool, params), CapabilityViolation, tool);
    }
    assert.equal(filesCalls(), 0);
    assert.equal(everythingCalls(), 0);
    assert.equal(webCalls(), 0);
    assert.equal(web.toolCalls(), httpBefore, 'no tools/call reached the HTTP server');
    assert.equal(existsSync(target), false);
    const deniedEvents = events.filter((e) => e.type === 'tool.denied').map((e) => (e as { tool: string; rule: string | null }));
    assert.ok(deniedEvents.some((e) => e.tool === 'files/write_file' && e.rule === '!files/write_file'));
    // Allowed calls do reach the transport.
    await main.call('reader', reader, 'files/list_allowed_directories', {});
    await main.call('reader', reader, 'echo', { message: 'ok' });
    assert.equal(filesCalls(), 1);
    assert.equal(everythingCalls(), 1);
  });

  it('raises not-found for granted but unknown tools', async () => {
    const all = { name: 'ops', tools: ['*/*', '*'] };
    await assert.rejects(main.call('ops', all, 'files/nope', {}), (err: unknown) => err instanceof ToolNotFoundError && /server "files" has no such tool/.test(err.message));
    await assert.rejects(main.call('ops', all, 'ghost/tool', {}), (err: unknown) => err instanceof ToolNotFoundError && /no server named "ghost" is configured/.test(err.message));
    await assert.rejects(main.call('ops', all, 'nothing_has_this', {}), ToolNotFoundError);
  });

  it('checks params against the server’s real inputSchema in the host, same as in-process', async () => {
    const all = { name: 'ops', tools: ['*/*'] };
    const webCalls = countCalls(main.server('web')!);
    await assert.rejects(main.call('ops', all, 'web/add', { a: 1, b: 'two' }), /web\/add: params\.b: must be number/);
    await assert.rejects(main.call('ops', all, 'everything/echo', {}), /params: must have required property 'message'/);
    assert.equal(webCalls(), 0);
  });

  it('describes tools from any transport, in-process descriptions first', () => {
    const text = main.describe(['echo', 'files/read_text_file', 'web/add', 'nope']);
    const lines = text.split('\n');
    assert.equal(lines.length, 3);
    assert.equal(lines[0], `- echo: ${main.server('everything')!.tools.find((t) => t.name === 'echo')!.description}`);
    assert.match(lines[1], /^- files\/read_text_file: \S/);
    assert.equal(lines[2], '- web/add: Add two numbers over HTTP.');
    assert.equal(main.describe(['nope']), '');
    main.register({ name: 'echo', description: 'Echo, in-process.', run: (p) => ({ echoed: p.message }) });
    try {
      assert.equal(main.describe(['echo']), '- echo: Echo, in-process.');
      assert.equal(main.resolve('echo')?.transport, 'in-process');
      assert.match(main.describeGranted({ name: 'x', tools: ['echo', 'web/*'] }), /^- echo: Echo, in-process\.\n- web\/echo: Echo over HTTP\.\n- web\/add: Add two numbers over HTTP\.$/);
    } finally {
      main.unregister('echo');
    }
  });

  it('prepares candidates from the servers’ real schemas and annotations', () => {
    const reader = { name: 'reader', tools: ['files/*', '!files/write_file'] };
    const { candidates, facts } = prepare(main, reader, [
      { id: 'read', name: 'read_text_file', arguments: { path: join(dir, 'notes.txt') }, preconditions_met: true },
      { id: 'write', name: 'write_file', arguments: { path: join(dir, 'x.txt') }, schema_valid: true, authorized: true, preconditions_met: true },
      { id: 'mkdir', name: 'files/create_directory', arguments: { path: join(dir, 'sub') }, preconditions_met: true },
    ]);
    assert.deepEqual(
      candidates.map((c) => [c.name, c.schema_valid, c.authorized, c.effect]),
      [
        ['files/read_text_file', true, true, 'read_only'],
        ['files/write_file', false, false, 'destructive'],
        ['files/create_directory', true, true, 'local_write'],
      ],
    );
    assert.match(facts[1].schema_valid.detail, /must have required property 'content'/);
    assert.match(facts[1].authorized.detail, /denied by "!files\/write_file"/);
  });

  it('warns at load about grants that match no tool', () => {
    const warnings = main.grantWarnings([{ name: 'typo', tools: ['files/read_fiel', 'web/*', 'echo'] }]);
    assert.deepEqual(warnings, ['agent "typo": grant "files/read_fiel" matches no known tool']);
  });

  it('leaves no child process after shutdown', async () => {
    const reg = new ToolRegistry({ servers: [servers().everything, { ...servers().files, name: 'files2' }] });
    const views = await reg.start();
    const mine = views.map((v) => v.status.pid!);
    assert.ok(mine.every((p) => typeof p === 'number' && alive(p)));
    await reg.shutdown();
    assert.deepEqual(mine.filter(alive), []);
    assert.deepEqual(reg.status().map((v) => v.status.state), ['closed', 'closed']);
    await assert.rejects(reg.call('ops', { name: 'ops', tools: ['*/*'] }, 'everything/echo', { message: 'x' }), /not available \(closed\)/);
    assert.ok(readFileSync(join(dir, 'notes.txt'), 'utf8').length > 0);
  });
});
