#!/usr/bin/env node
// The main job, end to end on the mock judge (run by `npm run demo` after the build):
//   1. `jevcp step examples/parser-fix.jev.json` — route one coding-agent step;
//   2. `jevcp gate --staged` in a throwaway git repository this script creates: a small parser with a
//      test, a real staged fix, a commit message with bullet claims, and an evidence command that really
//      runs the tests.
// Backend: when the environment configures one (a key, a base URL or JEV_PROVIDER), its backend settings are
// kept and the demo makes real judgment requests (two); otherwise every JEV_*, TYPESAFE_* and MCP_* variable
// is removed, so the deterministic mock judge answers, which every printout labels. Either way the demo never
// writes to your ledger, uses the default thresholds and starts no MCP servers. The closing summary names the
// model that actually answered. The git identity is passed with -c, so the user's git configuration is not needed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli.js');
if (!existsSync(cli)) {
  console.error('demo: dist/cli.js is missing; run `npm run demo` (it builds first).');
  process.exit(2);
}
// Names only ever printed, never values (the key is among them).
const BACKEND_SELECTORS = ['JEV_PROVIDER', 'JEV_API_KEY', 'TYPESAFE_API_KEY', 'JEV_API__KEY', 'JEV_BASE_URL', 'TYPESAFE_BASE_URL', 'JEV_API__BASE_URL'];
const BACKEND_SETTINGS = [...BACKEND_SELECTORS, 'JEV_MODEL', 'JEV_MCP_MODEL', 'JEV_API__DEFAULT_MODEL', 'JEV_TIMEOUT_MS', 'JEV_SPEND_CAP', 'JEV_MOCK', 'JEV_MCP_MOCK'];
const isSet = (name) => {
  const v = process.env[name]?.trim();
  return Boolean(v) && !(name === 'JEV_PROVIDER' && v.toLowerCase() === 'auto');
};
const configured = BACKEND_SELECTORS.some(isSet);
const kept = configured ? BACKEND_SETTINGS.filter(isSet) : [];
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(JEV_|TYPESAFE_|MCP_)/.test(k) || kept.includes(k)));

function banner(text) {
  console.log(`\n${'='.repeat(100)}\n${text}\n${'='.repeat(100)}`);
}

/** Runs jevcp (stderr inherited, stdout echoed); returns its exit code and the model named in its result header. */
function jevcp(args, cwd) {
  console.log(`$ jevcp ${args.map((a) => (/[\s'"]/.test(a) ? `'${a}'` : a)).join(' ')}`);
  const r = spawnSync(process.execPath, [cli, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  process.stdout.write(r.stdout ?? '');
  return { code: r.status ?? 1, model: /^\w+ — model (\S+)/m.exec(r.stdout ?? '')?.[1] };
}

// Git without the user's identity, signing or hooks.
const GIT_OVERRIDES = ['-c', 'user.name=jevcp demo', '-c', 'user.email=demo@example.invalid', '-c', 'commit.gpgsign=false', '-c', 'core.hooksPath=', '-c', 'init.defaultBranch=main'];
function git(cwd, ...args) {
  const r = spawnSync('git', [...GIT_OVERRIDES, ...args], { cwd, env, encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(`demo: git ${args.join(' ')} failed:\n${r.stderr}`);
    process.exit(3);
  }
  return r.stdout;
}

const PARSER_BEFORE = `// Parses "key=value" lines into an object. Blank lines and # comments are ignored.
export function parseConfig(input) {
  const config = {};
  for (const line of input.split('\\n')) {
    if (line.trim().startsWith('#')) continue;
    const [key, value] = line.split('=');
    config[key.trim()] = value.trim();
  }
  return config;
}
`;

const PARSER_AFTER = `// Parses "key=value" lines into an object. Blank lines and # comments are ignored.
export function parseConfig(input) {
  const config = {};
  for (const line of input.split('\\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const eq = trimmed.indexOf('=');
    if (eq < 0) throw new SyntaxError(\`parseConfig: expected key=value, got \${JSON.stringify(trimmed)}\`);
    config[trimmed.slice(0, eq).trim()] = trimmed.slice(eq + 1).trim();
  }
  return config;
}
`;

const TEST_BEFORE = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig } from '../src/parser.js';

test('parses key=value lines', () => {
  assert.deepEqual(parseConfig('name=demo\\nmode = fast'), { name: 'demo', mode: 'fast' });
});

test('skips comments', () => {
  assert.deepEqual(parseConfig('# note\\nname=demo'), { name: 'demo' });
});
`;

const TEST_AFTER = `${TEST_BEFORE}
test('empty and blank input give an empty config', () => {
  assert.deepEqual(parseConfig(''), {});
  assert.deepEqual(parseConfig('  \\n\\n'), {});
});

test('a line without = is reported, not misread', () => {
  assert.throws(() => parseConfig('name'), SyntaxError);
});
`;

const MESSAGE = `Fix parseConfig on empty and blank input

parseConfig threw a TypeError for an empty string: the single empty line
has no "=", so its value was undefined. Blank lines are now skipped, and a
line without "=" raises a SyntaxError that names the line.

- parseConfig('') returns an empty object instead of throwing
- Blank lines are skipped
- A regression test covers empty and blank input
- All parser tests pass
# Please enter the commit message for your changes. Lines starting
# with '#' will be ignored.
`;

let repo;
let step;
let gate;
if (configured) console.log(`demo: using your configured backend (${kept.join(', ')}): two real judgment requests.`);
else console.log('demo: no backend configured (JEV_API_KEY, JEV_BASE_URL or JEV_PROVIDER): the mock judge answers.');
try {
  banner('1/2  jevcp step examples/parser-fix.jev.json — route one agent step (jev_step, one judgment request)');
  step = jevcp(['step', join('examples', 'parser-fix.jev.json')], root);

  banner('2/2  jevcp gate --staged — judge a real staged change before it is committed (jev_gate)');
  repo = mkdtempSync(join(tmpdir(), 'jevcp-demo-'));
  mkdirSync(join(repo, 'src'));
  mkdirSync(join(repo, 'test'));
  writeFileSync(join(repo, 'package.json'), `${JSON.stringify({ name: 'tiny-config-parser', private: true, type: 'module', scripts: { test: 'node --test test/' } }, null, 2)}\n`);
  writeFileSync(join(repo, 'src', 'parser.js'), PARSER_BEFORE);
  writeFileSync(join(repo, 'test', 'parser.test.js'), TEST_BEFORE);
  git(repo, 'init', '-q');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '--no-verify', '-m', 'Initial parser');
  writeFileSync(join(repo, 'src', 'parser.js'), PARSER_AFTER);
  writeFileSync(join(repo, 'test', 'parser.test.js'), TEST_AFTER);
  git(repo, 'add', 'src/parser.js', 'test/parser.test.js');
  writeFileSync(join(repo, '.git', 'COMMIT_EDITMSG'), MESSAGE);
  console.log(`(throwaway repository with one staged change:)\n${git(repo, 'diff', '--cached', '--stat').trimEnd()}\n`);
  // Without a backend the gate never blocks or passes on the mock's word: --allow-mock makes its verdict advisory.
  gate = jevcp(
    ['gate', '--staged', '--message-file', join('.git', 'COMMIT_EDITMSG'), '--evidence-cmd', 'node --test test/parser.test.js', ...(configured ? [] : ['--allow-mock'])],
    repo,
  );
} finally {
  if (repo) rmSync(repo, { recursive: true, force: true });
}

banner('Summary');
console.log(`jevcp step exit code ${step.code} (0 = a decision was made)`);
console.log(`jevcp gate exit code ${gate.code} (0 = passed, or an advisory mock verdict; 1 = not passed: review or escalate; 2 = invalid input or no backend; 3 = provider failure)`);
const models = [...new Set([step.model, gate.model].filter(Boolean))];
const answered = [step.model, gate.model].filter(Boolean).length;
const which = answered === 2 ? 'Both decisions' : answered === 1 ? 'The one decision made' : undefined;
if (!which) {
  console.log('No decision was made: the judge failed (see the errors above). `jevcp doctor` checks the configuration.');
} else if (models.every((m) => m.endsWith('+mock'))) {
  console.log(`${which} came from the mock judge (model ${models.join(', ')}): deterministic keyword heuristics, not a real judgment.`);
  if (configured) console.log('Your configuration selects the mock judge (JEV_MOCK or JEV_PROVIDER=mock); unset it for real judgments.');
  else console.log('Set JEV_API_KEY (TypeSafe) or JEV_BASE_URL (Ollama, Kev) and run the same commands for real judgments.');
} else {
  console.log(`${which} came from your configured backend (model ${models.join(', ')}): real judgments, which can differ between runs.`);
}
if (which && answered < 2) console.log('The other command failed before a decision (see its error above).');
process.exit(step.code === 0 && (gate.code === 0 || gate.code === 1) ? 0 : 1);
