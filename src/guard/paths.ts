import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';

/**
 * File paths of a tool call against the workspace. Paths are compared where they really lead: symlinks are
 * followed (a link inside the workspace pointing out of it, e.g. `sshlink -> ~/.ssh`, counts as outside, so no
 * `Read(./**)` or `Edit(src/**)` rule covers it and a deny rule on its target fires).
 */

/**
 * `path` with every symlink followed: the real path of its longest existing prefix, plus the rest (a file
 * not written yet lies where its existing parent really is). Never throws; an unreadable path stays as given.
 */
export function followLinks(path: string): string {
  let head = path;
  const tail: string[] = [];
  for (;;) {
    try {
      return join(realpathSync.native(head), ...tail);
    } catch {
      const parent = dirname(head);
      if (parent === head) return path;
      tail.unshift(basename(head));
      head = parent;
    }
  }
}

/**
 * `path` resolved against `cwd`, symlinks followed. Absolute paths stay as they are; `~` and `~/…` are the home
 * folder, as the hosts' file tools read them (taken literally, `~/.ssh` would pass for a folder of the workspace).
 */
export function resolveAgainst(cwd: string | undefined, path: string): string {
  const expanded = path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
  return followLinks(cwd === undefined ? resolve(expanded) : resolve(cwd, expanded));
}

/**
 * The folder a glob pattern can reach, before its first wildcard segment: `/root/.ssh/*` → `/root/.ssh`,
 * `../../etc/**` → `../../etc`, `src/**` → `src`, `.env` → `.env`; undefined when the first segment is a wildcard (`**` /`*.ts`:
 * the search folder itself).
 */
export function globBase(pattern: string): string | undefined {
  const segments = pattern.split('/');
  const fixed: string[] = [];
  for (const s of segments) {
    if (/[*?[\]{}]/.test(s)) break;
    fixed.push(s);
  }
  if (fixed.length === segments.length) return pattern === '' ? undefined : pattern; // no wildcard: the path itself
  const base = fixed.join('/');
  return base === '' ? (pattern.startsWith('/') ? '/' : undefined) : base;
}

/** True when `child` is `parent` or inside it. */
export function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Whether every path of a call is inside the workspace `root`: true when all are (a call without paths
 * works in the workspace itself), false when one is not, undefined when there is no workspace to compare with.
 */
export function pathsInWorkspace(paths: readonly string[], root: string | undefined): boolean | undefined {
  if (root === undefined) return undefined;
  return paths.every((p) => isInside(p, root));
}
