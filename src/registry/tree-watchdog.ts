/**
 * The watchdog that ends the server trees of a host killed with SIGKILL (or dying any way that runs no exit
 * hook: OOM killer, a crash in native code). process-tree.ts's exit hook cannot run then, so a small helper
 * process does it: one per host process, started when the first tree is tracked and ended when the last one
 * is untracked. Its stdin is a pipe from the host carrying `+<pgid>` / `-<pgid>` lines, so it always knows
 * the current groups; end of file on that pipe means the host is gone (the kernel closes the write end of a
 * dead process). It then sends SIGTERM to every group it still knows, waits up to WATCHDOG_TERM_MS for them to
 * go, sends SIGKILL to what is left, and exits. When the host closes the pipe itself (no trees left) the set
 * is empty and it just exits.
 *
 * It runs in its own session (detached), so a signal to the host's process group or terminal does not take
 * it away before it has done its job, and under the host's own runtime (node, or Electron as node). POSIX
 * only: on Windows the groups do not exist and process-tree.ts's taskkill path stays the only one.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** After the host is gone: how long the groups get after SIGTERM before SIGKILL, ms. */
export const WATCHDOG_TERM_MS = 1_000;

// The watchdog program (CommonJS, run with `-e`; no file to ship). It ignores malformed lines and pgids ≤ 1
// (signalling -1 or -0 would reach far more than a server's group).
const PROGRAM = `
const groups = new Set();
let buf = '';
let ending = false;
const alive = (g) => { try { process.kill(-g, 0); return true; } catch (e) { return e.code === 'EPERM'; } };
const signal = (g, s) => { try { process.kill(-g, s); } catch { /* gone */ } };
function end() {
  if (ending) return;
  ending = true;
  const left = [...groups].filter(alive);
  if (left.length === 0) process.exit(0);
  for (const g of left) signal(g, 'SIGTERM');
  const t0 = Date.now();
  const poll = setInterval(() => {
    const still = left.filter(alive);
    if (still.length > 0 && Date.now() - t0 < ${WATCHDOG_TERM_MS}) return;
    for (const g of still) signal(g, 'SIGKILL');
    clearInterval(poll);
    process.exit(0);
  }, 25);
}
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buf += chunk;
  for (let i = buf.indexOf('\\n'); i >= 0; i = buf.indexOf('\\n')) {
    const line = buf.slice(0, i);
    buf = buf.slice(i + 1);
    const g = Number(line.slice(1));
    if (!Number.isSafeInteger(g) || g <= 1) continue;
    if (line[0] === '+') groups.add(g);
    else if (line[0] === '-') groups.delete(g);
  }
});
process.stdin.on('end', end);
process.stdin.on('error', end);
process.stdin.on('close', end);
`;

let watchdog: ChildProcess | undefined;
const watched = new Set<number>();

function send(line: string): void {
  const stdin = watchdog?.stdin;
  if (!stdin || stdin.destroyed || !stdin.writable) return;
  stdin.write(`${line}\n`);
}

function startWatchdog(): void {
  const child = spawn(process.execPath, ['-e', PROGRAM], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    cwd: '/',
    // Nothing of the host's environment (API keys) is needed. Electron hosts (VS Code) run their binary as
    // plain node with ELECTRON_RUN_AS_NODE; node ignores it.
    env: { ELECTRON_RUN_AS_NODE: '1' },
    windowsHide: true,
  });
  watchdog = child;
  // Neither the helper nor its pipe may keep the host alive: the host exiting is exactly what it waits for.
  child.unref();
  (child.stdin as (NodeJS.WritableStream & { unref?: () => void }) | null)?.unref?.();
  // A watchdog that cannot start or dies is lost, not fatal: the next change starts a new one with every group.
  const lost = () => {
    if (watchdog === child) watchdog = undefined;
  };
  child.once('error', lost);
  child.once('exit', lost);
  child.stdin?.on('error', lost);
  for (const pgid of watched) send(`+${pgid}`);
}

/**
 * Records that the process group `pgid` (a server tree's leader pid) must be ended if this process dies
 * without ending it; starts the watchdog when it is the first one. No-op on Windows and for pgid ≤ 1.
 */
export function watchGroup(pgid: number): void {
  if (process.platform === 'win32' || !Number.isSafeInteger(pgid) || pgid <= 1) return;
  watched.add(pgid);
  if (!watchdog) startWatchdog();
  else send(`+${pgid}`);
}

/**
 * Forgets `pgid` (its tree was closed); when no group is left the watchdog's pipe is closed and it exits.
 */
export function unwatchGroup(pgid: number): void {
  if (!watched.delete(pgid)) return;
  send(`-${pgid}`);
  if (watched.size === 0 && watchdog) {
    watchdog.stdin?.end();
    watchdog = undefined;
  }
}

/** Pid of the running watchdog, or undefined when none runs (for tests and diagnostics). */
export function watchdogPid(): number | undefined {
  return watchdog?.pid;
}
