#!/usr/bin/env node
// Upstream cost of one jev_step with 32 prepared candidates, systemone vs openai (logprobs), measured side
// by side in one run against fake servers on 127.0.0.1 that add the same delay to every request.
// systemone asks every question in ONE request; openai asks one question per request (tournaments for
// choices past 26 options), DEFAULT_CONCURRENCY at a time.
//
// Usage: node bench/providers.mjs [--delay MS] [--iterations N] [--concurrency N] [--json]
// Runs the TypeScript sources through tsx (a devDependency), so it works after `npm install`.
import { parseArgs } from 'node:util';
import { tsImport } from 'tsx/esm/api';

const { values } = parseArgs({
  options: {
    delay: { type: 'string', default: '20' },
    iterations: { type: 'string', default: '5' },
    concurrency: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const positiveInt = (name, raw, min) => {
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min) {
    console.error(`--${name} must be an integer >= ${min}; got ${JSON.stringify(raw)}`);
    process.exit(2);
  }
  return n;
};
const delayMs = positiveInt('delay', values.delay, 0);
const iterations = positiveInt('iterations', values.iterations, 1);

const load = (path) => tsImport(path, import.meta.url);
const [{ JudgmentService }, { ALL_TOOLS }, { DEFAULT_FLOORS }, { SpendCap }, { SystemOneProvider }, openai, fakeS1, fakeOa] = await Promise.all([
  load('../src/tools/judgment-service.ts'),
  load('../src/tools/index.ts'),
  load('../src/policy/thresholds.ts'),
  load('../src/providers/spend-cap.ts'),
  load('../src/providers/systemone.ts'),
  load('../src/providers/openai/provider.ts'),
  load('../test/helpers/fake-systemone.ts'),
  load('../test/helpers/fake-openai.ts'),
]);
const concurrency = values.concurrency === undefined ? openai.DEFAULT_CONCURRENCY : positiveInt('concurrency', values.concurrency, 1);

const CANDIDATES = 32;
const stepInput = {
  task: 'Find where the date helper is defined and run its tests',
  observation: 'FAIL test/date.test.ts: expected 2024-01-02, got 2024-01-01',
  candidates: Array.from({ length: CANDIDATES }, (_, i) => ({
    id: `cand-${i}`,
    name: i % 2 === 0 ? 'read_file' : 'run_tests',
    arguments: { path: `src/module${i}.ts` },
    description: `Prepared call ${i}`,
    effect: 'read_only',
    authorized: true,
    schema_valid: true,
    preconditions_met: true,
  })),
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Runs `iterations` jev_step calls (after one warm-up) and returns requests per call and wall times. */
async function measure(name, provider, fake, beforeEach) {
  const service = new JudgmentService({ provider, tools: ALL_TOOLS, floors: DEFAULT_FLOORS, model: 'bench-model', timeoutMs: 60_000 });
  const run = async () => {
    beforeEach();
    const before = fake.count();
    const started = performance.now();
    const outcome = await service.call('jev_step', stepInput);
    const wall = performance.now() - started;
    if (!outcome.ok) throw new Error(`${name}: jev_step failed: ${outcome.error.code} ${outcome.error.message}`);
    return { requests: fake.count() - before, wall };
  };
  await run(); // warm-up: connection pool, JIT
  const samples = [];
  for (let i = 0; i < iterations; i++) samples.push(await run());
  const requests = samples[0].requests;
  if (samples.some((s) => s.requests !== requests)) throw new Error(`${name}: request count varied between runs`);
  return { requests, wall_ms_median: Number(median(samples.map((s) => s.wall)).toFixed(1)), wall_ms: samples.map((s) => Number(s.wall.toFixed(1))) };
}

const s1 = await fakeS1.startFakeSystemOne();
const oa = await fakeOa.startFakeOpenAi({ delayMs });
try {
  const systemone = await measure(
    'systemone',
    new SystemOneProvider({ baseUrl: s1.url, spendCap: new SpendCap() }),
    s1,
    () => s1.script({ delayMs, then: { status: 200 } }),
  );
  const openaiResult = await measure('openai', new openai.OpenAiProvider({ baseUrl: oa.url, spendCap: new SpendCap(), concurrency }), oa, () => {});
  const report = {
    bench: 'providers',
    tool: 'jev_step',
    candidates: CANDIDATES,
    delay_ms_per_request: delayMs,
    iterations,
    openai_concurrency: concurrency,
    max_in_flight_openai: oa.maxInFlight(),
    systemone,
    openai: openaiResult,
    ratio: {
      requests: Number((openaiResult.requests / systemone.requests).toFixed(2)),
      wall_time: Number((openaiResult.wall_ms_median / systemone.wall_ms_median).toFixed(2)),
    },
  };
  if (values.json) {
    console.log(JSON.stringify(report, null, 2));
  } else {
    const f = (ms) => `${ms.toFixed(1)} ms`;
    console.log(
      `providers: jev_step, ${CANDIDATES} candidates, ${delayMs} ms per upstream request (median of ${iterations}): ` +
        `systemone ${systemone.requests} request${systemone.requests === 1 ? '' : 's'} in ${f(systemone.wall_ms_median)}; ` +
        `openai ${openaiResult.requests} requests in ${f(openaiResult.wall_ms_median)} (concurrency ${concurrency}) → ` +
        `${report.ratio.requests.toFixed(1)}× requests, ${report.ratio.wall_time.toFixed(1)}× wall time`,
    );
  }
} finally {
  await Promise.all([s1.close(), oa.close()]);
}
