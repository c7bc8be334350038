/**
 * Child processes in tests: run one to completion and capture what it printed, and ask whether a process
 * id is still alive (for the no-orphan checks after a shutdown).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Exit code and output of one finished child process. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr together, in the order the chunks arrived. */
  output: string;
}

/**
 * Runs `cmd args` to its end and captures its output (UTF-8). With `input`, stdin is a pipe that gets
 * `input` and is closed; without it, stdin is ignored. Rejects only when the process cannot be spawned.
 */
export function capture(cmd: string, args: readonly string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let output = '';
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
      output += c.toString('utf8');
    });
    child.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
      output += c.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, output }));
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
}

/**
 * True while a process with `pid` runs (signal 0 probes without sending anything). On Linux a zombie
 * (exited, not yet reaped by its parent) counts as gone: it runs nothing and holds no resources but its slot.
 */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Resolves once none of `pids` is alive; rejects with the survivors after `ms`. */
export async function allGone(pids: readonly number[], ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const left = pids.filter(alive);
    if (left.length === 0) return;
    if (Date.now() > end) throw new Error(`still running after ${ms} ms: ${left.join(', ')}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
