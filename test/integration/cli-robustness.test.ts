/**
 * `jevcp` robustness, end to end with the built dist/cli.js: closed output pipes, file errors, deep JSON,
 * exit codes, ledger write failures, evidence commands with background processes, terminal escapes in
 * human output, and `--json` errors.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { capture } from '../helpers/processes';
import { noLogprobsCompletion, startFakeOpenAi } from '../helpers/fake-openai';
import { startFakeSystemOne } from '../helpers/fake-systemone';
import { CLI, cleanEnv, ensureBuilt, ROOT, jevcp, type Run } from './mcp-fixtures';

/** Runs `script` in bash (for pipelines); the shell function `J` runs the CLI. */
function sh(script: string, env: Record<string, string> = cleanEnv()): Promise<Run> {
  return capture('bash', ['-c', `J() { "$NODE_BIN" "$CLI_JS" "$@"; }\n${script}`], { cwd: ROOT, env: { ...env, NODE_BIN: process.execPath, CLI_JS: CLI } });
}

const EXAMPLE = join(ROOT, 'examples', 'parser-fix.jev.json');

let dir: string;
/** A ledger with many real records (well beyond a pipe buffer as JSON). */
let bigLedger: string;
before(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'jevcp-robust-'));
  const seed = join(dir, 'seed.jsonl');
  const r = await jevcp(['step', EXAMPLE], { env: cleanEnv({ JEV_LEDGER: seed }) });
  assert.equal(r.code, 0, r.stderr);
  const line = readFileSync(seed, 'utf8').trim();
  const record = JSON.parse(line) as { id: string };
  bigLedger = join(dir, 'big.jsonl');
  const lines: string[] = [];
  for (let i = 0; i < 400; i++) lines.push(JSON.stringify({ ...record, id: `${record.id.slice(0, 28)}${String(i).padStart(8, '0')}` }));
  writeFileSync(bigLedger, `${lines.join('\n')}\n`);
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('closed output pipes (EPIPE)', () => {
  it('ledger show --json | head -c 10: quiet, exit code of the command (0)', async () => {
    const r = await sh(`J ledger show --json --file ${JSON.stringify(bigLedger)} | head -c 10 >/dev/null; echo "rc=\${PIPESTATUS[0]}" >&2`);
    assert.doesNotMatch(r.stderr, /EPIPE|Unhandled|node:events/, r.stderr);
    assert.match(r.stderr, /^rc=0$/m);
  });

  it('step | a reader that exits at once: quiet, exit 0; errors keep their exit code', async () => {
    const ok = await sh(`J step ${JSON.stringify(EXAMPLE)} 2>&1 | true; echo "rc=\${PIPESTATUS[0]}" >&2`);
    assert.doesNotMatch(ok.stderr, /EPIPE|Unhandled|node:events/, ok.stderr);
    assert.match(ok.stderr, /^rc=0$/m);
    const bad = await sh(`J step /nonexistent.jev.json 2>&1 | true; echo "rc=\${PIPESTATUS[0]}" >&2`);
    assert.doesNotMatch(bad.stderr, /EPIPE|Unhandled|node:events/, bad.stderr);
    assert.match(bad.stderr, /^rc=2$/m);
  });
});

describe('file errors are bad arguments (exit 2), never provider failures', () => {
  it('ledger show --file: a directory and a missing file name the path and the reason', async () => {
    const isDir = await jevcp(['ledger', 'show', '--file', dir]);
    assert.equal(isDir.code, 2, isDir.stderr);
    assert.equal(isDir.stderr, `jevcp: INVALID_INPUT: ledger: cannot read --file ${dir} (EISDIR: is a directory).\n`);
    const missing = await jevcp(['ledger', 'show', '--file', join(dir, 'nope.jsonl')]);
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /cannot read --file .*nope\.jsonl \(ENOENT: does not exist\)/);
    assert.equal(missing.stdout, '');
  });

  it('a JEV_LEDGER file not written yet holds no decisions (exit 0); a JEV_LEDGER directory is a configuration error', async () => {
    const fresh = await jevcp(['ledger', 'show'], { env: cleanEnv({ JEV_LEDGER: join(dir, 'fresh', 'l.jsonl') }) });
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.match(fresh.stdout, /^no decisions recorded yet: .*l\.jsonl does not exist/);
    const isDir = await jevcp(['ledger', 'show'], { env: cleanEnv({ JEV_LEDGER: dir }) });
    assert.equal(isDir.code, 2);
    assert.match(isDir.stderr, /CONFIG_ERROR: ledger: cannot read JEV_LEDGER .* \(EISDIR: is a directory\)/);
  });

  it('gate --evidence-cmd "" is refused (exit 2) before anything runs', async () => {
    const r = await jevcp(['gate', '--staged', '--evidence-cmd', ''], { cwd: dir });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /INVALID_INPUT: gate: --evidence-cmd: must not be empty/);
    assert.doesNotMatch(r.stderr, /API_ERROR/);
  });

  it('call --input DIR names the path and the reason', async () => {
    const r = await jevcp(['call', 'jev_screen', '--input', dir]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /cannot read .* \(EISDIR: is a directory\)/);
  });
});

describe('--json: command-level errors are JSON on stdout too', () => {
  it('missing file, unknown tool, no ledger, unknown command, gate outside a repository', async () => {
    const cases: [string[], string, RegExp][] = [
      [['step', join(dir, 'nope.jev.json'), '--json'], 'INVALID_INPUT', /cannot read .*nope\.jev\.json/],
      [['call', 'jev_nope', '--input', '-', '--json'], 'INVALID_INPUT', /unknown tool "jev_nope"/],
      [['ledger', 'show', '--json'], 'CONFIG_ERROR', /set JEV_LEDGER/],
      [['frobnicate', '--json'], 'INVALID_INPUT', /unknown command "frobnicate"/],
      [['gate', '--staged', '--json'], 'CONFIG_ERROR', /not inside a git work tree/],
    ];
    for (const [args, code, message] of cases) {
      const r = await jevcp(args, { cwd: dir, input: '{}' });
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      const out = JSON.parse(r.stdout) as { error: { code: string; message: string; retryable: boolean } };
      assert.equal(out.error.code, code, args.join(' '));
      assert.match(out.error.message, message);
      assert.equal(out.error.retryable, false);
      assert.match(r.stderr, new RegExp(`jevcp: ${code}|unknown command`), 'the diagnostic still goes to stderr');
    }
  });
});

describe('deeply nested request files', () => {
  it('step FILE with 10 000 levels → INVALID_INPUT (exit 2) with a short path, not API_ERROR', async () => {
    const base = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as Record<string, unknown>;
    const file = join(dir, 'deep.jev.json');
    writeFileSync(file, JSON.stringify({ ...base, extras: '@@' }).replace('"@@"', `${'['.repeat(10_000)}${']'.repeat(10_000)}`));
    const r = await jevcp(['step', file]);
    assert.equal(r.code, 2, r.stderr);
    const line = r.stderr.split('\n').find((l) => l.includes('jev_step failed'));
    assert.ok(line, r.stderr);
    assert.match(line, /INVALID_INPUT: extras\[0\]\[0\].*: nested deeper than 64 levels/);
    assert.ok(line.length < 400, `short message: ${line.length} characters`);
  });
});

describe('exit codes of configuration problems found late, and of replays that cannot be', () => {
  it('doctor: a key no HTTP header can carry is a configuration error (exit 2, not 3)', async () => {
    const r = await jevcp(['doctor'], { env: cleanEnv({ JEV_API_KEY: 'abc\ndef-key-1234', JEV_BASE_URL: 'http://127.0.0.1:8' }) });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stdout, /error +CONFIG_ERROR: JEV_API_KEY/);
    assert.match(r.stdout, /not ready/);
  });

  it('doctor: an OpenAI endpoint without logprobs is a configuration error (exit 2)', async () => {
    const fake = await startFakeOpenAi({ responder: () => noLogprobsCompletion() });
    try {
      const r = await jevcp(['doctor', '--json'], { env: cleanEnv({ JEV_PROVIDER: 'openai', JEV_BASE_URL: `${fake.url}/v1`, JEV_MODEL: 'm', JEV_TIMEOUT_MS: '5000' }) });
      assert.equal(r.code, 2, r.stdout + r.stderr);
      const report = JSON.parse(r.stdout) as { ready: boolean; error?: { code: string } };
      assert.equal(report.ready, false);
      assert.equal(report.error?.code, 'CONFIG_ERROR');
    } finally {
      await fake.close();
    }
  });

  it('ledger replay: a --block-at the configuration would refuse is exit 2 before anything is replayed', async () => {
    const r = await jevcp(['ledger', 'replay', '--file', bigLedger, '--block-at', '0.1']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--block-at must be at least 0\.25/);
    assert.equal(r.stdout, '');
  });

  it('ledger replay: thresholds that make the recorded request invalid are exit 2, not "the decision CHANGES"', async () => {
    const ledger = join(dir, 'review.jsonl');
    const request = join(dir, 'review.jev.json');
    writeFileSync(request, JSON.stringify({ task: 't', observation: 'o', review_at: 0.6 }));
    assert.equal((await jevcp(['step', request], { env: cleanEnv({ JEV_LEDGER: ledger }) })).code, 0);
    const r = await jevcp(['ledger', 'replay', '--file', ledger, '--auto-accept', '0.55', '--review-at', '0.5']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /these thresholds make the recorded jev_step request invalid/);
    assert.doesNotMatch(r.stdout, /CHANGES/);
  });

  it('ledger replay of a call that failed before any judgment explains there is nothing to replay (exit 2)', async () => {
    const ledger = join(dir, 'failed.jsonl');
    const request = join(dir, 'failed.jev.json');
    writeFileSync(request, JSON.stringify({ task: 't', observation: 'o', auto_accept: 0.2, review_at: 0.9 }));
    assert.equal((await jevcp(['step', request], { env: cleanEnv({ JEV_LEDGER: ledger }) })).code, 2);
    const r = await jevcp(['ledger', 'replay', '--file', ledger]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /failed before any judgment \(INVALID_INPUT: .*\); there are no answers to replay/);
    assert.doesNotMatch(r.stdout, /CHANGES|decision/);
  });
});

/** True when /dev/full exists, is writable here and is already 0600-narrow (opening it changes nothing). */
function devFullUsable(): boolean {
  try {
    accessSync('/dev/full', constants.W_OK);
    return (statSync('/dev/full').mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** Speaks raw newline-delimited JSON-RPC to `jevcp serve`, waiting for each response before the next request. */
async function rawServe(env: Record<string, string>, lines: string[]): Promise<{ replies: unknown[]; stderr: string; code: number | null }> {
  const child = spawn(process.execPath, [CLI, 'serve'], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  let buffered = '';
  const replies: unknown[] = [];
  const waiting: Array<() => void> = [];
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  child.stdout.on('data', (c: Buffer) => {
    buffered += c.toString('utf8');
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      replies.push(JSON.parse(buffered.slice(0, nl)));
      buffered = buffered.slice(nl + 1);
      waiting.shift()?.();
    }
  });
  for (const line of lines) {
    const expectsReply = /"id":/.test(line.slice(0, 40));
    const replied = expectsReply ? new Promise<void>((r) => waiting.push(r)) : Promise.resolve();
    child.stdin.write(`${line}\n`);
    await replied;
  }
  child.stdin.end();
  const code = await new Promise<number | null>((r) => child.on('close', r));
  return { replies, stderr, code };
}

describe('ledger write failures are visible', () => {
  it('doctor with a JEV_LEDGER directory: not ready, exit 2, names the reason', async () => {
    const r = await jevcp(['doctor'], { env: cleanEnv({ JEV_LEDGER: dir }) });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stdout, /ledger +.* — CANNOT BE WRITTEN \(EISDIR: is a directory\)/);
    assert.match(r.stdout, /\nnot ready\n$/);
    // With the mock doctor is never ready (no judgment backend), but the ledger is no longer the reason.
    const ok = await jevcp(['doctor', '--json'], { env: cleanEnv({ JEV_LEDGER: join(dir, 'new', 'sub', 'l.jsonl') }) });
    const report = JSON.parse(ok.stdout);
    assert.equal(report.ledger_problem, undefined, 'a ledger that does not exist yet but can be created is fine');
    assert.match(report.error.message, /^no judgment backend: only the mock judge/);
    assert.deepEqual(readdirSync(dir).filter((n) => n.includes('probe')), [], 'the check leaves nothing behind');
  });

  it('doctor tries the ledger\'s folder for real: one that takes no new entries (/proc) is not ready, whoever runs it', { skip: !existsSync('/proc/self') && 'needs /proc' }, async () => {
    const r = await jevcp(['doctor', '--json'], { env: cleanEnv({ JEV_LEDGER: '/proc/jev/ledger.jsonl' }) });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(JSON.parse(r.stdout).ledger_problem, /^\/proc: takes no new entries/);
  });

  it('JEV_LEDGER=/dev/full: the judgment stands (exit 0) and one stderr line says the record was not written', { skip: !devFullUsable() && 'needs a writable, already 0600 /dev/full' }, async () => {
    const r = await jevcp(['step', EXAMPLE], { env: cleanEnv({ JEV_LEDGER: '/dev/full' }) });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^jev_step — model/);
    assert.match(r.stderr, /^jevcp: could not write the ledger \(\/dev\/full\): ENOSPC: no space left on the device$/m);
  });

  it('a call refused for deep nesting is still recorded (CLI step and MCP over stdio), with a placeholder input', async () => {
    const ledger = join(dir, 'deep.jsonl');
    const deep = `{"task":"t","observation":"o","extras":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const file = join(dir, 'deep-ledger.jev.json');
    writeFileSync(file, deep);
    const step = await jevcp(['step', file], { env: cleanEnv({ JEV_LEDGER: ledger }) });
    assert.equal(step.code, 2, step.stderr);
    assert.doesNotMatch(step.stderr, /could not write the ledger/);

    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } });
    const call = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"jev_step","arguments":${deep}}}`;
    const served = await rawServe(cleanEnv({ JEV_LEDGER: ledger }), [init, '{"jsonrpc":"2.0","method":"notifications/initialized"}', call]);
    assert.equal(served.code, 0, served.stderr);
    const reply = served.replies.find((m) => (m as { id?: number }).id === 2) as { result?: { isError?: boolean; content?: { text: string }[] } };
    assert.equal(reply.result?.isError, true);
    assert.match(reply.result?.content?.[0]?.text ?? '', /INVALID_INPUT|nested deeper than 64 levels/);

    const records = readFileSync(ledger, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { agent: string; error?: { code: string; message: string }; input: unknown });
    assert.deepEqual(records.map((r) => r.agent), ['cli', 'mcp']);
    for (const r of records) {
      assert.equal(r.error?.code, 'INVALID_INPUT');
      assert.match(r.error?.message ?? '', /nested deeper than 64 levels/);
      assert.match(JSON.stringify(r.input), /not_recorded/);
    }
  });
});

describe('terminal controls in human output', () => {
  it('gate --claim with ESC: human output escapes it (\\x1b), --json keeps the exact claim', async () => {
    const repo = join(dir, 'escapes-repo');
    mkdirSync(repo, { recursive: true });
    const git = (...args: string[]) => {
      const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', '-c', 'core.hooksPath=', ...args], { cwd: repo, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
    };
    writeFileSync(join(repo, 'a.txt'), 'one\n');
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '--no-verify', '-m', 'init');
    writeFileSync(join(repo, 'a.txt'), 'one\ntwo\n');
    git('add', 'a.txt');
    const claim = '\u001b[31mRED\u009b2J';
    const human = await jevcp(['gate', '--staged', '--allow-mock', '--claim', claim], { cwd: repo });
    assert.equal(human.code, 0, human.stderr);
    assert.doesNotMatch(human.stdout + human.stderr, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, 'no raw control character is printed');
    assert.match(human.stdout, /\\x1b\[31mRED\\x9b2J/);
    const json = await jevcp(['gate', '--staged', '--allow-mock', '--claim', claim, '--json'], { cwd: repo });
    const result = JSON.parse(json.stdout) as { verification: { results: { claim: string }[] }; gate: { ending: string; advisory: boolean; commit_allowed: boolean } };
    assert.equal(result.verification.results[0]?.claim, claim);
    assert.deepEqual([result.gate.ending, result.gate.advisory, result.gate.commit_allowed], ['advisory', true, true], 'the mock judge is said to be advisory in --json too');
  });

  it('error messages naming a file with controls are escaped too', async () => {
    const r = await jevcp(['step', join(dir, 'no\u001b[2Jsuch.jev.json')]);
    assert.equal(r.code, 2);
    assert.doesNotMatch(r.stderr, /\u001b/);
    assert.match(r.stderr, /no\\x1b\[2Jsuch\.jev\.json/);
  });
});

describe('small messages', () => {
  it('step FILE --execute without --agent says --execute needs --agent NAME', async () => {
    const r = await jevcp(['step', EXAMPLE, '--execute']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /step: --execute needs --agent NAME/);
    assert.doesNotMatch(r.stderr, /Unknown option/);
  });

  it('hook install --evidence-cmd "" names the option, not an internal field', async () => {
    const r = await jevcp(['hook', 'install', '--repo', dir, '--evidence-cmd', '']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /hook: --evidence-cmd: must not be empty/);
    assert.doesNotMatch(r.stderr, /evidenceCommand/);
  });

  it('a spend cap reached in a one-shot command adds a hint that the cap is per command', async () => {
    const fake = await startFakeSystemOne();
    try {
      fake.script({ status: 503 });
      const r = await jevcp(['call', 'jev_screen', '--input', '-'], { env: cleanEnv({ JEV_BASE_URL: fake.url, JEV_API_KEY: 'sk-robust-test-0000', JEV_SPEND_CAP: '1', JEV_TIMEOUT_MS: '5000' }), input: '{"text":"x"}' });
      assert.equal(r.code, 3, r.stderr);
      assert.match(r.stderr, /Spend cap reached/);
      assert.match(r.stderr, /\(each jevcp command is a new process: JEV_SPEND_CAP applies per command\)/);
    } finally {
      await fake.close();
    }
  });
});
