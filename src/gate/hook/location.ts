import { lstat, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { configError } from '../../judgment/errors';
import { runGit, workTreeRoot, type GitOptions } from '../git';
import { CHAINED_NAME, HOOK_NAME } from './script';

/** Where the hook of one repository lives. */
export interface HookLocation {
  /** Work tree root. */
  root: string;
  /** Absolute hooks directory. */
  hooksDir: string;
  /** Absolute path of the commit-msg hook. */
  hookPath: string;
  /** Absolute path the previous hook is kept under. */
  chainedPath: string;
}

/** Options shared by install, uninstall and status. */
export interface HookLocationOptions {
  /** Any directory inside the work tree. */
  repoDir: string;
  /** Environment for the git commands run here (default `process.env`). */
  gitEnv?: Record<string, string | undefined>;
  /** The git executable (default `git` on PATH). */
  gitPath?: string;
}

/**
 * The hook files of the repository containing `repoDir`. The hooks directory comes from
 * `git rev-parse --git-path hooks` run from the root, so `core.hooksPath` (absolute, relative to the work
 * tree root where git runs hooks, or `~/…`, which git resolves) and linked worktrees are honoured.
 * Throws JevError CONFIG_ERROR when `repoDir` is missing or not inside a git work tree.
 */
export async function locateHook(options: HookLocationOptions): Promise<HookLocation> {
  const { repoDir } = options;
  const git: GitOptions = { env: options.gitEnv, gitPath: options.gitPath };
  const isDir = await stat(repoDir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) throw configError(`hook: ${repoDir} is not an existing directory.`);
  const root = await workTreeRoot(repoDir, git);
  if (root === undefined) {
    throw configError(`hook: ${repoDir} is not inside a git work tree (git rev-parse --show-toplevel failed); run this in a repository, or pass --repo DIR.`);
  }
  // git prints the path relative to its working directory: run it from the root.
  const hooks = await runGit(['rev-parse', '--git-path', 'hooks'], root, git);
  if (hooks.code !== 0 || hooks.stdout.trim() === '') throw configError('hook: git rev-parse --git-path hooks failed.');
  const hooksDir = resolve(root, hooks.stdout.trim());
  return { root, hooksDir, hookPath: join(hooksDir, HOOK_NAME), chainedPath: join(hooksDir, CHAINED_NAME) };
}

/** A CONFIG_ERROR naming what could not be done to `path` and the file system's code. */
export function fsError(verb: string, path: string, err: unknown) {
  return configError(`hook: cannot ${verb} ${path} (${(err as { code?: string }).code ?? 'error'}).`);
}

/** Whether `path` exists (a dangling symlink counts). Throws CONFIG_ERROR when it cannot be inspected. */
export async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return false;
    throw fsError('inspect', path, err);
  }
}

/** Text of the hook at `path` (following a symlink); undefined when absent or unreadable as a file. */
export async function readHook(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}
