#!/usr/bin/env node
// The main job, end to end on the mock judge (run by `npm run demo` after the build):
//   1. `jevcp step examples/parser-fix.jev.json` — route one coding-agent step;
//   2. `jevcp gate --staged` in a throwaway git repository this script creates: a small parser with a
//      test, a real staged fix, a commit message with bullet claims, and an evidence command that really
//      runs the tests.
// Backend settings (JEV_*, TYPESAFE_*, MCP_*) are removed from the environment so the demo always uses
// the deterministic mock judge, which every printout labels. The git identity is passed with -c, so the
// user's git configuration is not needed.
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
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(JEV_|TYPESAFE_|MCP_)/.test(k)));

function banner(text) {
  console.log(`\n${'='.repeat(100)}\n${text}\n${'='.repeat(100)}`);
}

/** Runs jevcp with inherited output; returns its exit code. */
function jevcp(args, cwd) {
  console.log(`$ jevcp ${args.map((a) => (/[\s'"]/.test(a) ? `'${a}'` : a)).join(' ')}`);
  const r = spawnSync(process.execPath, [cli, ...args], { cwd, env, stdio: 'inherit' });
  return r.status ?? 1;
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
let stepCode;
let gateCode;
try {
  banner('1/2  jevcp step examples/parser-fix.jev.json — route one agent step (jev_step, one judgment request)');
  stepCode = jevcp(['step', join('examples', 'parser-fix.jev.json')], root);

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
  gateCode = jevcp(
    ['gate', '--staged', '--message-file', join('.git', 'COMMIT_EDITMSG'), '--evidence-cmd', 'node --test test/parser.test.js'],
    repo,
  );
} finally {
  if (repo) rmSync(repo, { recursive: true, force: true });
}

banner('Summary');
console.log(`jevcp step exit code ${stepCode} (0 = a decision was made)`);
console.log(`jevcp gate exit code ${gateCode} (0 = passed, 1 = not passed: review or escalate, 2 = invalid input, 3 = provider failure)`);
console.log('Both decisions came from the mock judge (model jev-latest+mock): deterministic keyword heuristics, not a real judgment.');
console.log('Set JEV_API_KEY (TypeSafe) or JEV_BASE_URL (Ollama, Kev) and run the same commands for real judgments.');
process.exit(stepCode === 0 && (gateCode === 0 || gateCode === 1) ? 0 : 1);
