import { isAbsolute, relative, resolve } from 'node:path';

/**
 * File paths of a tool call against the workspace. Paths are compared as written (resolved, not
 * followed through symlinks: a link inside the workspace pointing out of it counts as inside, which is
 * why a path alone never settles a write).
 */

/** `path` resolved against `cwd` (absolute paths stay as they are; `~` is not expanded here). */
export function resolveAgainst(cwd: string | undefined, path: string): string {
  return cwd === undefined ? resolve(path) : resolve(cwd, path);
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
