#!/usr/bin/env node
// Tool registry benchmark, measured side by side in one run over real stdio
// against @modelcontextprotocol/server-everything's `echo` tool:
//
//  A. persistent: p50 of N calls through ToolRegistry.call (one connection, spawned once) versus spawning
//     a fresh server per call, as a naive client does (spawn → initialize → tools/call → close). Goal: the
//     persistent registry is ≥ 50× faster at p50.
//  B. registry overhead: ToolRegistry.call versus the SDK client's callTool on the SAME connection,
//     interleaved call by call. Goal: p50 ratio ≤ 1.1.
//
// Options: --calls N (200), --spawns N (20: each spawn costs a server start, so fewer are measured; the
// count is printed), --warmup N (300 rounds, so both paths are JIT-compiled before measuring), --json. The registry is bundled from src/ with esbuild into a
// temporary folder first (dist/ holds only the CLI and extension bundles).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const EVERYTHING = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const n = Number(process.argv[i + 1]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} needs a positive integer`);
  return n;
}
const CALLS = option('calls', 200);
const SPAWNS = option('spawns', 20);
const WARMUP = option('warmup', 300);
const JSON_OUT = process.argv.includes('--json');

function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { n: s.length, p50: at(0.5), p90: at(0.9), mean: s.reduce((a, b) => a + b, 0) / s.length };
}

// Bundle the registry (TypeScript sources) once, for this run only.
const work = mkdtempSync(join(tmpdir(), 'jev-bench-registry-'));
const bundle = join(work, 'registry.mjs');
await build({
  entryPoints: [join(root, 'src/registry/registry.ts')],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  logLevel: 'warning',
  // Some bundled CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
const { ToolRegistry } = await import(pathToFileURL(bundle).href);

const server = { command: process.execPath, args: [EVERYTHING, 'stdio'] };
const agent = { name: 'bench', tools: ['everything/echo'] };

// ---------------------------------------------------------------------------------------------------
// Persistent registry and the direct SDK client on the same connection, interleaved.
const registry = new ToolRegistry({ servers: [{ name: 'everything', source: 'config', config: server }] });
const [view] = await registry.start();
if (view.status.state !== 'ready') throw new Error(`server-everything did not start: ${view.status.reason}`);
const conn = registry.server('everything');
const client = conn.client;
let expected = 0;
const check = (text, i) => {
  if (text !== `Echo: m${i}`) throw new Error(`unexpected echo ${JSON.stringify(text)}`);
  expected++;
};
for (let i = 0; i < WARMUP; i++) {
  check((await registry.call('bench', agent, 'everything/echo', { message: `m${i}` })).text, i);
  check((await client.callTool({ name: 'echo', arguments: { message: `m${i}` } })).content[0].text, i);
}
const viaRegistry = [];
const viaSdk = [];
for (let i = 0; i < CALLS; i++) {
  // Alternate which goes first so neither series always follows the other.
  const order = i % 2 === 0 ? ['registry', 'sdk'] : ['sdk', 'registry'];
  for (const which of order) {
    const t0 = performance.now();
    if (which === 'registry') {
      const r = await registry.call('bench', agent, 'everything/echo', { message: `m${i}` });
      viaRegistry.push(performance.now() - t0);
      check(r.text, i);
    } else {
      const r = await client.callTool({ name: 'echo', arguments: { message: `m${i}` } });
      viaSdk.push(performance.now() - t0);
      check(r.content[0].text, i);
    }
  }
}
const pid = view.status.pid;
await registry.shutdown();

// ---------------------------------------------------------------------------------------------------
// Anchor style: a fresh server per call (spawn, initialize, call, close).
const perSpawn = [];
for (let i = 0; i < SPAWNS; i++) {
  const t0 = performance.now();
  const transport = new StdioClientTransport({ ...server, stderr: 'ignore' });
  const fresh = new Client({ name: 'bench-fresh-per-call', version: '0' });
  await fresh.connect(transport);
  const r = await fresh.callTool({ name: 'echo', arguments: { message: `m${i}` } });
  await fresh.close();
  perSpawn.push(performance.now() - t0);
  check(r.content[0].text, i);
}
rmSync(work, { recursive: true, force: true });

const reg = stats(viaRegistry);
const sdk = stats(viaSdk);
const spawn = stats(perSpawn);
const speedup = spawn.p50 / reg.p50;
// Paired view of the overhead: the median of (registry − SDK) over the interleaved pairs cancels load drift.
const diffs = viaRegistry.map((v, i) => v - viaSdk[i]).sort((a, b) => a - b);
const pairedMs = diffs[Math.floor(diffs.length / 2)];
const overhead = reg.p50 / sdk.p50;
const met = (ok) => (ok ? 'met' : 'NOT met');

if (JSON_OUT) {
  console.log(JSON.stringify({ node: process.version, calls: CALLS, spawns: SPAWNS, registry: reg, sdk_direct: sdk, spawn_per_call: spawn, speedup_p50: speedup, overhead_p50: overhead, paired_median_extra_ms: pairedMs, checked_results: expected }, null, 2));
} else {
  const ms = (v) => v.toFixed(3).padStart(10);
  console.log(`Tool registry: server-everything echo over stdio, node ${process.version} (server pid ${pid} reused for every persistent call)`);
  console.log('   series                                        n    p50 ms    p90 ms   mean ms');
  console.log(`   registry.call, persistent connection  ${String(reg.n).padStart(9)}${ms(reg.p50)}${ms(reg.p90)}${ms(reg.mean)}`);
  console.log(`   SDK client.callTool, same connection  ${String(sdk.n).padStart(9)}${ms(sdk.p50)}${ms(sdk.p90)}${ms(sdk.mean)}`);
  console.log(`   fresh server per call (naive client)  ${String(spawn.n).padStart(9)}${ms(spawn.p50)}${ms(spawn.p90)}${ms(spawn.mean)}`);
  console.log(`   persistent speed-up (spawn p50 / registry p50): ${speedup.toFixed(0)}×   goal ≥ 50×: ${met(speedup >= 50)}`);
  console.log(`   registry overhead (registry p50 / SDK p50):     ${overhead.toFixed(3)}×  goal ≤ 1.1×: ${met(overhead <= 1.1)}`);
  console.log(`   paired median extra per call (registry − SDK):  ${(pairedMs * 1000).toFixed(1)} µs`);
  console.log(`   (${spawn.n} fresh spawns measured rather than ${CALLS}: each costs a full server start; all ${expected} echo results checked)`);
}
