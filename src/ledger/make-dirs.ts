import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * `mkdir -p dir` (each new folder with `mode`), one level at a time. Node's own `mkdirSync(dir, {recursive:
 * true})` never returns for a path under a folder that refuses new entries with ENOENT (e.g. `/proc/x/y` on
 * Linux: EEXIST for the parent, ENOENT for the child, retried forever). Throws the OS error (code kept).
 */
export function makeDirs(dir: string, mode: number): void {
  if (statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return;
  const parent = dirname(dir);
  if (parent !== dir) makeDirs(parent, mode);
  try {
    mkdirSync(dir, { mode });
  } catch (err) {
    // Made meanwhile by someone else: fine if it is a folder now.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST' && statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return;
    throw err;
  }
}
