#!/usr/bin/env node
// The permission hook's own cost, side by side in one run, series interleaved so the machine's load cancels out:
//  1. a rule-settled decision (Claude Code PreToolUse Read inside the workspace, allowed by the default rule) as a
//     whole process, through the lean entry dist/guard.js and through dist/cli.js, against `node -e 0`;
//     goal: dist/guard.js / node -e 0 ≤ 1.5 at p50.
//  2. a judged decision (PreToolUse Bash `npm install left-pad`, which no rule settles) through the guard's whole
//     path in this process (runGuard: parse, rules, jev_permit on SystemOneProvider, the host's answer) at 20 ms
//     upstream (bench/fixtures/delayed-systemone.mjs, a child process), against a bare fetch POSTing the very
//     request body jev_permit sends; goal: judged / bare ≤ 1.15 at p50. (A whole process adds node's start,
//     measured in 1.)
//  3. the same judged decision through the editor channel (the hook's editorPermitJudge POSTing to a
//     GateChannelServer whose permit route answers with answerPermit on the same kind of service) against 2;
//     goal: channel / in-process ≤ 1.2 at p50.
//
// Options: --samples N (30), --judged-samples N (100), --warmup N (3), --json. Needs a build (`npm run bench` builds first).
import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { barePost } from './lib/bare-post.mjs';
import { bundleSources, root, stats } from './lib/bundle.mjs';
import { positiveInt } from './lib/options.mjs';
import { startUpstream } from './lib/upstream.mjs';

const lean = join(root, 'dist', 'guard.js');
const cli = join(root, 'dist', 'cli.js');
if (!existsSync(lean) || !existsSync(cli)) {
  console.error('bench: dist/guard.js or dist/cli.js is missing; run `npm run bench` (it builds first).');
  process.exit(2);
}
const { values } = parseArgs({
  options: { samples: { type: 'string', default: '30' }, 'judged-samples': { type: 'string', default: '100' }, warmup: { type: 'string', default: '3' }, json: { type: 'boolean', default: false } },
});
const count = (name) => positiveInt(values, name);
const SAMPLES = count('samples');
const WARMUP = count('warmup');
const JUDGED_SAMPLES = count('judged-samples');
const GOAL = 1.5;
const JUDGED_GOAL = 1.15;
const CHANNEL_GOAL = 1.2;

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
const judged = await judgedSeries();
const result = {
  samples: SAMPLES,
  ms: Object.fromEntries(Object.entries(s).map(([k, v]) => [k, { p50: +v.p50.toFixed(1), p95: +v.p95.toFixed(1) }])),
  ratios: { lean: +ratio.toFixed(2), cli: +(s['cli.js guard'].p50 / base).toFixed(2) },
  goal: GOAL,
  met: ratio <= GOAL,
  judged,
};
if (values.json) console.log(JSON.stringify(result, null, 2));
else {
  console.log(`guard: rule-settled decision as a whole process, ${SAMPLES} interleaved runs each (p50 / p95 ms)`);
  for (const [k, v] of Object.entries(result.ms)) console.log(`  ${k.padEnd(24)} ${String(v.p50).padStart(7)} / ${v.p95}`);
  console.log(`  guard.js / node -e 0  ${result.ratios.lean}× (goal ≤ ${GOAL}×: ${result.met ? 'met' : 'NOT met'});  cli.js guard / node -e 0  ${result.ratios.cli}×`);
  const j = judged;
  console.log(`guard: judged decision at ${j.delay_ms} ms upstream, ${j.samples} interleaved runs each, request body ${j.body_bytes} bytes (p50 / p95 ms)`);
  for (const [k, v] of Object.entries(j.ms)) console.log(`  ${k.padEnd(34)} ${String(v.p50).padStart(7)} / ${v.p95}`);
  console.log(`  in-process / bare POST       ${j.ratios.judged}× (goal ≤ ${JUDGED_GOAL}×: ${j.met.judged ? 'met' : 'NOT met'})`);
  console.log(`  editor channel / in-process  ${j.ratios.channel}× (goal ≤ ${CHANNEL_GOAL}×: ${j.met.channel ? 'met' : 'NOT met'})`);
}
if (!result.met || !judged.met.judged || !judged.met.channel) process.exitCode = 1;

/** Series 2 and 3: a judged PreToolUse through runGuard in-process and through the editor channel, and the bare POST. */
async function judgedSeries() {
  const lib = await bundleSources(
    [
      "export { ALL_TOOLS } from './src/tools';",
      "export { JudgmentService } from './src/tools/judgment-service';",
      "export { SystemOneProvider } from './src/providers/systemone';",
      "export { SpendCap } from './src/providers/spend-cap';",
      "export { DEFAULT_FLOORS } from './src/policy/thresholds';",
      "export { runGuard } from './src/guard/run';",
      "export { hostAdapter } from './src/guard/hosts';",
      "export { servicePermitJudge } from './src/guard/judge';",
      "export { answerPermit } from './src/channel/permit-answer';",
      "export { editorPermitJudge } from './src/channel/permit-client';",
      "export { GateChannelServer } from './src/channel/server';",
      "export { newSessionSecrets } from './src/channel/session-file';",
    ].join('\n'),
  );
  const DELAY = 20;
  const fake = await startUpstream(DELAY);
  const upstream = fake.url;
  const judgedDir = mkdtempSync(join(tmpdir(), 'jev-bench-guard-judged-'));
  const workspace = join(judgedDir, 'ws');
  mkdirSync(workspace);
  const judgedEvent = JSON.stringify({
    session_id: 'bench',
    cwd: workspace,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'npm install left-pad', description: 'Add the dependency' },
    tool_use_id: 'toolu_bench',
  });
  let body;
  const service = (capture) =>
    new lib.JudgmentService({
      provider: new lib.SystemOneProvider({
        baseUrl: upstream,
        spendCap: new lib.SpendCap(),
        ...(capture ? { fetchImpl: (url, init) => ((body = init.body), fetch(url, init)) } : {}),
      }),
      tools: lib.ALL_TOOLS,
      floors: lib.DEFAULT_FLOORS,
      model: 'jev-latest',
      timeoutMs: 60_000,
    });
  const host = lib.hostAdapter('claude-code');
  const guard = (judge) => async () => {
    const t = performance.now();
    const r = await lib.runGuard({
      host,
      stdin: Readable.from([judgedEvent]),
      env: { HOME: judgedDir },
      cwd: workspace,
      judge: async () => ({ kind: 'judge', judge, label: 'bench' }),
      deadlineMs: 30_000,
      secrets: [],
    });
    const dt = performance.now() - t;
    if (!r.verdict || r.verdict.model === 'none' || r.verdict.model === 'local-policy') throw new Error(`the guard did not judge: ${r.stdout} ${r.stderr}`);
    return dt;
  };
  // The editor side: the channel server with the permit route, answering on its own service.
  const editorService = service(false);
  const { id, token } = lib.newSessionSecrets();
  const server = new lib.GateChannelServer({
    token,
    handler: async () => ({ v: 1, status: 'refused', message: 'gate not benched' }),
    permit: (request, signal) =>
      lib.answerPermit(
        {
          service: editorService,
          choice: () => ({ kind: 'systemone', reason: 'bench' }),
          model: () => 'jev-latest',
          roots: () => [workspace],
          editor: 'bench editor',
          record: async () => undefined,
        },
        request,
        signal,
      ),
  });
  const address = await server.start();
  const session = { v: 1, id, pid: process.pid, port: address.port, token, roots: [workspace], editor: 'bench editor', started: new Date().toISOString() };
  const noFallback = async () => {
    throw new Error('the editor did not answer');
  };
  try {
    await guard(lib.servicePermitJudge(service(true), 'claude-code', 'bench'))();
    if (!body) throw new Error('jev_permit sent no request');
    const endpoint = `${upstream}/v1/systemone`;
    const bare = barePost(endpoint, body);
    const series = {
      'bare POST, same body': bare,
      'guard in-process (runGuard)': guard(lib.servicePermitJudge(service(false), 'claude-code', 'bench')),
      'guard through the editor channel': guard(
        lib.editorPermitJudge([session], { root: workspace, host: 'claude-code', agent: 'claude-code', source: 'guard hook, claude-code' }, noFallback),
      ),
    };
    const names = Object.keys(series);
    const xs = Object.fromEntries(names.map((n) => [n, []]));
    for (let i = 0; i < WARMUP * 5 + JUDGED_SAMPLES; i++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(i + k) % names.length];
        const dt = await series[name]();
        if (i >= WARMUP * 5) xs[name].push(dt);
      }
    }
    const st = Object.fromEntries(names.map((n) => [n, stats(xs[n])]));
    const judgedRatio = st['guard in-process (runGuard)'].p50 / st['bare POST, same body'].p50;
    const channelRatio = st['guard through the editor channel'].p50 / st['guard in-process (runGuard)'].p50;
    return {
      delay_ms: DELAY,
      samples: JUDGED_SAMPLES,
      body_bytes: Buffer.byteLength(body),
      ms: Object.fromEntries(names.map((n) => [n, { p50: +st[n].p50.toFixed(1), p95: +st[n].p95.toFixed(1) }])),
      ratios: { judged: +judgedRatio.toFixed(3), channel: +channelRatio.toFixed(3) },
      goals: { judged: JUDGED_GOAL, channel: CHANNEL_GOAL },
      met: { judged: judgedRatio <= JUDGED_GOAL, channel: channelRatio <= CHANNEL_GOAL },
    };
  } finally {
    await server.stop();
    await fake.stop();
    rmSync(judgedDir, { recursive: true, force: true });
  }
}
