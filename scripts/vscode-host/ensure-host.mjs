// ensure-host.mjs: the one way every script and check gets the offline VS Code host (code-server, its Node,
// Debian's Chromium, playwright-core and vsce in the host's tools folder). Whatever step asks first installs it
// (setup.sh), so the steps of `npm test` may run in any order, or alone, on a machine that has none of it.
// setup.sh is idempotent, but running it costs seconds even when warm, so it runs only when env.sh is absent or
// names a Chromium or code-server that is no longer there.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The host folder: $VSCODE_HOST_DIR, else $XDG_CACHE_HOME/vscode-host, else ~/.cache/vscode-host (as setup.sh computes it). */
export function hostDir() {
  return process.env.VSCODE_HOST_DIR || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'vscode-host');
}

/** env.sh (written by setup.sh) as an object, or undefined when it is absent. */
function readEnvFile() {
  const file = path.join(hostDir(), 'env.sh');
  if (!fs.existsSync(file)) return undefined;
  const env = {};
  for (const m of fs.readFileSync(file, 'utf8').matchAll(/^export (\w+)="(.*)"$/gm)) env[m[1]] = m[2];
  return env;
}

/** True when env.sh exists and the files it names are still there. */
function ready(env) {
  return Boolean(env)
    && ['VSCODE_HOST_NODE', 'VSCODE_HOST_CODE_SERVER', 'VSCODE_HOST_CHROMIUM'].every((k) => env[k] && fs.existsSync(env[k]))
    && fs.existsSync(path.join(env.VSCODE_HOST_TOOLS ?? '', 'node_modules/playwright-core'));
}

/**
 * Installs the host with setup.sh unless it is already there. `say` prints a progress line.
 * Returns true when the host is ready (env.sh written and every file it names present), false when setup failed
 * (its output, on this process's stdout/stderr, says why).
 */
export function ensureHost(say = (m) => console.log(m)) {
  if (ready(readEnvFile())) return true;
  say(`installing the VS Code host into ${hostDir()} (scripts/vscode-host/setup.sh)`);
  const r = spawnSync('bash', [path.join(here, 'setup.sh')], { stdio: 'inherit' });
  return r.status === 0 && ready(readEnvFile());
}

/**
 * The host's settings from env.sh (VSCODE_HOST_DIR, _NODE, _CODE_SERVER, _TOOLS, _VSCE, _CHROMIUM), installing the
 * host first when it is missing. Throws when setup fails.
 */
export function hostEnv(say) {
  if (!ensureHost(say)) throw new Error(`the VS Code host could not be installed into ${hostDir()} (scripts/vscode-host/setup.sh failed; see its output above)`);
  return readEnvFile();
}

/**
 * The Chromium that playwright-core launches: $CHROMIUM when set (used as is), else the host's Chromium
 * (Debian's, installed by setup.sh through ensureHost when missing). Throws when setup fails.
 */
export function chromiumPath(say) {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  return hostEnv(say).VSCODE_HOST_CHROMIUM;
}
