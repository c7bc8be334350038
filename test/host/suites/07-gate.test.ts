/**
 * The commit gate in the editor, inside the real extension host: "Jev: Gate Staged
 * Changes" on a real temporary git repository opened in VS Code's Git extension, judged by a fake System
 * One server on 127.0.0.1 whose answers make the verdict auto, review or escalate. The verdict is recorded
 * (panel feed), "Commit" commits only when the verdict is auto, "Commit Anyway" only for review, nothing is
 * committed when the staged change moved after the gate, a judge failure fails closed (fail-open offers
 * Commit Anyway), a huge diff is judged partly and never auto, and the hook commands install and restore.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { JevPanelApi } from '../../../src/extension/api';
import type { GateRun } from '../../../src/extension/gate/gate-command';
import type { GitExtension, Repository } from '../../../src/extension/gate/git-api';
import type { GateVerdict } from '../../../src/gate/verdict';
import type { DecisionRecord } from '../../../src/ledger/record';
import { answerAll, choice, score, startFakeSystemOne, type FakeSystemOne, type RecordedRequest } from '../../helpers/fake-systemone';
import { activateJev, repoRoot, resetSettings, setSetting } from '../helpers';

const LOW = (levels: string[]) => score(levels, [0.9, 0.05, 0.05]);

/** Answers that pass the gate: confident good review, every claim verified. */
function approve(req: RecordedRequest, claimOverride?: (i: number) => unknown): unknown {
  const q = req.body.questions as Record<string, { criteria: string[] }>;
  const overrides: Record<string, unknown> = { test_gap: LOW(q.test_gap!.criteria), blast_radius: LOW(q.blast_radius!.criteria) };
  if (claimOverride) for (const id of Object.keys(q).filter((k) => k.startsWith('claim_'))) overrides[id] = claimOverride(Number(id.slice(6)));
  return answerAll(req.body.questions, overrides, { model: 'fake-judge' });
}
const dist = (top: string, p: number) => Object.fromEntries(['verified', 'contradicted', 'unsupported'].map((o) => [o, o === top ? p : (1 - p) / 2]));

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
}

const commits = (dir: string) => Number(git(dir, 'rev-list', '--count', 'HEAD').trim());

describe('commit gate (Gate Staged Changes)', function () {
  this.timeout(60_000);
  let api: JevPanelApi;
  let fake: FakeSystemOne;
  let dir: string;
  let repo: Repository;
  const verdicts: GateVerdict[] = [];

  /**
   * Writes `message` into the SCM input box and waits until it has stayed there for 300 ms: the box is synced
   * with the workbench, and a late echo of an earlier value could otherwise replace it under load.
   */
  async function setMessage(message: string): Promise<void> {
    repo.inputBox.value = message;
    let stableSince = Date.now();
    const end = Date.now() + 10_000;
    while (Date.now() - stableSince < 300) {
      if (Date.now() > end) assert.fail(`the SCM input box did not keep ${JSON.stringify(message)}`);
      await new Promise((r) => setTimeout(r, 50));
      if (repo.inputBox.value !== message) {
        repo.inputBox.value = message;
        stableSince = Date.now();
      }
    }
  }

  /** Stages `file` with `content` and writes `message` into the SCM input box. */
  async function stage(file: string, content: string, message: string): Promise<void> {
    writeFileSync(join(dir, file), content);
    git(dir, 'add', file);
    await setMessage(message);
  }

  /** Runs the command as the SCM title button does, "clicking" `clicks` in order. */
  async function gate(...clicks: GateVerdict['choices'][number][]): Promise<GateRun> {
    const queue = [...clicks];
    api.inline.setGateHooks({
      choose: (v) => {
        verdicts.push(v);
        return queue.shift();
      },
    });
    return (await vscode.commands.executeCommand('jevPanel.gateStagedChanges', { rootUri: vscode.Uri.file(dir) })) as GateRun;
  }

  before(async () => {
    api = await activateJev();
    await resetSettings(api);
    fake = await startFakeSystemOne({ answerer: (req) => approve(req) });
    await setSetting(api, 'provider', 'systemone');
    await setSetting(api, 'baseUrl', fake.url);
    assert.equal(api.status().provider, 'systemone');
    await api.inline.ready();

    dir = mkdtempSync(join(tmpdir(), 'jev-gate-repo-'));
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'config', 'user.name', 'Jev Test');
    git(dir, 'config', 'user.email', 'jev@example.invalid');
    git(dir, 'config', 'commit.gpgsign', 'false');
    writeFileSync(join(dir, 'math.js'), 'export function add(a, b) {\n  return a + b;\n}\n');
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'init');
    const gitExt = vscode.extensions.getExtension<GitExtension>('vscode.git')!;
    const exports = gitExt.isActive ? gitExt.exports : await gitExt.activate();
    const opened = await exports.getAPI(1).openRepository(vscode.Uri.file(dir));
    assert.ok(opened, 'the Git extension opens the temporary repository');
    repo = opened;
  });

  after(async () => {
    api.inline.setGateHooks({});
    for (const key of ['gate.failOpen', 'gate.evidenceCommand']) await vscode.workspace.getConfiguration('jevPanel').update(key, undefined, vscode.ConfigurationTarget.Global);
    await resetSettings(api);
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says so when nothing is staged, and judges nothing', async () => {
    const before = fake.count();
    const run = await gate();
    assert.equal(run.status, 'nothing-staged');
    assert.equal(fake.count(), before);
  });

  it('auto: shows the verdict (recorded in the feed) and "Commit" commits the staged change with the message', async () => {
    await setSetting(api, 'gate.evidenceCommand', 'echo "2 passing: add adds, sub subtracts"');
    await stage('math.js', 'export function add(a, b) {\n  return a + b;\n}\nexport const sub = (a, b) => a - b;\n', 'Add sub()\n\n- sub subtracts b from a\n- the math tests pass\n');
    const before = commits(dir);
    const run = await gate('Commit');
    assert.equal(run.status, 'judged');
    assert.equal(run.verdict!.action, 'auto', run.verdict!.message);
    assert.deepEqual(verdicts.at(-1)!.choices, ['Commit', 'Open Details']);
    assert.match(run.verdict!.message, /^Jev gate: AUTO · claims 2\/2 verified · diff review auto/);
    assert.equal(run.committed, true, run.note);
    assert.equal(commits(dir), before + 1);
    assert.equal(git(dir, 'log', '-1', '--format=%B').trim(), 'Add sub()\n\n- sub subtracts b from a\n- the math tests pass');
    assert.equal(git(dir, 'diff', '--cached', '--name-only').trim(), '');
    assert.equal(repo.inputBox.value, '', 'the input box is cleared after the commit');

    // The decision is in the panel feed, with the request built from the SCM state.
    const record = api.getRecord(run.verdict!.recordId!) as DecisionRecord;
    assert.equal(record.tool, 'jev_gate');
    assert.ok(api.feed().some((r) => r.id === record.id && r.action === 'auto'));
    const input = record.input as { request: string; claims: string[]; evidence: { id: string; text: string }[]; diff: string; tests: string };
    assert.deepEqual(input.claims, ['sub subtracts b from a', 'the math tests pass']);
    assert.match(input.diff, /\+export const sub/);
    assert.match(input.tests, /^\$ echo .*\n\(exit code 0\)\n2 passing: add adds, sub subtracts\n$/);
    assert.deepEqual(input.evidence.map((e) => e.id), ['diff-stat', 'evidence-cmd']);
  });

  it('escalate: only "Open Details" is offered, and a "Commit" anyway commits nothing', async () => {
    fake.setAnswerer((req) => approve(req, () => choice('contradicted', 0.95, dist('contradicted', 0.95))));
    await stage('math.js', 'export const sub = (a, b) => b - a;\n', 'Make sub right\n\n- sub subtracts b from a\n');
    const before = commits(dir);
    const run = await gate('Commit');
    assert.equal(run.verdict!.action, 'escalate');
    assert.deepEqual(verdicts.at(-1)!.choices, ['Open Details']);
    assert.match(run.verdict!.message, /claims_contradicted/);
    assert.match(run.verdict!.message, /✕ "sub subtracts b from a" contradicted 0\.95 → escalate/);
    assert.equal(run.committed, false);
    assert.match(run.note!, /not offered/);
    assert.equal(commits(dir), before);
  });

  it('review: "Commit" is not offered; "Open Details" then "Commit Anyway" commits', async () => {
    fake.setAnswerer((req) => approve(req, () => choice('unsupported', 0.9, dist('unsupported', 0.9))));
    const before = commits(dir);
    const refused = await gate('Commit');
    assert.equal(refused.verdict!.action, 'review');
    assert.deepEqual(verdicts.at(-1)!.choices, ['Commit Anyway', 'Open Details']);
    assert.equal(refused.committed, false);
    assert.equal(commits(dir), before);

    const run = await gate('Open Details', 'Commit Anyway');
    assert.deepEqual(run.choices, ['Open Details', 'Commit Anyway']);
    assert.deepEqual(verdicts.at(-1)!.choices, ['Commit Anyway'], 'the verdict comes back without Open Details');
    assert.equal(run.committed, true, run.note);
    assert.equal(commits(dir), before + 1);
    const panel = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('jevPanel.decision'));
    assert.ok(panel, 'Open Details opened the decision panel');
  });

  it('commits nothing when the staged change moved after the gate', async () => {
    fake.setAnswerer((req) => approve(req));
    await stage('notes.md', '# notes\n', 'Add notes\n\n- notes exist\n');
    const before = commits(dir);
    api.inline.setGateHooks({
      choose: () => {
        writeFileSync(join(dir, 'notes.md'), '# notes\nchanged after the gate\n');
        git(dir, 'add', 'notes.md');
        return 'Commit';
      },
    });
    const run = (await vscode.commands.executeCommand('jevPanel.gateStagedChanges', { rootUri: vscode.Uri.file(dir) })) as GateRun;
    assert.equal(run.verdict!.action, 'auto');
    assert.equal(run.committed, false);
    assert.match(run.note!, /staged changes changed after the gate ran/);
    assert.equal(commits(dir), before);
  });

  it('asks for claims when the message has no bullet lines', async () => {
    await setMessage('Add notes');
    api.inline.setGateHooks({ askClaims: () => 'notes exist; notes are short', choose: () => undefined });
    const run = (await vscode.commands.executeCommand('jevPanel.gateStagedChanges', { rootUri: vscode.Uri.file(dir) })) as GateRun;
    const input = api.getRecord(run.verdict!.recordId!)!.input as { claims: string[]; request: string };
    assert.deepEqual(input.claims, ['notes exist', 'notes are short']);
    assert.equal(input.request, 'Add notes');
    api.inline.setGateHooks({ askClaims: () => undefined, choose: () => undefined });
    assert.equal(((await vscode.commands.executeCommand('jevPanel.gateStagedChanges', { rootUri: vscode.Uri.file(dir) })) as GateRun).status, 'cancelled');
  });

  it('fails closed when the judge fails; fail-open offers only "Commit Anyway"', async () => {
    await setMessage('Add notes\n\n- notes exist\n');
    fake.script({ status: 400 });
    const closed = await gate('Commit');
    assert.equal(closed.status, 'failed');
    assert.equal(closed.verdict!.errorCode, 'API_ERROR');
    assert.deepEqual(verdicts.at(-1)!.choices, ['Open Details']);
    assert.equal(closed.committed, false);
    assert.ok(api.getRecord(closed.verdict!.recordId!)!.error, 'the failure is recorded as an error');

    await vscode.workspace.getConfiguration('jevPanel').update('gate.failOpen', true, vscode.ConfigurationTarget.Global);
    fake.script({ status: 400 });
    const open = await gate();
    assert.deepEqual(verdicts.at(-1)!.choices, ['Commit Anyway', 'Open Details']);
    assert.match(open.verdict!.message, /UNJUDGED/);
    await vscode.workspace.getConfiguration('jevPanel').update('gate.failOpen', undefined, vscode.ConfigurationTarget.Global);
  });

  it('judges a diff too large for the budget partly and shows its coverage; never auto', async () => {
    fake.setAnswerer((req) => approve(req));
    const big = Array.from({ length: 40_000 }, (_, i) => `line ${i} of a generated fixture table with some padding text`).join('\n');
    await stage('big.txt', `${big}\n`, 'Add the fixture table\n\n- the table has 40000 lines\n');
    const before = commits(dir);
    const run = await gate('Commit');
    assert.equal(run.status, 'judged');
    assert.equal(run.verdict!.action, 'review', run.verdict!.message);
    assert.match(run.verdict!.message, /incomplete_context|partial input \(\d+% judged\): never auto/);
    assert.match(run.verdict!.message, /partial input \(\d+% judged\)/);
    assert.equal(run.committed, false);
    assert.equal(commits(dir), before);
    git(dir, 'reset', '-q');
  });

  it('installs the commit-msg hook (this editor\'s node, the bundled CLI) and uninstalls it, restoring the previous hook', async () => {
    const hooks = join(dir, '.git', 'hooks');
    writeFileSync(join(hooks, 'commit-msg'), '#!/bin/sh\necho previous hook\n', { mode: 0o755 });
    const installed = (await vscode.commands.executeCommand('jevPanel.installCommitHook', { rootUri: vscode.Uri.file(dir) })) as { action: string; chainedPath?: string };
    assert.equal(installed.action, 'installed');
    const hook = readFileSync(join(hooks, 'commit-msg'), 'utf8');
    assert.match(hook, /jev-control-panel commit-msg gate/);
    assert.ok(hook.includes(`jev_node='${process.execPath}'`), hook);
    assert.ok(hook.includes(`jev_cli='${join(repoRoot(), 'dist', 'cli.js')}'`), hook);
    assert.ok(existsSync(join(hooks, 'commit-msg.jev-chained')));
    const removed = (await vscode.commands.executeCommand('jevPanel.uninstallCommitHook', { rootUri: vscode.Uri.file(dir) })) as { action: string };
    assert.equal(removed.action, 'restored');
    assert.equal(readFileSync(join(hooks, 'commit-msg'), 'utf8'), '#!/bin/sh\necho previous hook\n');
    assert.ok(!existsSync(join(hooks, 'commit-msg.jev-chained')));
  });
});
