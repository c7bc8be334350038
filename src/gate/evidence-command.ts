import { spawn, type ChildProcess } from 'node:child_process';
import { isSecretVariable } from '../config/env';

/** Characters of evidence-command output kept (the tail, where test summaries are). */
export const EVIDENCE_OUTPUT_CHARS = 16_000;
/** Default time limit of the evidence command, ms. */
export const DEFAULT_EVIDENCE_TIMEOUT_MS = 120_000;

/**
 * Why `command` cannot be the evidence command, or undefined when it can: it must be one non-blank line
 * (it is written into the commit-msg hook and shown as one line). Every face names its own field
 * before the rule (`--evidence-cmd`, `jevPanel.gate.evidenceCommand`).
 */
export function evidenceCommandProblem(command: string): string | undefined {
  if (command.trim() === '') return 'must not be empty (give the command whose output is the evidence, e.g. "npm test")';
  if (/[\0\n\r]/.test(command)) return 'must be a single line (no line breaks or NUL)';
  return undefined;
}

/** Why `ms` cannot be the evidence command's time limit, or undefined when it can (a whole number of ms from 1). */
export function evidenceTimeoutProblem(ms: unknown): string | undefined {
  return typeof ms === 'number' && Number.isSafeInteger(ms) && ms >= 1 ? undefined : 'must be a positive whole number of milliseconds';
}

/** What the evidence command did. */
export interface EvidenceRun {
  command: string;
  /** The time limit it ran under, ms. */
  timeoutMs: number;
  /** Exit status; null when it timed out, was killed or could not start. */
  exitCode: number | null;
  timedOut: boolean;
  /** Why it could not start, when it could not. */
  startError?: string;
  /** Combined stdout+stderr, only the last EVIDENCE_OUTPUT_CHARS characters. */
  output: string;
  /** Characters dropped from the start of the output. */
  omittedChars: number;
  durationMs: number;
}

/**
 * `env` without secret variables (config/env.ts `isSecretVariable`: Jev's API key variables and
 * JEV_HTTP_TOKEN, and any name ending in `_API_KEY` or `_TOKEN`). The command's output becomes evidence
 * that is sent upstream and written to the ledger, so `env` or a verbose test run must not reveal them.
 */
export function evidenceEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isSecretVariable(name)));
}

/** After the shell exits, how long output still in the pipes is collected, ms. */
export const EXIT_GRACE_MS = 500;

/**
 * Runs `command` through the platform shell in `cwd` with a time limit (the whole process group is
 * killed on timeout on POSIX), with `env` stripped of secret variables (`evidenceEnv`). The run ends when
 * the shell exits, plus EXIT_GRACE_MS for output still in the pipes: a background process that keeps the
 * pipes open (`server & npm test`) is not waited for. Never throws: failures are part of the evidence.
 */
export function runEvidenceCommand(command: string, cwd: string, timeoutMs = DEFAULT_EVIDENCE_TIMEOUT_MS, env: NodeJS.ProcessEnv = process.env): Promise<EvidenceRun> {
  const started = Date.now();
  const childEnv = evidenceEnv(env);
  return new Promise((resolve) => {
    let output = '';
    let total = 0;
    let timedOut = false;
    let settled = false;
    let child: ChildProcess;
    try {
      child = spawn(command, { cwd, env: childEnv, shell: true, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32', windowsHide: true });
    } catch (err) {
      // e.g. an empty command: spawn refuses synchronously.
      resolve({ command, timeoutMs, exitCode: null, timedOut: false, startError: (err as { code?: string }).code ?? 'error', output: '', omittedChars: 0, durationMs: Date.now() - started });
      return;
    }
    const take = (chunk: Buffer) => {
      const s = chunk.toString('utf8');
      total += s.length;
      output = (output + s).slice(-EVIDENCE_OUTPUT_CHARS);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    const kill = () => {
      try {
        if (process.platform !== 'win32' && child.pid) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    let grace: NodeJS.Timeout | undefined;
    const finish = (exitCode: number | null, startError?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      resolve({ command, timeoutMs, exitCode: timedOut ? null : exitCode, timedOut, startError, output, omittedChars: Math.max(0, total - output.length), durationMs: Date.now() - started });
    };
    child.on('error', (err) => finish(null, (err as { code?: string }).code ?? 'error'));
    child.on('exit', (code) => {
      grace = setTimeout(() => {
        // Something the shell started still holds the pipes: stop reading and answer with what we have.
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish(code);
      }, EXIT_GRACE_MS);
    });
    child.on('close', (code) => finish(code));
  });
}

/** The run as one evidence text: the command, how it ended, then its output. */
export function evidenceText(run: EvidenceRun): string {
  const ended = run.startError
    ? `could not start (${run.startError})`
    : run.timedOut
      ? `timed out after ${run.durationMs} ms and was stopped`
      : `exit code ${run.exitCode}`;
  const omitted = run.omittedChars > 0 ? `[first ${run.omittedChars} characters of output omitted]\n` : '';
  return `$ ${run.command}\n(${ended})\n${omitted}${run.output}`;
}
