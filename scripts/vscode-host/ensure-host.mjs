// ensure-host.mjs: the one way the test scripts install the offline VS Code host when it is missing.
// setup.sh is idempotent, but running it costs seconds even when warm, so it runs only when env.sh is absent.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The host folder: $VSCODE_HOST_DIR, else ~/.cache/vscode-host (as setup.sh computes it). */
export function hostDir() {
  return process.env.VSCODE_HOST_DIR || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'vscode-host');
}

/** Runs setup.sh when $VSCODE_HOST_DIR/env.sh does not exist yet. Returns true when the host is ready. */
export function ensureHost(say = (m) => console.log(m)) {
  if (fs.existsSync(path.join(hostDir(), 'env.sh'))) return true;
  say(`installing the VS Code host into ${hostDir()} (scripts/vscode-host/setup.sh)`);
  const r = spawnSync('bash', [path.join(here, 'setup.sh')], { stdio: 'inherit' });
  return r.status === 0 && fs.existsSync(path.join(hostDir(), 'env.sh'));
}
