import { lstat, readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { configError } from '../../judgment/errors';
import { configOrigin, runGit, workTreeRoot, type GitOptions } from '../git';
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
  /** Set when the hooks directory gates other repositories too (see `sharedHooks`). */
  shared?: SharedHooks;
}

/** A hooks directory that is not this repository's own. */
export interface SharedHooks {
  /** Scope of core.hooksPath: global, system, command, local, worktree. */
  scope: string;
  /** Where it is set, as git prints it (`file:/home/me/.gitconfig`). */
  origin: string;
  /** Why it is shared, completing "the hooks directory …": `is set in your global git configuration`. */
  why: string;
}

const inside = (child: string, parent: string) => {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * Whether the hooks directory gates more than this repository: core.hooksPath set in the global or system
 * configuration (or on the command line), or pointing outside both the work tree and the git directory
 * (a directory other repositories may use). Undefined for the repository's own hooks.
 */
async function sharedHooks(root: string, hooksDir: string, git: GitOptions): Promise<SharedHooks | undefined> {
  const origin = await configOrigin(root, 'core.hooksPath', git);
  if (!origin) return undefined;
  const where = origin.origin.replace(/^file:/, '');
  if (origin.scope === 'global' || origin.scope === 'system') {
    return { scope: origin.scope, origin: origin.origin, why: `is set by core.hooksPath in your ${origin.scope} git configuration (${where}), so it gates commits in every repository` };
  }
  if (origin.scope === 'command') return { scope: origin.scope, origin: origin.origin, why: 'is set by core.hooksPath on the command line or in GIT_CONFIG_* variables' };
  const common = await runGit(['rev-parse', '--git-common-dir'], root, git);
  const gitDir = resolve(root, common.stdout.trim() || '.git');
  if (inside(hooksDir, root) || inside(hooksDir, gitDir)) return undefined;
  return { scope: origin.scope, origin: origin.origin, why: `is outside this repository (core.hooksPath in ${where}), so other repositories may use it too` };
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
 * tree root where git runs hooks, or `~/…`, which git resolves) and linked worktrees are honoured; a
 * hooks directory other repositories use is reported in `shared`. Throws JevError CONFIG_ERROR when `repoDir` is missing or not inside a git work tree.
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
  const shared = await sharedHooks(root, hooksDir, git);
  return { root, hooksDir, hookPath: join(hooksDir, HOOK_NAME), chainedPath: join(hooksDir, CHAINED_NAME), ...(shared ? { shared } : {}) };
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
