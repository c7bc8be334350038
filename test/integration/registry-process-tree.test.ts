/**
 * No orphaned processes: closing a stdio server ends its whole process tree, checked by PID for a plain
 * node server, an `sh -c "node server.js"` wrapper and an npx-style launcher (a node script that spawns
 * the real server and forwards no signal). The real server lingers after stdin closes and ignores SIGTERM
 * (test/fixtures/servers/faulty.mjs --linger --ignore-term), so only the process-group kill ends it. Every
 * process of a tree appends its pid to a pid file. Cases: close, four restarts, the wrapper killed
 * (crash), and the real `jevcp servers` / `jevcp step --execute` processes, also for a server the step
 * never used. POSIX only: the Windows path (taskkill /T /F) is not exercised here.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EXIT_TERM_MS, SIGNAL_BACKSTOP_MS } from '../../src/registry/process-tree';
import { ToolRegistry } from '../../src/registry/registry';
import type { ServerConfig } from '../../src/registry/servers';
import { startFakeSystemOne, type FakeSystemOne } from '../helpers/fake-systemone';
import { firstCallAnswerer } from '../helpers/step-answers';
import { alive, allGone, capture } from '../helpers/processes';

const root = join(__dirname, '..', '..');
const FAULTY = join(root, 'test', 'fixtures', 'servers', 'faulty.mjs');
const LAUNCHER = join(root, 'test', 'fixtures', 'servers', 'launcher.mjs');
const CLI = join(root, 'dist', 'cli.js');
const NASTY = ['--linger', '--ignore-term'];
const FAST_CLOSE = { graceMs: 300, termMs: 300 };
const all = { name: 'ops', tools: ['*/*'] };

type Style = 'node' | 'sh -c' | 'launcher';
const STYLES: Style[] = ['node', 'sh -c', 'launcher'];
/** Processes per tree: the server, plus the wrapper for the wrapped styles. */
const TREE_SIZE: Record<Style, number> = { node: 1, 'sh -c': 2, launcher: 2 };

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function serverConfig(style: Style, pidFile: string, extra: string[] = NASTY): ServerConfig {
  const server = [FAULTY, '--pid-file', pidFile, ...extra];
  if (style === 'node') return { command: process.execPath, args: server };
  if (style === 'launcher') return { command: process.execPath, args: [LAUNCHER, '--pid-file', pidFile, ...server] };
  // `; true` keeps sh as the parent (no exec of the last command), as a real wrapper script does.
  return { command: 'sh', args: ['-c', `echo $$ >> ${q(pidFile)}; ${[process.execPath, ...server].map(q).join(' ')}; true`] };
}

function pidsIn(file: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
}

async function until<T>(what: string, probe: () => T | undefined | false, ms = 8_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('closing a stdio server ends its whole process tree', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'jev-tree-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const pidFile = () => join(dir, `pids-${++n}.txt`);

  const open = (style: Style, file: string, extra?: string[]) =>
    new ToolRegistry({
      servers: [{ name: 'srv', source: 'config', config: serverConfig(style, file, extra) }],
      connection: { treeClose: FAST_CLOSE, restart: { baseDelayMs: 50, maxDelayMs: 100 } },
    });

  for (const style of STYLES) {
    describe(style, () => {
      it('close ends every process of the tree (SIGKILL to the group when SIGTERM is ignored)', async () => {
        const file = pidFile();
        const reg = open(style, file);
        const [view] = await reg.start();
        assert.equal(view!.status.state, 'ready', view!.status.reason);
        const pids = await until('the tree to write its pids', () => pidsIn(file).length === TREE_SIZE[style] && pidsIn(file));
        assert.ok(pids.every(alive), 'the tree runs while the server is open');
        assert.equal(view!.status.pid, pids[0], 'the status pid is the process we spawned (the group leader)');
        const started = Date.now();
        await reg.shutdown();
        const took = Date.now() - started;
        assert.deepEqual(pids.filter(alive), [], 'nothing of the tree runs after close');
        assert.ok(took < FAST_CLOSE.graceMs + FAST_CLOSE.termMs + 1_500, `close took ${took} ms`);
      });

      it('a well-behaved tree ends within the grace period after stdin closes', async () => {
        const file = pidFile();
        const reg = new ToolRegistry({ servers: [{ name: 'srv', source: 'config', config: serverConfig(style, file, []) }], connection: { treeClose: { graceMs: 3_000, termMs: 300 } } });
        await reg.start();
        const pids = await until('pids', () => pidsIn(file).length === TREE_SIZE[style] && pidsIn(file));
        const started = Date.now();
        await reg.shutdown();
        assert.ok(Date.now() - started < 3_000, `ended by closing stdin, took ${Date.now() - started} ms`);
        assert.deepEqual(pids.filter(alive), []);
      });

      it('four restarts leave no orphan', async () => {
        const file = pidFile();
        const reg = open(style, file);
        await reg.start();
        const conn = reg.server('srv')!;
        for (let i = 1; i <= 4; i++) {
          const before = await until('pids', () => pidsIn(file).length === TREE_SIZE[style] * i && pidsIn(file));
          const status = await conn.restart();
          assert.equal(status.state, 'ready', status.reason);
          assert.deepEqual(before.filter(alive), [], `restart ${i}: the previous trees are gone`);
        }
        const last = await until('pids', () => pidsIn(file).length === TREE_SIZE[style] * 5 && pidsIn(file).slice(-TREE_SIZE[style]));
        assert.ok(last.every(alive));
        await reg.shutdown();
        assert.deepEqual(pidsIn(file).filter(alive), []);
      });

      it('a crash of the spawned process (the wrapper) takes the rest of its tree with it, then restarts', async () => {
        const file = pidFile();
        const reg = open(style, file);
        await reg.start();
        const first = await until('pids', () => pidsIn(file).length === TREE_SIZE[style] && pidsIn(file));
        const conn = reg.server('srv')!;
        process.kill(conn.status.pid!, 'SIGKILL');
        await allGone(first);
        await until('the restart', () => conn.status.state === 'ready' && conn.status.pid !== first[0]);
        assert.equal((await reg.call('ops', all, 'srv/ok', {})).ok, true);
        await reg.shutdown();
        assert.deepEqual(pidsIn(file).filter(alive), []);
      });
    });
  }
});

describe('jevcp runs leave no server process behind', () => {
  let ws: string;
  let upstream: FakeSystemOne;
  const files: Record<string, string> = {};

  before(async () => {
    assert.ok(existsSync(CLI), 'npm run build first');
    ws = mkdtempSync(join(tmpdir(), 'jev-tree-cli-'));
    mkdirSync(join(ws, '.jev'));
    const servers: Record<string, ServerConfig> = {};
    for (const [name, style] of [['plain', 'node'], ['wrapped', 'sh -c'], ['launched', 'launcher']] as const) {
      files[name] = join(ws, `${name}.pids`);
      servers[name] = serverConfig(style, files[name]);
    }
    writeFileSync(join(ws, '.jev', 'config.json'), JSON.stringify({ agents: [{ name: 'ops', tools: ['launched/ok'] }], servers }));
    // A judge that routes to tools and picks the first eligible call (so --execute runs launched/ok).
    upstream = await startFakeSystemOne();
    upstream.setAnswerer(firstCallAnswerer);
  });

  after(async () => {
    await upstream?.close();
    rmSync(ws, { recursive: true, force: true });
  });

  const everyPid = () => Object.values(files).flatMap(pidsIn);
  const env = () => ({ PATH: process.env.PATH ?? '', HOME: ws, JEV_BASE_URL: upstream.url, JEV_LEDGER: join(ws, 'ledger.jsonl') });

  it('jevcp servers', async () => {
    const before = everyPid().length;
    const run = await capture(process.execPath, [CLI, 'servers', '--json'], { cwd: ws, env: env() });
    assert.equal(run.code, 0, run.output);
    const printed = JSON.parse(run.stdout) as { servers: { name: string; status: { state: string } }[] };
    assert.deepEqual(printed.servers.map((s) => [s.name, s.status.state]), [['plain', 'ready'], ['wrapped', 'ready'], ['launched', 'ready']]);
    const pids = everyPid();
    assert.equal(pids.length - before, 5, 'one plain server, two trees of two');
    assert.deepEqual(pids.filter(alive), [], 'no server process outlives jevcp servers');
  });

  it('jevcp step --execute, also for the servers the step never used', async () => {
    const request = join(ws, 'turn.jev.json');
    writeFileSync(request, JSON.stringify({
      tool: 'jev_step',
      task: 'Check the widget server answers',
      observation: 'Nothing checked yet.',
      candidates: [{ id: 'ping', name: 'launched/ok', arguments: {}, description: 'Ask the server', preconditions_met: true }],
    }));
    const before = everyPid().length;
    const run = await capture(process.execPath, [CLI, 'step', request, '--agent', 'ops', '--execute', '--json'], { cwd: ws, env: env() });
    assert.equal(run.code, 0, run.output);
    const printed = JSON.parse(run.stdout) as { execution: { executed: boolean; ok: boolean; tool: string } };
    assert.deepEqual([printed.execution.executed, printed.execution.ok, printed.execution.tool], [true, true, 'launched/ok']);
    assert.equal(everyPid().length - before, 5, 'every configured server was started, used or not');
    assert.deepEqual(everyPid().filter(alive), [], 'no server process outlives jevcp step --execute');
  });
});

describe('a host process that goes away without closing its servers takes their trees with it', () => {
  const HOST = join(root, 'test', 'fixtures', 'hosts', 'registry-host.ts');
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'jev-tree-host-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;

  /** Starts the host with an `sh -c` and a launcher tree (both nasty); resolves once all four pids run. */
  async function startHost(flags: string[] = []) {
    const files = [join(dir, `sh-${++n}.pids`), join(dir, `launcher-${n}.pids`)];
    const servers = [
      { name: 'wrapped', source: 'config', config: serverConfig('sh -c', files[0]!) },
      { name: 'launched', source: 'config', config: serverConfig('launcher', files[1]!) },
    ];
    const child = spawn(process.execPath, ['--import', 'tsx', HOST, JSON.stringify(servers), ...flags], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
    let pids: number[];
    try {
      await until(`the host to be ready (${out})`, () => out.includes('ready\n'), 20_000);
      pids = await until('four pids', () => (files.flatMap(pidsIn).length === 4 ? files.flatMap(pidsIn) : undefined));
    } catch (err) {
      // A host that did not come up must not stay behind (its watchdog then ends what it started).
      child.kill('SIGKILL');
      throw err;
    }
    assert.ok(pids.every(alive), 'every tree runs while the host does');
    return { child, pids, exited, output: () => out };
  }

  it('process.exit without a shutdown: the exit hook sends SIGTERM, then SIGKILL to what ignores it', async () => {
    const host = await startHost();
    host.child.stdin.write('exit\n');
    assert.deepEqual(await host.exited, { code: 0, signal: null });
    await allGone(host.pids, 1_000);
  });

  it('an uncaught exception in the host', async () => {
    const host = await startHost();
    host.child.stdin.write('throw\n');
    assert.equal((await host.exited).code, 1, host.output());
    await allGone(host.pids, 1_000);
  });

  it('SIGTERM nobody else handles: the hook ends the trees, then the host dies of the signal', async () => {
    const host = await startHost();
    host.child.kill('SIGTERM');
    assert.deepEqual(await host.exited, { code: null, signal: 'SIGTERM' });
    await allGone(host.pids, 1_000);
  });

  it('SIGTERM the host handles itself (as an editor does) by exiting: the exit hook ends the trees', async () => {
    const host = await startHost(['--own-sigterm']);
    host.child.kill('SIGTERM');
    assert.deepEqual(await host.exited, { code: 0, signal: null });
    await allGone(host.pids, 1_000);
  });

  /** Pids of the host's children that run the watchdog program (`<runtime> -e …`), from /proc. */
  function watchdogsOf(hostPid: number): number[] {
    const out: number[] = [];
    for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
        if (ppid === hostPid && argv[1] === '-e') out.push(Number(entry));
      } catch {
        // gone meanwhile
      }
    }
    return out;
  }

  it('SIGKILL to the host (no hook of its own runs): its one watchdog ends the trees within a few seconds, then exits', async () => {
    const host = await startHost();
    try {
      const watchdog = Number(/^watchdog (\d+)$/m.exec(host.output())?.[1]);
      assert.ok(watchdog > 1 && alive(watchdog), `a watchdog runs beside the host (${host.output()})`);
      assert.deepEqual(watchdogsOf(host.child.pid!), [watchdog], 'one watchdog for the host, not one per server');
      const killed = Date.now();
      host.child.kill('SIGKILL');
      assert.deepEqual(await host.exited, { code: null, signal: 'SIGKILL' });
      await allGone(host.pids, 4_000);
      const took = Date.now() - killed;
      await allGone([watchdog], 1_000);
      assert.ok(took < 4_000, `trees ended ${took} ms after the SIGKILL`);
    } finally {
      // A failed check must not leave the nasty servers (they ignore SIGTERM) or the host running.
      host.child.kill('SIGKILL');
      for (const pid of host.pids.filter(alive)) process.kill(pid, 'SIGKILL');
    }
  });

  it('the watchdog does not outlive its job: closing the last server ends it while the host runs on', async () => {
    const host = await startHost();
    const watchdog = Number(/^watchdog (\d+)$/m.exec(host.output())?.[1]);
    assert.ok(watchdog > 1 && alive(watchdog));
    try {
      host.child.stdin.write('shutdown\n');
      await until('the orderly shutdown', () => host.output().includes('closed watchdog none\n'));
      await allGone(host.pids, 1_000);
      await allGone([watchdog], 2_000);
      assert.equal(host.child.exitCode, null, 'the host itself still runs');
    } finally {
      host.child.kill('SIGKILL');
      await host.exited;
      for (const pid of host.pids.filter(alive)) process.kill(pid, 'SIGKILL');
    }
  });

  it('SIGTERM the host handles but does not exit on: the trees are ended after the backstop, the host still runs', async () => {
    const host = await startHost(['--deaf-sigterm']);
    const sent = Date.now();
    host.child.kill('SIGTERM');
    try {
      await new Promise((r) => setTimeout(r, SIGNAL_BACKSTOP_MS - 500));
      assert.ok(host.pids.every(alive), 'the host’s own handler gets the backstop time first');
      await allGone(host.pids, 2_000);
      const took = Date.now() - sent;
      assert.ok(took >= SIGNAL_BACKSTOP_MS && took < SIGNAL_BACKSTOP_MS + EXIT_TERM_MS + 1_000, `ended ${took} ms after SIGTERM`);
      assert.equal(host.child.exitCode, null, 'the host itself still runs');
    } finally {
      host.child.kill('SIGKILL');
      await host.exited;
    }
  });
});
