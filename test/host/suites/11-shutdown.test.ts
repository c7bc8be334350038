/**
 * No orphaned server processes when the extension goes away. Each server here is the nasty kind: the real
 * server (test/fixtures/servers/faulty.mjs --linger --ignore-term) keeps running after its stdin closes and
 * ignores SIGTERM, and sits behind a wrapper: `sh -c "node faulty.mjs …; true"` or an npx-style launcher
 * (test/fixtures/servers/launcher.mjs) that forwards no signal. Every process of a tree appends its pid to
 * <JEV_HOST_MARKER_DIR>/<server>.pids.
 *
 * 1. The extension's own `deactivate()` (the function VS Code calls) ends every tree before its promise
 *    resolves; a re-activation then builds a fresh runtime.
 * 2. The last test starts two more trees (named shutdown-*) and leaves them running. scripts/test-host.mjs
 *    then requires every recorded pid gone within 8 s of the tests' end (VS Code terminates the extension
 *    host, awaiting deactivate), the extension's log line of that shutdown naming the shutdown-* servers,
 *    and nothing left after code-server is stopped. The wrappers' groups are their own, so only the
 *    extension can end them.
 * POSIX only (process groups, sh).
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { JevPanelApi } from '../../../src/extension/api';
import { activateJev, extension, repoRoot, resetSettings, setSetting, waitFor } from '../helpers';

const markers = process.env.JEV_HOST_MARKER_DIR ?? '';
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** How many processes each tree has: the wrapper and the real server. */
const TREE_SIZE = 2;

function pidFile(name: string): string {
  return join(markers, `${name}.pids`);
}

function pidsOf(name: string): number[] {
  const file = pidFile(name);
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number) : [];
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** A jevPanel.mcpServers entry: faulty.mjs behind `sh -c` or the npx-style launcher. */
function nastyServer(name: string, style: 'sh -c' | 'launcher'): Record<string, unknown> {
  const faulty = join(repoRoot(), 'test', 'fixtures', 'servers', 'faulty.mjs');
  const server = [faulty, '--pid-file', pidFile(name), '--linger', '--ignore-term'];
  if (style === 'launcher') {
    return { command: process.execPath, args: [join(repoRoot(), 'test', 'fixtures', 'servers', 'launcher.mjs'), '--pid-file', pidFile(name), ...server] };
  }
  // `; true` keeps sh as the parent (no exec of the last command), as a real wrapper script does.
  return { command: 'sh', args: ['-c', `echo $$ >> ${q(pidFile(name))}; ${[process.execPath, ...server].map(q).join(' ')}; true`] };
}

/** Configures `servers`, starts each and resolves with every pid of their trees, all checked alive. */
async function startTrees(api: JevPanelApi, servers: Record<string, 'sh -c' | 'launcher'>): Promise<number[]> {
  const entries = Object.fromEntries(Object.entries(servers).map(([name, style]) => [name, nastyServer(name, style)]));
  await setSetting(api, 'mcpServers', entries);
  const pids: number[] = [];
  for (const name of Object.keys(servers)) {
    await vscode.commands.executeCommand('jevPanel.restartServer', name);
    await waitFor(`${name} ready`, () => api.snapshot().servers.find((s) => s.name === name)?.status === 'ready', 20_000);
    await waitFor(`${name}: ${TREE_SIZE} pids recorded`, () => pidsOf(name).length >= TREE_SIZE);
    pids.push(...pidsOf(name));
  }
  assert.deepEqual(pids.filter((p) => !alive(p)), [], 'every process of the trees runs before the shutdown');
  return pids;
}

describe('server process trees when the extension goes away', function () {
  this.timeout(90_000);
  let api: JevPanelApi;

  before(async function () {
    if (process.platform === 'win32') this.skip();
    assert.ok(markers, 'the launcher passes JEV_HOST_MARKER_DIR');
    api = await activateJev();
    await resetSettings(api);
  });

  it('deactivate() ends every server tree (sh -c, npx-style launcher) before its promise resolves', async () => {
    const pids = await startTrees(api, { 'deactivate-sh': 'sh -c', 'deactivate-launcher': 'launcher' });
    const main = (extension().packageJSON as { main: string }).main;
    // The module VS Code loaded (the require cache holds one instance per file).
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the extension's entry, as VS Code loads it
    const mod = require(join(repoRoot(), main)) as { deactivate?: () => unknown };
    assert.equal(typeof mod.deactivate, 'function');
    const t0 = Date.now();
    const result = mod.deactivate!();
    assert.ok(result instanceof Promise, 'deactivate() returns a promise, so VS Code waits for the shutdown');
    await result;
    const ms = Date.now() - t0;
    assert.deepEqual(pids.filter(alive), [], `still running after deactivate() resolved (${ms} ms)`);
    // VS Code waits 5 s for every extension's deactivate together; the shutdown must fit well inside.
    assert.ok(ms < 4_000, `deactivate() took ${ms} ms`);
    console.log(`      deactivate() ended ${pids.length} server processes in ${ms} ms`);
    await api.reactivate();
  });

  it('leaves two server trees running for the launcher’s check after code-server stops', async () => {
    const pids = await startTrees(api, { 'shutdown-sh': 'sh -c', 'shutdown-launcher': 'launcher' });
    assert.equal(pids.length, 2 * TREE_SIZE);
    // No cleanup on purpose: scripts/test-host.mjs checks these pids after host.stop().
  });
});
