import { exists, locateHook, readHook, type HookLocationOptions } from './location';
import { hookPaths, isJevHook } from './script';

/** State of the hook in a repository. */
export interface HookStatus {
  root: string;
  hooksDir: string;
  hookPath: string;
  /** Our hook is installed. */
  installed: boolean;
  /** A previous hook is kept and chained. */
  chained: boolean;
  /** A commit-msg hook that is not ours is present. */
  foreignHook: boolean;
  /** node and CLI paths found in our hook (when installed). */
  nodePath?: string;
  cliPath?: string;
}

/** Where the hook lives and whether ours is installed. Throws CONFIG_ERROR outside a git work tree. */
export async function hookStatus(options: HookLocationOptions): Promise<HookStatus> {
  const { root, hooksDir, hookPath, chainedPath } = await locateHook(options);
  const hasHook = await exists(hookPath);
  const current = hasHook ? await readHook(hookPath) : undefined;
  const installed = current !== undefined && isJevHook(current);
  return {
    root,
    hooksDir,
    hookPath,
    installed,
    chained: installed && (await exists(chainedPath)),
    foreignHook: hasHook && !installed,
    ...(installed ? hookPaths(current) : {}),
  };
}
