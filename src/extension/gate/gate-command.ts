/**
 * "Jev: Gate Staged Changes" (`jevPanel.gateStagedChanges`, the Source Control title button): jev_gate on
 * the staged diff, with the SCM input box as the message, its bullet lines as claims (asked for when there
 * are none), and the output of `jevPanel.gate.evidenceCommand` as evidence (run with progress and a time
 * limit). The request is gate/request.ts `buildGateRequest`, as for `jevcp gate`, and the diff is read with
 * the same git command (through the Git extension's git executable), and the message read as git will commit
 * it. The verdict is recorded (so it appears in the panel's feed) and shown in a short notification whose
 * "Commit" exists only for auto, "Commit Anyway" only for review and "Override…" only for escalate; the
 * commit that follows is handed to the commit hook as already judged (gate-commit.ts). VS Code has no API to
 * run a check before its own commits: this is the ahead-of-time check; the commit-msg hook is what gates
 * every commit path.
 */
import * as vscode from 'vscode';
import { splitClaims } from '../../gate/claims';
import { runEvidenceCommand, type EvidenceRun } from '../../gate/evidence-command';
import { stagedDiff, type GitOptions } from '../../gate/git';
import { readMessageRules, type MessageRules } from '../../gate/message-rules';
import { overrideReasonProblem } from '../../gate/override';
import { buildGateRequest, NOTHING_STAGED, nothingStaged, readGateMessage, type GateRequest } from '../../gate/request';
import type { CommitMessage } from '../../gate/commit-message';
import type { JevError } from '../../judgment/errors';
import type { CoreHost } from '../core-host';
import { EDITOR_GATE_WORDING } from '../../gate/editor-wording';
import { commitGated, GATE_SOURCE } from './gate-commit';
import { readGateSettings, type GateSettingKey, type GateSettings } from '../../config/gate-settings';
import { gitApi, pickRepository } from './git';
import type { Repository } from './git-api';
import type { InstallPrompts } from './install-hook-command';
import { gateVerdict, type GateChoice, type GateVerdict } from '../../gate/verdict';

/** Agent the editor's gate runs as (it is the editor's own action). */
export const GATE_AGENT = 'editor';

/** Replacements for the prompts, for tests (a test cannot click a notification). */
export interface GateHooks extends InstallPrompts {
  /** Stands in for the verdict notification: returns the button "clicked", or undefined (dismissed). */
  choose?: (verdict: GateVerdict) => GateChoice | undefined | Promise<GateChoice | undefined>;
  /** Stands in for the claims input box: the typed text, or undefined (dismissed). */
  askClaims?: () => string | undefined | Promise<string | undefined>;
  /** Stands in for the override reason input box: the typed reason, or undefined (dismissed). */
  askOverrideReason?: () => string | undefined | Promise<string | undefined>;
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
    let messageRules: MessageRules;
    try {
      diff = await stagedDiff(repo.rootUri.fsPath, git);
      // The Git extension commits the box's text without opening an editor: git's rules for a given message.
      messageRules = await readMessageRules(repo.rootUri.fsPath, false, git);
    } catch (err) {
      return this.stop('failed', `Jev: the staged diff could not be read: ${(err as Error).message}`, 'error');
    }
    if (nothingStaged(diff)) return this.stop('nothing-staged', `Jev: ${NOTHING_STAGED}. Stage the changes to gate first.`, 'info');
    let parsed: CommitMessage;
    try {
      parsed = readGateMessage(message, EDITOR_GATE_WORDING, messageRules);
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
        const request: GateRequest = buildGateRequest({ message, messageRules, diff, claims: typedClaims, evidence }, EDITOR_GATE_WORDING);
        progress.report({ message: `judging ${request.input.claims.length} claim${request.input.claims.length === 1 ? '' : 's'} and the staged diff…` });
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        try {
          return { request, outcome: await runtime.service.call('jev_gate', request.input, { agent: GATE_AGENT, signal: abort.signal, source: GATE_SOURCE }) };
        } finally {
          sub.dispose();
        }
      },
    );
    if (!judged) return { status: 'cancelled', choices: [], committed: false, note: 'cancelled while the evidence command ran' };

    const { request, outcome } = judged;
    const verdict = gateVerdict(
      outcome.ok ? { ok: true, result: outcome.result, recordId: outcome.record.id } : { ok: false, error: outcome.error as JevError, recordId: outcome.record.id },
      { failOpen: settings.failOpen, notes: request.notes, mock: outcome.record.provider === 'mock' },
    );
    this.log('info', verdict.message);
    for (const d of verdict.details) this.log('info', `gate: ${d}`);
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
      let reason: string | undefined;
      if (choice === 'Override…') {
        reason = await this.askOverrideReason(verdict);
        if (reason === undefined) {
          run.note = 'override dismissed; nothing was committed';
          return run;
        }
      }
      const done = await commitGated(runtime, repo, git, { diff, message, rules: messageRules }, { choice, verdict, decision: outcome.record, ...(reason ? { reason } : {}) });
      run.committed = done.committed;
      if (done.note) run.note = done.note;
      return run;
    }
  }

  private async ask(verdict: GateVerdict, choices: GateChoice[]): Promise<GateChoice | undefined> {
    if (this.hooks.choose) return this.hooks.choose({ ...verdict, choices });
    return (await showBySeverity(verdict.severity, verdict.message, choices)) as GateChoice | undefined;
  }

  private async askOverrideReason(verdict: GateVerdict): Promise<string | undefined> {
    const typed = this.hooks.askOverrideReason
      ? await this.hooks.askOverrideReason()
      : await vscode.window.showInputBox({
          title: `Jev: Override the ${verdict.action ?? ''} verdict`,
          prompt: 'Why does this commit go in despite the verdict? The reason is recorded in the ledger as an override (not an approval).',
          ignoreFocusOut: true,
          validateInput: (v) => overrideReasonProblem(v),
        });
    if (typed === undefined || overrideReasonProblem(typed)) return undefined;
    return typed.trim();
  }

  private stop(status: GateRun['status'], message: string, level: 'info' | 'warning' | 'error'): GateRun {
    void showBySeverity(level, message, []);
    return { status, choices: [], committed: false, note: message };
  }
}

/** A notification of `level` with `buttons`; resolves to the button clicked. */
export function showBySeverity(level: 'info' | 'warning' | 'error', message: string, buttons: readonly string[]): Thenable<string | undefined> {
  const show = level === 'info' ? vscode.window.showInformationMessage : level === 'warning' ? vscode.window.showWarningMessage : vscode.window.showErrorMessage;
  return show(message, ...buttons);
}
