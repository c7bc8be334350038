/**
 * What a first-time user meets in the CLI: doctor with the mock judge, per-call thresholds below the floor,
 * blocked ports, ledger reading without a provider, subcommand help and argument errors, and the hook's
 * evidence command. Needs `npm run build`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cleanEnv, jevcp } from './mcp-fixtures';

const DIR = mkdtempSync(join(tmpdir(), 'jev-newuser-'));
after(() => rmSync(DIR, { recursive: true, force: true }));

/** Writes a request file into the test folder and returns its path. */
function requestFile(name: string, body: unknown): string {
  const path = join(DIR, name);
  writeFileSync(path, JSON.stringify(body));
  return path;
}

const GATE = { tool: 'jev_gate', request: 'r', diff: '+x', tests: 'ok', claims: ['a'], evidence: [{ id: 'e', text: 't' }] };

describe('jevcp doctor with the mock judge', () => {
  it('is not ready for real judgments (exit 2, "no judgment backend"), says the mock is not a judge and how to configure one', async () => {
    const text = await jevcp(['doctor']);
    assert.equal(text.code, 2, text.stderr);
    assert.match(text.stdout, /ping +jev-latest\+mock/, 'the mock still answers the ping');
    assert.match(text.stdout, /error +CONFIG_ERROR: no judgment backend: only the mock judge is configured, and the mock is not a judge .*Configure one: JEV_API_KEY=… \(TypeSafe\), or JEV_BASE_URL=/);
    assert.match(text.stdout, /judge +mock — advisory only.*`jevcp gate` and `jevcp hook install` need a backend .* or --allow-mock/);
    assert.match(text.stdout, /\nnot ready for real judgments \(the mock is not a judge\)\n$/);
    const json = await jevcp(['doctor', '--json']);
    assert.equal(json.code, 2);
    const report = JSON.parse(json.stdout);
    assert.equal(report.ready, false);
    assert.equal(report.judge, 'mock');
    assert.equal(report.real_judge, false);
    assert.equal(report.error.code, 'CONFIG_ERROR');
    assert.equal(report.api_key_ignored, undefined);
  });

  it('JEV_MOCK with a key set says the key is ignored', async () => {
    const env = cleanEnv({ JEV_MOCK: '1', JEV_API_KEY: 'sk-doctor-ignored-1234' });
    const text = await jevcp(['doctor'], { env });
    assert.match(text.stdout, /api key +set, but IGNORED \(JEV_MOCK=1 forces the mock judge\)/);
    assert.ok(!text.stdout.includes('sk-doctor-ignored-1234'));
    const report = JSON.parse((await jevcp(['doctor', '--json'], { env })).stdout);
    assert.equal(report.api_key_ignored, true);
    assert.equal(report.judge, 'mock');
  });
});

describe('per-call thresholds below the floor', () => {
  const NOTE = /requested auto_accept 0\.1 is below the configured floor 0\.8 \(JEV_AUTO_ACCEPT\); the floor applies/;

  it('text output notes the floor that applied', async () => {
    const r = await jevcp(['step', requestFile('low.jev.json', { ...GATE, auto_accept: 0.1 })]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /thresholds +auto_accept 0\.80/);
    assert.match(r.stdout, new RegExp(`note +${NOTE.source}`));
  });

  it('--json keeps stdout the result and puts the note on stderr', async () => {
    const r = await jevcp(['step', requestFile('low.jev.json', { ...GATE, auto_accept: 0.1 }), '--json']);
    assert.equal(JSON.parse(r.stdout).verification.thresholds.auto_accept, 0.8);
    assert.match(r.stderr, new RegExp(`jevcp: note: ${NOTE.source}`));
  });

  it('a value at or above the floor gets no note', async () => {
    const r = await jevcp(['step', requestFile('high.jev.json', { ...GATE, auto_accept: 0.9 })]);
    assert.doesNotMatch(r.stdout, /note /);
  });
});

describe('a base URL on a blocked port', () => {
  it('doctor reports CONFIG_ERROR (exit 2) naming JEV_BASE_URL', async () => {
    const r = await jevcp(['doctor'], { env: cleanEnv({ JEV_BASE_URL: 'http://127.0.0.1:9' }) });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stdout, /error +CONFIG_ERROR: JEV_BASE_URL uses port 9, which fetch refuses/);
  });
});

describe('ledger reading needs no provider configuration', () => {
  it('show and replay work with JEV_PROVIDER=openai and no JEV_BASE_URL', async () => {
    const ledger = join(DIR, 'ledger.jsonl');
    const made = await jevcp(['step', requestFile('rec.jev.json', GATE)], { env: cleanEnv({ JEV_LEDGER: ledger }) });
    assert.equal(made.code, 0, made.stderr);
    const env = cleanEnv({ JEV_LEDGER: ledger, JEV_PROVIDER: 'openai' });
    const show = await jevcp(['ledger', 'show', '--json'], { env });
    assert.equal(show.code, 0, show.stderr);
    assert.doesNotMatch(show.stderr, /CONFIG_ERROR/);
    const replay = await jevcp(['ledger', 'replay', '--last', '--auto-accept', '0.9'], { env });
    assert.equal(replay.code, 0, replay.stderr);
    assert.match(replay.stdout, /auto_accept 0\.90/);
    // Commands that do call a provider still refuse the incomplete configuration.
    const step = await jevcp(['step', requestFile('rec.jev.json', GATE)], { env });
    assert.equal(step.code, 2);
    assert.match(step.stderr, /JEV_PROVIDER=openai needs JEV_BASE_URL/);
  });
});

describe('subcommand help and argument errors', () => {
  it('jevcp COMMAND --help prints that command\'s usage and exits 0', async () => {
    for (const name of ['step', 'gate', 'hook', 'doctor', 'ledger', 'call', 'servers', 'serve']) {
      const r = await jevcp([name, '--help']);
      assert.equal(r.code, 0, `${name}: ${r.stderr}`);
      assert.match(r.stdout, new RegExp(`^Usage:\n  jevcp ${name} `), name);
      assert.equal(r.stderr, '', name);
    }
    assert.match((await jevcp(['ledger', 'replay', '-h'])).stdout, /jevcp ledger replay \[--id ID/);
    assert.match((await jevcp(['help', 'gate'])).stdout, /^Usage:\n {2}jevcp gate --staged/);
  });

  it('a parseArgs error reads as one clean sentence with where to find the usage', async () => {
    const r = await jevcp(['step', '--bogus', 'x.jev.json']);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, "jevcp: INVALID_INPUT: step: Unknown option '--bogus'. See `jevcp step --help`.\n");
  });

  it('an empty file argument says so, not EISDIR', async () => {
    const step = await jevcp(['step', '']);
    assert.equal(step.code, 2);
    assert.match(step.stderr, /step: the request file argument is empty/);
    assert.doesNotMatch(step.stderr, /EISDIR/);
    const agent = await jevcp(['step', '', '--agent', 'coder']);
    assert.match(agent.stderr, /step: the request file argument is empty/);
    const call = await jevcp(['call', 'jev_step', '--input', '']);
    assert.match(call.stderr, /call: --input is empty/);
  });
});

describe('hook install keeps the evidence command', () => {
  it('a reinstall without --evidence-cmd keeps it, status shows it, --no-evidence-cmd drops it', async () => {
    const repo = join(DIR, 'repo');
    mkdirSync(repo);
    // No global or system git configuration (a global core.hooksPath would need --shared); no editor sessions.
    const env = cleanEnv({ GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', JEV_STATE_DIR: join(DIR, 'state') });
    assert.equal(spawnSync('git', ['init', '-q', repo], { env }).status, 0);
    const hook = (...args: string[]) => jevcp(['hook', ...args, '--repo', repo], { env });
    const hookFile = join(repo, '.git', 'hooks', 'commit-msg');

    assert.equal((await hook('install', '--allow-mock', '--evidence-cmd', "npm test -- --grep 'parse'")).code, 0);
    const again = await hook('install', '--allow-mock');
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /kept the hook's evidence command "npm test -- --grep 'parse'"/);
    assert.match(again.stdout, /evidence +npm test -- --grep 'parse' \(--evidence-cmd\)/);
    assert.match(readFileSync(hookFile, 'utf8'), /--evidence-cmd 'npm test -- --grep '\\''parse'\\'''/);

    const status = await hook('status');
    assert.match(status.stdout, /evidence +npm test -- --grep 'parse'\n/);
    assert.equal(JSON.parse((await hook('status', '--json')).stdout).evidenceCommand, "npm test -- --grep 'parse'");

    assert.equal((await hook('install', '--allow-mock', '--no-evidence-cmd')).code, 0);
    assert.doesNotMatch(readFileSync(hookFile, 'utf8'), /--evidence-cmd/);
    assert.equal(JSON.parse((await hook('status', '--json')).stdout).evidenceCommand, null);
    assert.match((await hook('status')).stdout, /evidence +none\n/);

    const both = await hook('install', '--allow-mock', '--no-evidence-cmd', '--evidence-cmd', 'x');
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--evidence-cmd CMD or --no-evidence-cmd, not both/);
  });
});

describe('jevcp servers --config: grants of the judgment tools', () => {
  it('jev_* matches the judgment tools: no warning, and they are listed as the agent\'s tools', async () => {
    const config = join(DIR, 'grants.json');
    writeFileSync(config, JSON.stringify({ agents: [{ name: 'coder', tools: ['jev_*', '!jev_rank', 'jev_stepp'] }] }));
    const r = await jevcp(['servers', '--config', config, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { agents: { name: string; allowed: string[] }[]; warnings: string[] };
    assert.deepEqual(out.warnings, ['agent "coder": grant "jev_stepp" matches no known tool'], 'only the typo warns');
    assert.ok(out.agents[0]!.allowed.includes('jev_step'));
    assert.ok(!out.agents[0]!.allowed.includes('jev_rank'), 'the denied one is not listed');
    assert.doesNotMatch(r.stderr, /"jev_\*"/);
  });
});
