#!/usr/bin/env node
// `npm run lint`: ESLint over the repository (eslint.config.mjs), then the layering rules over src/ and
// webview/ (.dependency-cruiser.cjs). Both always run, so one report shows every finding; the exit code is
// non-zero when either fails. Prints the time each took.
import { spawnSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);

let failed = 0;
for (const [label, cmd, args] of [
  ['eslint', bin('eslint'), ['.']],
  ['dependency rules', bin('depcruise'), ['src', 'webview', '--config', '.dependency-cruiser.cjs']],
]) {
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  const ok = r.status === 0;
  if (!ok) failed++;
  console.log(`lint: ${label} ${ok ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
process.exit(failed ? 1 : 0);
