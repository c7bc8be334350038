/**
 * The commit hook with the real extension running, inside the real extension host, on real temporary
 * repositories opened in VS Code's Git extension, judged by a fake System One server:
 * - a commit from a terminal (a child `git commit` without VS Code's variables and without any JEV_*
 *   backend) is judged by this editor through the hook channel and shows in the feed with its source;
 * - "Gate Staged Changes" then "Commit" (auto), "Commit Anyway" (review) or "Override…" with a reason
 *   (escalate) judges once: the hook honours the approval instead of asking the judge again;
 * - "Install Commit Hook" with only the mock judge offers Set API Key, Use Editor Chat Model and Install
 *   Anyway, installs nothing when dismissed, and installs an advisory-only hook on "Install Anyway".
 */
import * as assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { JevPanelApi } from '../../../src/extension/api';
import type { GateRun } from '../../../src/extension/gate/gate-command';
import type { Repository } from '../../../src/extension/gate/git-api';
import { choice, startFakeSystemOne, type FakeSystemOne } from '../../helpers/fake-systemone';
import { approve, commits, dist, git, openGitRepository, setMessage, terminalCommit } from '../gate-fixtures';
import { activateJev, resetSettings, setSetting, waitFor } from '../helpers';

describe('commit hook with the editor running', function () {
  this.timeout(90_000);
  let api: JevPanelApi;
  let fake: FakeSystemOne;
  let dir: string;
  let repo: Repository;

  const install = () => vscode.commands.executeCommand('jevPanel.installCommitHook', { rootUri: vscode.Uri.file(dir) }) as Thenable<{ action: string } | undefined>;

  before(async () => {
    api = await activateJev();
    await resetSettings(api);
    fake = await startFakeSystemOne({ answerer: (req) => approve(req) });
    await setSetting(api, 'provider', 'systemone');
    await setSetting(api, 'baseUrl', fake.url);
    await api.inline.ready();
    ({ dir, repo } = await openGitRepository('jev-hook-repo-'));
    const channel = (await waitFor('the commit hook channel', () => api.inline.hookChannel()))!;
    // The channel's session file names the repositories open here; the hook finds the editor through it.
    await waitFor('the session file to name the repository', () => {
      try {
        return (JSON.parse(readFileSync(channel.sessionFile, 'utf8')) as { roots: string[] }).roots.includes(dir);
      } catch {
        return false;
      }
    });
    const installed = await install();
    assert.equal(installed?.action, 'installed');
  });

  after(async () => {
    api.inline.setGateHooks({});
    await resetSettings(api);
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a terminal commit is judged by this editor and its verdict appears in the feed as 'commit hook, terminal'", async () => {
    writeFileSync(join(dir, 'math.js'), 'export const add = (a, b) => a + b;\n');
    git(dir, 'add', 'math.js');
    const before = fake.count();
    const r = await terminalCommit(dir, ['-m', 'Shorten add\n\n- add still adds']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fake.count(), before + 1, "judged once, by the editor's backend (the terminal has none)");
    assert.match(r.stderr, /^jev gate: passed \(auto\)/m);
    assert.match(r.stderr, /judged by {3}the editor \(.*: systemone jev-latest, jevPanel\.provider is systemone\)/);
    const row = (await waitFor('the hook verdict in the feed', () => api.feed().find((f) => f.source === 'commit hook, terminal')))!;
    assert.deepEqual([row.tool, row.agent, row.action, row.kind], ['jev_gate', 'hook', 'auto', 'decision']);
    assert.deepEqual((api.getRecord(row.id)!.input as { claims: string[] }).claims, ['add still adds']);
  });

  it('Gate Staged Changes then Commit: one judgment, the hook honours the approval', async () => {
    writeFileSync(join(dir, 'math.js'), 'export const add = (a, b) => a + b;\nexport const sub = (a, b) => a - b;\n');
    git(dir, 'add', 'math.js');
    await setMessage(repo, 'Add sub()\n\n- sub subtracts b from a\n');
    const before = fake.count();
    const count = commits(dir);
    api.inline.setGateHooks({ choose: () => 'Commit' });
    const run = (await vscode.commands.executeCommand('jevPanel.gateStagedChanges', { rootUri: vscode.Uri.file(dir) })) as GateRun;
    assert.equal(run.verdict?.action, 'auto', run.verdict?.message);
    assert.equal(run.committed, true, run.note);
    assert.equal(commits(dir), count + 1, 'the commit went through the installed hook');
    assert.equal(fake.count(), before + 1, 'one judgment per commit: the hook did not judge again');
    assert.equal(git(dir, 'log', '-1', '--format=%B').trim(), 'Add sub()\n\n- sub subtracts b from a');
    assert.ok(!api.feed().some((f) => f.source?.startsWith('commit hook') && f.time > api.getRecord(run.verdict!.recordId!)!.time), 'no hook decision after the gate');
  });

  it('Commit Anyway after review: one judgment, recorded as an override; the hook honours it', async () => {
    fake.setAnswerer((req) => approve(req, () => choice('unsupported', 0.9, dist('unsupported', 0.9))));
    writeFileSync(join(dir, 'notes.md'), '# notes\n');
    git(dir, 'add', 'notes.md');
    await setMessage(repo, 'Add notes\n\n- notes exist\n');
    const before = fake.count();
    const count = commits(dir);
    api.inline.setGateHooks({ choose: () => 'Commit Anyway' });
    const run = (await vscode.commands.executeCommand('jevPanel.gateStagedChanges', { rootUri: vscode.Uri.file(dir) })) as GateRun;
    assert.equal(run.verdict?.action, 'review');
    assert.equal(run.committed, true, run.note);
    assert.equal(commits(dir), count + 1);
    assert.equal(fake.count(), before + 1, 'the review verdict was not asked for again by the hook');
    assert.ok(api.feed().some((f) => f.kind === 'override' && api.getRecord(f.id)?.decision_id === run.verdict!.recordId));
    fake.setAnswerer((req) => approve(req));
  });

  it('Override… after escalate needs a reason; it is recorded as an override and the hook honours it (one judgment)', async () => {
    fake.setAnswerer((req) => approve(req, () => choice('contradicted', 0.95, dist('contradicted', 0.95))));
    writeFileSync(join(dir, 'math.js'), 'export const add = (a, b) => a + b;\nexport const sub = (a, b) => b - a;\n');
    git(dir, 'add', 'math.js');
    await setMessage(repo, 'Flip sub\n\n- sub subtracts b from a\n');
    const count = commits(dir);
    api.inline.setGateHooks({ choose: () => 'Override…', askOverrideReason: () => undefined });
    const dismissed = (await vscode.commands.executeCommand('jevPanel.gateStagedChanges', { rootUri: vscode.Uri.file(dir) })) as GateRun;
    assert.equal(dismissed.verdict?.action, 'escalate');
    assert.equal(dismissed.committed, false);
    assert.equal(commits(dir), count, 'no reason, no override');

    const before = fake.count();
    api.inline.setGateHooks({ choose: () => 'Override…', askOverrideReason: () => 'the test itself is wrong, fixed next' });
    const run = (await vscode.commands.executeCommand('jevPanel.gateStagedChanges', { rootUri: vscode.Uri.file(dir) })) as GateRun;
    assert.equal(run.committed, true, run.note);
    assert.equal(commits(dir), count + 1);
    assert.equal(fake.count(), before + 1, 'the hook did not judge again');
    const override = api.feed().find((f) => f.kind === 'override' && api.getRecord(f.id)?.decision_id === run.verdict!.recordId)!;
    assert.ok(override, 'recorded as an override');
    assert.deepEqual(api.getRecord(override.id)!.result, { action: 'override', overridden_action: 'escalate', reason: 'the test itself is wrong, fixed next' });
    assert.equal((api.getRecord(run.verdict!.recordId!)!.result as { action: string }).action, 'escalate', 'the decision keeps its verdict');
    fake.setAnswerer((req) => approve(req));
  });

  it('Install Commit Hook with only the mock judge: the three choices; dismissed installs nothing, Install Anyway an advisory hook', async () => {
    git(dir, 'config', 'core.hooksPath', '.git/hooks-mock');
    await setSetting(api, 'provider', 'mock');
    const asked: { message: string; choices: readonly string[] }[] = [];
    api.inline.setGateHooks({
      chooseInstall: (message, choices) => {
        asked.push({ message, choices });
        return undefined;
      },
    });
    assert.equal(await install(), undefined);
    assert.deepEqual(asked[0]!.choices, ['Set API Key', 'Use Editor Chat Model', 'Install Anyway']);
    assert.match(asked[0]!.message, /would block every commit with "no judgment backend"/);
    assert.throws(() => readFileSync(join(dir, '.git', 'hooks-mock', 'commit-msg')), 'nothing was installed');

    api.inline.setGateHooks({ chooseInstall: () => 'Install Anyway' });
    assert.equal((await install())?.action, 'installed');
    const hook = readFileSync(join(dir, '.git', 'hooks-mock', 'commit-msg'), 'utf8');
    assert.match(hook, / --allow-mock --message-file /);
    writeFileSync(join(dir, 'notes.md'), '# notes\nmore\n');
    git(dir, 'add', 'notes.md');
    const r = await terminalCommit(dir, ['-m', 'More notes']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr.split('\n')[0]!, /^jev gate: advisory only \(mock judge, not a real judgment\)/);
    git(dir, 'config', '--unset', 'core.hooksPath');
    await setSetting(api, 'provider', 'systemone');
  });
});
