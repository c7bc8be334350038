#!/usr/bin/env node
// Panel webview benchmark: the production bundle on the static harness page
// (test/e2e/harness.html, fake host, real ledger records padded with synthetic rows) in headless
// Chromium, measured side by side in one run for a 100-row and a 10 000-row feed:
//   - snapshot → list painted: from the host posting the snapshot to the first frame after the feed rows
//     were painted (the webview sorts, filters and renders the visible window);
//   - page start → list painted: the same end point from navigation start (bundle load and parse included);
//   - scroll to the end: scrollTop to the bottom → the last row rendered and painted;
//   - filter by tool: a select change → the filtered list painted;
//   - rows in the DOM (virtualization: about the same for both sizes).
// Plus the webview bundle sizes (goal: dist/webview.js ≤ 150 KB minified) and the what-if recompute time
// of a jev_step in the page. Options: --runs N (5), --json. Builds with --production into a temp dir first.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath, startHarness } from '../test/e2e/harness-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Math.max(1, Number(process.argv[runsArg + 1]) || 5) : 5;
const JSON_OUT = process.argv.includes('--json');
const SIZES = [100, 10_000];

// A private production build: dist/ is shared with whoever else builds at the same time.
const dist = mkdtempSync(join(tmpdir(), 'jev-bench-panel-'));
if (spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--production', '--outdir', dist], { stdio: 'inherit' }).status !== 0) process.exit(1);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const harness = await startHarness({ root, dist });
const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });

/** One fresh page with `rows` feed rows; returns the timings of one run. */
async function measure(rows) {
  const context = await browser.newContext({ viewport: { width: 420, height: 900 } });
  const page = await context.newPage();
  await page.goto(harness.url({ rows: String(rows) }));
  await page.waitForFunction(() => window.__perf && window.__perf.listPainted !== undefined, null, { timeout: 60_000 });
  const result = await page.evaluate(async (total) => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    const until = async (pred) => {
      while (!pred()) await frame();
      await frame(); // the frame after the change was painted
    };
    const p = window.__perf;
    const list = document.querySelector('#feed-list');
    const inDom = list.querySelectorAll('.feed-row').length;
    const count = document.querySelector('#feed-count').textContent;
    let t = performance.now();
    list.scrollTop = list.scrollHeight;
    await until(() => list.querySelector(`.feed-row[aria-posinset="${total}"]`));
    const scrollEnd = performance.now() - t;
    const select = document.querySelector('#filter-tool');
    const tool = [...select.options].map((o) => o.value).find((v) => v === 'jev_gate') ?? select.options[1].value;
    t = performance.now();
    select.value = tool;
    select.dispatchEvent(new Event('change'));
    await until(() => [...list.querySelectorAll('.feed-row .row-tool')].every((e) => e.textContent === tool));
    const filter = performance.now() - t;
    return { snapshotToPaint: p.listPainted - p.snapshotPosted, pageToPaint: p.listPainted, scrollEnd, filter, inDom, count };
  }, rows);
  await context.close();
  return result;
}

const series = {};
for (const rows of SIZES) series[rows] = [];
for (let i = 0; i < RUNS; i++) for (const rows of SIZES) series[rows].push(await measure(rows)); // interleaved

// What-if recompute of the recorded jev_step inside the page (the lazily loaded tool code).
const whatIf = await (async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(harness.url({}));
  await page.waitForFunction(() => window.__perf && window.__perf.listPainted !== undefined);
  const step = harness.records.find((r) => r.tool === 'jev_step' && r.result && Array.isArray(r.input?.candidates));
  const out = await page.evaluate(async (record) => {
    const s = document.createElement('script');
    const self = document.querySelector('script[src$="webview.js"]');
    s.nonce = self.nonce;
    s.src = '/dist/webview-whatif.js';
    const t0 = performance.now();
    await new Promise((res, rej) => ((s.onload = res), (s.onerror = rej), document.head.appendChild(s)));
    const load = performance.now() - t0;
    const api = window.__jevWhatIf;
    const times = [];
    let handoff;
    for (let i = 0; i < 30; i++) {
      const t = performance.now();
      const o = await api.recompute(record, { auto_accept: 0.8 + (i % 20) / 100, review_at: 0.5, block_at: 0.75 });
      times.push(performance.now() - t);
      handoff = o.result?.handoff;
    }
    return { load, times, handoff };
  }, step);
  await context.close();
  return { load_ms: out.load, recompute_ms_median: median(out.times), recompute_ms_first: out.times[0] };
})();

await browser.close();
await harness.close();

const size = (f) => {
  const buf = readFileSync(join(dist, f));
  return { bytes: statSync(join(dist, f)).size, gzip: gzipSync(buf, { level: 9 }).length };
};
const bundles = { 'webview.js': size('webview.js'), 'webview-whatif.js': size('webview-whatif.js'), 'webview.css': size('webview.css') };
rmSync(dist, { recursive: true, force: true });
const summary = Object.fromEntries(
  SIZES.map((rows) => {
    const s = series[rows];
    const pick = (k) => ({ median: median(s.map((x) => x[k])), min: Math.min(...s.map((x) => x[k])), max: Math.max(...s.map((x) => x[k])) });
    return [rows, { snapshot_to_paint_ms: pick('snapshotToPaint'), page_to_paint_ms: pick('pageToPaint'), scroll_end_ms: pick('scrollEnd'), filter_ms: pick('filter'), rows_in_dom: pick('inDom'), count: s[0].count }];
  }),
);
const big = summary[10_000];
const small = summary[100];
const ratio = big.snapshot_to_paint_ms.median / small.snapshot_to_paint_ms.median;

if (JSON_OUT) {
  console.log(JSON.stringify({ runs: RUNS, bundles, feed: summary, ratio_10000_vs_100: ratio, what_if: whatIf }, null, 2));
} else {
  const ms = (v) => `${v.median.toFixed(1).padStart(8)} (${v.min.toFixed(1)}–${v.max.toFixed(1)})`;
  console.log(`Panel webview: production bundle in headless Chromium (${chromiumPath()}), ${RUNS} runs per size, interleaved; median (min–max) ms`);
  console.log('   measure                               100 rows                 10 000 rows');
  for (const [label, key] of [
    ['snapshot → list painted', 'snapshot_to_paint_ms'],
    ['page start → list painted', 'page_to_paint_ms'],
    ['scroll to the end → painted', 'scroll_end_ms'],
    ['filter by tool → painted', 'filter_ms'],
  ]) {
    console.log(`   ${label.padEnd(34)}${ms(small[key]).padEnd(25)}${ms(big[key])}`);
  }
  console.log(`   rows in the DOM                    ${String(small.rows_in_dom.median).padEnd(25)}${big.rows_in_dom.median}   (feed shows "${big.count}")`);
  console.log(`   10 000 rows vs 100 rows, snapshot → painted: ${ratio.toFixed(2)}×`);
  console.log(
    `   what-if chunk load ${whatIf.load_ms.toFixed(1)} ms; jev_step recompute median ${whatIf.recompute_ms_median.toFixed(2)} ms (first ${whatIf.recompute_ms_first.toFixed(1)} ms)`,
  );
  const kb = (b) => `${(b.bytes / 1024).toFixed(1)} KiB (${(b.gzip / 1024).toFixed(1)} KiB gzip)`;
  console.log(`   bundles: webview.js ${kb(bundles['webview.js'])}, goal ≤ 150 KB: ${bundles['webview.js'].bytes <= 150_000 ? 'met' : 'NOT met'}`);
  console.log(`            webview-whatif.js ${kb(bundles['webview-whatif.js'])} (tool code + zod, loaded after first paint), webview.css ${kb(bundles['webview.css'])}`);
}
