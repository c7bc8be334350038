#!/usr/bin/env node
// The permission hook's own cost, side by side in one run, runs interleaved so the machine's load cancels out:
//  - a rule-settled decision (Claude Code PreToolUse Read inside the workspace, allowed by the default rule) as a
//    whole process, through the lean entry dist/guard.js and through dist/cli.js, against `node -e 0`;
//    goal: dist/guard.js / node -e 0 ≤ 1.5 at p50.
// Not measured here yet: a judged decision at 20 ms upstream against a bare POST of the same body (needs the
// jev_permit tool, from the `guard` branch), and a decision through the editor channel (not built yet).
//
// Options: --samples N (30), --warmup N (3), --json. Needs a build (`npm run bench` builds first).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { root, stats } from './lib/bundle.mjs';

const lean = join(root, 'dist', 'guard.js');
const cli = join(root, 'dist', 'cli.js');
if (!existsSync(lean) || !existsSync(cli)) {
  console.error('bench: dist/guard.js or dist/cli.js is missing; run `npm run bench` (it builds first).');
  process.exit(2);
}
const { values } = parseArgs({ options: { samples: { type: 'string', default: '30' }, warmup: { type: 'string', default: '3' }, json: { type: 'boolean', default: false } } });
const count = (name) => {
  const n = Number(values[name]);
  if (!Number.isSafeInteger(n) || n < 1) {
    console.error(`--${name} must be an integer >= 1; got ${JSON.stringify(values[name])}`);
    process.exit(2);
  }
  return n;
};
const SAMPLES = count('samples');
const WARMUP = count('warmup');
const GOAL = 1.5;

const dir = mkdtempSync(join(tmpdir(), 'jev-bench-guard-'));
const ws = join(dir, 'ws');
mkdirSync(ws);
const event = readFileSync(join(root, 'test', 'fixtures', 'hosts', 'claude-code', 'pre-tool-use-read.json'), 'utf8').replaceAll('/work/project', ws);
const env = { PATH: process.env.PATH, HOME: dir };

/** Milliseconds from spawn to exit; rejects unless the answer is the rule's allow. */
function time(args, input) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { cwd: ws, env, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code}`));
      if (input !== undefined && !out.includes('"permissionDecision":"allow"')) return reject(new Error(`unexpected answer: ${out}`));
      resolve(ms);
    });
    if (input !== undefined) child.stdin.end(input);
  });
}

const runs = {
  'node -e 0': () => time(['-e', '0']),
  'guard.js (lean entry)': () => time([lean, 'guard', '--host', 'claude-code'], event),
  'cli.js guard': () => time([cli, 'guard', '--host', 'claude-code'], event),
};
const samples = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
try {
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    for (const [name, run] of Object.entries(runs)) {
      const ms = await run();
      if (i >= WARMUP) samples[name].push(ms);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const s = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, stats(v)]));
const base = s['node -e 0'].p50;
const ratio = s['guard.js (lean entry)'].p50 / base;
const result = {
  samples: SAMPLES,
  ms: Object.fromEntries(Object.entries(s).map(([k, v]) => [k, { p50: +v.p50.toFixed(1), p95: +v.p95.toFixed(1) }])),
  ratios: { lean: +ratio.toFixed(2), cli: +(s['cli.js guard'].p50 / base).toFixed(2) },
  goal: GOAL,
  met: ratio <= GOAL,
};
if (values.json) console.log(JSON.stringify(result, null, 2));
else {
  console.log(`guard: rule-settled decision as a whole process, ${SAMPLES} interleaved runs each (p50 / p95 ms)`);
  for (const [k, v] of Object.entries(result.ms)) console.log(`  ${k.padEnd(24)} ${String(v.p50).padStart(7)} / ${v.p95}`);
  console.log(`  guard.js / node -e 0  ${result.ratios.lean}× (goal ≤ ${GOAL}×: ${result.met ? 'met' : 'NOT met'});  cli.js guard / node -e 0  ${result.ratios.cli}×`);
  console.log('  judged decision vs bare POST, and the editor channel: not measured (jev_permit and the channel are not in this build)');
}
