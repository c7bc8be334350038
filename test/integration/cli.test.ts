/**
 * `jevcp` end to end: the built dist/cli.js as a child process (async spawn, so the fake System One server
 * in this process can answer), real temporary git repositories, real ledger files.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { answerAll, noul, score, type FakeSystemOne } from '../helpers/fake-systemone';
import { cleanEnv, jevcp, openSandbox, type CliSandbox } from './mcp-fixtures';
import { closedPort } from '../helpers/raw-http';

const KEY = 'sk-cli-test-secret-91c2';
const MOCK_NOTICE = 'jevcp: no backend configured — using the mock judge (deterministic, not a real judgment)';


const GIT = ['-c', 'user.name=cli test', '-c', 'user.email=cli@example.invalid', '-c', 'commit.gpgsign=false', '-c', 'core.hooksPath=', '-c', 'init.defaultBranch=main'];
function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', [...GIT, ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** A repository with one commit; `stage` adds a real change to the index. */
function makeRepo(root: string, name: string, stage: boolean): string {
  const repo = join(root, name);
  mkdirSync(join(repo, 'src'), { recursive: true });
  writeFileSync(join(repo, 'src', 'parse.js'), 'export const parse = (s) => s.split(",");\n');
  git(repo, 'init', '-q');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '--no-verify', '-m', 'init');
  if (stage) {
    writeFileSync(join(repo, 'src', 'parse.js'), 'export const parse = (s) => (s === "" ? [] : s.split(","));\n');
    writeFileSync(join(repo, 'check.js'), 'console.log("check: 3 passing, 0 failing");\n');
    git(repo, 'add', 'src/parse.js');
  }
  return repo;
}

const MESSAGE = `Handle empty input in parse

parse('') used to return [''].
- parse('') returns an empty array
* Non-empty input is unchanged
# a comment line that must not become a claim
# ------------------------ >8 ------------------------
- a line below the scissors is not a claim
`;

/** Answers that make jev_gate pass: top review levels on the good dimensions, low test gap and blast radius. */
const PASSING = {
  test_gap: score(3, [0.9, 0.05, 0.05]),
  blast_radius: score(3, [0.9, 0.05, 0.05]),
  safe_to_apply: noul(0.95),
};

let sandbox: CliSandbox | undefined;
let dir: string;
let fake: FakeSystemOne;
before(async () => {
  sandbox = await openSandbox('jevcp-cli-');
  ({ dir, fake } = sandbox);
});
after(() => sandbox?.close());
const fakeEnv = (extra: Record<string, string> = {}) => cleanEnv({ JEV_BASE_URL: fake.url, JEV_API_KEY: KEY, JEV_TIMEOUT_MS: '5000', ...extra });

describe('jevcp basics', () => {
  it('help prints usage on stdout (exit 0); an unknown command exits 2 with usage on stderr', async () => {
    const help = await jevcp(['help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /jevcp gate --staged/);
    const bad = await jevcp(['frobnicate']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown command "frobnicate"/);
    assert.equal(bad.stdout, '');
  });

  it('an invalid configuration exits 2 naming the variable', async () => {
    const r = await jevcp(['step', 'examples/parser-fix.jev.json'], { env: cleanEnv({ JEV_AUTO_ACCEPT: '2' }) });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /JEV_AUTO_ACCEPT/);
  });

  it('serve --http with a bad PORT is refused clearly (exit 2; serve-http.test.ts covers serving)', async () => {
    const r = await jevcp(['serve', '--http', 'eighty']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--http PORT must be an integer from 0 to 65535/);
  });

  it('serve answers on stdio and exits 0 when the client closes stdin', async () => {
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } });
    const r = await jevcp(['serve'], { input: `${init}\n` });
    assert.equal(r.code, 0);
    const reply = JSON.parse(r.stdout.trim().split('\n')[0]!);
    assert.equal(reply.result.serverInfo.name, 'jev-control-panel');
    assert.equal(r.stderr, `${MOCK_NOTICE}\n`, 'stdout carries protocol only; the notice goes to stderr');
  });

  it('call names the known tools when the tool is unknown (exit 2)', async () => {
    const r = await jevcp(['call', 'jev_nope', '--input', '-'], { input: '{}' });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown tool "jev_nope"; known tools: ask_noul, .*jev_evaluate/);
  });

  it('unknown options exit 2', async () => {
    const r = await jevcp(['doctor', '--verbose']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--verbose/);
  });
});

describe('jevcp step / call', () => {
  it('step on the example with no backend: one-line mock notice on stderr, labelled decision on stdout', async () => {
    const r = await jevcp(['step', 'examples/parser-fix.jev.json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, `${MOCK_NOTICE}\n`);
    assert.match(r.stdout, /^jev_step — model jev-latest\+mock \(mock judge/);
    for (const label of ['handoff', 'action', 'reasons', 'thresholds', 'call', 'selection']) assert.match(r.stdout, new RegExp(`^  ${label} `, 'm'));
    assert.match(r.stdout, /dispatch_at 0\.8/);
    assert.match(r.stdout, /blocked +reset-branch \(not_authorized\)/);
  });

  it('step --json prints the result JSON only on stdout', async () => {
    const r = await jevcp(['step', 'examples/parser-fix.jev.json', '--json']);
    assert.equal(r.code, 0);
    const result = JSON.parse(r.stdout);
    assert.equal(result.model, 'jev-latest+mock');
    assert.ok(['auto', 'review', 'escalate'].includes(result.action));
    assert.equal(typeof result.handoff, 'string');
    assert.ok(Array.isArray(result.reason_codes));
  });

  it('step exits 2 for a missing file, bad JSON, an unknown tool and an invalid input', async () => {
    writeFileSync(join(dir, 'bad.jev.json'), '{"task": ');
    writeFileSync(join(dir, 'tool.jev.json'), JSON.stringify({ tool: 'jev_nope', task: 't' }));
    writeFileSync(join(dir, 'invalid.jev.json'), JSON.stringify({ task: 't', observation: 'o', auto_accept: 0.2, review_at: 0.9 }));
    for (const [file, pattern] of [
      ['missing.jev.json', /cannot read missing\.jev\.json \(ENOENT: does not exist\)/],
      ['bad.jev.json', /not valid JSON/],
      ['tool.jev.json', /tool: unknown tool "jev_nope"/],
      ['invalid.jev.json', /INVALID_INPUT: .*review_at/],
    ] as const) {
      const r = await jevcp(['step', file], { cwd: dir });
      assert.equal(r.code, 2, `${file}: ${r.stderr}`);
      assert.match(r.stderr, pattern);
      assert.equal(r.stdout, '');
    }
  });

  it('call reads the input from stdin and answers through the real provider from the fake upstream', async () => {
    const before = fake.count();
    const r = await jevcp(['call', 'jev_screen', '--input', '-', '--json'], { env: fakeEnv(), input: JSON.stringify({ text: 'Stack trace attached.' }) });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).model, 'jev-latest');
    assert.equal(fake.count(), before + 1);
    assert.equal(r.stderr, '', 'no mock notice with a backend configured');
  });

  it('a provider that is down exits 3 (fail-closed), never a decision', async () => {
    const port = await closedPort();
    const r = await jevcp(['call', 'jev_screen', '--input', '-'], { env: cleanEnv({ JEV_BASE_URL: `http://127.0.0.1:${port}`, JEV_TIMEOUT_MS: '3000' }), input: '{"text":"x"}' });
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /jev_screen failed: (API_ERROR|TIMEOUT)/);
    assert.equal(r.stdout, '');
  });
});

describe('jevcp gate --staged (real git repositories)', () => {
  it('nothing staged → exit 0 with a note', async () => {
    const repo = makeRepo(dir, 'clean', false);
    const r = await jevcp(['gate', '--staged'], { cwd: repo, env: fakeEnv() });
    assert.equal(r.code, 0);
    assert.match(r.stderr, /nothing staged/);
  });

  it('outside a git repository → exit 2', async () => {
    const plain = join(dir, 'plain');
    mkdirSync(plain);
    const r = await jevcp(['gate', '--staged'], { cwd: plain, env: fakeEnv({ GIT_CEILING_DIRECTORIES: dir }) });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /not inside a git work tree/);
  });

  it('sends the staged diff, the message without comments, claims from --claim and bullets, and evidence-command output', async () => {
    const repo = makeRepo(dir, 'blocked', true);
    writeFileSync(join(dir, 'MSG'), MESSAGE);
    fake.setAnswerer((req) => answerAll(req.body.questions));
    const before = fake.count();
    const r = await jevcp(['gate', '--staged', '--message-file', join(dir, 'MSG'), '--claim', 'The change is covered by check.js', '--evidence-cmd', 'node check.js'], { cwd: repo, env: fakeEnv() });
    assert.equal(fake.count(), before + 1, 'exactly one jev_gate request');
    const body = fake.requests.at(-1)!.body;
    assert.match(body.state.diff, /^diff --git a\/src\/parse\.js b\/src\/parse\.js/);
    assert.equal(body.state.request, "Handle empty input in parse\n\nparse('') used to return [''].\n- parse('') returns an empty array\n* Non-empty input is unchanged");
    assert.deepEqual(body.state.claims, ['The change is covered by check.js', "parse('') returns an empty array", 'Non-empty input is unchanged']);
    const evidence = body.state.evidence as { id: string; text: string }[];
    assert.deepEqual(evidence.map((e) => e.id), ['diff-stat', 'evidence-cmd']);
    assert.match(evidence[0]!.text, /^staged files \(from the diff\)\n src\/parse\.js \| \+1 -1\n 1 file changed, 1 insertion\(\+\), 1 deletion\(-\)$/);
    assert.match(evidence[1]!.text, /\$ node check\.js\n\(exit code 0\)\ncheck: 3 passing, 0 failing/);
    assert.ok(!JSON.stringify(body).includes(KEY), 'the key travels only in the header');

    // Default fake answers rate the test gap and blast radius at their top level → not auto → exit 1.
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^jev_gate — model jev-test-1$/m);
    assert.match(r.stdout, /^ {2}action +(review|escalate)/m);
    assert.match(r.stdout, /^ {2}reasons +review_required/m);
    assert.match(r.stdout, /^ {2}thresholds +auto_accept 0\.80, review_at 0\.50/m);
    assert.match(r.stdout, /gate: NOT passed/);
  });

  it('passes (exit 0) when every check clears, and says which fallback claim it used without claims', async () => {
    const repo = makeRepo(dir, 'passing', true);
    writeFileSync(join(dir, 'MSG2'), 'Handle empty input in parse\n');
    fake.setAnswerer((req) => answerAll(req.body.questions, PASSING));
    const r = await jevcp(['gate', '--staged', '--message-file', join(dir, 'MSG2'), '--evidence-cmd', 'node check.js'], { cwd: repo, env: fakeEnv() });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /gate: passed/);
    assert.match(r.stdout, /reasons +accepted/);
    assert.match(r.stderr, /no claims given .* subject line/);
    assert.deepEqual(fake.requests.at(-1)!.body.state.claims, ['Handle empty input in parse']);
    fake.setAnswerer((req) => answerAll(req.body.questions));
  });

  it('neither a message nor a claim → exit 2 before the evidence command runs, and nothing is judged', async () => {
    const repo = makeRepo(dir, 'unclaimed', true);
    const before = fake.count();
    const r = await jevcp(['gate', '--staged', '--evidence-cmd', 'node -e "require(\'fs\').writeFileSync(\'ran.txt\', \'1\')"'], { cwd: repo, env: fakeEnv() });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /INVALID_INPUT: gate: nothing to judge the staged diff against: give a commit message \(--message-file FILE\) or a claim \(--claim\)/);
    assert.equal(existsSync(join(repo, 'ran.txt')), false, 'the evidence command did not run');
    assert.equal(fake.count(), before);
  });

  it('a provider that is down exits 3 with the failure on stderr', async () => {
    const repo = makeRepo(dir, 'down', true);
    const port = await closedPort();
    const r = await jevcp(['gate', '--staged', '--claim', 'x works'], { cwd: repo, env: cleanEnv({ JEV_BASE_URL: `http://127.0.0.1:${port}`, JEV_TIMEOUT_MS: '3000' }) });
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stdout, /^jev gate: NOT passed — the judge failed \((API_ERROR|TIMEOUT): /);
    assert.doesNotMatch(r.stdout, / passed \(/);
  });

  it('a diff that cannot be judged (too many claims) says so, not that the judge failed, and nothing is sent', async () => {
    const repo = makeRepo(dir, 'toomany', true);
    const before = fake.count();
    const claims = Array.from({ length: 1001 }, (_, i) => ['--claim', `claim ${i}`]).flat();
    const r = await jevcp(['gate', '--staged', ...claims], { cwd: repo, env: fakeEnv() });
    assert.notEqual(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^jev gate: NOT passed — the diff could not be judged \(INPUT_TOO_LARGE: .*\); nothing was approved/m);
    assert.doesNotMatch(r.stdout, /the judge failed/);
    assert.equal(fake.count(), before, 'nothing reached the judge');
  });

  it('an invalid configuration exits 2 before git or the evidence command run', async () => {
    const repo = makeRepo(dir, 'badconfig', true);
    const r = await jevcp(['gate', '--staged', '--claim', 'x', '--evidence-cmd', 'node -e "require(\'fs\').writeFileSync(\'ran.txt\', \'1\')"'], { cwd: repo, env: fakeEnv({ JEV_REVIEW_AT: '0.9' }) });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /JEV_REVIEW_AT/);
    assert.equal(existsSync(join(repo, 'ran.txt')), false, 'the evidence command did not run');
  });

  it('an evidence command that outlives its time limit is stopped and reported', async () => {
    const repo = makeRepo(dir, 'slow', true);
    const started = Date.now();
    const r = await jevcp(['gate', '--staged', '--claim', 'x', '--evidence-cmd', 'node -e "setTimeout(() => {}, 60000)"', '--evidence-timeout', '500'], { cwd: repo, env: fakeEnv() });
    assert.ok(Date.now() - started < 20_000);
    assert.match(r.stderr, /timed out after 500 ms/);
    assert.match(fake.requests.at(-1)!.body.state.evidence[1].text, /timed out after \d+ ms and was stopped/);
  });
});

describe('jevcp doctor', () => {
  it('--json reports the configuration and a ping, and never contains the key', async () => {
    const r = await jevcp(['doctor', '--json'], { env: fakeEnv({ JEV_SPEND_CAP: '9' }) });
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.ready, true);
    assert.equal(report.provider, 'systemone');
    assert.equal(report.api_key_set, true);
    assert.equal(report.base_url, new URL(fake.url).origin);
    assert.equal(report.spend_cap, 9);
    assert.equal(typeof report.ping.noul, 'number');
    assert.ok(!r.stdout.includes(KEY) && !r.stderr.includes(KEY));
  });

  it('prints "not ready" and exits 3 when the backend is down; human form names the mock', async () => {
    const port = await closedPort();
    const down = await jevcp(['doctor'], { env: cleanEnv({ JEV_BASE_URL: `http://127.0.0.1:${port}`, JEV_API_KEY: KEY, JEV_TIMEOUT_MS: '2000' }) });
    assert.equal(down.code, 3);
    assert.match(down.stdout, /not ready\n$/);
    assert.ok(!down.stdout.includes(KEY));
    const mock = await jevcp(['doctor']);
    assert.equal(mock.code, 2, 'the mock is not a judge: no judgment backend');
    assert.match(mock.stdout, /provider +mock \(no backend configured\)/);
    assert.match(mock.stdout, /not ready for real judgments/);
    assert.equal(mock.stderr, `${MOCK_NOTICE}\n`);
  });
});

describe('jevcp ledger', () => {
  it('records CLI decisions (without the key), shows them, and replays with other thresholds without upstream calls', async () => {
    const ledger = join(dir, 'ledger', 'decisions.jsonl');
    const repo = makeRepo(dir, 'ledgered', true);
    fake.setAnswerer((req) => answerAll(req.body.questions, PASSING));
    const gate = await jevcp(['gate', '--staged', '--claim', 'parse handles empty input'], { cwd: repo, env: fakeEnv({ JEV_LEDGER: ledger }) });
    assert.equal(gate.code, 0, gate.stdout + gate.stderr);
    fake.setAnswerer((req) => answerAll(req.body.questions));
    const step = await jevcp(['step', 'examples/parser-fix.jev.json'], { env: cleanEnv({ JEV_LEDGER: ledger }) });
    assert.equal(step.code, 0);
    assert.ok(!readFileSync(ledger, 'utf8').includes(KEY), 'the key is never written to the ledger');

    const show = await jevcp(['ledger', 'show'], { env: cleanEnv({ JEV_LEDGER: ledger }) });
    assert.equal(show.code, 0);
    const lines = show.stdout.trim().split('\n');
    assert.equal(lines.length, 2);
    assert.match(lines[0]!, /cli +jev_gate +auto/);
    assert.match(lines[1]!, /cli +jev_step .*jev-latest\+mock/);
    const json = JSON.parse((await jevcp(['ledger', 'show', '--json', '--last', '1'], { env: cleanEnv({ JEV_LEDGER: ledger }) })).stdout);
    assert.equal(json.length, 1);
    assert.equal(json[0].tool, 'jev_step');
    const gateId: string = JSON.parse((await jevcp(['ledger', 'show', '--json'], { env: cleanEnv({ JEV_LEDGER: ledger }) })).stdout)[0].id;

    const before = fake.count();
    const same = await jevcp(['ledger', 'replay', '--id', gateId.slice(0, 8)], { env: cleanEnv({ JEV_LEDGER: ledger }) });
    assert.equal(same.code, 0, same.stderr);
    assert.match(same.stdout, /before +action auto/);
    assert.match(same.stdout, /after +action auto/);
    assert.match(same.stdout, /the decision is the same/);
    const raised = await jevcp(['ledger', 'replay', '--id', gateId, '--auto-accept', '0.95', '--json'], { env: cleanEnv({ JEV_LEDGER: ledger }) });
    assert.equal(raised.code, 0, raised.stderr);
    const out = JSON.parse(raised.stdout);
    assert.equal(out.before.action, 'auto');
    assert.equal(out.after.action, 'review', 'confidence 0.9 is below the raised auto_accept 0.95');
    assert.equal(out.upstream_requests, 0);
    assert.equal(fake.count(), before, 'replays never reach the upstream');

    const last = await jevcp(['ledger', 'replay', '--last', '--review-at', '0.9'], { env: cleanEnv({ JEV_LEDGER: ledger }) });
    assert.equal(last.code, 2, 'review_at above auto_accept is refused');
    assert.match(last.stderr, /review_at <= auto_accept/);
  });

  it('reports a torn last line on stderr and still shows the complete records', async () => {
    const ledger = join(dir, 'torn.jsonl');
    await jevcp(['step', 'examples/parser-fix.jev.json'], { env: cleanEnv({ JEV_LEDGER: ledger }) });
    writeFileSync(ledger, `${readFileSync(ledger, 'utf8')}{"v":1,"kind":"decision","id":"to`);
    const r = await jevcp(['ledger', 'show'], { env: cleanEnv({ JEV_LEDGER: ledger }) });
    assert.equal(r.code, 0);
    assert.equal(r.stdout.trim().split('\n').length, 1);
    assert.match(r.stderr, /ledger line 2 skipped \(torn last line\)/);
  });

  it('without JEV_LEDGER the ledger commands exit 2 with a hint', async () => {
    const r = await jevcp(['ledger', 'show']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /set JEV_LEDGER/);
  });
});
