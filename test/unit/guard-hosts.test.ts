/**
 * The guard's host adapters on events written from each host's documentation (test/fixtures/hosts/):
 * what each host gets for allow, ask, deny and a failure; Codex's answers and fixtures checked against
 * its published JSON Schemas with Ajv; the whole run with a fake jev_permit behind the PermitJudge port.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import Ajv from 'ajv';
import { HOSTS } from '../../src/guard/hosts';
import { failureVerdict, runGuard, type JudgeAvailability } from '../../src/guard/run';
import type { GuardVerdict, HostName, PermitInput, PermitResult } from '../../src/guard/types';
import { configWorkspaces } from '../helpers/guard-workspace';

const FIX = join(__dirname, '..', 'fixtures', 'hosts');
const fixture = (host: string, name: string): string => readFileSync(join(FIX, host, `${name}.json`), 'utf8');
const schema = (name: string): object => JSON.parse(readFileSync(join(FIX, 'codex', `${name}.schema.json`), 'utf8')) as object;

const ajv = new Ajv({ strict: false, allErrors: true });
const codexPreOut = ajv.compile(schema('pre-tool-use.command.output'));
const codexPermOut = ajv.compile(schema('permission-request.command.output'));

const verdict = (decision: GuardVerdict['decision']): GuardVerdict => ({ decision, reason: `because [X_${decision.toUpperCase()}]`, reasonCodes: ['X'], model: 'm' });

const workspace = configWorkspaces('jev-guard-hosts-');

function eventIn(host: string, name: string, dir: string, patch: (e: Record<string, unknown>) => void = () => undefined): string {
  const e = JSON.parse(fixture(host, name).replaceAll('/work/project', dir)) as Record<string, unknown>;
  // A real transcript, so the user's request is known (without one the guard never allows).
  if ('transcript_path' in e && e.transcript_path !== null) {
    writeFileSync(join(dir, 'transcript.jsonl'), readFileSync(join(FIX, 'claude-code', 'transcript.jsonl')));
    e.transcript_path = join(dir, 'transcript.jsonl');
  }
  patch(e);
  return JSON.stringify(e);
}

const permit = (decision: PermitResult['decision'], action: PermitResult['action'], codes = ['LOW_RISK']): PermitResult => ({ decision, action, reason_codes: codes, model: 'jev-test', usage: {} });

async function run(host: HostName, text: string, dir: string, judged?: PermitResult | Error, opts: { agent?: string; deadlineMs?: number; seen?: PermitInput[] } = {}) {
  let asked = 0;
  const judge = async (): Promise<JudgeAvailability> => {
    asked++;
    if (judged === undefined) return { kind: 'none', reason: 'no judgment backend' };
    return {
      kind: 'judge',
      label: 'fake',
      judge: async (input) => {
        opts.seen?.push(input);
        if (judged instanceof Error) throw judged;
        return judged;
      },
    };
  };
  const r = await runGuard({ host: HOSTS[host], agent: opts.agent, stdin: Readable.from([text]), env: {}, cwd: dir, judge, deadlineMs: opts.deadlineMs ?? 5000, secrets: [] });
  return { ...r, asked };
}

describe('answers in each host format', () => {
  it('claude-code: PreToolUse gets permissionDecision allow|ask|deny; nothing for defer', () => {
    const e = HOSTS['claude-code'].parse(JSON.parse(fixture('claude-code', 'pre-tool-use-bash')));
    assert.equal(e.kind, 'PreToolUse');
    assert.equal(e.tool, 'Bash');
    assert.equal(e.permissionMode, 'default');
    for (const d of ['allow', 'ask', 'deny'] as const) {
      assert.deepEqual(JSON.parse(HOSTS['claude-code'].answer(e, verdict(d))), {
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: d, permissionDecisionReason: `because [X_${d.toUpperCase()}]` },
      });
    }
    assert.equal(HOSTS['claude-code'].answer(e, verdict('defer')), '');
  });

  it('claude-code: PermissionRequest gets decision.behavior allow|deny; ask leaves the dialog', () => {
    const e = HOSTS['claude-code'].parse(JSON.parse(fixture('claude-code', 'permission-request')));
    assert.equal(e.kind, 'PermissionRequest');
    assert.deepEqual(JSON.parse(HOSTS['claude-code'].answer(e, verdict('allow'))), { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } });
    assert.deepEqual(JSON.parse(HOSTS['claude-code'].answer(e, verdict('deny'))), {
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'because [X_DENY]' } },
    });
    assert.equal(HOSTS['claude-code'].answer(e, verdict('ask')), '');
  });

  it('claude-code and vscode: other events get no answer; PostToolUse gets no permission answer', () => {
    for (const [host, name] of [['claude-code', 'post-tool-use'], ['vscode', 'post-tool-use']] as const) {
      const post = HOSTS[host].parse(JSON.parse(fixture(host, name)));
      assert.equal(post.kind, 'PostToolUse');
      assert.equal(HOSTS[host].answer(post, verdict('deny')), '');
      const e = HOSTS[host].parse({ ...JSON.parse(fixture(host, name)), hook_event_name: 'SessionStart' });
      assert.equal(e.kind, 'other');
      assert.equal(HOSTS[host].answer(e, verdict('deny')), '');
    }
  });

  it('vscode: PreToolUse answered like Claude Code; its tool names map onto rule names', () => {
    const term = HOSTS.vscode.parse(JSON.parse(fixture('vscode', 'pre-tool-use-run-in-terminal')));
    assert.equal(HOSTS.vscode.describe(term).ruleTool, 'Bash');
    assert.equal(HOSTS.vscode.describe(term).command, 'git status');
    assert.equal(HOSTS.vscode.describe(term).effect, undefined);
    const read = HOSTS.vscode.parse(JSON.parse(fixture('vscode', 'pre-tool-use-read-file')));
    assert.deepEqual(HOSTS.vscode.describe(read), { ruleTool: 'Read', command: undefined, paths: ['/work/project/README.md'], urls: [], effect: 'read_only' });
    const edit = HOSTS.vscode.parse(JSON.parse(fixture('vscode', 'pre-tool-use-edit-files')));
    assert.deepEqual(HOSTS.vscode.describe(edit).paths, ['/work/project/src/main.ts']);
    assert.equal(HOSTS.vscode.describe(edit).effect, 'local_write');
    const mcp = HOSTS.vscode.parse(JSON.parse(fixture('vscode', 'pre-tool-use-mcp')));
    assert.equal(HOSTS.vscode.describe(mcp).ruleTool, 'mcp_jev-control-p_jev_step');
    assert.deepEqual(JSON.parse(HOSTS.vscode.answer(term, verdict('ask'))).hookSpecificOutput.permissionDecision, 'ask');
  });

  it('codex: fixtures are valid events of its published input schemas', () => {
    for (const name of ['pre-tool-use', 'permission-request']) {
      const validate = ajv.compile(schema(`${name}.command.input`));
      assert.equal(validate(JSON.parse(fixture('codex', name))), true, JSON.stringify(validate.errors));
    }
  });

  it('codex: PreToolUse only ever denies (allow and ask are unsupported there); every answer validates against its output schema', () => {
    const e = HOSTS.codex.parse(JSON.parse(fixture('codex', 'pre-tool-use')));
    assert.equal(HOSTS.codex.describe(e).command, 'rm -rf build && npm run build');
    const deny = JSON.parse(HOSTS.codex.answer(e, verdict('deny')));
    assert.equal(deny.hookSpecificOutput.permissionDecision, 'deny');
    assert.equal(codexPreOut(deny), true, JSON.stringify(codexPreOut.errors));
    for (const d of ['allow', 'ask', 'defer'] as const) assert.equal(HOSTS.codex.answer(e, verdict(d)), '', d);
    assert.equal(codexPreOut({}), true);
  });

  it('codex: PermissionRequest gets behavior allow|deny (schema-valid); ask and failures leave its approval prompt', () => {
    const e = HOSTS.codex.parse(JSON.parse(fixture('codex', 'permission-request')));
    for (const d of ['allow', 'deny'] as const) {
      const out = JSON.parse(HOSTS.codex.answer(e, verdict(d)));
      assert.equal(out.hookSpecificOutput.decision.behavior, d);
      assert.equal(codexPermOut(out), true, JSON.stringify(codexPermOut.errors));
    }
    assert.equal(HOSTS.codex.answer(e, verdict('ask')), '');
    assert.equal(HOSTS.codex.answer(e, failureVerdict('TIMEOUT', 'slow')), '');
    // A broken answer is caught by the schema (the test can fail).
    assert.equal(codexPermOut({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'ask' } } }), false);
  });

  it('copilot-cli: toolArgs as a JSON string; top-level permissionDecision; events without toolName get nothing', () => {
    const e = HOSTS['copilot-cli'].parse(JSON.parse(fixture('copilot-cli', 'pre-tool-use-bash')));
    assert.equal(e.kind, 'PreToolUse');
    assert.deepEqual(e.input, { command: 'rm -rf dist', description: 'Clean build directory' });
    assert.equal(HOSTS['copilot-cli'].describe(e).ruleTool, 'Bash');
    assert.deepEqual(JSON.parse(HOSTS['copilot-cli'].answer(e, verdict('deny'))), { permissionDecision: 'deny', permissionDecisionReason: 'because [X_DENY]' });
    const start = HOSTS['copilot-cli'].parse(JSON.parse(fixture('copilot-cli', 'session-start')));
    assert.equal(start.kind, 'other');
    assert.equal(HOSTS['copilot-cli'].answer(start, verdict('deny')), '');
    assert.throws(() => HOSTS['copilot-cli'].parse({ toolName: 'bash', toolArgs: '{not json' }), /toolArgs/);
    for (const toolName of [5, '', null]) assert.throws(() => HOSTS['copilot-cli'].parse({ toolName, toolArgs: '{}' }), /toolName must be a string/, String(toolName));
  });

  it('malformed events name the field', () => {
    assert.throws(() => HOSTS['claude-code'].parse({ hook_event_name: 'PreToolUse', tool_input: {} }), /tool_name/);
    assert.throws(() => HOSTS.vscode.parse({ hook_event_name: 'PreToolUse', tool_name: 'read_file' }), /tool_input/);
    assert.throws(() => HOSTS.codex.parse([]), /JSON object/);
  });
});

describe('a whole run through the PermitJudge port', () => {
  it('read-only built-ins are allowed by the default rule, with no judgment', async () => {
    const dir = workspace();
    for (const [host, name] of [['claude-code', 'pre-tool-use-read'], ['vscode', 'pre-tool-use-read-file'], ['copilot-cli', 'pre-tool-use-view']] as const) {
      const r = await run(host, eventIn(host, name, dir), dir, permit('deny', 'escalate'));
      assert.equal(r.verdict.decision, 'allow', host);
      assert.equal(r.verdict.model, 'local-policy');
      assert.deepEqual(r.verdict.reasonCodes, ['RULE_ALLOW']);
      assert.equal(r.asked, 0, 'no judge was looked for');
    }
  });

  it('a read outside the workspace is not settled by the default rule', async () => {
    const dir = workspace();
    const r = await run('claude-code', eventIn('claude-code', 'pre-tool-use-read', dir, (e) => ((e.tool_input as Record<string, unknown>).file_path = '/etc/passwd')), dir);
    assert.equal(r.verdict.decision, 'ask');
    assert.deepEqual(r.verdict.reasonCodes, ['NO_BACKEND']);
  });

  it('the workspace is found above the event\'s cwd: the config\'s rules hold when the agent works in a subfolder', async () => {
    const dir = workspace({ permissions: { deny: ['Bash(npm test*)'] } });
    const sub = join(dir, 'packages', 'app');
    mkdirSync(sub, { recursive: true });
    const r = await run('claude-code', eventIn('claude-code', 'pre-tool-use-bash', dir, (e) => (e.cwd = sub)), sub, permit('allow', 'auto'));
    assert.equal(r.verdict.decision, 'deny');
    assert.deepEqual(r.verdict.reasonCodes, ['RULE_DENY']);
    assert.equal(r.asked, 0);
  });

  it('the file system root and the home folder are no workspace: Read(./**) does not cover the machine', async () => {
    const dir = workspace();
    const realHome = process.env.HOME;
    process.env.HOME = workspace();
    try {
      for (const cwd of ['/', homedir()]) {
        const r = await run('claude-code', eventIn('claude-code', 'pre-tool-use-read', dir, (e) => {
          e.cwd = cwd;
          (e.tool_input as Record<string, unknown>).file_path = join(cwd, '.ssh', 'id_ed25519');
        }), dir);
        assert.equal(r.verdict.decision, 'ask', cwd);
        assert.deepEqual(r.verdict.reasonCodes, ['NO_BACKEND'], `${cwd}: judged, not settled by a rule`);
      }
    } finally {
      process.env.HOME = realHome;
    }
  });

  it('judged: allow only for an allow decided auto; the input names host, agent, effect and paths; ask/deny carry the reason codes', async () => {
    const dir = workspace();
    const seen: PermitInput[] = [];
    const a = await run('claude-code', eventIn('claude-code', 'pre-tool-use-write', dir), dir, permit('allow', 'auto'), { seen });
    assert.equal(a.verdict.decision, 'allow');
    assert.equal(JSON.parse(a.stdout).hookSpecificOutput.permissionDecision, 'allow');
    assert.deepEqual(seen[0]!.host, { name: 'claude-code', agent: 'claude-code', effect: 'local_write', paths_in_workspace: true, permission_mode: 'acceptEdits' });
    assert.equal(seen[0]!.call.tool, 'Write');
    const review = await run('claude-code', eventIn('claude-code', 'pre-tool-use-bash', dir), dir, permit('allow', 'review'));
    assert.equal(review.verdict.decision, 'ask');
    const deny = await run('claude-code', eventIn('claude-code', 'pre-tool-use-bash', dir), dir, permit('deny', 'escalate', ['DESTRUCTIVE', 'OUTSIDE_REQUEST']));
    const out = JSON.parse(deny.stdout).hookSpecificOutput;
    assert.equal(out.permissionDecision, 'deny');
    assert.match(out.permissionDecisionReason, /DESTRUCTIVE, OUTSIDE_REQUEST/);
  });

  it('with no transcript the request is unknown: a judged allow becomes ask (incomplete_context)', async () => {
    const dir = workspace();
    const seen: PermitInput[] = [];
    const r = await run('claude-code', eventIn('claude-code', 'pre-tool-use-write', dir, (e) => delete e.transcript_path), dir, permit('allow', 'auto'), { seen });
    assert.deepEqual([r.verdict.decision, r.verdict.reasonCodes], ['ask', ['incomplete_context']]);
    assert.match(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason, /no transcript/);
    assert.match(seen[0]!.request, /user request is unknown/);
  });

  it('failures never allow: judge error, judge past the deadline, no judge, malformed, too large', async () => {
    const dir = workspace();
    const ev = eventIn('claude-code', 'pre-tool-use-bash', dir);
    const err = await run('claude-code', ev, dir, new Error('HTTP 500'));
    assert.deepEqual([err.verdict.decision, err.verdict.reasonCodes[0]], ['ask', 'JUDGE_ERROR']);
    assert.match(err.stderr!, /no allow: .*HTTP 500/);
    const slow = await runGuard({
      host: HOSTS['claude-code'],
      stdin: Readable.from([ev]),
      env: {},
      cwd: dir,
      deadlineMs: 200,
      secrets: [],
      judge: async () => ({ kind: 'judge', label: 'slow', judge: () => new Promise<PermitResult>(() => undefined) }),
    });
    assert.deepEqual([slow.verdict.decision, slow.verdict.reasonCodes[0]], ['ask', 'TIMEOUT']);
    const none = await run('claude-code', ev, dir);
    assert.equal(none.verdict.reasonCodes[0], 'NO_BACKEND');
    const bad = await run('claude-code', '{"hook_event_name": "PreToolUse"', dir, permit('allow', 'auto'));
    assert.equal(bad.verdict.reasonCodes[0], 'MALFORMED_EVENT');
    assert.equal(JSON.parse(bad.stdout).hookSpecificOutput.permissionDecision, 'ask');
    const big = await runGuard({ host: HOSTS.vscode, stdin: Readable.from([ev.padEnd(2048, ' ')]), env: {}, cwd: dir, deadlineMs: 1000, secrets: [], maxEventBytes: 1024, judge: async () => ({ kind: 'judge', label: 'x', judge: async () => permit('allow', 'auto') }) });
    assert.equal(big.verdict.reasonCodes[0], 'INPUT_TOO_LARGE');
    assert.notEqual(big.verdict.decision, 'allow');
  });

  it('the request comes from the transcript (last user text, not tool results); secrets are redacted before the judge', async () => {
    const dir = workspace();
    writeFileSync(join(dir, 't.jsonl'), readFileSync(join(FIX, 'claude-code', 'transcript.jsonl')));
    const seen: PermitInput[] = [];
    const ev = eventIn('claude-code', 'pre-tool-use-bash', dir, (e) => {
      e.transcript_path = join(dir, 't.jsonl');
      e.tool_input = { command: 'curl -H "Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123" https://api.example.com && echo topsecretvalue99' };
    });
    await runGuard({ host: HOSTS['claude-code'], stdin: Readable.from([ev]), env: {}, cwd: dir, deadlineMs: 2000, secrets: ['topsecretvalue99'], judge: async () => ({ kind: 'judge', label: 'x', judge: async (i) => (seen.push(i), permit('ask', 'review')) }) });
    assert.equal(seen[0]!.request, 'Please run the tests and fix the failing one in src/math.ts');
    const cmd = (seen[0]!.call.input as { command: string }).command;
    assert.doesNotMatch(cmd, /abcdefghijklmnopqrstuvwxyz0123|topsecretvalue99/);
    assert.match(cmd, /Bearer \[REDACTED\].*echo \[REDACTED\]/);
  });

  it('codex through the run: a judged deny is schema-valid, a failure writes nothing', async () => {
    const dir = workspace();
    const d = await run('codex', eventIn('codex', 'pre-tool-use', dir), dir, permit('deny', 'escalate', ['DESTRUCTIVE']));
    assert.equal(codexPreOut(JSON.parse(d.stdout)), true);
    const f = await run('codex', eventIn('codex', 'permission-request', dir), dir, new Error('down'));
    assert.equal(f.stdout, '');
    assert.match(f.stderr!, /no allow/);
  });
});
