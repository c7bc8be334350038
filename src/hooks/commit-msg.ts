import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, chmod, lstat, mkdir, readFile, rename, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { configError, invalidInput } from '../judgment/errors';
import { FAIL_OPEN_ENV } from './fail-open';

/**
 * Installs and removes the `commit-msg` hook that gates every commit with `jevcp gate --staged`
 * (issue 5 "Git hook"; vscode-platform.md §5.3–5.4). Host-independent: the CLI (`jevcp hook`) and the
 * editor's "Jev: Install Commit Hook" call the same functions.
 *
 * - The hooks directory comes from `git rev-parse --git-path hooks`, so `core.hooksPath` (absolute,
 *   relative to the work tree root, or `~/…`) and linked worktrees are honoured.
 * - node and the CLI are called by absolute path: editors often run hooks without the shell's
 *   nvm/asdf PATH, where `npx`/`node` are not found.
 * - An existing hook (husky, lefthook, commitlint, Gerrit Change-Id…) is renamed to
 *   `commit-msg.jev-chained` and runs first with the same arguments; when it fails the commit fails.
 *   It runs first so a cheap rejection happens before a paid judgment, and a hook that edits the
 *   message (Change-Id) does so before the message is judged.
 * - Uninstall renames the backup back (byte-identical, same mode, a symlink stays a symlink) or removes
 *   our hook when there was none.
 */

/** Name of the hook file. */
export const HOOK_NAME = 'commit-msg';
/** Name the previous hook is kept under, beside ours. */
export const CHAINED_NAME = 'commit-msg.jev-chained';
/** Header line that marks a hook as ours (second line of the script). */
export const HOOK_MARKER = '# jev-control-panel commit-msg gate';
/** Line recording that the install created the hooks directory (uninstall removes it when empty). */
const CREATED_DIR_LINE = '# jev: created the hooks directory';

/** Options of `installHook`. */
export interface InstallHookOptions {
  /** Any directory inside the work tree. */
  repoDir: string;
  /** Absolute path of the node executable the hook runs (e.g. `process.execPath`). */
  nodePath: string;
  /** Absolute path of the built CLI, `…/dist/cli.js`. */
  cliPath: string;
  /** Shell command whose output becomes the gate's evidence (`--evidence-cmd`), e.g. `npm test`. */
  evidenceCommand?: string;
  /**
   * Extra environment for the gate, written into the hook as `export NAME='value'` (e.g.
   * `ELECTRON_RUN_AS_NODE: '1'` when nodePath is an editor's Electron binary, or JEV_GATE_FAIL_OPEN).
   * Names must be shell identifiers. Never pass secrets: the hook file is plain text.
   */
  env?: Record<string, string>;
  /** Environment for the git commands run here (default `process.env`). */
  gitEnv?: Record<string, string | undefined>;
}

/** What `installHook` did. */
export interface InstallHookResult {
  /** `installed` (fresh), `updated` (ours was there, content changed) or `unchanged`. */
  action: 'installed' | 'updated' | 'unchanged';
  /** Work tree root. */
  root: string;
  /** Absolute hooks directory. */
  hooksDir: string;
  /** Absolute path of our hook. */
  hookPath: string;
  /** Absolute path of the previous hook kept beside ours, when there is one. */
  chainedPath?: string;
  /** Things the user should know (hooks directory inside the work tree, managed by husky). */
  warnings: string[];
}

/** Options of `uninstallHook` and `hookStatus`. */
export interface HookLocationOptions {
  repoDir: string;
  gitEnv?: Record<string, string | undefined>;
}

/** What `uninstallHook` did. */
export interface UninstallHookResult {
  /**
   * `restored`: the previous hook is back; `removed`: ours is gone and there was none before;
   * `not-installed`: our hook was not there, nothing changed (see `foreignHook`).
   */
  action: 'restored' | 'removed' | 'not-installed';
  root: string;
  hooksDir: string;
  hookPath: string;
  /** True when a commit-msg hook that is not ours is present (left alone). */
  foreignHook: boolean;
  /** A leftover backup that was not touched (only with `not-installed`). */
  orphanBackup?: string;
}

/** State of the hook in a repository. */
export interface HookStatus {
  root: string;
  hooksDir: string;
  hookPath: string;
  /** Our hook is installed. */
  installed: boolean;
  /** A previous hook is kept and chained. */
  chained: boolean;
  /** A commit-msg hook that is not ours is present. */
  foreignHook: boolean;
  /** node and CLI paths found in our hook (when installed). */
  nodePath?: string;
  cliPath?: string;
}

type Env = Record<string, string | undefined>;

function git(args: string[], cwd: string, env: Env): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    execFile('git', args, { cwd, env: { ...env, GIT_TERMINAL_PROMPT: '0' }, encoding: 'utf8', windowsHide: true }, (err, stdout, stderr) => {
      const code = (err as { code?: unknown } | null)?.code;
      if (err && typeof code !== 'number') {
        fail(configError(`hook: cannot run git (${String(code ?? 'error')}); is git installed and on PATH?`));
        return;
      }
      done({ code: err ? Number(code) : 0, stdout, stderr });
    });
  });
}

/**
 * The work tree root and the absolute hooks directory of the repository containing `repoDir`, honouring
 * `core.hooksPath` (git resolves `~`; a relative value is taken from the work tree root, where git runs
 * hooks). Throws JevError CONFIG_ERROR when `repoDir` is missing or not inside a git work tree.
 */
export async function resolveHooksDir(repoDir: string, env: Env = process.env): Promise<{ root: string; hooksDir: string }> {
  const isDir = await stat(repoDir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) throw configError(`hook: ${repoDir} is not an existing directory.`);
  const top = await git(['rev-parse', '--show-toplevel'], repoDir, env);
  if (top.code !== 0 || top.stdout.trim() === '') {
    throw configError(`hook: ${repoDir} is not inside a git work tree (git rev-parse --show-toplevel failed); run this in a repository, or pass --repo DIR.`);
  }
  const root = top.stdout.trim();
  // Run from the root so a relative answer is relative to the root (git prints it relative to cwd).
  const hooks = await git(['rev-parse', '--git-path', 'hooks'], root, env);
  if (hooks.code !== 0 || hooks.stdout.trim() === '') throw configError('hook: git rev-parse --git-path hooks failed.');
  return { root, hooksDir: resolve(root, hooks.stdout.trim()) };
}

/** `'…'` shell quoting (POSIX sh): safe for any byte except NUL. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Options of `renderHook` (validated by `installHook`). */
export interface RenderHookOptions {
  nodePath: string;
  cliPath: string;
  evidenceCommand?: string;
  env?: Record<string, string>;
  /** Records that the install created the hooks directory. */
  createdDir?: boolean;
}

/**
 * The hook script (POSIX sh). Runs the chained previous hook first (when present and executable, as git
 * would), then `exec node cli gate --staged --message-file "$1"`; the gate's exit code is the hook's
 * (0 pass, 1 not passed, 2 invalid, 3 failure). A missing node or CLI blocks with exit 3 and a hint,
 * unless JEV_GATE_FAIL_OPEN is on.
 */
export function renderHook(o: RenderHookOptions): string {
  const exports = Object.entries(o.env ?? {}).map(([k, v]) => `export ${k}=${shellQuote(v)}\n`).join('');
  const evidence = o.evidenceCommand !== undefined ? ` --evidence-cmd ${shellQuote(o.evidenceCommand)}` : '';
  return `#!/bin/sh
${HOOK_MARKER} — installed by \`jevcp hook install\`; remove with \`jevcp hook uninstall\`.
# Judges each commit with \`jevcp gate --staged\` (jev_gate on the staged change and this message).
# Skip once: git commit --no-verify. Let commits through when the judge fails: ${FAIL_OPEN_ENV}=1.
# A previous commit-msg hook is kept beside this file as ${CHAINED_NAME} and runs first.
${o.createdDir ? `${CREATED_DIR_LINE}\n` : ''}
jev_node=${shellQuote(o.nodePath)}
jev_cli=${shellQuote(o.cliPath)}

# The previous hook runs under this file's name: hooks that find their files through $0 (husky's
# stubs use basename/dirname of $0) keep working. Shell scripts are sourced by their own interpreter
# with $0 set to this hook; anything else runs directly.
jev_chained="$(dirname -- "$0")/${CHAINED_NAME}"
jev_run_chained() {
  jev_shebang=$(head -n 1 "$jev_chained" | sed -n 's/^#![[:space:]]*//p')
  jev_interp=\${jev_shebang%% *}
  case "$jev_interp" in
    */env) jev_shebang=\${jev_shebang#* }; jev_interp=\${jev_shebang%% *} ;;
  esac
  case "\${jev_interp##*/}" in
    sh|bash|dash|ksh|zsh) JEV_CHAINED_HOOK="$jev_chained" $jev_shebang -c '. "$JEV_CHAINED_HOOK"' "$0" "$@" ;;
    *) "$jev_chained" "$@" ;;
  esac
}
if [ -f "$jev_chained" ] && [ -x "$jev_chained" ]; then
  jev_run_chained "$@" || exit $?
fi

if [ ! -x "$jev_node" ] || [ ! -f "$jev_cli" ]; then
  echo "jev commit-msg hook: cannot run the gate: node ($jev_node) or the jevcp CLI ($jev_cli) is missing." >&2
  echo "jev commit-msg hook: reinstall it with 'jevcp hook install' (or 'Jev: Install Commit Hook'), or commit with --no-verify." >&2
  case "$(printf '%s' "\${${FAIL_OPEN_ENV}:-}" | tr 'A-Z' 'a-z')" in
    1|true|yes|on)
      echo "jev commit-msg hook: WARNING: ${FAIL_OPEN_ENV} is set — letting this commit through UNJUDGED." >&2
      exit 0 ;;
  esac
  exit 3
fi

${exports}exec "$jev_node" "$jev_cli" gate --staged --message-file "$1"${evidence}
`;
}

/** Whether `text` is a hook written by `renderHook`. */
export function isJevHook(text: string): boolean {
  return text.split('\n', 3)[1]?.startsWith(HOOK_MARKER) === true;
}

/** Warnings about where the hook goes: a tracked/visible hooks directory, or one husky rewrites. */
async function locationWarnings(root: string, hooksDir: string): Promise<string[]> {
  const out: string[] = [];
  const rel = relative(root, hooksDir);
  const inTree = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) && rel.split(sep)[0] !== '.git';
  if (inTree) {
    out.push(`the hooks directory ${rel} (core.hooksPath) is inside the work tree: the hook change shows in git status; commit it only if your team wants the gate.`);
  }
  if (await exists(join(hooksDir, 'h'))) {
    out.push(`${hooksDir} looks managed by husky, which rewrites it on install: run \`jevcp hook install\` again after \`npm install\`, or call the gate from .husky/commit-msg instead.`);
  }
  return out;
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return false;
    throw fsError('inspect', path, err);
  }
}

/** Text of the hook at `path` (following a symlink); undefined when absent or unreadable as a file. */
async function readHook(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

function fsError(verb: string, path: string, err: unknown) {
  return configError(`hook: cannot ${verb} ${path} (${(err as { code?: string }).code ?? 'error'}).`);
}

function requireAbsolute(field: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') throw invalidInput(`hook: ${field} must be a non-empty path.`);
  if (!isAbsolute(value)) throw invalidInput(`hook: ${field} must be an absolute path (the hook may run without the shell's PATH); got ${JSON.stringify(value)}.`);
  if (/[\0\n\r]/.test(value)) throw invalidInput(`hook: ${field} must not contain NUL or line breaks.`);
  return value;
}

function validate(o: InstallHookOptions): RenderHookOptions {
  const nodePath = requireAbsolute('nodePath', o.nodePath);
  const cliPath = requireAbsolute('cliPath', o.cliPath);
  if (o.evidenceCommand !== undefined && (typeof o.evidenceCommand !== 'string' || o.evidenceCommand.trim() === '' || /[\0\n\r]/.test(o.evidenceCommand))) {
    throw invalidInput('hook: evidenceCommand must be a non-blank single-line command.');
  }
  for (const [k, v] of Object.entries(o.env ?? {})) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw invalidInput(`hook: env name ${JSON.stringify(k)} is not a shell identifier.`);
    if (typeof v !== 'string' || v.includes('\0')) throw invalidInput(`hook: env ${k} must be a string without NUL.`);
  }
  return { nodePath, cliPath, evidenceCommand: o.evidenceCommand, env: o.env };
}

async function requireFile(field: string, path: string, executable: boolean): Promise<void> {
  try {
    if (!(await stat(path)).isFile()) throw new Error('not a file');
    if (executable && process.platform !== 'win32') await access(path, constants.X_OK);
  } catch {
    throw invalidInput(`hook: ${field} ${path} is not ${executable ? 'an executable file' : 'a file'}; the hook would block every commit.`);
  }
}

/** Writes `text` to `path` atomically (temporary file beside it, then rename), mode 0755. */
async function writeExecutable(path: string, text: string): Promise<void> {
  const tmp = `${path}.jev-tmp-${process.pid}`;
  try {
    await writeFile(tmp, text, { mode: 0o755 });
    await chmod(tmp, 0o755); // the umask may have dropped bits
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw fsError('write', path, err);
  }
}

/**
 * Installs (or refreshes) our commit-msg hook. Idempotent: when ours is already there it is rewritten
 * with the new paths and the chained hook is left as it is. A foreign hook is renamed to CHAINED_NAME
 * and chained. Throws JevError INVALID_INPUT for bad options (relative paths, missing node/CLI files,
 * bad env names), CONFIG_ERROR outside a git work tree, when a stale CHAINED_NAME would be overwritten,
 * or when the hooks directory cannot be written.
 */
export async function installHook(options: InstallHookOptions): Promise<InstallHookResult> {
  const render = validate(options);
  await requireFile('nodePath', render.nodePath, true);
  await requireFile('cliPath', render.cliPath, false);
  const { root, hooksDir } = await resolveHooksDir(options.repoDir, options.gitEnv);
  const hookPath = join(hooksDir, HOOK_NAME);
  const chainedPath = join(hooksDir, CHAINED_NAME);

  let createdDir = false;
  if (!(await exists(hooksDir))) {
    await mkdir(hooksDir, { recursive: true }).catch((err) => {
      throw fsError('create', hooksDir, err);
    });
    createdDir = true;
  }
  const hasHook = await exists(hookPath);
  const current = hasHook ? await readHook(hookPath) : undefined;
  const ours = current !== undefined && isJevHook(current);
  const hasChained = await exists(chainedPath);
  const warnings = await locationWarnings(root, hooksDir);

  if (ours) {
    const text = renderHook({ ...render, createdDir: current.includes(CREATED_DIR_LINE) });
    const chained = hasChained ? chainedPath : undefined;
    if (text === current) return { action: 'unchanged', root, hooksDir, hookPath, chainedPath: chained, warnings };
    await writeExecutable(hookPath, text);
    return { action: 'updated', root, hooksDir, hookPath, chainedPath: chained, warnings };
  }
  if (hasHook && hasChained) {
    throw configError(`hook: ${chainedPath} already exists, and ${hookPath} is not the jev hook; installing would overwrite that backup. Move one of them away first.`);
  }
  const text = renderHook({ ...render, createdDir });
  if (!hasHook) {
    await writeExecutable(hookPath, text);
    return { action: 'installed', root, hooksDir, hookPath, chainedPath: hasChained ? chainedPath : undefined, warnings };
  }
  // Move the previous hook aside, then put ours in place; put it back if that fails.
  await rename(hookPath, chainedPath).catch((err) => {
    throw fsError('move aside', hookPath, err);
  });
  try {
    await writeExecutable(hookPath, text);
  } catch (err) {
    await rename(chainedPath, hookPath).catch(() => undefined);
    throw err;
  }
  return { action: 'installed', root, hooksDir, hookPath, chainedPath, warnings };
}

/**
 * Removes our hook: the chained previous hook is renamed back (exactly what was there: bytes, mode,
 * symlink), or ours is deleted when there was none; a hooks directory the install created is removed
 * when empty. A foreign hook is never touched (`not-installed`). Throws JevError CONFIG_ERROR outside a
 * git work tree or when the files cannot be changed.
 */
export async function uninstallHook(options: HookLocationOptions): Promise<UninstallHookResult> {
  const { root, hooksDir } = await resolveHooksDir(options.repoDir, options.gitEnv);
  const hookPath = join(hooksDir, HOOK_NAME);
  const chainedPath = join(hooksDir, CHAINED_NAME);
  const hasHook = await exists(hookPath);
  const current = hasHook ? await readHook(hookPath) : undefined;
  const hasChained = await exists(chainedPath);
  if (current === undefined || !isJevHook(current)) {
    return { action: 'not-installed', root, hooksDir, hookPath, foreignHook: hasHook, orphanBackup: hasChained ? chainedPath : undefined };
  }
  if (hasChained) {
    await rename(chainedPath, hookPath).catch((err) => {
      throw fsError('restore', chainedPath, err);
    });
    return { action: 'restored', root, hooksDir, hookPath, foreignHook: false };
  }
  await unlink(hookPath).catch((err) => {
    throw fsError('remove', hookPath, err);
  });
  if (current.includes(CREATED_DIR_LINE)) await rmdir(hooksDir).catch(() => undefined); // only when empty
  return { action: 'removed', root, hooksDir, hookPath, foreignHook: false };
}

/** Where the hook lives and whether ours is installed. Throws CONFIG_ERROR outside a git work tree. */
export async function hookStatus(options: HookLocationOptions): Promise<HookStatus> {
  const { root, hooksDir } = await resolveHooksDir(options.repoDir, options.gitEnv);
  const hookPath = join(hooksDir, HOOK_NAME);
  const hasHook = await exists(hookPath);
  const current = hasHook ? await readHook(hookPath) : undefined;
  const installed = current !== undefined && isJevHook(current);
  const unquote = (name: string) => {
    const m = new RegExp(`^${name}='((?:[^']|'\\\\'')*)'$`, 'm').exec(current ?? '');
    return m ? m[1]!.replace(/'\\''/g, "'") : undefined;
  };
  return {
    root,
    hooksDir,
    hookPath,
    installed,
    chained: installed && (await exists(join(hooksDir, CHAINED_NAME))),
    foreignHook: hasHook && !installed,
    ...(installed ? { nodePath: unquote('jev_node'), cliPath: unquote('jev_cli') } : {}),
  };
}
