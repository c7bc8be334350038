import { exists, locateHook, readHook, type HookLocationOptions, type SharedHooks } from './location';
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
  /** What our hook runs (when installed): node and CLI (installed from the CLI), and the launcher. */
  nodePath?: string;
  cliPath?: string;
  launcherPath?: string;
  /** Our hook was installed with the mock judge on purpose (its verdicts are advisory). */
  allowMock?: boolean;
  /** The command whose output the hook passes as evidence (`--evidence-cmd`), when it has one. */
  evidenceCommand?: string;
  /** Set when the hooks directory gates other repositories too. */
  shared?: SharedHooks;
}

/** Where the hook lives and whether ours is installed. Throws CONFIG_ERROR outside a git work tree. */
export async function hookStatus(options: HookLocationOptions): Promise<HookStatus> {
  const { root, hooksDir, hookPath, chainedPath, shared } = await locateHook(options);
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
    ...(shared ? { shared } : {}),
  };
}
