#!/usr/bin/env node
// Runs every bench/*.mjs (except this file) in sequence; exits non-zero if any of them failed.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.mjs') && f !== 'run.mjs')
  .sort();
let failed = 0;
for (const file of benches) {
  console.log(`\n# bench/${file}`);
  const r = spawnSync(process.execPath, [join(here, file), ...process.argv.slice(2)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.log(`# bench/${file} failed (exit ${r.status ?? r.signal})`);
  }
}
process.exit(failed ? 1 : 0);
