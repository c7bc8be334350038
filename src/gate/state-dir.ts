import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { configError } from '../judgment/errors';

/**
 * The user's private state directory of the commit gate: the launcher the hook runs (hook/launcher.ts),
 * the running editors' channel files (channel/session-file.ts) and the approvals the editor hands to the
 * hook (approval.ts). Everything in it is created for the user alone: directories 0700, files 0600, and a
 * file that another user owns or can read is never trusted.
 */

/** Name of the directory under the platform's state home. */
export const STATE_DIR_NAME = 'jev-control-panel';
/** Overrides the state directory (absolute path); used when the editor and the terminal see different homes. */
export const STATE_DIR_ENV = 'JEV_STATE_DIR';

/**
 * The state directory: `JEV_STATE_DIR` when set; else `$XDG_STATE_HOME/jev-control-panel`; else
 * `~/Library/Application Support/jev-control-panel` (macOS), `%LOCALAPPDATA%\jev-control-panel` (Windows)
 * or `~/.local/state/jev-control-panel`. The editor and the CLI compute it the same way, so the hook finds
 * what the editor wrote. Throws JevError CONFIG_ERROR when JEV_STATE_DIR is set but not absolute.
 */
export function stateDir(env: Record<string, string | undefined> = process.env, platform: NodeJS.Platform = process.platform, home = env.HOME || homedir()): string {
  const explicit = env[STATE_DIR_ENV]?.trim();
  if (explicit) {
    if (!explicit.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(explicit)) throw configError(`${STATE_DIR_ENV} must be an absolute path; got ${JSON.stringify(explicit)}.`);
    return explicit;
  }
  const xdg = env.XDG_STATE_HOME?.trim();
  if (xdg && xdg.startsWith('/')) return join(xdg, STATE_DIR_NAME);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', STATE_DIR_NAME);
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), STATE_DIR_NAME);
  return join(home, '.local', 'state', STATE_DIR_NAME);
}

const ownerOnly = (mode: number) => (mode & 0o077) === 0;
const myUid = () => (typeof process.getuid === 'function' ? process.getuid() : undefined);

/**
 * Creates `dir` (and its parents) for the user alone (0700) and checks it: a directory that is a
 * symlink, belongs to someone else or is open to others is refused. Throws JevError CONFIG_ERROR naming
 * the directory and the rule.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 }).catch((err) => {
    throw configError(`cannot create ${dir} (${(err as { code?: string }).code ?? 'error'}).`);
  });
  const problem = await privateProblem(dir, true);
  if (problem === 'open to other users' && process.platform !== 'win32') {
    // Ours but created by an older umask or by hand: close it rather than refuse.
    await chmod(dir, 0o700).catch(() => undefined);
    if ((await privateProblem(dir, true)) === undefined) return;
  }
  if (problem) throw configError(`${dir} is not a private directory (${problem}); remove it and try again.`);
}

/**
 * Why `path` must not be trusted as the user's private file or directory, or undefined when it can: it
 * must exist, not be a symlink, be of the expected type, belong to this user, and give no permission to
 * group or others. (On Windows, where modes and owners are not POSIX, only existence and type are checked.)
 */
export async function privateProblem(path: string, directory: boolean): Promise<string | undefined> {
  let s;
  try {
    s = await lstat(path);
  } catch (err) {
    return (err as { code?: string }).code === 'ENOENT' ? 'missing' : 'unreadable';
  }
  if (s.isSymbolicLink()) return 'a symbolic link';
  if (directory ? !s.isDirectory() : !s.isFile()) return directory ? 'not a directory' : 'not a regular file';
  if (process.platform === 'win32') return undefined;
  const uid = myUid();
  if (uid !== undefined && s.uid !== uid) return 'owned by another user';
  if (!ownerOnly(s.mode)) return 'open to other users';
  return undefined;
}

/**
 * Writes `text` to `path` for the user alone: a temporary file created 0600 beside it, then renamed over
 * it, so a reader never sees half a file. `dir` is made private first. Throws JevError CONFIG_ERROR.
 */
export async function writePrivateFile(dir: string, name: string, text: string, mode = 0o600): Promise<string> {
  await ensurePrivateDir(dir);
  const path = join(dir, name);
  const tmp = join(dir, `.${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(tmp, 'wx', mode);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.chmod(mode); // the umask may have dropped bits
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw configError(`cannot write ${path} (${(err as { code?: string }).code ?? 'error'}).`);
  }
  return path;
}

/**
 * Text of the private file `path`, or undefined when it is missing or fails the rules of `privateProblem`
 * (a file someone else could have planted or read is ignored, never trusted). Opened without following a
 * symlink and checked on the open descriptor, so it cannot be swapped between the check and the read.
 */
export async function readPrivateFile(path: string): Promise<string | undefined> {
  const noFollow = process.platform === 'win32' ? 0 : constants.O_NOFOLLOW;
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | noFollow);
  } catch {
    return undefined;
  }
  try {
    const s = await handle.stat();
    if (!s.isFile()) return undefined;
    if (process.platform !== 'win32') {
      const uid = myUid();
      if ((uid !== undefined && s.uid !== uid) || !ownerOnly(s.mode)) return undefined;
    }
    return await handle.readFile('utf8');
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}
