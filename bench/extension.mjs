#!/usr/bin/env node
// Extension benchmark, measured side by side in one run:
//   - activation: `extension.activate()` of the production-built extension versus an empty extension
//     (test/host/fixtures/empty-extension), both activated in the SAME real extension host (code-server),
//     first one then the other (the order alternates across host runs). Reported: the ratio ours / empty
//     (median over runs), the absolute times (sanity line: ours ≤ 50 ms), the time spent inside our
//     activate(), and the time until the first configuration is ready (settings, SecretStorage, provider);
//   - bundle sizes of the production build: the extension (dist/extension.js, the activation shell, plus
//     dist/extension-core.js, the runtime it loads on first use; goal ≤ 1 MB together) and dist/webview.js
//     (goal ≤ 150 KB), raw and gzip.
// The panel's time to render 10 000 decisions is bench/panel.mjs.
// Options: --runs N (5 host runs), --json. Each run waits 3 s for the workbench to settle before measuring.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Math.max(1, Number(process.argv[runsArg + 1]) || 5) : 5;
const JSON_OUT = process.argv.includes('--json');
const OURS = 'jevcp.jev-control-panel';
const EMPTY = 'jevcp-test.jev-bench-empty';
const MB = 1_000_000;
const KB = 1_000;

const work = mkdtempSync(join(tmpdir(), 'jev-bench-ext-'));
try {
  // 1. A private production build, packaged as the .vsix would carry it (package.json, dist, media).
  const dist = join(work, 'build');
  if (spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--production', '--outdir', dist], { stdio: 'inherit' }).status !== 0) process.exit(1);
  const ext = join(work, 'jev-control-panel');
  mkdirSync(ext);
  cpSync(join(root, 'package.json'), join(ext, 'package.json'));
  cpSync(join(root, 'media'), join(ext, 'media'), { recursive: true });
  cpSync(dist, join(ext, 'dist'), { recursive: true });

  // 2. The probe: runs inside the extension host as the "tests" entry and activates both extensions.
  const probe = join(work, 'probe.cjs');
  writeFileSync(
    probe,
    `const vscode = require('vscode');
const { writeFileSync } = require('node:fs');
const { performance } = require('node:perf_hooks');
exports.run = async () => {
  // Let the workbench's own start-up work (built-in extensions, auth and gallery lookups) settle first.
  await new Promise((r) => setTimeout(r, Number(process.env.JEV_BENCH_SETTLE_MS || 3000)));
  const order = process.env.JEV_BENCH_ORDER === 'ours-first' ? [${JSON.stringify(OURS)}, ${JSON.stringify(EMPTY)}] : [${JSON.stringify(EMPTY)}, ${JSON.stringify(OURS)}];
  const out = {};
  for (const id of order) {
    const ext = vscode.extensions.getExtension(id);
    if (!ext) throw new Error(id + ' is not loaded');
    if (ext.isActive) throw new Error(id + ' was already active');
    const t0 = performance.now();
    const api = await ext.activate();
    out[id] = { activateMs: performance.now() - t0 };
    if (api && api.ready) {
      out[id].insideMs = api.activationMs;
      const t1 = performance.now();
      await api.ready;
      out[id].readyMs = performance.now() - t0;
      out[id].readyWaitMs = performance.now() - t1;
    }
  }
  writeFileSync(process.env.JEV_BENCH_OUT, JSON.stringify(out));
};
`,
  );

  // 3. Host runs.
  const { startHost } = await import('../scripts/vscode-host/host-server.mjs');
  const { runTests } = await import('../scripts/vscode-host/run-tests.mjs');
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const order = i % 2 === 0 ? 'empty-first' : 'ours-first';
    const outFile = join(work, `run-${i}.json`);
    const folder = join(work, `ws-${i}`);
    mkdirSync(folder);
    const host = await startHost({ env: { JEV_BENCH_OUT: outFile, JEV_BENCH_ORDER: order } });
    try {
      const r = await runTests({ server: host.url, extensions: [ext, join(root, 'test/host/fixtures/empty-extension')], tests: probe, folder, timeoutS: 120, log: () => {} });
      if (r.code !== 0) throw new Error(`host run ${i + 1} failed (exit ${r.code})`);
    } finally {
      await host.stop();
    }
    const m = JSON.parse(readFileSync(outFile, 'utf8'));
    samples.push({ order, ours: m[OURS], empty: m[EMPTY] });
    if (!JSON_OUT) console.log(`run ${i + 1}/${RUNS} (${order}): ours ${m[OURS].activateMs.toFixed(1)} ms, empty ${m[EMPTY].activateMs.toFixed(1)} ms`);
  }

  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const ours = median(samples.map((s) => s.ours.activateMs));
  const empty = median(samples.map((s) => s.empty.activateMs));
  const ratio = median(samples.map((s) => s.ours.activateMs / s.empty.activateMs));
  const inside = median(samples.map((s) => s.ours.insideMs ?? NaN));
  const ready = median(samples.map((s) => s.ours.readyMs ?? NaN));
  const size = (file) => {
    const buf = readFileSync(join(dist, file));
    return { bytes: statSync(join(dist, file)).size, gzip: gzipSync(buf).length };
  };
  const shell = size('extension.js');
  const coreSize = size('extension-core.js');
  const extSize = { bytes: shell.bytes + coreSize.bytes, gzip: shell.gzip + coreSize.gzip, shell_bytes: shell.bytes, core_bytes: coreSize.bytes };
  const webSize = size('webview.js');
  const result = {
    runs: RUNS,
    activation: { ours_ms: ours, empty_ms: empty, ratio, inside_activate_ms: inside, ready_ms: ready, goal_ms: 50, ok: ours <= 50 },
    bundles: {
      extension: { ...extSize, goal_bytes: MB, ok: extSize.bytes <= MB },
      webview: { ...webSize, goal_bytes: 150 * KB, ok: webSize.bytes <= 150 * KB },
    },
    samples,
  };
  if (JSON_OUT) console.log(JSON.stringify(result, null, 2));
  else {
    const f = (n) => n.toFixed(1);
    const mark = (ok) => (ok ? 'ok' : 'OVER');
    console.log(`\nactivation (median of ${RUNS} host runs, code-server ${'4.139.1'} extension host)`);
    console.log(`  ours  ${f(ours)} ms  (inside activate() ${f(inside)} ms; configuration ready after ${f(ready)} ms)`);
    console.log(`  empty ${f(empty)} ms`);
    console.log(`  ratio ours/empty ${ratio.toFixed(2)}×   sanity line ours ≤ 50 ms: ${mark(result.activation.ok)}`);
    console.log('bundles (production build)');
    console.log(`  extension ${(extSize.bytes / KB).toFixed(1)} KB (gzip ${(extSize.gzip / KB).toFixed(1)} KB) = shell dist/extension.js ${(shell.bytes / KB).toFixed(1)} KB + runtime dist/extension-core.js ${(coreSize.bytes / KB).toFixed(1)} KB   goal ≤ 1 MB: ${mark(result.bundles.extension.ok)}`);
    console.log(`  dist/webview.js   ${(webSize.bytes / KB).toFixed(1)} KB (gzip ${(webSize.gzip / KB).toFixed(1)} KB)   goal ≤ 150 KB: ${mark(result.bundles.webview.ok)}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
