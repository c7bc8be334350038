import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { followLinks } from './paths';

/**
 * The workspace a hook event belongs to. Agents run commands from subfolders (and sometimes from `/`), so the
 * event's cwd is where the search starts, not the answer. Without a config of its own, the file system root
 * and the home folder are no workspace: there `Read(./**)` would cover the machine.
 */

/** Where the guard's workspace search starts: CLAUDE_PROJECT_DIR, else the event's cwd, else the process's. */
export function searchStart(env: Record<string, string | undefined>, eventCwd: string | undefined, cwd: string): string {
  return followLinks(resolve(env.CLAUDE_PROJECT_DIR || eventCwd || cwd));
}

/** True for the folders that are no workspace by themselves: the file system root and the home folder. */
function tooWide(dir: string, home: string): boolean {
  return dir === dirname(dir) || dir === home;
}

const CONFIG = join('.jev', 'config.json');

/**
 * The workspace root the event's folder belongs to, or undefined when there is none. Up from the folder (never
 * into the home folder or `/`), the first folder holding `.jev/config.json` or `.git` is the root; else the
 * folder itself, unless it is `/` or the home folder without a `.jev/config.json` of its own.
 * CLAUDE_PROJECT_DIR (the host's own statement of the project) is taken as it is, except `/` and the home
 * folder, which are a workspace only with a `.jev/config.json` of their own. Never throws.
 */
export function findWorkspaceRoot(env: Record<string, string | undefined>, eventCwd: string | undefined, cwd: string): string | undefined {
  const start = searchStart(env, eventCwd, cwd);
  const home = followLinks(homedir());
  if (env.CLAUDE_PROJECT_DIR) return !tooWide(start, home) || existsSync(join(start, CONFIG)) ? start : undefined;
  for (let dir = start; !tooWide(dir, home); dir = dirname(dir)) {
    if (existsSync(join(dir, CONFIG)) || existsSync(join(dir, '.git'))) return dir;
  }
  if (!tooWide(start, home) || existsSync(join(start, CONFIG))) return start;
  return undefined;
}
