#!/usr/bin/env node
// Our own cost on the systemone path, measured side by side in one run against the very same loopback
// fake System One (a child process, bench/fixtures/delayed-systemone.mjs, answering after a fixed delay),
// calls interleaved so the fake's own cost and the loopback cancel out:
//  - jev_step with 32 eligible candidates through JudgmentService + SystemOneProvider in this process
//    (parse, pack, fit, serialise, POST, validate, decide, output check);
//  - the same jev_step over MCP: `jevcp serve` on stdio with JEV_BASE_URL at the fake (no ledger);
//  - a bare fetch POSTing the very request body the provider sends.
// p50 and p95 at 20 ms and 200 ms upstream delay; goal: jev_step / bare ≤ 1.10 at 20 ms. Beside it, the
// same jev_step in-process with the mock judge (no HTTP): the judgment work alone.
//
// Options: --samples N (200, at 20 ms), --slow-samples N (40, at 200 ms), --warmup N (20), --json.
// Needs a build (`npm run bench` builds first). To see where the time goes in-process:
//   node --cpu-prof --cpu-prof-dir=<dir> bench/systemone-overhead.mjs
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { barePost } from './lib/bare-post.mjs';
import { bundleSources, root, stats } from './lib/bundle.mjs';
import { stepInput as buildStepInput } from './lib/step-input.mjs';
import { positiveInt } from './lib/options.mjs';
import { startUpstream } from './lib/upstream.mjs';

const cli = join(root, 'dist', 'cli.js');
if (!existsSync(cli)) {
  console.error('bench: dist/cli.js is missing; run `npm run bench` (it builds first).');
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    samples: { type: 'string', default: '200' },
    'slow-samples': { type: 'string', default: '40' },
    warmup: { type: 'string', default: '20' },
    json: { type: 'boolean', default: false },
  },
});
const count = (name) => positiveInt(values, name);
const SAMPLES = count('samples');
const SLOW_SAMPLES = count('slow-samples');
const WARMUP = count('warmup');
const GOAL = 1.1;

const lib = await bundleSources(
  [
    "export { ALL_TOOLS } from './src/tools';",
    "export { JudgmentService } from './src/tools/judgment-service';",
    "export { MockProvider } from './src/providers/mock/provider';",
    "export { SystemOneProvider } from './src/providers/systemone';",
    "export { SpendCap } from './src/providers/spend-cap';",
    "export { DEFAULT_FLOORS } from './src/policy/thresholds';",
  ].join('\n'),
);

const stepInput = buildStepInput();


const service = (provider) =>
  new lib.JudgmentService({ provider, tools: lib.ALL_TOOLS, floors: lib.DEFAULT_FLOORS, model: 'jev-latest', timeoutMs: 60_000 });

/** `jevcp serve` on stdio judging through systemone at `url`, without a ledger or this machine's JEV_* settings. */
async function serveAgainst(url) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(JEV_|TYPESAFE_|MCP_)/.test(k)) env[k] = v;
  const transport = new StdioClientTransport({ command: process.execPath, args: [cli, 'serve'], env: { ...env, JEV_BASE_URL: url }, stderr: 'ignore' });
  const client = new Client({ name: 'jev-bench', version: '0.0.0' });
  await client.connect(transport);
  await client.listTools();
  return client;
}

const overMcp = (client) => async () => {
  const t = performance.now();
  const r = await client.callTool({ name: 'jev_step', arguments: stepInput });
  const dt = performance.now() - t;
  if (r.isError) throw new Error(`jev_step over MCP failed: ${r.content?.[0]?.text}`);
  return dt;
};

const step = (svc) => async () => {
  const t = performance.now();
  const out = await svc.call('jev_step', stepInput);
  const dt = performance.now() - t;
  if (!out.ok) throw new Error(`jev_step failed: ${out.error.code} ${out.error.message}`);
  return dt;
};

/** Runs the series interleaved (order rotated every round) and returns their stats by name. */
async function interleaved(series, rounds) {
  const xs = series.map(() => []);
  for (let i = 0; i < WARMUP + rounds; i++) {
    for (let k = 0; k < series.length; k++) {
      const j = (i + k) % series.length;
      const dt = await series[j].run();
      if (i >= WARMUP) xs[j].push(dt);
    }
  }
  return Object.fromEntries(series.map((s, j) => [s.name, stats(xs[j])]));
}

/** jev_step through systemone vs the bare POST of the same body, at `delayMs`. */
async function atDelay(delayMs, rounds) {
  const upstream = await startUpstream(delayMs);
  try {
    // The request body the provider sends, captured once, is what the bare client posts.
    let body;
    const capture = new lib.SystemOneProvider({
      baseUrl: upstream.url,
      spendCap: new lib.SpendCap(),
      fetchImpl: (url, init) => {
        body = init.body;
        return fetch(url, init);
      },
    });
    await step(service(capture))();
    const endpoint = `${upstream.url}/v1/systemone`;
    const bare = barePost(endpoint, body);
    const svc = service(new lib.SystemOneProvider({ baseUrl: upstream.url, spendCap: new lib.SpendCap() }));
    const client = await serveAgainst(upstream.url);
    try {
      const r = await interleaved([{ name: 'step', run: step(svc) }, { name: 'mcp', run: overMcp(client) }, { name: 'bare', run: bare }], rounds);
      return {
        delay_ms: delayMs,
        body_bytes: Buffer.byteLength(body),
        ...r,
        ratio_p50: r.step.p50 / r.bare.p50,
        ratio_p95: r.step.p95 / r.bare.p95,
        mcp_ratio_p50: r.mcp.p50 / r.bare.p50,
        mcp_ratio_p95: r.mcp.p95 / r.bare.p95,
      };
    } finally {
      await client.close();
    }
  } finally {
    await upstream.stop();
  }
}

const fast = await atDelay(20, SAMPLES);
const slow = await atDelay(200, SLOW_SAMPLES);
const mock = (await interleaved([{ name: 'mock', run: step(service(new lib.MockProvider())) }], SAMPLES)).mock;

if (values.json) {
  console.log(JSON.stringify({ bench: 'systemone-overhead', candidates: 32, goal_ratio_p50_at_20ms: GOAL, runs: [fast, slow], jev_step_in_process_mock: mock }, null, 2));
} else {
  const ms = (v) => v.toFixed(2).padStart(9);
  const row = (label, s) => `   ${label.padEnd(43)}${String(s.n).padStart(5)}${ms(s.p50)} ${ms(s.p95)} ${ms(s.mean)}`;
  console.log(`\njev_step (32 candidates, 41 questions in one request) through systemone vs a bare fetch of the same body, node ${process.version}`);
  console.log(`   fake System One in a child process on 127.0.0.1; request body ${fast.body_bytes} bytes; series interleaved after ${WARMUP} warm-up rounds`);
  console.log('   label                                          n   p50 ms    p95 ms   mean ms');
  for (const r of [fast, slow]) {
    const goal = (x) => (r.delay_ms === 20 ? `   goal ≤ ${GOAL.toFixed(2)} at p50: ${x <= GOAL ? 'met' : 'NOT met'}` : '');
    const ratio = (label, p50, p95, g) => `   ${label.padEnd(43)}${p50.toFixed(2).padStart(9)} ${p95.toFixed(2).padStart(9)}${g}`;
    console.log(row(`upstream ${r.delay_ms} ms: jev_step in-process`, r.step));
    console.log(row(`upstream ${r.delay_ms} ms: jev_step over MCP (stdio)`, r.mcp));
    console.log(row(`upstream ${r.delay_ms} ms: bare POST, same body`, r.bare));
    console.log(ratio(`upstream ${r.delay_ms} ms: in-process / bare`, r.ratio_p50, r.ratio_p95, goal(r.ratio_p50)));
    // The goal is the provider path's; the stdio transport on top has its own budget (bench/mcp-overhead.mjs).
    console.log(ratio(`upstream ${r.delay_ms} ms: over MCP / bare`, r.mcp_ratio_p50, r.mcp_ratio_p95, r.delay_ms === 20 ? '   (adds the stdio MCP round trip: see mcp-overhead)' : ''));
  }
  console.log(row('jev_step in-process, mock judge', mock) + '   (no HTTP: parse + pack + fit + judge + validate + decide)');
}
