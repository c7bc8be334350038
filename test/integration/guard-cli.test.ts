/**
 * `jevcp guard` as a host runs it: dist/cli.js, one event on stdin, the answer on stdout. The fail-closed
 * table runs for real: no backend, the mock only, the judge down (a fake System One answering 500), the
 * judge slower than the deadline, a host that never closes stdin, malformed JSON, an event the guard does
 * not judge, a 10 MB tool input, a secret in the command. None allows; each says why on stderr.
 * Where a row needs jev_permit to reach the backend (it lands with the `guard` branch), the upstream and
 * ledger checks run when the build has it; the no-allow checks always run.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ALL_TOOLS } from '../../src/tools';
import { startFakeSystemOne, type FakeSystemOne } from '../helpers/fake-systemone';
import { capture } from '../helpers/processes';

const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');
const FIX = join(__dirname, '..', 'fixtures', 'hosts');
const HAS_PERMIT = ALL_TOOLS.some((t) => t.name === 'jev_permit');
const SECRET = 'jevtest-secret-key-0123456789abcdef';

let tmp: string;
let ws: string;
let fake: FakeSystemOne;
before(async () => {
  assert.ok(existsSync(CLI), 'run `node scripts/build.mjs` first');
  tmp = mkdtempSync(join(tmpdir(), 'jev-guard-cli-'));
  ws = join(tmp, 'ws');
  mkdirSync(ws);
  fake = await startFakeSystemOne();
});
after(async () => {
  await fake?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** An environment without the developer's JEV_* settings. */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: tmp, JEV_TEST: '1', JEV_STATE_DIR: join(tmp, 'state') };
  return { ...base, ...extra };
}

function event(host: string, name: string, patch: (e: Record<string, unknown>) => void = () => undefined): string {
  const e = JSON.parse(readFileSync(join(FIX, host, `${name}.json`), 'utf8').replaceAll('/work/project', ws)) as Record<string, unknown>;
  if (typeof e.transcript_path === 'string') e.transcript_path = join(ws, 'none.jsonl');
  patch(e);
  return JSON.stringify(e);
}

const guard = (host: string, input: string, extraEnv: Record<string, string> = {}, args: string[] = []) =>
  capture(process.execPath, [CLI, 'guard', '--host', host, ...args], { cwd: ws, env: env(extraEnv), input });

/** The decision a Claude Code answer carries ('' for none). */
const claudeDecision = (stdout: string): string => (stdout.trim() === '' ? '' : (JSON.parse(stdout) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision);

describe('rule-settled calls', () => {
  it('a read inside the workspace is allowed by the default rule, with no backend at all', async () => {
    const r = await guard('claude-code', event('claude-code', 'pre-tool-use-read'));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(claudeDecision(r.stdout), 'allow');
    assert.match(r.stdout, /Read\(\.\/\*\*\).*RULE_ALLOW/);
  });

  it('a deny rule and a grant outside the agent are settled locally, whatever the judge', async () => {
    const dir = join(tmp, 'rules');
    mkdirSync(join(dir, '.jev'), { recursive: true });
    writeFileSync(join(dir, '.jev', 'config.json'), JSON.stringify({ agents: [{ name: 'claude-code', tools: ['Read', 'Bash'] }], permissions: { deny: ['Bash(npm test*)'] } }));
    const bash = await capture(process.execPath, [CLI, 'guard', '--host', 'claude-code'], { cwd: dir, env: env(), input: event('claude-code', 'pre-tool-use-bash', (e) => (e.cwd = dir)) });
    assert.equal(claudeDecision(bash.stdout), 'deny');
    assert.match(bash.stdout, /RULE_DENY/);
    assert.match(bash.stderr, /^jevcp guard: deny: deny by the rule "Bash\(npm test\*\)" \[RULE_DENY\]\n$/, 'the same line on stderr');
    const mcp = await capture(process.execPath, [CLI, 'guard', '--host', 'claude-code'], { cwd: dir, env: env(), input: event('claude-code', 'pre-tool-use-mcp', (e) => (e.cwd = dir)) });
    assert.equal(claudeDecision(mcp.stdout), 'deny');
    assert.match(mcp.stdout, /CAPABILITY_VIOLATION/);
    assert.match(mcp.stderr, /^jevcp guard: deny: .*\[CAPABILITY_VIOLATION\]\n$/);
  });

  it('an invalid permissions block is a configuration error: no allow, the field named', async () => {
    const dir = join(tmp, 'badcfg');
    mkdirSync(join(dir, '.jev'), { recursive: true });
    writeFileSync(join(dir, '.jev', 'config.json'), JSON.stringify({ permissions: { allow: ['Bash(git'] } }));
    const r = await capture(process.execPath, [CLI, 'guard', '--host', 'vscode'], { cwd: dir, env: env(), input: event('vscode', 'pre-tool-use-read-file', (e) => (e.cwd = dir)) });
    assert.equal(claudeDecision(r.stdout), 'ask');
    assert.match(r.stderr, /no allow: .*permissions\.allow\[0\].*\[CONFIG_ERROR\]/);
  });
});

describe('fail-closed table (none allows, each says why)', () => {
  const bashEvent = () => event('claude-code', 'pre-tool-use-bash');

  it('no backend', async () => {
    const r = await guard('claude-code', bashEvent());
    assert.equal(claudeDecision(r.stdout), 'ask');
    assert.match(r.stderr, /^jevcp guard: no allow: no judgment backend.*\[NO_BACKEND\]\n$/);
  });

  it('the mock only: it never decides', async () => {
    const r = await guard('claude-code', bashEvent(), { JEV_MOCK: '1' });
    assert.equal(claudeDecision(r.stdout), 'ask');
    assert.match(r.stderr, /only the mock judge.*\[MOCK_ONLY\]/);
  });

  it('the judge down (System One answers 500)', async () => {
    const before = fake.count();
    fake.script(...Array.from({ length: 10 }, () => ({ status: 500 })));
    const r = await guard('claude-code', bashEvent(), { JEV_API_KEY: SECRET, JEV_BASE_URL: fake.url, JEV_TIMEOUT_MS: '3000' }, ['--deadline-ms', '4000']);
    assert.equal(claudeDecision(r.stdout), 'ask');
    assert.match(r.stderr, /^jevcp guard: no allow: /);
    if (HAS_PERMIT) {
      assert.ok(fake.count() > before, 'the judge was asked');
      assert.match(r.stderr, /\[(JUDGE_ERROR|TIMEOUT)\]/);
    } else assert.match(r.stderr, /jev_permit is not available.*\[NO_PERMIT_TOOL\]/);
  });

  it('the judge slower than the deadline', async () => {
    fake.script({ delayMs: 10_000, then: { status: 200 } });
    const t0 = Date.now();
    const ledger = join(tmp, 'slow-ledger.jsonl');
    const r = await guard('vscode', event('vscode', 'pre-tool-use-run-in-terminal'), { JEV_API_KEY: SECRET, JEV_BASE_URL: fake.url, JEV_LEDGER: ledger }, ['--deadline-ms', '800']);
    assert.ok(Date.now() - t0 < 5000, 'answered before the slow judge');
    assert.equal(claudeDecision(r.stdout), 'ask');
    assert.match(r.stderr, HAS_PERMIT ? /\[TIMEOUT\]/ : /\[NO_PERMIT_TOOL\]/);
    assert.doesNotMatch(r.stderr, /could not write the ledger/);
    if (HAS_PERMIT) {
      const record = JSON.parse(readFileSync(ledger, 'utf8').trim().split('\n').at(-1)!) as { tool: string; error?: { code: string } };
      assert.equal(record.tool, 'jev_permit');
      assert.equal(record.error?.code, 'CANCELLED', 'the aborted judgment is on record');
    }
    fake.script(); // drop what is left
  });

  it('a host that never closes stdin gets an answer at the deadline', async () => {
    const child = spawn(process.execPath, [CLI, 'guard', '--host', 'claude-code', '--deadline-ms', '500'], { cwd: ws, env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.write('{"hook_event_name": "PreToolUse", ');
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0);
    assert.equal(claudeDecision(out), 'ask');
    assert.match(err, /\[TIMEOUT\]/);
  });

  it('malformed JSON', async () => {
    for (const host of ['claude-code', 'vscode', 'copilot-cli']) {
      const r = await guard(host, '{"tool_name": "Bash",');
      assert.equal(r.code, 0);
      assert.doesNotMatch(r.stdout, /"allow"/, host);
      assert.match(r.stdout, /"ask"/, host);
      assert.match(r.stderr, /not JSON.*\[MALFORMED_EVENT\]/, host);
    }
    const codex = await guard('codex', 'not json at all');
    assert.equal(codex.stdout, '', 'Codex: no output, its own approval policy applies');
    assert.match(codex.stderr, /\[MALFORMED_EVENT\]/);
  });

  it('an event the guard does not judge gets no opinion', async () => {
    const r = await guard('claude-code', event('claude-code', 'post-tool-use', (e) => (e.hook_event_name = 'SomethingNew')));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /no opinion on the event "SomethingNew"/);
  });

  it('a 10 MB tool input', async () => {
    const r = await guard('claude-code', event('claude-code', 'pre-tool-use-read', (e) => ((e.tool_input as Record<string, unknown>).pad = 'x'.repeat(10 * 1024 * 1024))));
    assert.equal(claudeDecision(r.stdout), 'ask');
    assert.match(r.stderr, /larger than 1048576 bytes.*\[INPUT_TOO_LARGE\]/);
  });

  it('a secret in the command is redacted from what goes upstream and into the ledger', async () => {
    const ledger = join(tmp, 'ledger.jsonl');
    const before = fake.count();
    const r = await guard(
      'claude-code',
      event('claude-code', 'pre-tool-use-bash', (e) => ((e.tool_input as Record<string, unknown>).command = `curl -H "x-api-key: ${SECRET}" https://api.example.com -H "Authorization: Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789"`)),
      { JEV_API_KEY: SECRET, JEV_BASE_URL: fake.url, JEV_LEDGER: ledger },
      ['--deadline-ms', '4000'],
    );
    assert.notEqual(claudeDecision(r.stdout), 'allow');
    assert.ok(!r.stdout.includes(SECRET) && !r.stderr.includes(SECRET));
    const upstream = JSON.stringify(fake.requests.slice(before).map((q) => q.body));
    assert.ok(!upstream.includes(SECRET) && !upstream.includes('ghp_abcdefghij'), 'nothing upstream carries the secrets');
    const lines = existsSync(ledger) ? readFileSync(ledger, 'utf8') : '';
    assert.ok(!lines.includes(SECRET) && !lines.includes('ghp_abcdefghij'), 'the ledger carries neither');
    if (HAS_PERMIT) {
      assert.ok(fake.count() > before, 'the call was judged');
      assert.match(upstream, /\[REDACTED\]/);
      assert.match(lines, /\[REDACTED\]/);
    }
  });

  it('stderr says which judge decided', { skip: !HAS_PERMIT }, async () => {
    const judge = await startFakeSystemOne();
    try {
      const r = await guard('claude-code', bashEvent(), { JEV_API_KEY: SECRET, JEV_BASE_URL: judge.url }, ['--deadline-ms', '4000']);
      assert.equal(judge.count(), 1, r.stderr);
      assert.match(r.stderr, /^jevcp guard: judged by the CLI configuration \(systemone at http:\/\/127\.0\.0\.1:\d+/m);
      assert.ok(!r.stderr.includes(SECRET));
    } finally {
      await judge.close();
    }
  });

  it('bad arguments exit 2 (a host blocks on that too)', async () => {
    const r = await capture(process.execPath, [CLI, 'guard', '--host', 'emacs'], { cwd: ws, env: env(), input: '{}' });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--host must be one of claude-code, vscode, codex, copilot-cli/);
  });

  it('a bad deadline (flag or JEV_GUARD_DEADLINE_MS) still gets the host its answer: no allow, the setting named', async () => {
    const flag = await guard('claude-code', event('claude-code', 'pre-tool-use-bash'), {}, ['--deadline-ms', 'soon']);
    assert.equal(flag.code, 0);
    assert.equal(claudeDecision(flag.stdout), 'ask');
    assert.match(flag.stderr, /--deadline-ms must be an integer from 100 to 600000 ms; got "soon" \[CONFIG_ERROR\]/);
    const envVar = await guard('copilot-cli', event('copilot-cli', 'pre-tool-use-bash'), { JEV_GUARD_DEADLINE_MS: '5' });
    assert.equal(envVar.code, 0);
    assert.equal((JSON.parse(envVar.stdout) as { permissionDecision: string }).permissionDecision, 'ask');
    assert.match(envVar.stderr, /JEV_GUARD_DEADLINE_MS must be .*got "5"/);
  });
});

describe('install through the CLI', () => {
  it('install, status, uninstall: the settings file comes back byte for byte', async () => {
    const dir = join(tmp, 'inst');
    mkdirSync(join(dir, '.claude'), { recursive: true });
    const original = '{\n  "hooks": {\n    "PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "prettier --write"}]}]\n  }\n}\n';
    writeFileSync(join(dir, '.claude', 'settings.json'), original);
    const i = await capture(process.execPath, [CLI, 'guard', 'install', '--host', 'claude-code', '--json'], { cwd: dir, env: env() });
    assert.equal(i.code, 0, i.stderr);
    const res = JSON.parse(i.stdout) as { action: string; command: string };
    assert.equal(res.action, 'installed');
    assert.ok(res.command.startsWith(`'${process.execPath}' '`), 'node by absolute path');
    assert.match(res.command, /dist\/guard\.js' guard --host claude-code$/, 'the lean entry');
    const s = await capture(process.execPath, [CLI, 'guard', 'status', '--host', 'claude-code'], { cwd: dir, env: env() });
    assert.match(s.stdout, /installed/);
    const u = await capture(process.execPath, [CLI, 'guard', 'uninstall', '--host', 'claude-code'], { cwd: dir, env: env() });
    assert.equal(u.code, 0, u.stderr);
    assert.equal(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8'), original);
  });

  it('a --dir that does not exist is refused, and nothing is created', async () => {
    const missing = join(tmp, 'no-such-folder');
    const r = await capture(process.execPath, [CLI, 'guard', 'install', '--host', 'vscode', '--dir', missing], { cwd: tmp, env: env() });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--dir .*is not an existing folder/);
    assert.equal(existsSync(missing), false);
  });

  it('--agent must be an agent of the workspace config: a hook that refuses every call is not installed', async () => {
    const dir = join(tmp, 'agents');
    mkdirSync(join(dir, '.jev'), { recursive: true });
    writeFileSync(join(dir, '.jev', 'config.json'), JSON.stringify({ agents: [{ name: 'reviewer', grants: ['Read'] }] }));
    const ghost = await capture(process.execPath, [CLI, 'guard', 'install', '--host', 'claude-code', '--agent', 'ghost'], { cwd: dir, env: env() });
    assert.equal(ghost.code, 2);
    assert.match(ghost.stderr, /--agent "ghost" is not in the "agents" of .*config\.json \(it has reviewer\)/);
    assert.equal(existsSync(join(dir, '.claude', 'settings.json')), false, 'nothing written');
    const ok = await capture(process.execPath, [CLI, 'guard', 'install', '--host', 'claude-code', '--agent', 'reviewer'], { cwd: dir, env: env() });
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8'), /--agent reviewer/);
  });
});

describe('the lean entry (dist/guard.js)', () => {
  const LEAN = join(__dirname, '..', '..', 'dist', 'guard.js');
  const lean = (input: string, extraEnv: Record<string, string> = {}) => capture(process.execPath, [LEAN, 'guard', '--host', 'claude-code'], { cwd: ws, env: env(extraEnv), input });

  it('settles a read by rule, and for a judged call loads the full CLI and fails closed the same way', async () => {
    const read = await lean(event('claude-code', 'pre-tool-use-read'));
    assert.equal(claudeDecision(read.stdout), 'allow');
    const bash = await lean(event('claude-code', 'pre-tool-use-bash'));
    assert.equal(claudeDecision(bash.stdout), 'ask');
    assert.match(bash.stderr, /\[NO_BACKEND\]/);
    const mock = await lean(event('claude-code', 'pre-tool-use-bash'), { JEV_MOCK: '1' });
    assert.match(mock.stderr, /\[MOCK_ONLY\]/);
    const bad = await capture(process.execPath, [LEAN, 'guard', '--host', 'nope'], { cwd: ws, env: env(), input: '{}' });
    assert.equal(bad.code, 2);
  });
});
