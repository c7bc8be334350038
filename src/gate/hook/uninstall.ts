import { rename, rmdir, unlink } from 'node:fs/promises';
import { exists, fsError, locateHook, readHook, type HookLocationOptions } from './location';
import { CREATED_DIR_LINE, isJevHook } from './script';

/** What `uninstallHook` did. */
export interface UninstallHookResult {
  /**
   * `restored`: the previous hook is back; `removed`: ours is gone and there was none before;
   * `not-installed`: our hook was not there, nothing changed (see `foreignHook`).
   */
  action: 'restored' | 'removed' | 'not-installed';
  root: string;
  hooksDir: string;
  hookPath: string;
  /** True when a commit-msg hook that is not ours is present (left alone). */
  foreignHook: boolean;
  /** A leftover backup that was not touched (only with `not-installed`). */
  orphanBackup?: string;
}

/**
 * Removes our hook: the chained previous hook is renamed back (exactly what was there: bytes, mode,
 * symlink), or ours is deleted when there was none; a hooks directory the install created is removed
 * when empty. A foreign hook is never touched (`not-installed`). Throws JevError CONFIG_ERROR outside a
 * git work tree or when the files cannot be changed.
 */
export async function uninstallHook(options: HookLocationOptions): Promise<UninstallHookResult> {
  const { root, hooksDir, hookPath, chainedPath } = await locateHook(options);
  const hasHook = await exists(hookPath);
  const current = hasHook ? await readHook(hookPath) : undefined;
  const hasChained = await exists(chainedPath);
  if (current === undefined || !isJevHook(current)) {
    return { action: 'not-installed', root, hooksDir, hookPath, foreignHook: hasHook, orphanBackup: hasChained ? chainedPath : undefined };
  }
  if (hasChained) {
    await rename(chainedPath, hookPath).catch((err) => {
      throw fsError('restore', chainedPath, err);
    });
    return { action: 'restored', root, hooksDir, hookPath, foreignHook: false };
  }
  await unlink(hookPath).catch((err) => {
    throw fsError('remove', hookPath, err);
  });
  if (current.includes(CREATED_DIR_LINE)) await rmdir(hooksDir).catch(() => undefined); // only when empty
  return { action: 'removed', root, hooksDir, hookPath, foreignHook: false };
}
