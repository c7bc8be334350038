#!/usr/bin/env node
// MCP Apps decision card benchmark. A private production build; a real `jevcp serve` (stdio, mock judge)
// answers jev_step for a 3-candidate and a 32-candidate step side by side; the card (read with
// resources/read) is rendered by ext-apps' AppBridge host page in headless Chromium
// (test/e2e/card-host/). Reports:
//   - the card's HTML size (goal ≤ 250 KB) against the plain JSON text of the 32-candidate result;
//   - first paint: from the view's navigation start (HTML parse, script, ui/initialize, tool result,
//     render) to the frame after the card was painted, median of --runs N (5); goal ≤ 150 ms for 32;
//     with when the script starts running (HTML and script parsed, modules initialised) and the time
//     from the tool result's arrival to the painted card; side by side with the smallest ext-apps view
//     (bench/fixtures/minimal-app-view.ts), the floor every MCP Apps view pays on this machine.
// Options: --runs N, --json.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CHROMIUM_ARGS, chromiumPath } from '../test/e2e/harness-server.mjs';
import { HOST_VARIABLES, startCardHost } from '../test/e2e/card-host/host-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Math.max(1, Number(process.argv[runsArg + 1]) || 5) : 5;
const JSON_OUT = process.argv.includes('--json');
const SIZE_GOAL = 250 * 1024;
const PAINT_GOAL_MS = 150;

const dist = mkdtempSync(join(tmpdir(), 'jev-bench-card-'));
if (spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--production', '--outdir', dist], { stdio: 'inherit' }).status !== 0) process.exit(1);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const client = new Client({ name: 'bench-card', version: '1' }, { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(dist, 'cli.js'), 'serve'], env: { PATH: process.env.PATH ?? '', HOME: dist, JEV_MOCK: '1', JEV_LEDGER: '' }, stderr: 'ignore' }));
const uri = (await client.listTools()).tools.find((t) => t.name === 'jev_step')._meta.ui.resourceUri;
const content = (await client.readResource({ uri })).contents[0];
const html = content.text;

const { tool: _tool, ...base } = JSON.parse(readFileSync(join(root, 'examples/parser-fix.jev.json'), 'utf8'));
function stepWith(n) {
  const candidates = Array.from({ length: n }, (_, i) => ({ ...base.candidates[i % 2], id: `call-${i}`, arguments: { path: `src/file-${i}.ts` } }));
  return { ...base, candidates };
}

// The baseline view, bundled the way the card is.
const baseline = await build({
  entryPoints: [join(root, 'bench/fixtures/minimal-app-view.ts')], bundle: true, minify: true, write: false, format: 'iife', platform: 'browser', target: 'es2022',
  logLevel: 'warning', supported: { 'inline-script': false },
  plugins: [{ name: 'card-like', setup(b) {
    // As the card's build does (scripts/build.mjs): zod's English messages only, zod through the card's shim.
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (a) => ({ contents: 'export { default as en } from "./en.js";', resolveDir: dirname(a.path), loader: 'js' }));
    b.onResolve({ filter: /^zod(\/v4)?$/ }, (a) => (a.importer.endsWith('zod-card.ts') ? undefined : { path: join(root, 'webview/shims/zod-card.ts') }));
  } }],
});
const baselineHtml = `<!doctype html><html><head><meta charset="utf-8"></head><body><div id="app"></div><script>${baseline.outputFiles[0].text}</script></body></html>`;

const host = await startCardHost();
const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
async function paintOnce(input, result, page_html = html) {
  const context = await browser.newContext({ viewport: { width: 384, height: 900 } });
  const page = await context.newPage();
  await page.goto(host.hostUrl);
  await page.evaluate((o) => globalThis.__startCard(o), { viewUrl: host.addView(page_html, content._meta?.ui?.csp), tool: 'jev_step', input, result, theme: 'light', variables: HOST_VARIABLES.light, width: 360, hostName: 'bench host', prompt: 'bench' });
  const frame = page.frameLocator('#view');
  await frame.locator('html[data-painted]').waitFor({ timeout: 10_000 });
  const marks = await frame.locator('html').evaluate((el) => ({ ...el.dataset }));
  await context.close();
  return { painted: Number(marks.painted), scriptStart: Number(marks.scriptStart), fromResult: Number(marks.painted) - Number(marks.resultAt) };
}

const rows = {};
{
  const input = stepWith(32);
  const result = await client.callTool({ name: 'jev_step', arguments: input });
  await paintOnce(input, result, baselineHtml);
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await paintOnce(input, result, baselineHtml));
  rows.baseline = { median_ms: median(runs.map((r) => r.painted)), html_bytes: Buffer.byteLength(baselineHtml), script_start_ms: median(runs.map((r) => r.scriptStart)), result_to_paint_ms: median(runs.map((r) => r.fromResult)) };
}
for (const n of [3, 32]) {
  const input = stepWith(n);
  const result = await client.callTool({ name: 'jev_step', arguments: input });
  await paintOnce(input, result); // warm-up
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await paintOnce(input, result));
  const times = runs.map((r) => r.painted);
  rows[n] = { median_ms: median(times), runs: times, script_start_ms: median(runs.map((r) => r.scriptStart)), result_to_paint_ms: median(runs.map((r) => r.fromResult)), plain_text_bytes: Buffer.byteLength(result.content[0].text), meta_bytes: Buffer.byteLength(JSON.stringify(result._meta ?? {})) };
}
await browser.close();
await host.close();
await client.close();
rmSync(dist, { recursive: true, force: true });

const size = Buffer.byteLength(html);
const gz = gzipSync(html).length;
const report = { card_html_bytes: size, card_html_gzip_bytes: gz, size_goal_bytes: SIZE_GOAL, first_paint: rows, paint_goal_ms: PAINT_GOAL_MS, violations: host.violations.length };
if (JSON_OUT) console.log(JSON.stringify(report, null, 2));
else {
  const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
  console.log(`card HTML            ${kb(size)} (gzip ${kb(gz)})   goal ${kb(SIZE_GOAL)}   ratio ${(size / SIZE_GOAL).toFixed(2)}   ${size <= SIZE_GOAL ? 'ok' : 'OVER'}`);
  console.log(`  vs the plain JSON text of the 32-candidate result: ${kb(rows[32].plain_text_bytes)} (card ×${(size / rows[32].plain_text_bytes).toFixed(1)}, sent once per version)`);
  console.log(`first paint, median of ${RUNS} (navigation start → card painted):`);
  for (const n of [3, 32]) {
    const r = rows[n];
    console.log(`  jev_step ${String(n).padStart(2)} candidates  ${r.median_ms.toFixed(1)} ms   goal ${PAINT_GOAL_MS} ms   ratio ${(r.median_ms / PAINT_GOAL_MS).toFixed(2)}` +
      `   (script starts at ${r.script_start_ms.toFixed(1)} ms; tool result → painted ${r.result_to_paint_ms.toFixed(1)} ms)`);
  }
  const b = rows.baseline;
  console.log(`  minimal ext-apps view  ${b.median_ms.toFixed(1)} ms   (${kb(b.html_bytes)}; script starts at ${b.script_start_ms.toFixed(1)} ms; tool result → painted ${b.result_to_paint_ms.toFixed(1)} ms)`);
  console.log(`  32 vs 3 candidates: ×${(rows[32].median_ms / rows[3].median_ms).toFixed(2)}   card (32) vs minimal view: ×${(rows[32].median_ms / b.median_ms).toFixed(2)} (+${(rows[32].median_ms - b.median_ms).toFixed(1)} ms)`);
  console.log(`  machine load average ${loadavg()[0].toFixed(2)} on ${cpus().length} cores (timings scale with it)`);
  console.log(`CSP violations: ${host.violations.length}`);
}
process.exit(host.violations.length ? 1 : 0);
