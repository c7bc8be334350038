import { execFile } from 'node:child_process';
import { configError } from '../judgment/errors';

/** Largest git output read, bytes (a staged diff beyond this is refused rather than cut silently). */
export const MAX_GIT_OUTPUT_BYTES = 64 * 1024 * 1024;

/** Result of one git invocation. */
export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `git args…` in `cwd` without a shell. Never throws for a non-zero exit (see `code`); throws
 * JevError CONFIG_ERROR when git cannot be started or its output exceeds MAX_GIT_OUTPUT_BYTES.
 */
export function runGit(args: string[], cwd: string, env: Record<string, string | undefined> = process.env): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env: { ...env, GIT_TERMINAL_PROMPT: '0' }, maxBuffer: MAX_GIT_OUTPUT_BYTES, encoding: 'utf8', windowsHide: true }, (err, stdout, stderr) => {
      if (err && typeof (err as { code?: unknown }).code !== 'number') {
        const code = (err as { code?: unknown }).code;
        if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') reject(configError(`git ${args[0]} printed more than ${MAX_GIT_OUTPUT_BYTES} bytes.`));
        else reject(configError(`cannot run git (${String(code ?? 'error')}); is git installed and on PATH?`));
        return;
      }
      resolve({ code: err ? Number((err as { code?: unknown }).code) : 0, stdout, stderr });
    });
  });
}

/** Top-level directory of the repository containing `cwd`. Throws CONFIG_ERROR outside a work tree. */
export async function repoRoot(cwd: string, env?: Record<string, string | undefined>): Promise<string> {
  const r = await runGit(['rev-parse', '--show-toplevel'], cwd, env);
  if (r.code !== 0) throw configError('gate: not inside a git work tree (git rev-parse --show-toplevel failed).');
  return r.stdout.trim();
}

/**
 * The staged change as git shows it, with user diff drivers disabled so the judged text is the real
 * content: `git diff --cached --no-ext-diff --no-textconv --find-renames --no-color`. A binary file shows
 * as `Binary files … differ` (no base85 patch eating the budget); renames show as `rename from/to`
 * whatever the user's diff.renames says. Throws CONFIG_ERROR when git fails.
 */
export async function stagedDiff(root: string, env?: Record<string, string | undefined>): Promise<string> {
  const r = await runGit(['diff', '--cached', '--no-ext-diff', '--no-textconv', '--find-renames', '--no-color'], root, env);
  if (r.code !== 0) throw configError(`gate: git diff --cached failed (exit ${r.code}).`);
  return r.stdout;
}

/** `git diff --cached --stat` summary of the staged change. */
export async function stagedStat(root: string, env?: Record<string, string | undefined>): Promise<string> {
  const r = await runGit(['diff', '--cached', '--stat', '--no-ext-diff', '--find-renames', '--no-color'], root, env);
  if (r.code !== 0) throw configError(`gate: git diff --cached --stat failed (exit ${r.code}).`);
  return r.stdout;
}
