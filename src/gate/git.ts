import { execFile } from 'node:child_process';
import { configError } from '../judgment/errors';

/**
 * The one way the gate runs git (the CLI, the hook installer and the editor alike): without a shell, never
 * prompting, with a bounded output. Later git needs of the gate (a range diff, the staged tree) belong here.
 */

/** Largest git output read, bytes (a staged diff beyond this is refused rather than cut silently). */
export const MAX_GIT_OUTPUT_BYTES = 64 * 1024 * 1024;

/** Environment of a git process. */
export type GitEnv = Record<string, string | undefined>;

/** How git is run: the environment (default `process.env`) and the executable (default `git` on PATH). */
export interface GitOptions {
  env?: GitEnv;
  /** The git executable, e.g. the one VS Code's Git extension uses; default `git` found on PATH. */
  gitPath?: string;
}

/** Result of one git invocation. */
export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `git args…` in `cwd` without a shell, with GIT_TERMINAL_PROMPT=0. Never throws for a non-zero exit
 * (see `code`); throws JevError CONFIG_ERROR when git cannot be started or its output exceeds
 * MAX_GIT_OUTPUT_BYTES.
 */
export function runGit(args: string[], cwd: string, options: GitOptions = {}): Promise<GitResult> {
  const git = options.gitPath ?? 'git';
  const env = { ...(options.env ?? process.env), GIT_TERMINAL_PROMPT: '0' };
  return new Promise((resolve, reject) => {
    execFile(git, args, { cwd, env, maxBuffer: MAX_GIT_OUTPUT_BYTES, encoding: 'utf8', windowsHide: true }, (err, stdout, stderr) => {
      const code = (err as { code?: unknown } | null)?.code;
      if (err && typeof code !== 'number') {
        if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') reject(configError(`git ${args[0]} printed more than ${MAX_GIT_OUTPUT_BYTES} bytes.`));
        else reject(configError(`cannot run ${git} (${String(code ?? 'error')}); is git installed and on PATH?`));
        return;
      }
      resolve({ code: err ? Number(code) : 0, stdout, stderr });
    });
  });
}

/**
 * Top-level directory of the work tree containing `dir` (`git rev-parse --show-toplevel`), or undefined
 * when `dir` is not inside one. Throws CONFIG_ERROR only when git cannot run.
 */
export async function workTreeRoot(dir: string, options?: GitOptions): Promise<string | undefined> {
  const r = await runGit(['rev-parse', '--show-toplevel'], dir, options);
  const root = r.stdout.trim();
  return r.code === 0 && root !== '' ? root : undefined;
}

/**
 * The staged change as git shows it, with user diff drivers disabled so the judged text is the real
 * content: `git diff --cached --no-ext-diff --no-textconv --find-renames --no-color`. A binary file shows
 * as `Binary files … differ` (no base85 patch eating the budget); renames show as `rename from/to`
 * whatever the user's diff.renames says. Throws CONFIG_ERROR when git fails.
 */
export async function stagedDiff(root: string, options?: GitOptions): Promise<string> {
  const r = await runGit(['diff', '--cached', '--no-ext-diff', '--no-textconv', '--find-renames', '--no-color'], root, options);
  if (r.code !== 0) throw configError(`gate: git diff --cached failed (exit ${r.code}).`);
  return r.stdout;
}
