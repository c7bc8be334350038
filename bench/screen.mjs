#!/usr/bin/env node
// What screening costs on top of the judgment's own HTTP round trip, measured side by side in one run
// against the very same loopback fake System One (a child process, bench/fixtures/delayed-systemone.mjs,
// answering after 20 ms), calls interleaved so the fake's own cost and the loopback cancel out:
//  - ONE 20 kB tool result screened through the screener (src/screen/) with jev_screen on JudgmentService +
//    SystemOneProvider in this process (key hash, chunk fit, then parse, pack, fit, serialise, POST,
//    validate, decide, output check, outcome); every sample is a distinct result, so none is a cache hit;
//  - a bare fetch POSTing the very request body the provider sent for that same result.
// p50 and p95; goal: screen / bare ≤ 1.15 at p50. Then the same result again: a repeated identical result
// must cost 0 upstream requests (checked; exit 1 otherwise), and its latency is printed.
// The fake answers 0.9 to every noul, so each screen comes out `block`: the work is the same as for a pass.
//
// Options: --samples N (200), --warmup N (20), --json.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { bundleSources, stats } from './lib/bundle.mjs';
import { positiveInt } from './lib/options.mjs';
import { barePost } from './lib/bare-post.mjs';
import { startUpstream } from './lib/upstream.mjs';

const { values } = parseArgs({
  options: {
    samples: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '20' },
    json: { type: 'boolean', default: false },
  },
});
const count = (name) => positiveInt(values, name);
const SAMPLES = count('samples');
const WARMUP = count('warmup');
const GOAL = 1.15;
const DELAY_MS = 20;
const RESULT_CHARS = 20_000;

const lib = await bundleSources(
  [
    "export { createScreener, serviceJudge } from './src/screen';",
    "export { jevScreenTool } from './src/tools/jev-screen';",
    "export { JudgmentService } from './src/tools/judgment-service';",
    "export { SystemOneProvider } from './src/providers/systemone';",
    "export { SpendCap } from './src/providers/spend-cap';",
    "export { DEFAULT_FLOORS } from './src/policy/thresholds';",
  ].join('\n'),
);


/** A fetched page as an agent would get it: about 20 kB of markdown-ish text, distinct per `i`. */
function toolResult(i) {
  const para = (k) =>
    `## Section ${k}\nThe parser reads the config file line by line; empty input used to throw in parseConfig (issue #${i}). ` +
    `See \`src/parser.ts\` and the regression test in \`test/parser.test.ts\`. Options: --strict, --json, --quiet.\n\n`;
  let text = `# Result ${i}\n\n`;
  for (let k = 0; text.length < RESULT_CHARS; k++) text += para(k);
  return text.slice(0, RESULT_CHARS);
}

/** A JudgmentService judging through SystemOneProvider at `url`; `onBody` sees each request body sent. */
function service(url, onBody) {
  const provider = new lib.SystemOneProvider({
    baseUrl: url,
    spendCap: new lib.SpendCap(),
    fetchImpl: (u, init) => {
      onBody(init.body);
      return fetch(u, init);
    },
  });
  return new lib.JudgmentService({ provider, tools: [lib.jevScreenTool], floors: lib.DEFAULT_FLOORS, model: 'jev-latest', timeoutMs: 60_000 });
}

const upstream = await startUpstream(DELAY_MS);
try {
  const rounds = WARMUP + SAMPLES;
  const texts = Array.from({ length: rounds }, (_, i) => toolResult(i));
  const purpose = 'fix the empty-input crash in parseConfig';

  // The body the provider sends for each result, captured up front by a separate screener: the bare
  // client posts exactly those bytes.
  const bodies = [];
  const capture = lib.createScreener({ judge: lib.serviceJudge(service(upstream.url, (b) => bodies.push(b))) });
  for (const text of texts) await capture.screen({ text, purpose });
  if (bodies.length !== rounds) throw new Error(`expected one upstream request per result, got ${bodies.length} for ${rounds}`);

  const sent = [];
  const screener = lib.createScreener({ judge: lib.serviceJudge(service(upstream.url, (b) => sent.push(b)), { agent: 'bench' }) });
  const screenOne = async (text) => {
    const t = performance.now();
    const o = await screener.screen({ text, purpose, source: 'bench WebFetch' });
    const dt = performance.now() - t;
    if (o.kind === 'unscreened' || o.chunks !== 1) throw new Error(`screen failed: ${o.kind} ${o.error?.code ?? ''} (${o.chunks} chunks)`);
    return { dt, outcome: o };
  };
  const endpoint = `${upstream.url}/v1/systemone`;
  const bare = (body) => barePost(endpoint, body)();

  // Interleaved, order alternating each round; each round screens a result not seen before.
  const xs = { screen: [], bare: [] };
  let kind;
  for (let i = 0; i < rounds; i++) {
    const runs = [
      ['screen', async () => { const r = await screenOne(texts[i]); kind = r.outcome.kind; return r.dt; }],
      ['bare', () => bare(bodies[i])],
    ];
    if (i % 2) runs.reverse();
    for (const [name, run] of runs) {
      const dt = await run();
      if (i >= WARMUP) xs[name].push(dt);
    }
  }
  if (sent.length !== rounds) throw new Error(`expected ${rounds} upstream requests for ${rounds} distinct results, got ${sent.length}`);
  if (sent.some((b, i) => b !== bodies[i])) throw new Error('the bare client would not post the very body the screen sent');
  const screen = stats(xs.screen);
  const bareStats = stats(xs.bare);

  // The same result again: answered from the cache.
  const before = sent.length;
  const repeats = [];
  for (let i = 0; i < SAMPLES; i++) {
    const { dt, outcome } = await screenOne(texts[WARMUP + (i % SAMPLES)]);
    if (!outcome.fromCache) throw new Error('a repeated identical result was judged again');
    repeats.push(dt);
  }
  const repeatRequests = sent.length - before;
  const repeated = { ...stats(repeats), upstream_requests: repeatRequests };

  const out = {
    bench: 'screen',
    delay_ms: DELAY_MS,
    result_chars: RESULT_CHARS,
    body_bytes: Buffer.byteLength(bodies[0]),
    outcome_kind: kind,
    goal_ratio_p50: GOAL,
    screen,
    bare: bareStats,
    ratio_p50: screen.p50 / bareStats.p50,
    ratio_p95: screen.p95 / bareStats.p95,
    repeated,
  };
  if (values.json) {
    console.log(JSON.stringify(out, null, 2));
  } else {
    const ms = (v) => v.toFixed(2).padStart(9);
    const row = (label, s) => `   ${label.padEnd(46)}${String(s.n).padStart(5)}${ms(s.p50)} ${ms(s.p95)} ${ms(s.mean)}`;
    console.log(`\none ${RESULT_CHARS / 1000} kB tool result screened (jev_screen through systemone) vs a bare fetch of the same body, node ${process.version}`);
    console.log(`   fake System One in a child process on 127.0.0.1, ${DELAY_MS} ms; request body ${out.body_bytes} bytes; each screen a distinct result (outcome: ${kind}); interleaved after ${WARMUP} warm-up rounds`);
    console.log('   label                                             n   p50 ms    p95 ms   mean ms');
    console.log(row(`upstream ${DELAY_MS} ms: screen, in-process`, screen));
    console.log(row(`upstream ${DELAY_MS} ms: bare POST, same body`, bareStats));
    console.log(`   ${'screen / bare'.padEnd(46)}     ${out.ratio_p50.toFixed(2).padStart(9)} ${out.ratio_p95.toFixed(2).padStart(9)}   goal ≤ ${GOAL.toFixed(2)} at p50: ${out.ratio_p50 <= GOAL ? 'met' : 'NOT met'}`);
    console.log(row('repeated identical result (cache)', repeated) + `   upstream requests: ${repeatRequests}`);
  }
  if (repeatRequests !== 0) process.exitCode = 1;
} finally {
  await upstream.stop();
}
