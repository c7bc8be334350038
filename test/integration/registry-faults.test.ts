/**
 * Fault injection with the fixture server test/fixtures/servers/faulty.mjs:
 * fails to start, exits mid-call, hangs (timeout), prints banner lines on stdout (skipped, counted as a
 * warning), prints only banners and never answers initialize, floods stderr, returns a tool error — plus a
 * missing command (bare and absolute) and an unreachable HTTP server. Each gives a clear status or error
 * while the other servers keep serving; after shutdown no child process is left (checked by PID).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ToolCallError } from '../../src/registry/errors';
import { ToolRegistry } from '../../src/registry/registry';
import type { NamedServer, ServerConfig } from '../../src/registry/servers';
import { alive } from '../helpers/processes';
import { closedPort } from '../helpers/raw-http';

const FAULTY = join(__dirname, '..', 'fixtures', 'servers', 'faulty.mjs');
const CWD = join(__dirname, '..', '..');
const all = { name: 'ops', tools: ['*/*'] };

const fixture = (name: string, extra: string[] = [], over: Partial<ServerConfig> = {}): NamedServer => ({
  name,
  source: 'config',
  config: { command: process.execPath, args: [FAULTY, ...extra], cwd: CWD, ...over } as ServerConfig,
});

async function until<T>(what: string, probe: () => T | undefined, ms = 5_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function toolError(p: Promise<unknown>): Promise<ToolCallError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ToolCallError, `expected ToolCallError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the call to fail');
}

describe('registry faults', () => {
  let reg: ToolRegistry;
  const pids = new Set<number>();
  const notePids = () => {
    for (const v of reg.status()) if (v.status.pid) pids.add(v.status.pid);
  };
  /** The steady server must keep answering after every fault. */
  const steadyServes = async () => {
    const r = await reg.call('ops', all, 'steady/ok', {});
    assert.equal(r.ok, true);
  };

  before(async () => {
    const port = await closedPort();
    reg = new ToolRegistry({
      servers: [
        fixture('steady'),
        fixture('work', [], { timeoutMs: 400 }),
        fixture('dead', ['--exit-at-start']),
        fixture('noisy', ['--stdout-garbage-at-start']),
        { name: 'missing', source: 'config', config: { command: join(CWD, 'no-such-binary-here') } },
        { name: 'unknown', source: 'config', config: { command: 'no-such-command-jev', env: { PATH: '/nonexistent/bin:/also/not/here' } } },
        { name: 'offline', source: 'config', config: { url: `http://127.0.0.1:${port}/mcp` } },
      ],
      connection: { restart: { baseDelayMs: 150, maxDelayMs: 400, maxAttempts: 2 }, startupTimeoutMs: 10_000, stderrLines: 50, stderrLineChars: 80 },
    });
    await reg.start();
    notePids();
  });

  after(async () => {
    notePids();
    await reg.shutdown();
    assert.deepEqual([...pids].filter(alive), [], 'no child process is left after shutdown');
  });

  it('reports a server that fails to start with its exit code and stderr, then gives up after the restart budget', async () => {
    const view = () => reg.status().find((v) => v.name === 'dead')!;
    assert.ok(['error', 'starting'].includes(view().status.state));
    assert.match(view().status.reason ?? view().status.lastError ?? '', /^exited with code 2 during startup; last stderr: fatal: cannot open the widget database/);
    await until('the restart budget to run out', () => view().status.reason?.includes('gave up after 2 restart attempts'));
    assert.equal(view().status.state, 'error');
    assert.equal(view().status.reason, 'exited with code 2 during startup; last stderr: fatal: cannot open the widget database (gave up after 2 restart attempts)');
    assert.equal(view().status.restarts, 2);
    const err = await toolError(reg.call('ops', all, 'dead/ok', {}));
    assert.equal(err.kind, 'unavailable');
    await steadyServes();
  });

  it('reports a missing command as a start failure, without restart loops', async () => {
    const view = reg.status().find((v) => v.name === 'missing')!;
    assert.equal(view.status.state, 'error');
    assert.equal(view.status.reason, `cannot start ${JSON.stringify(join(CWD, 'no-such-binary-here'))}: no such file ${JSON.stringify(join(CWD, 'no-such-binary-here'))}`);
    assert.equal(view.status.nextRestartAt, undefined);
    await steadyServes();
  });

  it('reports a bare command missing from PATH with the PATH searched and a hint, never a raw ENOENT', async () => {
    const view = reg.status().find((v) => v.name === 'unknown')!;
    assert.equal(view.status.state, 'error');
    assert.equal(
      view.status.reason,
      'command "no-such-command-jev" not found on PATH (searched: /nonexistent/bin:/also/not/here); give its absolute path as "command" or add its folder to PATH',
    );
    assert.doesNotMatch(view.status.reason!, /ENOENT/);
    assert.equal(view.status.nextRestartAt, undefined);
    const err = await toolError(reg.call('ops', all, 'unknown/ok', {}));
    assert.match(err.message, /not found on PATH/);
  });

  it('reports an unreachable HTTP server', async () => {
    const view = reg.status().find((v) => v.name === 'offline')!;
    assert.equal(view.status.state, 'error');
    assert.match(view.status.reason!, /^cannot connect to http:\/\/127\.0\.0\.1:\d+\/mcp: /);
    await steadyServes();
  });

  it('skips a banner line on stdout before initialize: the server is ready, the line counted as a warning and logged', async () => {
    const conn = reg.server('noisy')!;
    assert.equal(conn.status.state, 'ready', conn.status.reason);
    assert.equal(conn.status.stdoutSkipped, 1);
    assert.equal(conn.status.warning, 'skipped 1 stdout line that is not JSON-RPC (last: "Widget server listening on port 4242")');
    assert.ok(conn.stderr.includes('[stdout skipped] noisy: Widget server listening on port 4242'), conn.stderr.join('\n'));
    assert.equal((await reg.call('ops', all, 'noisy/ok', {})).ok, true);
  });

  it('fails a server that prints only banners and never completes initialize at its startup timeout, naming the output', async () => {
    const banner = new ToolRegistry({ servers: [fixture('banner', ['--banner-only'])], connection: { startupTimeoutMs: 1_000, restart: { maxAttempts: 0 }, treeClose: { graceMs: 100, termMs: 500 } } });
    try {
      const [view] = await banner.start();
      assert.equal(view.status.state, 'error');
      assert.equal(
        view.status.reason,
        'did not finish initialize within 1000 ms; it printed 2 lines on stdout that are not JSON-RPC (last: "loading plugins (this can take a while)") (gave up after 0 restart attempts)',
      );
    } finally {
      await banner.shutdown();
    }
  });

  it('times out a server that never answers initialize, and kills it', async () => {
    const silent = new ToolRegistry({ servers: [fixture('silent', ['--silent'])], connection: { startupTimeoutMs: 1_500, restart: { maxAttempts: 0 } } });
    try {
      const [view] = await silent.start();
      assert.equal(view.status.state, 'error');
      assert.match(view.status.reason!, /^did not finish initialize within 1500 ms; last stderr: silent server pid \d+ \(gave up after 0 restart attempts\)$/);
      const pid = Number(/pid (\d+)/.exec(view.status.reason!)![1]);
      await until('the silent child to be gone', () => !alive(pid));
    } finally {
      await silent.shutdown();
    }
    await steadyServes();
  });

  it('returns a tool error as a tool error, the connection stays ready', async () => {
    const err = await toolError(reg.call('ops', all, 'work/fail', {}));
    assert.equal(err.kind, 'tool_error');
    assert.equal(err.message, 'work/fail reported an error: the widget is broken');
    assert.equal(err.tool, 'work/fail');
    assert.equal(reg.server('work')!.status.state, 'ready');
    await steadyServes();
  });

  it('times out a hanging call after the per-server timeout, and keeps serving', async () => {
    const started = Date.now();
    const err = await toolError(reg.call('ops', all, 'work/hang', {}));
    const took = Date.now() - started;
    assert.equal(err.kind, 'timeout');
    assert.equal(err.message, 'work/hang did not answer within 400 ms (per-call timeout of server "work", restarted by each progress notification); it was cancelled.');
    assert.ok(took >= 390 && took < 3_000, `took ${took} ms`);
    assert.equal(reg.server('work')!.status.state, 'ready');
    assert.equal((await reg.call('ops', all, 'work/ok', {})).ok, true);
    // A per-call override wins over the server's timeout.
    const quick = Date.now();
    assert.equal((await toolError(reg.call('ops', all, 'work/hang', {}, { timeoutMs: 100 }))).kind, 'timeout');
    assert.ok(Date.now() - quick < 390);
    await steadyServes();
  });

  it('keeps stderr bounded while a server floods it, and the call still answers', async () => {
    const r = await reg.call('ops', all, 'work/flood', { bytes: 5_000_000 }, { timeoutMs: 30_000 });
    assert.equal(r.flooded, 5_000_000);
    const conn = reg.server('work')!;
    assert.ok(conn.stderr.length <= 50, `kept ${conn.stderr.length} lines`);
    assert.ok(conn.stderr.every((l) => l.length <= 81));
    assert.ok(conn.stderrDropped >= 40_000);
    assert.equal(conn.status.state, 'ready');
    await steadyServes();
  });

  it('refreshes the tool list on tools/list_changed', async () => {
    assert.equal(reg.resolve('work/extra'), undefined);
    await reg.call('ops', all, 'work/add_tool', {});
    await until('work/extra to be listed', () => reg.resolve('work/extra'));
    assert.deepEqual(await reg.call('ops', all, 'work/extra', {}), { extra: true });
  });

  it('skips a non-JSON line printed on stdout during a call: the call answers, the connection stays ready', async () => {
    const before = reg.server('work')!.status.pid!;
    const skipped = reg.server('work')!.status.stdoutSkipped ?? 0;
    assert.deepEqual(await reg.call('ops', all, 'work/garbage', {}), { answered: true });
    const status = reg.server('work')!.status;
    assert.equal(status.state, 'ready');
    assert.equal(status.pid, before, 'no restart');
    assert.equal(status.stdoutSkipped, skipped + 1);
    assert.match(status.warning!, /\(last: "DEBUG widget state: all good"\)$/);
    await steadyServes();
  });

  it('fails a call whose server exits mid-call with the exit code and stderr, then restarts with backoff', async () => {
    const before = reg.server('work')!.status.pid!;
    pids.add(before);
    const err = await toolError(reg.call('ops', all, 'work/crash', {}));
    assert.equal(err.kind, 'transport');
    // The session's last stderr lines: the flood's (cut to 80 characters) and the crash note.
    assert.match(err.message, /^Server "work" failed during the call to crash: it exited with code 3; last stderr: (x{80}… \| ){2}about to crash: widget overflow\.$/);
    const status = reg.server('work')!.status;
    assert.equal(status.state, 'error');
    assert.ok(status.nextRestartAt! > Date.now() - 50, 'a restart is scheduled');
    const denied = await toolError(reg.call('ops', all, 'work/ok', {}));
    assert.equal(denied.kind, 'unavailable');
    assert.match(denied.message, /^Server "work" is not available \(error: exited with code 3; .*; restarting in \d+ ms\)\.$/);
    await steadyServes();
    await until('work to be ready again', () => reg.server('work')!.status.state === 'ready');
    const after = reg.server('work')!.status.pid!;
    pids.add(after);
    assert.notEqual(after, before);
    assert.equal(alive(before), false);
    assert.equal((await reg.call('ops', all, 'work/ok', {})).pid, after);
  });
});
