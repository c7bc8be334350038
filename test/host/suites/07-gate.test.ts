/**
 * The commit gate in the editor, inside the real extension host: "Jev: Gate Staged
 * Changes" on a real temporary git repository opened in VS Code's Git extension, judged by a fake System
 * One server on 127.0.0.1 whose answers make the verdict auto, review or escalate. The verdict is recorded
 * (panel feed) and shown short, "Commit" commits only when the verdict is auto, "Commit Anyway" only for
 * review (recorded as an override), nothing is committed when the staged change moved after the gate, a
 * judge failure fails closed (fail-open offers Commit Anyway), a huge diff is judged partly and never auto,
 * and the hook commands install (the launcher only) and restore. The hook itself: 09-gate-hook.test.ts.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { JevPanelApi } from '../../../src/extension/api';
import type { GateRun } from '../../../src/extension/gate/gate-command';
import type { Repository } from '../../../src/extension/gate/git-api';
import type { GateVerdict } from '../../../src/gate/verdict';
import type { DecisionRecord } from '../../../src/ledger/record';
import { choice, startFakeSystemOne, type FakeSystemOne } from '../../helpers/fake-systemone';
import { approve, commits, dist, git, openGitRepository, setMessage as setBoxMessage } from '../gate-fixtures';
import { activateJev, repoRoot, resetSettings, setSetting } from '../helpers';

describe('commit gate (Gate Staged Changes)', function () {
  this.timeout(60_000);
  let api: JevPanelApi;
  let fake: FakeSystemOne;
  let dir: string;
  let repo: Repository;
  const verdicts: GateVerdict[] = [];

  const setMessage = (message: string) => setBoxMessage(repo, message);

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

    ({ dir, repo } = await openGitRepository('jev-gate-repo-'));
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
    assert.equal(run.verdict!.message, 'Jev gate: AUTO — every claim verified and the diff review accepted · claims 2/2 verified.');
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

  it('escalate: only "Override…" and "Open Details" are offered, and a "Commit" anyway commits nothing', async () => {
    fake.setAnswerer((req) => approve(req, () => choice('contradicted', 0.95, dist('contradicted', 0.95))));
    await stage('math.js', 'export const sub = (a, b) => b - a;\n', 'Make sub right\n\n- sub subtracts b from a\n');
    const before = commits(dir);
    const run = await gate('Commit');
    assert.equal(run.verdict!.action, 'escalate');
    assert.deepEqual(verdicts.at(-1)!.choices, ['Override…', 'Open Details']);
    assert.match(run.verdict!.message, /^Jev gate: ESCALATE — the evidence contradicts "sub subtracts b from a" \(confidence 0\.95\)/);
    assert.match(run.verdict!.message, /· claims 0\/1 verified\.$/);
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
    const override = api.feed().find((r) => r.kind === 'override' && r.time >= api.getRecord(run.verdict!.recordId!)!.time);
    assert.ok(override, 'accepting a review verdict is recorded as an override, not an approval');
    assert.equal(api.getRecord(override.id)!.decision_id, run.verdict!.recordId);
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
    assert.match(run.verdict!.message, /part of the change was not judged/);
    assert.match(run.verdict!.message, /Partial input \(\d+% judged\): never auto\./);
    assert.equal(run.committed, false);
    assert.equal(commits(dir), before);
    git(dir, 'reset', '-q');
  });

  it('installs the commit-msg hook (the stable launcher only, which runs the bundled CLI) and uninstalls it, restoring the previous hook', async () => {
    const hooks = join(dir, '.git', 'hooks');
    writeFileSync(join(hooks, 'commit-msg'), '#!/bin/sh\necho previous hook\n', { mode: 0o755 });
    const installed = (await vscode.commands.executeCommand('jevPanel.installCommitHook', { rootUri: vscode.Uri.file(dir) })) as { action: string; chainedPath?: string };
    assert.equal(installed.action, 'installed');
    const hook = readFileSync(join(hooks, 'commit-msg'), 'utf8');
    assert.match(hook, /jev-control-panel commit-msg gate/);
    assert.match(hook, /^jev_node=''$/m, 'no editor binary in the hook');
    assert.match(hook, /^jev_cli=''$/m, 'no versioned extension folder in the hook');
    const launcher = /^jev_launcher='(.*)'$/m.exec(hook)?.[1];
    assert.ok(launcher && existsSync(launcher), hook);
    const script = readFileSync(launcher, 'utf8');
    assert.ok(script.includes(`jev_node='${process.execPath}'`), script);
    assert.ok(script.includes(`jev_cli='${join(repoRoot(), 'dist', 'cli.js')}'`), script);
    assert.ok(existsSync(join(hooks, 'commit-msg.jev-chained')));
    const removed = (await vscode.commands.executeCommand('jevPanel.uninstallCommitHook', { rootUri: vscode.Uri.file(dir) })) as { action: string };
    assert.equal(removed.action, 'restored');
    assert.equal(readFileSync(join(hooks, 'commit-msg'), 'utf8'), '#!/bin/sh\necho previous hook\n');
    assert.ok(!existsSync(join(hooks, 'commit-msg.jev-chained')));
  });
});
