/**
 * The guard hook and the running editor, without the editor's UI: `dist/cli.js guard --host claude-code`
 * (and the lean entry dist/guard.js) with a PreToolUse event in a workspace that a stand-in editor has
 * open (the real channel server and the editor's answer, src/channel/permit-answer.ts, over a
 * JudgmentService on a fake System One, found through its session file). The editor's judge decides and
 * records the call with the hook's source; a destructive call is not allowed; with the editor gone the CLI
 * configuration is used (none: no allow; a fake System One of its own: judged there).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { answerPermit } from '../../src/channel/permit-answer';
import { GateChannelServer } from '../../src/channel/server';
import { newSessionSecrets, writeSessionFile } from '../../src/channel/session-file';
import type { DecisionRecord } from '../../src/ledger/record';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';
import { SpendCap } from '../../src/providers/spend-cap';
import { SystemOneProvider } from '../../src/providers/systemone';
import { ALL_TOOLS } from '../../src/tools';
import { JudgmentService } from '../../src/tools/judgment-service';
import { answerAll, choice, noul, startFakeSystemOne, type FakeSystemOne } from '../helpers/fake-systemone';
import { capture } from '../helpers/processes';

const DIST = join(__dirname, '..', '..', 'dist');
const FIX = join(__dirname, '..', 'fixtures', 'hosts', 'claude-code');

const SAFE = {
  effect: choice('read_only', 0.95, { read_only: 0.96, local_write: 0.02, external_write: 0.01, destructive: 0.01 }),
  serves_request: noul(0.95),
  exfiltration: noul(0.02),
  planted_purpose: noul(0.02),
};
const DESTRUCTIVE = { ...SAFE, effect: choice('destructive', 0.97, { read_only: 0.01, local_write: 0.01, external_write: 0.01, destructive: 0.97 }) };

let tmp: string;
let ws: string;
let state: string;
let editorJudge: FakeSystemOne;
let cliJudge: FakeSystemOne;
let answers: Record<string, unknown> = SAFE;
const records: DecisionRecord[] = [];
let server: GateChannelServer;

before(async () => {
  assert.ok(existsSync(join(DIST, 'cli.js')), 'run `node scripts/build.mjs` first');
  tmp = mkdtempSync(join(tmpdir(), 'jev-guard-editor-'));
  ws = join(tmp, 'ws');
  state = join(tmp, 'state');
  mkdirSync(ws);
  editorJudge = await startFakeSystemOne({ answerer: (req) => answerAll((req.body as { questions: never }).questions, answers as never, { model: 'editor-model' }) });
  cliJudge = await startFakeSystemOne({ answerer: (req) => answerAll((req.body as { questions: never }).questions, SAFE, { model: 'cli-model' }) });
  const service = new JudgmentService({
    provider: new SystemOneProvider({ baseUrl: editorJudge.url, apiKey: 'sk-editor-secret-key-77', spendCap: new SpendCap() }),
    tools: ALL_TOOLS,
    floors: DEFAULT_FLOORS,
    model: 'editor-model',
    timeoutMs: 5000,
    onRecord: (r) => records.push(r),
  });
  const { id, token } = newSessionSecrets();
  const deps = { service, choice: () => ({ kind: 'systemone' as const, reason: 'API key set' }), model: () => 'editor-model', roots: () => [ws], editor: 'Test Editor', record: async (r: DecisionRecord) => void records.push(r) };
  server = new GateChannelServer({ token, handler: async () => ({ v: 1, status: 'refused', message: 'no gate here' }), permit: (req, signal) => answerPermit(deps, req, signal) });
  const { port } = await server.start();
  await writeSessionFile(state, { v: 1, id, pid: process.pid, port, token, roots: [ws], editor: 'Test Editor', started: new Date().toISOString(), judge: { provider: 'systemone', mock: false } });
});
after(async () => {
  await server?.stop();
  await editorJudge?.close();
  await cliJudge?.close();
  rmSync(tmp, { recursive: true, force: true });
});

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: tmp, JEV_TEST: '1', JEV_STATE_DIR: state, ...extra };
}

/** The Bash PreToolUse event of the fixture, in the workspace `ws`. */
function bashEvent(command: string): string {
  const e = JSON.parse(readFileSync(join(FIX, 'pre-tool-use-bash.json'), 'utf8')) as Record<string, unknown>;
  e.cwd = ws;
  // The host's transcript holds the user's request (without one the guard never allows).
  writeFileSync(join(ws, 'transcript.jsonl'), readFileSync(join(FIX, 'transcript.jsonl')));
  e.transcript_path = join(ws, 'transcript.jsonl');
  e.tool_input = { command };
  return JSON.stringify(e);
}

const guard = (entry: 'cli.js' | 'guard.js', input: string, extra: Record<string, string> = {}) =>
  capture(process.execPath, [join(DIST, entry), 'guard', '--host', 'claude-code'], { cwd: tmp, env: env(extra), input });

const decision = (stdout: string): string => (stdout.trim() === '' ? '' : (JSON.parse(stdout) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision);

describe('the guard hook judges through the running editor', () => {
  it("with no CLI backend: the editor's judge decides, recorded in its ledger with the hook's source", async () => {
    answers = SAFE;
    const before = records.length;
    const r = await guard('cli.js', bashEvent('npm run lint'));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(decision(r.stdout), 'allow', r.stderr);
    assert.match(r.stderr, /judged by the editor \(Test Editor, systemone editor-model: API key set\)/);
    const mine = records.slice(before);
    assert.equal(mine.length, 1);
    assert.equal(mine[0]!.tool, 'jev_permit');
    assert.equal(mine[0]!.source, 'guard hook, claude-code · session abc123', 'the host and its session, from the event');
    assert.equal(cliJudge.count(), 0);
  });

  it('a call the editor judges destructive is not allowed (lean entry dist/guard.js)', async () => {
    answers = DESTRUCTIVE;
    const before = records.length;
    const r = await guard('guard.js', bashEvent('rm -rf build'));
    assert.equal(r.code, 0, r.stderr);
    assert.notEqual(decision(r.stdout), 'allow');
    assert.match(r.stderr, /judged by the editor/);
    assert.equal(records.length, before + 1, 'judged by the editor, from the event cwd');
  });

  it('a call a rule settles is recorded in the editor as local-policy, with no request upstream (lean entry)', async () => {
    const before = records.length;
    const upstream = editorJudge.count();
    mkdirSync(join(ws, '.jev'), { recursive: true });
    writeFileSync(join(ws, '.jev', 'config.json'), JSON.stringify({ permissions: { allow: ['Bash(git status*)'] } }));
    let r;
    try {
      r = await guard('guard.js', bashEvent('git status --short'));
    } finally {
      rmSync(join(ws, '.jev'), { recursive: true, force: true });
    }
    assert.equal(decision(r.stdout), 'allow', r.stderr);
    const mine = records.slice(before);
    assert.equal(mine.length, 1, 'one record');
    const rec = mine[0]!;
    assert.equal(rec.tool, 'jev_permit');
    assert.equal(rec.provider, 'local-policy');
    assert.equal(rec.questions, null);
    assert.deepEqual(rec.exchanges, []);
    assert.equal(rec.source, 'guard hook, claude-code · session abc123');
    const result = rec.result as { decision: string; action: string; reason_codes: string[]; settled_by: string; rule?: string };
    assert.deepEqual([result.decision, result.action, result.reason_codes, result.settled_by], ['allow', 'auto', ['RULE_ALLOW'], 'rule']);
    assert.match(result.rule ?? '', /^Bash\(git status/);
    assert.deepEqual((rec.input as { call: unknown }).call, { tool: 'Bash', input: { command: 'git status --short' } });
    assert.equal(editorJudge.count(), upstream, 'nothing was judged');
  });

  it('a PostToolUse result is screened by the editor: block answered, the jev_screen decision in its feed with the hook\'s source', async () => {
    answers = { ...SAFE, injection: noul(0.97), substance: noul(0.9), relevance: noul(0.9) };
    const e = JSON.parse(readFileSync(join(FIX, 'post-tool-use-webfetch.json'), 'utf8').replaceAll('/work/project', ws)) as Record<string, unknown>;
    writeFileSync(join(ws, 'transcript.jsonl'), readFileSync(join(FIX, 'transcript.jsonl')));
    e.transcript_path = join(ws, 'transcript.jsonl');
    const before = records.length;
    const r = await guard('guard.js', JSON.stringify(e));
    assert.equal(r.code, 0, r.stderr);
    const answer = JSON.parse(r.stdout) as { decision?: string; reason?: string };
    assert.equal(answer.decision, 'block', r.stderr);
    assert.match(r.stderr, /screened by the editor \(Test Editor, systemone editor-model: API key set\)/);
    const mine = records.slice(before);
    assert.deepEqual(mine.map((x) => x.tool), ['jev_screen']);
    assert.match(mine[0]!.source ?? '', /^guard hook, claude-code · session [\w-]+: WebFetch result$/);
    assert.ok(answer.reason!.includes(mine[0]!.id), 'the notice names the editor\'s decision');
    assert.equal(cliJudge.count(), 0, 'the CLI configuration was not asked');
  });

  it('with the editor gone: the CLI configuration, none means no allow; a CLI backend judges', async () => {
    await server.stop();
    answers = SAFE;
    const none = await guard('cli.js', bashEvent('npm run lint'));
    assert.notEqual(decision(none.stdout), 'allow');
    assert.match(none.stderr, /did not answer/);
    assert.match(none.stderr, /no allow: .*no judgment backend/);
    const cli = await guard('cli.js', bashEvent('npm run lint'), { JEV_BASE_URL: cliJudge.url, JEV_API_KEY: 'sk-cli-secret-key-42', JEV_LEDGER: join(tmp, 'ledger.jsonl') });
    assert.equal(decision(cli.stdout), 'allow', cli.stderr);
    assert.match(cli.stderr, /judged by the CLI configuration/);
    assert.equal(cliJudge.count(), 1);
    // A result to screen: the editor does not answer and no CLI backend: never passed, the model is warned.
    const e = JSON.parse(readFileSync(join(FIX, 'post-tool-use-webfetch.json'), 'utf8').replaceAll('/work/project', ws)) as Record<string, unknown>;
    e.transcript_path = join(ws, 'transcript.jsonl');
    const unscreened = await guard('cli.js', JSON.stringify(e));
    assert.match(unscreened.stderr, /did not answer/);
    assert.match((JSON.parse(unscreened.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext, /could not screen the result of WebFetch \(NO_BACKEND/);
  });
});
