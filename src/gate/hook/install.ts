import { constants } from 'node:fs';
import { access, chmod, mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { configError, invalidInput } from '../../judgment/errors';
import { evidenceCommandProblem } from '../evidence-command';
import { exists, fsError, locateHook, readHook, type HookLocationOptions, type SharedHooks } from './location';
import { CREATED_DIR_LINE, isJevHook, renderHook, type RenderHookOptions } from './script';

/**
 * Installing the commit-msg hook (script.ts), host-independent: `jevcp hook install` and the editor's
 * "Jev: Install Commit Hook" call the same function. An existing hook is renamed to CHAINED_NAME and
 * chained; uninstall.ts renames it back.
 */

/** Options of `installHook`. */
export interface InstallHookOptions extends HookLocationOptions {
  /** Absolute path of the node executable the hook runs first (e.g. `process.execPath`); absent with `cliPath` for a launcher-only hook. */
  nodePath?: string;
  /** Absolute path of the built CLI, `…/dist/cli.js`; absent with `nodePath`. */
  cliPath?: string;
  /** Absolute path of the stable launcher (launcher.ts `launcherPath`); must exist when no CLI is named. */
  launcherPath: string;
  /** Installed with the mock judge on purpose: mock verdicts are advisory and never block. */
  allowMock?: boolean;
  /** Confirms installing into a hooks directory other repositories use (location.ts `SharedHooks`). */
  shared?: boolean;
  /** Shell command whose output becomes the gate's evidence (`--evidence-cmd`), e.g. `npm test`. */
  evidenceCommand?: string;
  /**
   * Extra environment for the gate, written into the hook as `export NAME='value'` (e.g.
   * `ELECTRON_RUN_AS_NODE: '1'` when nodePath is an editor's Electron binary, or JEV_GATE_FAIL_OPEN).
   * Names must be shell identifiers. Never pass secrets: the hook file is plain text.
   */
  env?: Record<string, string>;
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
  /** Set when the hooks directory gates other repositories too (the install was confirmed). */
  shared?: SharedHooks;
}

function requireAbsolute(field: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') throw invalidInput(`hook: ${field} must be a non-empty path.`);
  if (!isAbsolute(value)) throw invalidInput(`hook: ${field} must be an absolute path (the hook may run without the shell's PATH); got ${JSON.stringify(value)}.`);
  if (/[\0\n\r]/.test(value)) throw invalidInput(`hook: ${field} must not contain NUL or line breaks.`);
  return value;
}

function validate(o: InstallHookOptions): RenderHookOptions {
  if ((o.nodePath === undefined) !== (o.cliPath === undefined)) throw invalidInput('hook: give nodePath and cliPath together, or neither (the hook then runs the launcher).');
  const nodePath = o.nodePath === undefined ? undefined : requireAbsolute('nodePath', o.nodePath);
  const cliPath = o.cliPath === undefined ? undefined : requireAbsolute('cliPath', o.cliPath);
  const launcherPath = requireAbsolute('launcherPath', o.launcherPath);
  if (o.evidenceCommand !== undefined) {
    const problem = typeof o.evidenceCommand === 'string' ? evidenceCommandProblem(o.evidenceCommand) : 'must be a string';
    if (problem) throw invalidInput(`hook: evidenceCommand: ${problem}.`);
  }
  for (const [k, v] of Object.entries(o.env ?? {})) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw invalidInput(`hook: env name ${JSON.stringify(k)} is not a shell identifier.`);
    if (typeof v !== 'string' || v.includes('\0')) throw invalidInput(`hook: env ${k} must be a string without NUL.`);
  }
  return { nodePath, cliPath, launcherPath, evidenceCommand: o.evidenceCommand, env: o.env, allowMock: o.allowMock === true };
}

async function requireFile(field: string, path: string | undefined, executable: boolean): Promise<void> {
  if (path === undefined) return;
  try {
    if (!(await stat(path)).isFile()) throw new Error('not a file');
    if (executable && process.platform !== 'win32') await access(path, constants.X_OK);
  } catch {
    throw invalidInput(`hook: ${field} ${path} is not ${executable ? 'an executable file' : 'a file'}; the hook would block every commit.`);
  }
}

/** Warnings about where the hook goes: a tracked/visible hooks directory, or one husky rewrites. */
async function locationWarnings(root: string, hooksDir: string): Promise<string[]> {
  const out: string[] = [];
  const rel = relative(root, hooksDir);
  const inTree = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) && rel.split(sep)[0] !== '.git';
  if (inTree) {
    out.push(
      `the hooks directory ${rel} (core.hooksPath) is inside the work tree: the hook change shows in git status. The hook names this machine's node and CLI by absolute path, so do not commit it as is; ` +
        'for a team gate, commit a hook that runs `jevcp gate --hook --message-file "$1"` from PATH instead.',
    );
  }
  if (await exists(join(hooksDir, 'h'))) {
    out.push(`${hooksDir} looks managed by husky, which rewrites it on install: run \`jevcp hook install\` again after \`npm install\`, or call the gate from .husky/commit-msg instead.`);
  }
  return out;
}

/**
 * The refusal to install into a shared hooks directory without confirmation: names the directory, why it
 * is shared, and both ways forward (the CLI's --shared, or a hooks directory for this repository only).
 */
export function sharedRefusal(hooksDir: string, root: string, shared: SharedHooks) {
  return configError(
    `hook: the hooks directory ${hooksDir} ${shared.why}, not only ${root}. Installing there gates all of them: confirm with \`jevcp hook install --shared\`, ` +
      'or give this repository its own hooks directory first (git config core.hooksPath .git/hooks).',
  );
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
 * and chained. Throws JevError INVALID_INPUT for bad options (relative paths, missing node/CLI files or
 * launcher, bad env names), CONFIG_ERROR outside a git work tree, for a hooks directory other repositories
 * use unless `shared` confirms it, when a stale CHAINED_NAME would be overwritten, or when the hooks
 * directory cannot be written.
 */
export async function installHook(options: InstallHookOptions): Promise<InstallHookResult> {
  const render = validate(options);
  await requireFile('nodePath', render.nodePath, true);
  await requireFile('cliPath', render.cliPath, false);
  if (render.cliPath === undefined) await requireFile('launcherPath', render.launcherPath, true);
  const { root, hooksDir, hookPath, chainedPath, shared } = await locateHook(options);
  if (shared && options.shared !== true) throw sharedRefusal(hooksDir, root, shared);

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
    if (text === current) return { action: 'unchanged', root, hooksDir, hookPath, chainedPath: chained, warnings, ...(shared ? { shared } : {}) };
    await writeExecutable(hookPath, text);
    return { action: 'updated', root, hooksDir, hookPath, chainedPath: chained, warnings, ...(shared ? { shared } : {}) };
  }
  if (hasHook && hasChained) {
    throw configError(`hook: ${chainedPath} already exists, and ${hookPath} is not the jev hook; installing would overwrite that backup. Move one of them away first.`);
  }
  const text = renderHook({ ...render, createdDir });
  if (!hasHook) {
    await writeExecutable(hookPath, text);
    return { action: 'installed', root, hooksDir, hookPath, chainedPath: hasChained ? chainedPath : undefined, warnings, ...(shared ? { shared } : {}) };
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
  return { action: 'installed', root, hooksDir, hookPath, chainedPath, warnings, ...(shared ? { shared } : {}) };
}
