#!/usr/bin/env node
// Runs the checks in order: lint (ESLint and the dependency rules, scripts/lint.mjs), unit, integration
// (node:test via tsx), the official MCP conformance suite's client scenarios (scripts/test-conformance.mjs;
// installs its tools on first use), then the extension-host suite and the browser e2e. A failing step fails
// the run; the later steps still run. The MCP Apps card check (test/e2e/card-check.mjs: Chromium, AppBridge,
// jevcp serve) runs after conformance; VS Code's own agent loop (scripts/test-agent.mjs: the .vsix and a scripted
// chat model in code-server) runs last. Every step that needs Chromium, code-server or their Node gets them through
// scripts/vscode-host/ensure-host.mjs (installs on first use), so any step may run first or alone on a fresh machine.
// Usage: node scripts/test.mjs [--only lint,unit,integration,conformance,card,host,e2e,agent]
// Through npm: `npm test -- --only card` (npm 11 takes a bare `npm test --only card` as its own, invalid, config
// and passes nothing on, so that form runs everything).
import { spawnSync } from 'node:child_process';
import { readdirSync, existsSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SUITES = ['lint', 'unit', 'integration', 'conformance', 'card', 'host', 'e2e', 'agent'];

/** The value of `--only X` or `--only=X` in `argv` ('' when `--only` has none), else undefined. */
function onlyIn(argv) {
  const i = argv.findIndex((a) => a === '--only' || a.startsWith('--only='));
  if (i < 0) return undefined;
  return argv[i].startsWith('--only=') ? argv[i].slice('--only='.length) : (argv[i + 1] ?? '');
}

const onlyValue = onlyIn(process.argv.slice(2));
const only = onlyValue === undefined ? null : new Set(onlyValue.split(','));
const unknown = only ? [...only].filter((s) => !SUITES.includes(s)) : [];
if (only && (only.size === 0 || unknown.length)) {
  console.error(`test: --only takes a comma-separated list of ${SUITES.join(', ')}; got ${JSON.stringify(onlyValue)}`);
  process.exit(2);
}
const want = (suite) => !only || only.has(suite);

function testFiles(dir) {
  const out = [];
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...testFiles(full));
    else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  return r.status ?? 1;
}

let failed = 0;
if (want('lint')) {
  console.log('\n# lint');
  const started = Date.now();
  const status = run(process.execPath, [join(root, 'scripts/lint.mjs')]);
  console.log(`# lint: ${status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (status !== 0) failed++;
}
// The CLI and MCP tests spawn dist/cli.js, so build first.
if (run(process.execPath, [join(root, 'scripts/build.mjs')]) !== 0) process.exit(1);

for (const suite of ['unit', 'integration']) {
  if (!want(suite)) continue;
  const files = testFiles(join(root, 'test', suite));
  if (files.length === 0) continue;
  console.log(`\n# ${suite}: ${files.length} files`);
  const status = run(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...files], {
    env: { ...process.env, JEV_TEST: '1' },
  });
  if (status !== 0) failed++;
}

for (const [suite, script] of [['conformance', 'scripts/test-conformance.mjs'], ['card', 'test/e2e/card-check.mjs'], ['host', 'scripts/test-host.mjs'], ['e2e', 'scripts/test-e2e.mjs'], ['agent', 'scripts/test-agent.mjs']]) {
  if (!want(suite) || !existsSync(join(root, script))) continue;
  console.log(`\n# ${suite}`);
  if (run(process.execPath, [join(root, script)]) !== 0) failed++;
}
process.exit(failed ? 1 : 0);
