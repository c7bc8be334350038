/**
 * Ending a stdio server's whole process tree, not only the process we spawned: a server started through
 * a wrapper (`sh -c "node server.js"`, `npx …`, a launcher script) runs as a grandchild that would
 * otherwise be left behind with parent PID 1.
 *
 * POSIX: the server is spawned detached, so it leads its own process group (pgid = its pid) and every
 * descendant that does not call setsid stays in that group; signals go to the group (`kill(-pgid)`).
 * Windows: `taskkill /PID pid /T /F` ends the tree (written, not exercised by the test suite).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** How long each step of closing a process tree may take, ms. */
export interface TreeCloseTiming {
  /** After stdin is closed: time for the server to exit by itself (default 2 000). */
  graceMs: number;
  /** After SIGTERM to the group: time before SIGKILL (default 2 000). */
  termMs: number;
}

/** Defaults: 2 s grace after closing stdin, 2 s after SIGTERM, then SIGKILL. */
export const DEFAULT_TREE_CLOSE: TreeCloseTiming = Object.freeze({ graceMs: 2_000, termMs: 2_000 });

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

/** Sends `signal` to the whole tree led by `pid`; never throws (a gone group is fine). */
export function signalTree(pid: number, signal: NodeJS.Signals): void {
  if (!USES_PROCESS_GROUPS) {
    if (signal !== 'SIGKILL' && signal !== 'SIGTERM') return;
    // Windows has no process groups for console children: taskkill walks the tree (/T), forcibly (/F).
    try {
      const killer = spawn('taskkill', ['/PID', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
      killer.on('error', () => undefined);
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

// Trees still running, killed if the host process exits without closing them (no orphans).
const liveTrees = new Set<number>();
let hooksInstalled = false;

function killAllNow(): void {
  for (const pid of liveTrees) signalTree(pid, 'SIGKILL');
  liveTrees.clear();
}

/**
 * Tracks the tree led by `child` until `untrack` is called: when the host process exits (normally, or on
 * SIGINT / SIGTERM / SIGHUP that nothing else handles) the tree gets SIGKILL. A detached child no longer
 * gets the terminal's Ctrl-C, so without this hook a killed host would leave its servers running.
 */
export function trackTree(child: ChildProcess): () => void {
  const pid = child.pid;
  if (pid === undefined) return () => undefined;
  if (!hooksInstalled) {
    hooksInstalled = true;
    process.once('exit', killAllNow);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      const onSignal = () => {
        // Someone else handles the signal (the CLI's interrupt, the editor): they shut down cleanly.
        if (process.listenerCount(signal) > 1) return;
        killAllNow();
        process.off(signal, onSignal);
        process.kill(process.pid, signal);
      };
      process.on(signal, onSignal);
    }
  }
  liveTrees.add(pid);
  return () => liveTrees.delete(pid);
}
