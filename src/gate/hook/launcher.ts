import { basename, dirname, join } from 'node:path';
import { invalidInput } from '../../judgment/errors';
import { readPrivateFile, writePrivateFile } from '../state-dir';
import { CANNOT_RUN_STATUS, shellQuote } from './script';

/**
 * The stable launcher: `<state dir>/bin/jevcp`, a small sh script that runs the CLI bundled with the
 * extension under the editor's own runtime. The extension rewrites it every time it starts, so a hook
 * installed from the editor calls one path that survives extension and editor updates (a versioned
 * extension folder or an editor binary never appears in the hook). If the extension was updated and has
 * not started since, the launcher finds the newest installed copy beside the old one; if the editor's
 * runtime moved, it uses `node` from PATH. When nothing can run it says in one line what is missing (the CLI,
 * or node) and exits 127.
 */

/** The launcher's path in the state directory. */
export function launcherPath(state: string): string {
  return join(state, 'bin', 'jevcp');
}

/** What the launcher runs. */
export interface LauncherOptions {
  /** Absolute path of the runtime: the editor's executable (Electron or node). */
  nodePath: string;
  /** Absolute path of the bundled CLI, `…/dist/cli.js` inside the extension folder. */
  cliPath: string;
  /** The runtime is Electron: run it with ELECTRON_RUN_AS_NODE=1. */
  electron: boolean;
  /** The extension's version, for the header. */
  version: string;
}

/**
 * The extension folder pattern for finding the newest installed copy: `…/extensions/jevcp.jev-control-panel-`
 * from `…/extensions/jevcp.jev-control-panel-0.1.0/dist/cli.js`; undefined when the folder has no version
 * (a development checkout).
 */
export function extensionFolderPrefix(cliPath: string): { parent: string; prefix: string } | undefined {
  const folder = dirname(dirname(cliPath));
  const m = /^(.+-)\d+\.\d+\.\d+[^/\\]*$/.exec(basename(folder));
  return m ? { parent: dirname(folder), prefix: m[1]! } : undefined;
}

const check = (field: string, value: string) => {
  if (!value.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(value)) throw invalidInput(`launcher: ${field} must be an absolute path; got ${JSON.stringify(value)}.`);
  if (/[\0\n\r]/.test(value)) throw invalidInput(`launcher: ${field} must not contain NUL or line breaks.`);
};

/** The launcher script (POSIX sh). Throws JevError INVALID_INPUT for relative paths or paths with line breaks. */
export function renderLauncher(o: LauncherOptions, path: string): string {
  check('nodePath', o.nodePath);
  check('cliPath', o.cliPath);
  const newest = extensionFolderPrefix(o.cliPath);
  const findNewest = newest
    ? `if [ ! -f "$jev_cli" ]; then
  # The extension was updated and has not started since: the newest installed copy beside the old one.
  jev_dir=$(ls -td -- ${shellQuote(newest.parent)}/${newest.prefix.replace(/[^A-Za-z0-9._-]/g, '?')}*/ 2>/dev/null | head -n 1)
  [ -n "$jev_dir" ] && jev_cli="\${jev_dir%/}/dist/cli.js"
fi
`
    : '';
  const safePath = path.replace(/[^A-Za-z0-9/._ -]/g, '?');
  return `#!/bin/sh
# jevcp launcher of Jev Control Panel ${o.version.replace(/[^\w.+-]/g, '')}: rewritten every time the extension starts, so
# commit hooks keep working across extension and editor updates. Do not edit.
jev_node=${shellQuote(o.nodePath)}
jev_cli=${shellQuote(o.cliPath)}
${findNewest}if [ ! -f "$jev_cli" ]; then
  echo "jevcp: cannot run the gate: Jev Control Panel's CLI ($jev_cli) is gone (the extension was updated or removed) — open the editor once so Jev rewrites ${safePath}, or run 'jevcp hook install' again; to commit now: git commit --no-verify" >&2
  exit ${CANNOT_RUN_STATUS}
fi
if [ -x "$jev_node" ]; then
  ${o.electron ? 'export ELECTRON_RUN_AS_NODE=1' : ':'}
else
  # The editor's runtime moved (an editor update): node from PATH until the extension starts again.
  jev_runtime=$jev_node
  jev_node=$(command -v node 2>/dev/null)
  if [ -z "$jev_node" ]; then
    echo "jevcp: cannot run the gate: node is missing — the editor's runtime ($jev_runtime) is gone and there is no node on PATH (the CLI is there: $jev_cli) — open the editor once so Jev rewrites ${safePath}, or run 'jevcp hook install' again; to commit now: git commit --no-verify" >&2
    exit ${CANNOT_RUN_STATUS}
  fi
fi
exec "$jev_node" "$jev_cli" "$@"
`;
}

/**
 * Writes the launcher (0700, user only) when its content changed. Returns its path and whether it was
 * rewritten. Throws JevError INVALID_INPUT for bad paths, CONFIG_ERROR when the state directory cannot be written.
 */
export async function writeLauncher(state: string, o: LauncherOptions): Promise<{ path: string; changed: boolean }> {
  const path = launcherPath(state);
  const text = renderLauncher(o, path);
  if ((await readPrivateFile(path)) === text) return { path, changed: false };
  await writePrivateFile(dirname(path), basename(path), text, 0o700);
  return { path, changed: true };
}
