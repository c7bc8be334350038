import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { readdir, unlink } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { readPrivateFile, writePrivateFile } from '../gate/state-dir';

/**
 * The files through which a running editor offers its judge to commit hooks: one per editor session, in
 * `<state dir>/editors/` (state-dir.ts: 0700 directory, 0600 files, someone else's file never trusted),
 * holding the loopback port, a bearer token made for this session only (32 random bytes), the editor's
 * process id, the folders and repositories it has open, and whether its judge is real or the mock. The editor rewrites it when those change and
 * removes it when it stops; a file whose process is gone is stale and ignored.
 */

/** Subdirectory of the state directory. */
export const SESSIONS_DIR = 'editors';
/** Bytes of randomness in a session token (43 characters of base64url). */
export const TOKEN_BYTES = 32;

/** The content of one session file. */
export interface EditorSession {
  v: 1;
  /** Random id, also the file name. */
  id: string;
  /** The editor's extension host process. */
  pid: number;
  port: number;
  /** Bearer token of the channel: a secret, never logged. */
  token: string;
  /** Workspace folders and git repositories the editor has open (absolute paths). */
  roots: string[];
  /** The editor, e.g. `Visual Studio Code`. */
  editor: string;
  /** ISO time the session started. */
  started: string;
  /** The editor's judge now (rewritten when it changes): what `jevcp hook install` checks. */
  judge?: { provider: string; mock: boolean };
}

/** A new random session id and token. */
export function newSessionSecrets(): { id: string; token: string } {
  return { id: randomBytes(12).toString('hex'), token: randomBytes(TOKEN_BYTES).toString('base64url') };
}

/** Writes (or rewrites) the session file. Throws JevError CONFIG_ERROR when the state directory cannot be written. */
export async function writeSessionFile(state: string, session: EditorSession): Promise<string> {
  return writePrivateFile(join(state, SESSIONS_DIR), `${session.id}.json`, `${JSON.stringify(session)}\n`);
}

/** Removes the session file `id`. Never throws. */
export async function removeSessionFile(state: string, id: string): Promise<void> {
  await unlink(join(state, SESSIONS_DIR, `${id}.json`)).catch(() => undefined);
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

const inside = (child: string, parent: string) => {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** Whether an editor with `roots` open is open on the repository at `root` (the same folder, one inside the other). */
export function coversRepository(roots: readonly string[], root: string): boolean {
  const repo = canonical(root);
  return roots.some((r) => {
    const folder = canonical(r);
    return inside(repo, folder) || inside(folder, repo);
  });
}

/** Whether process `pid` is running (a process of another user counts as running). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM';
  }
}

function isSession(v: unknown): v is EditorSession {
  const s = v as Partial<EditorSession> | null;
  return (
    typeof s === 'object' && s !== null && s.v === 1 && typeof s.id === 'string' && Number.isInteger(s.pid) && Number.isInteger(s.port) &&
    s.port! > 0 && s.port! < 65_536 && typeof s.token === 'string' && s.token.length >= 43 && Array.isArray(s.roots) &&
    s.roots.every((r) => typeof r === 'string') && typeof s.editor === 'string' && typeof s.started === 'string'
  );
}

/**
 * The running editor sessions open on the repository at `root`, newest first. Files that are not private
 * to the user, malformed, or left by a process that is gone are skipped (stale ones are removed). Never throws.
 */
export async function sessionsFor(state: string, root: string): Promise<EditorSession[]> {
  const dir = join(state, SESSIONS_DIR);
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => /^[0-9a-f]{24}\.json$/.test(n));
  } catch {
    return [];
  }
  const found: EditorSession[] = [];
  for (const name of names) {
    const text = await readPrivateFile(join(dir, name));
    let session: unknown;
    try {
      session = text === undefined ? undefined : JSON.parse(text);
    } catch {
      continue;
    }
    if (!isSession(session) || `${session.id}.json` !== name) continue;
    if (!processAlive(session.pid)) {
      await removeSessionFile(state, session.id);
      continue;
    }
    if (coversRepository(session.roots, root)) found.push(session);
  }
  return found.sort((a, b) => b.started.localeCompare(a.started));
}
