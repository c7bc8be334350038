/**
 * The API key never reaches the ledger or the upstream request body, end to end: `jevcp gate --staged` with
 * an evidence command that prints the whole environment and a staged file that contains the key verbatim.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { capture, type Run } from '../helpers/processes';
import type { FakeSystemOne } from '../helpers/fake-systemone';
import { CLI, cleanEnv, openSandbox, type CliSandbox } from './mcp-fixtures';

const KEY = 'sk-secret-leak-test-5d81e0';
const OTHER_TOKEN = 'ghp-other-token-value-4411';

function run(args: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  return capture(process.execPath, [CLI, ...args], { cwd, env });
}

const GIT = ['-c', 'user.name=secrets test', '-c', 'user.email=secrets@example.invalid', '-c', 'commit.gpgsign=false', '-c', 'core.hooksPath=', '-c', 'init.defaultBranch=main'];
function git(cwd: string, ...args: string[]): void {
  const r = spawnSync('git', [...GIT, ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

const occurrences = (text: string, needle: string) => text.split(needle).length - 1;

let sandbox: CliSandbox | undefined;
let dir: string;
let fake: FakeSystemOne;
before(async () => {
  sandbox = await openSandbox('jevcp-secrets-');
  ({ dir, fake } = sandbox);
});
after(() => sandbox?.close());

describe('the API key stays out of evidence, upstream bodies and the ledger', () => {
  it('gate --staged --evidence-cmd env with the key in a staged file: 0 occurrences in requests and ledger', async () => {
    const repo = join(dir, 'repo');
    mkdirSync(repo);
    writeFileSync(join(repo, 'README.md'), 'tiny\n');
    git(repo, 'init', '-q');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '--no-verify', '-m', 'init');
    writeFileSync(join(repo, 'config.js'), `export const apiKey = '${KEY}';\n`);
    git(repo, 'add', 'config.js');
    const ledger = join(dir, 'ledger.jsonl');
    const before = fake.count();
    const env = cleanEnv({ JEV_BASE_URL: fake.url, JEV_API_KEY: KEY, JEV_TIMEOUT_MS: '5000', JEV_LEDGER: ledger, SOME_SERVICE_TOKEN: OTHER_TOKEN, JEV_EVIDENCE_MARKER: 'visible' });
    const r = await run(['gate', '--staged', '--claim', 'config.js exports the key', '--evidence-cmd', process.platform === 'win32' ? 'set' : 'env'], repo, env);
    assert.ok(r.code === 0 || r.code === 1, `${r.code}: ${r.stderr}`);
    assert.equal(fake.count(), before + 1);

    const request = fake.requests.at(-1)!;
    const body = JSON.stringify(request.body);
    assert.equal(occurrences(body, KEY), 0, 'the upstream body never carries the key');
    assert.equal(occurrences(body, OTHER_TOKEN), 0, 'other *_TOKEN variables are not in the evidence');
    assert.match(body, /JEV_EVIDENCE_MARKER=visible/, 'the evidence command did print the environment');
    assert.match(body, /apiKey = '\[REDACTED\]'/, 'the staged file reaches the judge with the key redacted');
    assert.equal(request.headers.authorization, `Bearer ${KEY}`, 'the key still authenticates the request');

    const lines = readFileSync(ledger, 'utf8');
    assert.equal(occurrences(lines, KEY), 0, 'the ledger never carries the key');
    assert.match(lines, /\[REDACTED\]/);
    assert.equal(occurrences(r.stdout + r.stderr, KEY), 0);
  });
});
