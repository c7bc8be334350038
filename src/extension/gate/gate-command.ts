/**
 * "Jev: Gate Staged Changes" (`jevPanel.gateStagedChanges`, the Source Control title button): jev_gate on
 * the staged diff, with the SCM input box as the message, its bullet lines as claims (asked for when there
 * are none), and the output of `jevPanel.gate.evidenceCommand` as evidence (run with progress and a time
 * limit). The request is gate/request.ts `buildGateRequest`, as for `jevcp gate`, and the diff is read with
 * the same git command (through the Git extension's git executable). The verdict is recorded (so it appears
 * in the panel's feed) and shown in a notification whose "Commit" exists only for auto and "Commit Anyway"
 * only for review. VS Code has no API to run a check before its own commits: this is the ahead-of-time
 * check; the commit-msg hook is what gates every commit path.
 */
import * as vscode from 'vscode';
import { splitClaims } from '../../gate/claims';
import { runEvidenceCommand, type EvidenceRun } from '../../gate/evidence-command';
import { stagedDiff, type GitOptions } from '../../gate/git';
import { hookStatus } from '../../gate/hook/status';
import { buildGateRequest, NOTHING_STAGED, nothingStaged, readGateMessage, type GateRequest } from '../../gate/request';
import type { CommitMessage } from '../../gate/commit-message';
import type { JevError } from '../../judgment/errors';
import type { CoreHost } from '../core-host';
import { EDITOR_GATE_WORDING } from '../../gate/editor-wording';
import { readGateSettings, type GateSettingKey, type GateSettings } from '../../config/gate-settings';
import { gitApi, pickRepository } from './git';
import type { Repository } from './git-api';
import { gateVerdict, type GateChoice, type GateVerdict } from '../../gate/verdict';

/** Agent the editor's gate runs as (it is the editor's own action). */
export const GATE_AGENT = 'editor';

/** Replacements for the two prompts, for tests (a test cannot click a notification). */
export interface GateHooks {
  /** Stands in for the verdict notification: returns the button "clicked", or undefined (dismissed). */
  choose?: (verdict: GateVerdict) => GateChoice | undefined | Promise<GateChoice | undefined>;
  /** Stands in for the claims input box: the typed text, or undefined (dismissed). */
  askClaims?: () => string | undefined | Promise<string | undefined>;
}

/** What one run of the gate command did. */
export interface GateRun {
  status: 'judged' | 'failed' | 'nothing-staged' | 'no-message' | 'no-repository' | 'cancelled';
  verdict?: GateVerdict;
  /** Buttons chosen, in order (Open Details re-shows the verdict without itself). */
  choices: GateChoice[];
  committed: boolean;
  /** Why the run stopped, or why a chosen commit did not happen. */
  note?: string;
}

/** Reads `jevPanel.gate.*` with the Workspace Trust rules of gate-settings.ts. */
export function currentGateSettings(): GateSettings {
  const config = vscode.workspace.getConfiguration('jevPanel');
  return readGateSettings((key: GateSettingKey) => config.inspect(key), vscode.workspace.isTrusted);
}

/** The gate command; `hooks` may be replaced by the host tests. */
export class CommitGate {
  hooks: GateHooks = {};

  constructor(private readonly core: CoreHost) {}

  private log(level: 'info' | 'warn' | 'error', message: string): void {
    this.core.loaded?.log[level](message);
  }

  /** Runs the gate on the repository `arg` names (SCM source control, Uri, `{repository}`), or the only/picked one. */
  async run(arg?: unknown): Promise<GateRun> {
    const runtime = await this.core.get();
    await runtime.ready;
    let picked: Repository | undefined;
    let git: GitOptions;
    try {
      const api = await gitApi();
      git = { gitPath: api.git.path };
      picked = await pickRepository(api, arg, 'Repository whose staged changes to gate');
    } catch (err) {
      return this.stop('no-repository', `Jev: ${(err as Error).message}`, 'error');
    }
    if (!picked) return this.stop('no-repository', 'Jev: open a folder with a git repository to gate its staged changes.', 'info');
    const repo = picked;

    const settings = currentGateSettings();
    for (const p of settings.problems) this.log('warn', p);
    const message = repo.inputBox.value;
    let diff: string;
    try {
      diff = await stagedDiff(repo.rootUri.fsPath, git);
    } catch (err) {
      return this.stop('failed', `Jev: the staged diff could not be read: ${(err as Error).message}`, 'error');
    }
    if (nothingStaged(diff)) return this.stop('nothing-staged', `Jev: ${NOTHING_STAGED}. Stage the changes to gate first.`, 'info');
    let parsed: CommitMessage;
    try {
      parsed = readGateMessage(message, EDITOR_GATE_WORDING);
    } catch (err) {
      return this.stop('no-message', `Jev: ${(err as Error).message}`, 'warning');
    }
    let typedClaims: string[] | undefined;
    if (parsed.bullets.length === 0) {
      const typed = this.hooks.askClaims
        ? await this.hooks.askClaims()
        : await vscode.window.showInputBox({
            title: 'Jev: Gate Staged Changes',
            prompt: 'The message has no "- " bullet lines. Which claims should the gate verify against the evidence? Separate them with ";". Leave empty to judge the subject line.',
            ignoreFocusOut: true,
          });
      if (typed === undefined) return { status: 'cancelled', choices: [], committed: false, note: 'claims prompt dismissed' };
      typedClaims = splitClaims(typed);
    }

    const judged = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Jev gate', cancellable: true },
      async (progress, token) => {
        let evidence: EvidenceRun | undefined;
        if (settings.evidenceCommand) {
          progress.report({ message: `running ${settings.evidenceCommand} (time limit ${Math.round(settings.evidenceTimeoutMs / 1000)} s)…` });
          evidence = await runEvidenceCommand(settings.evidenceCommand, repo.rootUri.fsPath, settings.evidenceTimeoutMs);
          this.log('info', `gate evidence: ${settings.evidenceCommand} → ${evidence.timedOut ? 'timed out' : evidence.startError ?? `exit ${evidence.exitCode}`} in ${evidence.durationMs} ms`);
        }
        if (token.isCancellationRequested) return undefined;
        const request: GateRequest = buildGateRequest({ message, diff, claims: typedClaims, evidence }, EDITOR_GATE_WORDING);
        progress.report({ message: `judging ${request.input.claims.length} claim${request.input.claims.length === 1 ? '' : 's'} and the staged diff…` });
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        try {
          return { request, outcome: await runtime.service.call('jev_gate', request.input, { agent: GATE_AGENT, signal: abort.signal }) };
        } finally {
          sub.dispose();
        }
      },
    );
    if (!judged) return { status: 'cancelled', choices: [], committed: false, note: 'cancelled while the evidence command ran' };

    const { request, outcome } = judged;
    const verdict = gateVerdict(
      outcome.ok ? { ok: true, result: outcome.result, recordId: outcome.record.id } : { ok: false, error: outcome.error as JevError, recordId: outcome.record.id },
      { failOpen: settings.failOpen, notes: request.notes },
    );
    this.log('info', verdict.message);
    const run: GateRun = { status: outcome.ok ? 'judged' : 'failed', verdict, choices: [], committed: false };
    let offered = verdict.choices;
    for (;;) {
      const choice = await this.ask(verdict, offered);
      if (choice === undefined) return run;
      run.choices.push(choice);
      if (!offered.includes(choice)) {
        run.note = `"${choice}" is not offered for this verdict (${verdict.action ?? verdict.errorCode}); nothing was committed.`;
        return run;
      }
      if (choice === 'Open Details') {
        await vscode.commands.executeCommand('jevPanel.openDecision', verdict.recordId);
        offered = offered.filter((c) => c !== 'Open Details');
        if (offered.length === 0) return run;
        continue;
      }
      const done = await this.commit(repo, git, { diff, message }, choice);
      run.committed = done.committed;
      if (done.note) run.note = done.note;
      return run;
    }
  }

  private async ask(verdict: GateVerdict, choices: GateChoice[]): Promise<GateChoice | undefined> {
    if (this.hooks.choose) return this.hooks.choose({ ...verdict, choices });
    const show =
      verdict.severity === 'info' ? vscode.window.showInformationMessage : verdict.severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showErrorMessage;
    return (await show(verdict.message, ...choices)) as GateChoice | undefined;
  }

  /**
   * Commits exactly what was gated: refuses when the staged diff or the message changed since. "Commit"
   * lets every commit hook run (the Jev hook, if installed, judges again); "Commit Anyway" skips hooks
   * (`--no-verify`) only when the Jev hook is installed, since it would block a review verdict.
   */
  private async commit(repo: Repository, git: GitOptions, gated: { diff: string; message: string }, choice: 'Commit' | 'Commit Anyway'): Promise<{ committed: boolean; note?: string }> {
    const now = await stagedDiff(repo.rootUri.fsPath, git).catch(() => undefined);
    if (now !== gated.diff) {
      return this.refuse('Jev: the staged changes changed after the gate ran; nothing was committed. Gate them again.');
    }
    if (repo.inputBox.value !== gated.message) {
      return this.refuse('Jev: the commit message changed after the gate ran; nothing was committed. Gate it again.');
    }
    let noVerify = false;
    if (choice === 'Commit Anyway') noVerify = (await hookStatus({ repoDir: repo.rootUri.fsPath, gitPath: git.gitPath }).catch(() => undefined))?.installed === true;
    try {
      await repo.commit(gated.message, noVerify ? { noVerify: true } : undefined);
    } catch (err) {
      const detail = ((err as { stderr?: unknown }).stderr as string | undefined)?.trim() || (err as Error)?.message || String(err);
      this.log('error', `commit failed: ${detail}`);
      void vscode.window.showErrorMessage(`Jev: the commit failed: ${detail}`);
      return { committed: false, note: `commit failed: ${detail}` };
    }
    repo.inputBox.value = '';
    const note = noVerify
      ? 'Committed with --no-verify: the Jev commit hook would block a review verdict (other commit hooks were skipped too).'
      : choice === 'Commit Anyway'
        ? 'Committed despite the review verdict.'
        : 'Committed.';
    this.log('info', `gate: ${choice} → ${note}`);
    void vscode.window.showInformationMessage(`Jev: ${note}`);
    return { committed: true, note };
  }

  private refuse(message: string): { committed: false; note: string } {
    void vscode.window.showWarningMessage(message);
    return { committed: false, note: message };
  }

  private stop(status: GateRun['status'], message: string, level: 'info' | 'warning' | 'error'): GateRun {
    const show = level === 'info' ? vscode.window.showInformationMessage : level === 'warning' ? vscode.window.showWarningMessage : vscode.window.showErrorMessage;
    void show(message);
    return { status, choices: [], committed: false, note: message };
  }
}
