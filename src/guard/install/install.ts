import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { shellQuote } from '../../gate/hook/script';
import { readPrivateFile, writePrivateFile } from '../../gate/state-dir';
import type { HostName } from '../types';
import { addGuardEntries, guardEntries, installedCommand, removeGuardEntries } from './entries';
import { hookTarget, type HookTarget, type Scope } from './locations';

/**
 * `jevcp guard install|uninstall|status`: writes the host's hook configuration so it runs
 * `<node> <dist/guard.js or dist/cli.js> guard --host H` (absolute paths, like the commit hook), merging with hooks already
 * there, idempotently, and undoes exactly what it wrote. At install the file's previous bytes are kept in
 * the state directory (`<state>/guard/<hash>.json`, 0600); uninstall puts them back byte for byte when
 * the file is still as the install left it, and otherwise removes only the guard's entries.
 */

/** Options of install, uninstall and status. */
export interface GuardInstallOptions {
  host: HostName;
  scope: Scope;
  /** The workspace (project scope). */
  workspace: string;
  env: Record<string, string | undefined>;
  /** The state directory (gate/state-dir.ts `stateDir`). */
  state: string;
}

/** What install did. */
export interface GuardInstallResult {
  action: 'installed' | 'updated' | 'unchanged';
  path: string;
  command: string;
}

/** What uninstall did. */
export interface GuardUninstallResult {
  /** `restored`: the previous bytes are back; `removed`: our entries (or our file) are gone; `not-installed`. */
  action: 'restored' | 'removed' | 'not-installed';
  path: string;
}

/** What status found. */
export interface GuardStatus {
  installed: boolean;
  path: string;
  command?: string;
}

interface Sidecar {
  v: 1;
  path: string;
  /** The file's text before the first install; null when there was no file. */
  before: string | null;
  /** Folders the install created (deepest last). */
  createdDirs: string[];
  /** The text the last install wrote. */
  after: string;
}

/** The command line the host runs. Throws Error for relative paths or line breaks. */
export function guardCommand(nodePath: string, cliPath: string, host: HostName, agent?: string): string {
  for (const [field, p] of [['nodePath', nodePath], ['cliPath', cliPath]] as const) {
    if (!isAbsolute(p)) throw new Error(`guard install: ${field} must be an absolute path; got ${JSON.stringify(p)}`);
    if (/[\0\n\r]/.test(p)) throw new Error(`guard install: ${field} must not contain NUL or line breaks`);
  }
  if (agent !== undefined && !/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(agent)) throw new Error('guard install: --agent must be 1-64 letters, digits, _ . - and start with a letter or digit');
  return `${shellQuote(nodePath)} ${shellQuote(cliPath)} guard --host ${host}${agent ? ` --agent ${agent}` : ''}`;
}

const sidecarPath = (state: string, path: string) => join(state, 'guard', `${createHash('sha256').update(path).digest('hex').slice(0, 32)}.json`);

async function readSidecar(state: string, path: string): Promise<Sidecar | undefined> {
  const text = await readPrivateFile(sidecarPath(state, path));
  if (text === undefined) return undefined;
  try {
    const s = JSON.parse(text) as Sidecar;
    return s.v === 1 && s.path === path && typeof s.after === 'string' ? s : undefined;
  } catch {
    return undefined;
  }
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { cause: err });
  }
}

function parseJson(path: string, text: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw new Error(`${path} is not valid JSON (${(err as Error).message}); fix it first, nothing was changed`, { cause: err });
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`${path} is not a JSON object; nothing was changed`);
  return v as Record<string, unknown>;
}

/** Serializes like the file already is: its indentation (default two spaces) and its final line break. */
function serialize(value: unknown, like: string | undefined): string {
  const indentMatch = like === undefined ? undefined : /\n([ \t]+)"/.exec(like);
  const indent = indentMatch ? indentMatch[1]! : '  ';
  const trailing = like === undefined || like.endsWith('\n') ? '\n' : '';
  return JSON.stringify(value, null, indent) + trailing;
}

async function writeAtomic(path: string, text: string): Promise<void> {
  const mode = await stat(path).then((s) => s.mode & 0o777, () => 0o644);
  const tmp = `${path}.jev-tmp-${process.pid}`;
  try {
    await writeFile(tmp, text, { mode });
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw new Error(`cannot write ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { cause: err });
  }
}

async function makeDirs(dir: string): Promise<string[]> {
  const created: string[] = [];
  let d = dir;
  const missing: string[] = [];
  while (!(await stat(d).then(() => true, () => false))) {
    missing.unshift(d);
    const up = dirname(d);
    if (up === d) break;
    d = up;
  }
  for (const m of missing) {
    await mkdir(m);
    created.push(m);
  }
  return created;
}

function desired(target: HookTarget, host: HostName, command: string, current: string | undefined): string {
  const entries = guardEntries(host, command);
  if (target.kind === 'owned') {
    if (current !== undefined && installedCommand(parseJson(target.path, current)) === undefined) {
      throw new Error(`${target.path} exists and is not the Jev guard's file; move it away first, nothing was changed`);
    }
    const hooks = Object.fromEntries(Object.entries(entries).map(([event, entry]) => [event, [entry]]));
    return serialize(host === 'copilot-cli' ? { version: 1, hooks } : { hooks }, current);
  }
  const parsed = current === undefined ? {} : parseJson(target.path, current);
  try {
    return serialize(addGuardEntries(parsed, entries), current);
  } catch (err) {
    throw new Error(`${target.path}: ${(err as Error).message}; nothing was changed`, { cause: err });
  }
}

/** Installs (or refreshes) the guard's hook. Throws Error naming the file and the problem. */
export async function installGuard(o: GuardInstallOptions & { nodePath: string; cliPath: string; agent?: string }): Promise<GuardInstallResult> {
  const target = hookTarget(o.host, o.scope, o.workspace, o.env);
  const command = guardCommand(o.nodePath, o.cliPath, o.host, o.agent);
  const current = await readText(target.path);
  const text = desired(target, o.host, command, current);
  if (text === current) return { action: 'unchanged', path: target.path, command };
  const wasOurs = current !== undefined && installedCommand(JSON.parse(current)) !== undefined;
  const previous = await readSidecar(o.state, target.path);
  const createdDirs = await makeDirs(dirname(target.path));
  const sidecar: Sidecar = previous && wasOurs
    ? { ...previous, after: text }
    : { v: 1, path: target.path, before: current ?? null, createdDirs, after: text };
  await writePrivateFile(join(o.state, 'guard'), basename(sidecarPath(o.state, target.path)), `${JSON.stringify(sidecar)}\n`);
  await writeAtomic(target.path, text);
  return { action: wasOurs ? 'updated' : 'installed', path: target.path, command };
}

/** Removes the guard's hook (see the module comment). Throws Error naming the file and the problem. */
export async function uninstallGuard(o: GuardInstallOptions): Promise<GuardUninstallResult> {
  const target = hookTarget(o.host, o.scope, o.workspace, o.env);
  const current = await readText(target.path);
  const side = await readSidecar(o.state, target.path);
  const dropSidecar = () => unlink(sidecarPath(o.state, target.path)).catch(() => undefined);
  if (current === undefined || installedCommand(parseJson(target.path, current)) === undefined) {
    await dropSidecar();
    return { action: 'not-installed', path: target.path };
  }
  if (side && side.after === current) {
    if (side.before === null) {
      await unlink(target.path);
      for (const d of [...side.createdDirs].reverse()) await rmdir(d).catch(() => undefined); // only when empty
    } else await writeAtomic(target.path, side.before);
    await dropSidecar();
    return { action: 'restored', path: target.path };
  }
  if (target.kind === 'owned') await unlink(target.path);
  else {
    const parsed = parseJson(target.path, current);
    const next = removeGuardEntries(parsed);
    await writeAtomic(target.path, serialize(next, current));
  }
  await dropSidecar();
  return { action: 'removed', path: target.path };
}

/** Whether the guard's hook is in the host's configuration, and its command. */
export async function guardStatus(o: GuardInstallOptions): Promise<GuardStatus> {
  const target = hookTarget(o.host, o.scope, o.workspace, o.env);
  const current = await readText(target.path);
  if (current === undefined) return { installed: false, path: target.path };
  let parsed: Record<string, unknown>;
  try {
    parsed = parseJson(target.path, current);
  } catch {
    return { installed: false, path: target.path };
  }
  const command = installedCommand(parsed);
  return command === undefined ? { installed: false, path: target.path } : { installed: true, path: target.path, command };
}

