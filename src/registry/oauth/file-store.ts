import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { OAuthRecord, OAuthStore } from './store';

/**
 * OAuth records in files readable by the user alone: one JSON file per key (`<sha256>.json`, mode 0600)
 * in a folder of mode 0700, written to a temporary file and renamed (no half-written record, and two
 * processes never interleave within one file). A folder or file with wider permissions is narrowed.
 */

/** Default folder: `$JEV_OAUTH_DIR`, else `$XDG_CONFIG_HOME/jevcp/oauth` (`~/.config/jevcp/oauth`; `%APPDATA%\jevcp\oauth` on Windows). */
export function defaultOAuthDir(env: Record<string, string | undefined>): string {
  if (env.JEV_OAUTH_DIR) return env.JEV_OAUTH_DIR;
  const base = process.platform === 'win32' && env.APPDATA ? env.APPDATA : env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'jevcp', 'oauth');
}

/** File-backed OAuthStore in `dir` (created on the first write). */
export class FileOAuthStore implements OAuthStore {
  constructor(readonly dir: string) {}

  private path(key: string): string {
    return join(this.dir, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`);
  }

  /** Throws Error naming the file when it exists but cannot be read or parsed. */
  async read(key: string): Promise<OAuthRecord | undefined> {
    const file = this.path(key);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new Error(`cannot read the OAuth token file ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { cause: err });
    }
    await narrow(file, 0o600);
    try {
      const record = JSON.parse(text) as { key?: string; record?: OAuthRecord };
      // A hash collision (or a hand-copied file) never hands one server's tokens to another.
      return record.key === key ? record.record : undefined;
    } catch {
      return undefined; // a damaged file reads as "not signed in"; the next sign-in replaces it
    }
  }

  async write(key: string, record: OAuthRecord): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await narrow(this.dir, 0o700);
    const file = this.path(key);
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify({ key, record })}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temp, file);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }
}

/** Removes group and other permission bits of `path` when it has any (POSIX only). */
async function narrow(path: string, mode: number): Promise<void> {
  if (process.platform === 'win32') return;
  const now = (await stat(path)).mode & 0o777;
  if ((now & ~mode) !== 0) await chmod(path, now & mode);
}
