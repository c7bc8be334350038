import { mkdir, readFile, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The user's last prompt per host session, kept for hosts whose transcript may lack it (VS Code's agent: its
 * UserPromptSubmit hook gives `prompt`, its transcript does not always hold the user's message). One small
 * file per session (named by a hash of the session id, mode 0600), written whole or not at all; prompts older
 * than a week are removed on write. Redaction and cutting are the caller's.
 */
export interface PromptStore {
  /** Keeps `prompt` for `sessionId`. Never throws (a store that cannot be written keeps nothing). */
  write(sessionId: string, prompt: string): Promise<void>;
  /** The prompt kept for `sessionId`, or undefined. Never throws. */
  read(sessionId: string): Promise<string | undefined>;
}

/** How long a kept prompt lives, ms. */
export const PROMPT_TTL_MS = 7 * 24 * 3600_000;

// node:crypto is loaded only when a prompt is kept or looked up: the guard's process start is on every tool call.
const fileOf = async (dir: string, sessionId: string) => {
  const { createHash } = await import('node:crypto');
  return join(dir, `${createHash('sha256').update(sessionId).digest('hex').slice(0, 32)}.txt`);
};

async function prune(dir: string, now: number): Promise<void> {
  for (const name of await readdir(dir)) {
    const file = join(dir, name);
    const s = await stat(file).catch(() => undefined);
    if (s && now - s.mtimeMs > PROMPT_TTL_MS) await unlink(file).catch(() => undefined);
  }
}

/** A store in folder `dir` (created on first write). */
export function createPromptStore(dir: string): PromptStore {
  return {
    async write(sessionId, prompt) {
      try {
        await mkdir(dir, { recursive: true, mode: 0o700 });
        const file = await fileOf(dir, sessionId);
        const tmp = `${file}.${process.pid}.tmp`;
        await writeFile(tmp, prompt, { encoding: 'utf8', mode: 0o600 });
        await rename(tmp, file);
        await prune(dir, Date.now());
      } catch {
        // Nothing kept: the guard then has no request for this session, and never allows on that.
      }
    },
    async read(sessionId) {
      try {
        const file = await fileOf(dir, sessionId);
        const s = await stat(file);
        if (Date.now() - s.mtimeMs > PROMPT_TTL_MS || !s.isFile()) return undefined;
        return await readFile(file, 'utf8');
      } catch {
        return undefined;
      }
    },
  };
}
