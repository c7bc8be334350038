/**
 * Ending a stdio server's whole process tree, not only the process we spawned: a server started through
 * a wrapper (`sh -c "node server.js"`, `npx …`, a launcher script) runs as a grandchild that would
 * otherwise be left behind with parent PID 1.
 *
 * POSIX: the server is spawned detached, so it leads its own process group (pgid = its pid) and every
 * descendant that does not call setsid stays in that group; signals go to the group (`kill(-pgid)`).
 * Windows: `taskkill /PID pid /T /F` ends the tree (written, not exercised by the test suite).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { unwatchGroup, watchGroup } from './tree-watchdog';

/** How long each step of closing a process tree may take, ms. */
export interface TreeCloseTiming {
  /** After stdin is closed: time for the server to exit by itself (default 2 000). */
  graceMs: number;
  /** After SIGTERM to the group: time before SIGKILL (default 2 000). */
  termMs: number;
}

/** Defaults: 2 s grace after closing stdin, 2 s after SIGTERM, then SIGKILL. */
export const DEFAULT_TREE_CLOSE: TreeCloseTiming = Object.freeze({ graceMs: 2_000, termMs: 2_000 });

/**
 * When the host shuts down (VS Code waits about 5 s for every extension's deactivate together): 1 s grace
 * after closing stdin, 1 s after SIGTERM, so a tree that ignores both is killed within about 2 s.
 */
export const SHUTDOWN_TREE_CLOSE: TreeCloseTiming = Object.freeze({ graceMs: 1_000, termMs: 1_000 });

/** True on platforms where a server gets its own process group (every platform but Windows). */
export const USES_PROCESS_GROUPS = process.platform !== 'win32';

const POLL_MS = 25;

/**
 * True while any process of group `pgid` is running (zombies, i.e. exited but not yet reaped, do not
 * count). POSIX only; false on Windows.
 */
export function groupAlive(pgid: number): boolean {
  if (!USES_PROCESS_GROUPS) return false;
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    // EPERM: a member exists but is not ours to signal, so it is running.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return process.platform === 'linux' ? linuxGroupHasLiveMember(pgid) : true;
}

// kill(-pgid, 0) also succeeds for zombies; on Linux /proc tells them apart.
function linuxGroupHasLiveMember(pgid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the parenthesised command name: state ppid pgrp …
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
  }
  return false;
}

/**
 * Sends `signal` to the whole tree led by `pid`; never throws (a gone group is fine). On Windows only
 * SIGTERM and SIGKILL do anything (both `taskkill /T /F`); with `sync`, taskkill runs to its end first
 * (for a process 'exit' handler, where nothing asynchronous runs any more).
 */
export function signalTree(pid: number, signal: NodeJS.Signals, sync = false): void {
  if (!USES_PROCESS_GROUPS) {
    if (signal !== 'SIGKILL' && signal !== 'SIGTERM') return;
    // Windows has no process groups for console children: taskkill walks the tree (/T), forcibly (/F).
    const args = ['/PID', String(pid), '/T', '/F'];
    try {
      if (sync) spawnSync('taskkill', args, { stdio: 'ignore', windowsHide: true, timeout: 2_000 });
      else spawn('taskkill', args, { stdio: 'ignore', windowsHide: true }).on('error', () => undefined);
    } catch {
      // taskkill missing: nothing more we can do
    }
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

async function waitUntil(done: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() >= end) return false;
    // Not unref'd: a host that is shutting down waits for its servers (bounded by the timing).
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return true;
}

/**
 * Ends the process tree of `child` (spawned detached on POSIX): closes its stdin, waits `graceMs` for the
 * whole group to exit, then SIGTERM to the group, waits `termMs`, then SIGKILL to the group and waits up
 * to 1 s more. Also ends the group when the leader has already exited (a crashed wrapper leaves its
 * children running). Resolves once nothing of the tree runs or the last wait ran out; never rejects.
 */
export async function closeProcessTree(child: ChildProcess, timing: TreeCloseTiming = DEFAULT_TREE_CLOSE): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  try {
    child.stdin?.end();
  } catch {
    // stdin already broken
  }
  const leaderGone = () => child.exitCode !== null || child.signalCode !== null;
  const gone = USES_PROCESS_GROUPS ? () => leaderGone() && !groupAlive(pid) : leaderGone;
  if (await waitUntil(gone, timing.graceMs)) return;
  signalTree(pid, 'SIGTERM');
  if (await waitUntil(gone, timing.termMs)) return;
  signalTree(pid, 'SIGKILL');
  await waitUntil(gone, 1_000);
}

// Leaders (pids = process group ids on POSIX) of the trees still running, ended if the host process
// exits without closing them (no orphans).
const liveTrees = new Set<number>();
let hooksInstalled = false;

/** At host exit: how long the trees get after SIGTERM before SIGKILL, ms. */
export const EXIT_TERM_MS = 300;

/**
 * After a signal that another handler of the host takes care of: how long that handler gets to shut down
 * (and close the servers the orderly way) before the trees are ended anyway, ms. Shorter than the 5 s
 * after which supervisors commonly follow SIGTERM with SIGKILL, which would leave the trees behind.
 */
export const SIGNAL_BACKSTOP_MS = 3_000;

/** Blocks the thread for `ms` (the only way to wait inside a process 'exit' handler). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Ends every tracked tree synchronously, for a process 'exit' handler or a fatal signal: SIGTERM to each
 * group, up to `termMs` for them to go (polled, so well-behaved servers cost only a few ms), then SIGKILL
 * to what remains. Only signals can be sent here: no stdin close and grace as in closeProcessTree, and
 * nothing at all when the host itself is killed with SIGKILL (tree-watchdog.ts covers that). Windows: `taskkill /T /F` once per tree.
 */
export function endTrackedTreesNow(termMs = EXIT_TERM_MS): void {
  const pids = [...liveTrees];
  liveTrees.clear();
  if (pids.length === 0) return;
  for (const pid of pids) unwatchGroup(pid);
  if (!USES_PROCESS_GROUPS) {
    for (const pid of pids) signalTree(pid, 'SIGKILL', true);
    return;
  }
  for (const pid of pids) signalTree(pid, 'SIGTERM');
  const end = Date.now() + termMs;
  let left = pids.filter(groupAlive);
  while (left.length > 0 && Date.now() < end) {
    sleepSync(10);
    left = left.filter(groupAlive);
  }
  for (const pid of left) signalTree(pid, 'SIGKILL');
}

/**
 * Tracks the tree led by `child` until `untrack` is called: when the host process exits (normally, or on
 * SIGINT / SIGTERM / SIGHUP that nothing else handles) the tree is ended (endTrackedTreesNow: SIGTERM,
 * then SIGKILL); a host that handles the signal itself but still runs SIGNAL_BACKSTOP_MS later has its
 * trees ended then. A detached child no longer gets the terminal's Ctrl-C or a signal to the host's process
 * group, so without this hook a killed host would leave its servers running. On POSIX the group is also given
 * to the watchdog (tree-watchdog.ts), which ends it when the host dies without running any hook (SIGKILL).
 */
export function trackTree(child: ChildProcess): () => void {
  const pid = child.pid;
  if (pid === undefined) return () => undefined;
  if (!hooksInstalled) {
    hooksInstalled = true;
    process.once('exit', () => endTrackedTreesNow());
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      const onSignal = () => {
        // Someone else handles the signal (the CLI's interrupt, the editor): they shut down cleanly, and
        // the 'exit' hook ends what is left; should the host still run after the backstop (a handler that
        // does not exit, a SIGKILL on its way), the trees are ended anyway.
        if (process.listenerCount(signal) > 1) {
          setTimeout(() => endTrackedTreesNow(), SIGNAL_BACKSTOP_MS).unref();
          return;
        }
        endTrackedTreesNow();
        process.off(signal, onSignal);
        process.kill(process.pid, signal);
      };
      process.on(signal, onSignal);
    }
  }
  liveTrees.add(pid);
  // Even SIGKILL, which runs no hook here, does not orphan the tree: the watchdog (tree-watchdog.ts) sees this
  // process go and ends the group.
  if (USES_PROCESS_GROUPS) watchGroup(pid);
  return () => {
    liveTrees.delete(pid);
    unwatchGroup(pid);
  };
}
