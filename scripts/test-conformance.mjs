#!/usr/bin/env node
// The official MCP conformance suite's client scenarios against the product's MCP client:
// install the suite and Node 22 if needed (scripts/conformance/ensure-tools.mjs) → bundle the driver
// (test/conformance/driver.ts, on src/registry/connection.ts) into out/conformance/driver.js → run every
// client scenario the suite lists, one at a time, with BROWSER set to the stand-in browser
// (test/fixtures/browser/follow-redirect.mjs) → a table of scenario, spec version, checks, result.
// Exit 0 when every scenario passes except the known failures below (each with its reason); a known
// failure that passes is reported too (the list is then stale). Last line: `N passed, N failed`.
//   node scripts/test-conformance.mjs [--scenario NAME]... [--verbose]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { CONFORMANCE_VERSION, ensureConformanceTools } from './conformance/ensure-tools.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const verbose = argv.includes('--verbose');
const only = argv.flatMap((a, i) => (a === '--scenario' ? [argv[i + 1]] : []));

/** Scenarios the client cannot pass, and why (shown in the table). */
const KNOWN_FAILURES = {};

const tools = ensureConformanceTools();
if (!tools) {
  console.error('test-conformance: could not install the conformance suite (npm install failed)');
  process.exit(1);
}

const outDir = path.join(root, 'out', 'conformance');
fs.rmSync(outDir, { recursive: true, force: true });
await build({
  entryPoints: [path.join(root, 'test/conformance/driver.ts')],
  outfile: path.join(outDir, 'driver.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
});

const suite = (args, opts = {}) => spawnSync(tools.node, [tools.suite, ...args], { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
const listed = suite(['list']);
const scenarios = [];
let inClient = false;
for (const line of listed.stdout.split('\n')) {
  if (/^Client scenarios/.test(line)) inClient = true;
  else if (/^\S/.test(line)) inClient = false;
  const m = inClient && line.match(/^\s*-\s+(\S+)\s*(?:\[(.*)\])?/);
  if (m) scenarios.push({ name: m[1], versions: m[2] ?? '' });
}
if (scenarios.length === 0) {
  console.error(`test-conformance: the suite listed no client scenarios\n${listed.stdout}${listed.stderr}`);
  process.exit(1);
}

const quote = (p) => (/^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`);
const env = {
  ...process.env,
  BROWSER: `${quote(process.execPath)} ${quote(path.join(root, 'test/fixtures/browser/follow-redirect.mjs'))}`,
};
const command = `${process.execPath} ${path.join(outDir, 'driver.js')}`;
const rows = [];
for (const s of scenarios.filter((x) => only.length === 0 || only.includes(x.name))) {
  const t0 = Date.now();
  const r = suite(['client', '--command', command, '--scenario', s.name, '--timeout', '60000', '-o', path.join(outDir, 'results')], { env, timeout: 120_000 });
  const out = `${r.stdout}${r.stderr}`;
  const m = out.match(/Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/);
  const passed = r.status === 0 && /OVERALL: PASSED/.test(out) && m !== null && m[3] === '0';
  const known = KNOWN_FAILURES[s.name];
  rows.push({ ...s, checks: m ? `${m[1]}/${m[2]}` : '-', warnings: m ? m[4] : '-', passed, known, seconds: ((Date.now() - t0) / 1000).toFixed(1) });
  if (verbose || (!passed && !known)) process.stdout.write(`\n## ${s.name}\n${out}\n`);
}

const pad = (t, n) => String(t).padEnd(n);
const width = Math.max(...rows.map((r) => r.name.length), 8);
console.log(`\nMCP conformance suite ${CONFORMANCE_VERSION}, client scenarios (driver: test/conformance/driver.ts)`);
console.log(`${pad('scenario', width)}  ${pad('spec', 22)}  ${pad('checks', 7)}  ${pad('warn', 4)}  result`);
for (const r of rows) {
  const result = r.passed ? (r.known ? 'PASS (listed as a known failure: remove it)' : 'PASS') : r.known ? `FAIL (known: ${r.known})` : 'FAIL';
  console.log(`${pad(r.name, width)}  ${pad(r.versions, 22)}  ${pad(r.checks, 7)}  ${pad(r.warnings, 4)}  ${result}`);
}
const unexpected = rows.filter((r) => r.passed === Boolean(r.known));
const passedCount = rows.filter((r) => r.passed).length;
console.log(`\n${passedCount} passed, ${rows.length - passedCount} failed${unexpected.length ? ` (${unexpected.length} unexpected: ${unexpected.map((r) => r.name).join(', ')})` : ''}`);
process.exit(unexpected.length ? 1 : 0);
