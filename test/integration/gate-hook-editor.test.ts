/**
 * The commit hook and the editor, without the editor's UI, in real repositories (git-sandbox.ts):
 * - a running editor endpoint: the channel server (src/channel/server.ts) answered by the editor's
 *   own answer (src/channel/gate-answer.ts) with its own judge (a second fake System One), found
 *   through its session file; the terminal commit is judged there, with its source; without a running
 *   editor the hook falls back to the CLI configuration and says so;
 * - approvals the editor leaves (src/gate/approval.ts, written as the editor's commit does) are honoured
 *   once, instead of a second judgment, and voided by any change of tree or message;
 * - a hook installed from the editor runs only the stable launcher, and keeps working after a simulated
 *   extension update; with nothing left to run, one line with the fix.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { APPROVAL_TTL_MS, commitBinding, writeApproval } from '../../src/gate/approval';
import { GateChannelServer } from '../../src/channel/server';
import { newSessionSecrets, writeSessionFile, type EditorSession } from '../../src/channel/session-file';
import { installHook } from '../../src/gate/hook/install';
import { launcherPath, writeLauncher } from '../../src/gate/hook/launcher';
import { readMessageRules } from '../../src/gate/message-rules';
import { answerHook, HOOK_AGENT } from '../../src/channel/gate-answer';
import type { DecisionRecord } from '../../src/ledger/record';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';
import { SpendCap } from '../../src/providers/spend-cap';
import { SystemOneProvider } from '../../src/providers/systemone';
import { ALL_TOOLS } from '../../src/tools';
import { JudgmentService } from '../../src/tools/judgment-service';
import { answerAll, startFakeSystemOne, type FakeSystemOne } from '../helpers/fake-systemone';
import { GitSandbox, PASSING } from './git-sandbox';
import { ROOT } from './mcp-fixtures';

let sb: GitSandbox;
before(async () => {
  sb = await GitSandbox.open('jevcp-hook-editor-');
});
after(() => sb?.close());

/** A stand-in for a running editor: its own judge, the channel server, and the session file. */
class FakeEditor {
  readonly records: DecisionRecord[] = [];
  server?: GateChannelServer;
  session?: EditorSession;

  constructor(
    readonly judge: FakeSystemOne,
    private readonly roots: string[],
  ) {}

  async start(): Promise<void> {
    const service = new JudgmentService({
      provider: new SystemOneProvider({ baseUrl: this.judge.url, apiKey: 'sk-editor-secret-key-77', spendCap: new SpendCap() }),
      tools: ALL_TOOLS,
      floors: DEFAULT_FLOORS,
      model: 'editor-model',
      timeoutMs: 5000,
      onRecord: (r) => this.records.push(r),
    });
    const { id, token } = newSessionSecrets();
    this.server = new GateChannelServer({
      token,
      handler: (req, signal) =>
        answerHook(
          { service, choice: () => ({ kind: 'systemone', reason: 'API key set' }), model: () => 'editor-model', roots: () => this.roots, editor: 'Test Editor', record: async (r) => void this.records.push(r) },
          req,
          signal,
        ),
    });
    const { port } = await this.server.start();
    this.session = { v: 1, id, pid: process.pid, port, token, roots: this.roots, editor: 'Test Editor', started: new Date().toISOString(), judge: { provider: 'systemone', mock: false } };
    await writeSessionFile(sb.state, this.session);
  }

  /** Stops answering but leaves its session file (an editor that is gone or hangs). */
  async stop(): Promise<void> {
    await this.server?.stop();
  }
}

describe('a running editor judges terminal commits', () => {
  let repo: string;
  let editorJudge: FakeSystemOne;
  let editor: FakeEditor;
  before(async () => {
    repo = sb.makeRepo();
    editorJudge = await startFakeSystemOne({ answerer: (req) => answerAll(req.body.questions, PASSING) });
    editor = new FakeEditor(editorJudge, [repo]);
    await editor.start();
    const r = await sb.jevcp(repo, ['hook', 'install', '--json'], {}, false);
    assert.equal(r.code, 0, `with no CLI backend, the editor open on the repository is the judge: ${r.stderr}`);
    assert.match(JSON.parse(r.stdout).judge, /^the editor open on this repository \(Test Editor: systemone\)/);
  });
  after(async () => {
    await editor.stop();
    await editorJudge.close();
  });

  it('with no CLI backend at all: judged by the editor, recorded there with the source "commit hook, terminal"', async () => {
    sb.stageChange(repo);
    const cliBefore = sb.fake.count();
    const r = await sb.commit(repo, ['-m', 'Handle empty input\n\n- parse("") returns []'], {}, false);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(editorJudge.count(), 1);
    assert.equal(sb.fake.count(), cliBefore, 'the CLI backend was not asked');
    assert.match(r.stderr, /^jev gate: passed \(auto\) — every claim verified/m);
    assert.match(r.stderr, /^ {2}judged by {3}the editor \(Test Editor: systemone editor-model, API key set\); decision /m);
    const decision = editor.records.at(-1)!;
    assert.deepEqual([decision.tool, decision.agent, decision.source], ['jev_gate', HOOK_AGENT, 'commit hook, terminal']);
    assert.deepEqual((decision.input as { claims: string[] }).claims, ['parse("") returns []']);
  });

  it("from VS Code's Source Control the source says so; an override is recorded in the editor's ledger", async () => {
    editorJudge.setAnswerer((req) => answerAll(req.body.questions));
    sb.stageChange(repo);
    const r = await sb.commit(repo, ['-m', 'Risky change'], { VSCODE_GIT_COMMAND: 'commit', JEV_GATE_OVERRIDE: 'demo tomorrow' }, false);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr.split('\n')[0]!, /^jev gate: OVERRIDDEN \((review|escalate)\) by JEV_GATE_OVERRIDE: "demo tomorrow"/);
    const [decision, override] = editor.records.slice(-2);
    assert.equal(decision!.source, 'commit hook, Source Control');
    assert.deepEqual([override!.kind, override!.decision_id, override!.source], ['override', decision!.id, 'commit hook, Source Control']);
    assert.match(r.stderr, /override {4}recorded in the editor's ledger \(record /);
    editorJudge.setAnswerer((req) => answerAll(req.body.questions, PASSING));
  });

  it('without a running editor: falls back to the CLI configuration and says which it used', async () => {
    await editor.stop(); // the session file is still there; nobody answers
    sb.approve();
    sb.stageChange(repo);
    const before = [editorJudge.count(), sb.fake.count()];
    const r = await sb.commit(repo, ['-m', 'Handle empty input again']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual([editorJudge.count(), sb.fake.count()], [before[0], before[1]! + 1]);
    assert.match(r.stderr, /judged by {3}the CLI configuration \(systemone at http:\/\/127\.0\.0\.1:\d+/);
    assert.match(r.stderr, /jevcp: note: the editor session of Test Editor did not answer \(ECONNREFUSED\); judged with the CLI configuration\./);

    rmSync(join(sb.state, 'editors'), { recursive: true, force: true });
    sb.stageChange(repo);
    const none = await sb.commit(repo, ['-m', 'Handle empty input once more']);
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stderr, /jevcp: note: no editor with Jev is open on this repository; judged with the CLI configuration\./);
  });
});

describe('approvals from the editor', () => {
  let repo: string;
  before(async () => {
    repo = sb.makeRepo();
    assert.equal((await sb.jevcp(repo, ['hook', 'install'])).code, 0);
    sb.disapprove(); // a second judgment would block: only an honoured approval lets these commits in
  });

  /** What the editor does after "Commit": the approval for the staged tree and the box's message (git's rules for a given message). */
  async function editorApproves(message: string, now = Date.now()): Promise<void> {
    const rules = await readMessageRules(repo, false, { env: sb.env() });
    await writeApproval(sb.state, await commitBinding(repo, message, rules, { env: sb.env() }), { recordId: 'editor-decision-1', action: 'auto', acceptedAs: 'approved' }, now);
  }

  it('the commit the editor approved is not judged again, once', async () => {
    sb.stageChange(repo);
    await editorApproves('Handle empty input\n\n- parse("") returns []\n');
    const before = sb.fake.count();
    const r = await sb.commit(repo, ['-m', 'Handle empty input\n\n- parse("") returns []']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(sb.fake.count(), before, 'one judgment per commit: the editor made it');
    assert.match(r.stderr, /^jev gate: passed \(auto, approved in the editor\) — decision editor-decision-1; this exact commit was judged there, not again$/m);

    sb.stageChange(repo);
    const again = await sb.commit(repo, ['-m', 'Handle empty input\n\n- parse("") returns []']);
    assert.notEqual(again.code, 0, 'single use: the next commit is judged (and blocked)');
    assert.equal(sb.fake.count(), before + 1);
    sb.git(repo, 'reset', '-q', '--hard');
  });

  it('a changed message or staged tree voids it; an expired one is not honoured', async () => {
    sb.stageChange(repo);
    await editorApproves('Approved message\n');
    const before = sb.fake.count();
    const msg = await sb.commit(repo, ['-m', 'Another message']);
    assert.notEqual(msg.code, 0);
    assert.equal(sb.fake.count(), before + 1);
    assert.match(msg.stderr, /the editor approved a different staged tree or message for this repository; that approval is void/);
    assert.notEqual((await sb.commit(repo, ['-m', 'Approved message'])).code, 0, 'void for good');

    await editorApproves('Approved message\n');
    writeFileSync(join(repo, 'extra.txt'), 'staged after the approval\n');
    sb.git(repo, 'add', 'extra.txt');
    const tree = await sb.commit(repo, ['-m', 'Approved message']);
    assert.notEqual(tree.code, 0, 'the staged tree changed');

    await editorApproves('Approved message\n', Date.now() - APPROVAL_TTL_MS - 1000);
    const late = await sb.commit(repo, ['-m', 'Approved message']);
    assert.notEqual(late.code, 0);
    assert.match(late.stderr, /the approval from the editor for this commit had expired; judging it again/);
    sb.git(repo, 'reset', '-q', '--hard');
  });
});

describe('a hook installed from the editor survives updates', () => {
  it('runs only the launcher; after the extension folder moved to a new version it runs the new copy; with nothing left, one line', async () => {
    const exts = join(sb.dir, 'editor-extensions');
    const v1 = join(exts, 'jevcp.jev-control-panel-0.1.0');
    mkdirSync(v1, { recursive: true });
    cpSync(join(ROOT, 'dist'), join(v1, 'dist'), { recursive: true });
    await writeLauncher(sb.state, { nodePath: process.execPath, cliPath: join(v1, 'dist', 'cli.js'), electron: false, version: '0.1.0' });
    const repo = sb.makeRepo();
    await installHook({ repoDir: repo, launcherPath: launcherPath(sb.state), gitEnv: sb.env() });
    const hook = readFileSync(join(repo, '.git', 'hooks', 'commit-msg'), 'utf8');
    assert.doesNotMatch(hook, /jevcp\.jev-control-panel-0\.1\.0|\/dist\/cli\.js/, 'no versioned folder in the hook');
    assert.doesNotMatch(hook, new RegExp(process.execPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'no runtime path in the hook');

    sb.approve();
    sb.stageChange(repo);
    assert.equal((await sb.commit(repo, ['-q', '-m', 'Before the update'])).code, 0);

    // The update: the new version is installed, the old folder removed, the extension not started since.
    const v2 = join(exts, 'jevcp.jev-control-panel-0.1.1');
    renameSync(v1, v2);
    sb.stageChange(repo);
    const after = await sb.commit(repo, ['-m', 'After the update']);
    assert.equal(after.code, 0, after.stderr);
    assert.equal(sb.head(repo), 'After the update');

    rmSync(exts, { recursive: true, force: true });
    sb.stageChange(repo);
    const gone = await sb.commit(repo, ['-m', 'After removal']);
    assert.notEqual(gone.code, 0);
    const lines = gone.stderr.trim().split('\n');
    assert.equal(lines.length, 1, gone.stderr);
    assert.match(lines[0]!, /^jevcp: cannot run the gate: .*open the editor once so Jev rewrites .*bin\/jevcp, or run 'jevcp hook install' again; to commit now: git commit --no-verify$/);
  });

  it('a hook installed from the CLI whose CLI copy is gone falls back to the launcher', async () => {
    const copy = join(sb.dir, 'cli-copy');
    cpSync(join(ROOT, 'dist'), join(copy, 'dist'), { recursive: true });
    await writeLauncher(sb.state, { nodePath: process.execPath, cliPath: join(ROOT, 'dist', 'cli.js'), electron: false, version: '0.1.0' });
    const repo = sb.makeRepo();
    const installed = await sb.run(process.execPath, [join(copy, 'dist', 'cli.js'), 'hook', 'install'], repo);
    assert.equal(installed.code, 0, installed.stderr);
    rmSync(copy, { recursive: true, force: true });
    sb.approve();
    sb.stageChange(repo);
    const r = await sb.commit(repo, ['-m', 'After the CLI moved']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^jev gate: passed \(auto\)/m);
  });
});
