/**
 * The commit after "Gate Staged Changes": exactly what was gated (refused when the staged change or the
 * message moved since), judged once. The accepted verdict is left for the commit hook as an approval bound
 * to this commit (src/gate/approval.ts), so the hook, if installed, honours it instead of judging again;
 * "Commit Anyway" after review and "Override…" after escalate are also recorded as override records (never
 * approvals). A mock verdict is never handed on: the hook then applies its own rules.
 */
import * as vscode from 'vscode';
import { commitBinding, discardApproval, writeApproval, type AcceptedAs, type ApprovalBinding } from '../../gate/approval';
import { stagedDiff, type GitOptions } from '../../gate/git';
import { hookStatus } from '../../gate/hook/status';
import type { MessageRules } from '../../gate/message-rules';
import { overrideRecord } from '../../gate/override';
import { stateDir } from '../../gate/state-dir';
import type { DecisionRecord } from '../../ledger/record';
import type { JevRuntime } from '../runtime';
import type { Repository } from './git-api';
import type { GateChoice, GateVerdict } from '../../gate/verdict';

/** Source of the editor's own gate decisions in the feed. */
export const GATE_SOURCE = 'Gate Staged Changes';
/** The reason recorded for "Commit Anyway" after a review verdict. */
export const COMMIT_ANYWAY_REASON = 'accepted the review verdict in the editor (Commit Anyway)';

/** What the user chose, on which verdict. */
export interface CommitChoice {
  choice: GateChoice;
  verdict: GateVerdict;
  /** The jev_gate decision record. */
  decision: DecisionRecord;
  /** The override reason typed for "Override…". */
  reason?: string;
}

/** What the commit did. */
export interface CommitResult {
  committed: boolean;
  note?: string;
  /** The override record written, for "Commit Anyway" and "Override…". */
  overrideRecordId?: string;
}

function refuse(message: string): CommitResult {
  void vscode.window.showWarningMessage(message);
  return { committed: false, note: message };
}

/**
 * Commits `gated.message` in `repo` after checking nothing moved; see the file comment for what is handed
 * to the hook. A judge failure with fail-open on ("Commit Anyway") skips the hooks (`--no-verify`) when the
 * Jev hook is installed, since that commit is unjudged on purpose.
 */
export async function commitGated(
  runtime: JevRuntime,
  repo: Repository,
  git: GitOptions,
  gated: { diff: string; message: string; rules: MessageRules },
  chosen: CommitChoice,
): Promise<CommitResult> {
  const root = repo.rootUri.fsPath;
  const now = await stagedDiff(root, git).catch(() => undefined);
  if (now !== gated.diff) return refuse('Jev: the staged changes changed after the gate ran; nothing was committed. Gate them again.');
  if (repo.inputBox.value !== gated.message) return refuse('Jev: the commit message changed after the gate ran; nothing was committed. Gate it again.');

  const { verdict } = chosen;
  const failure = verdict.errorCode !== undefined;
  let overrideRecordId: string | undefined;
  let binding: ApprovalBinding | undefined;
  let state: string | undefined;
  if (!failure && !verdict.mock) {
    const reason = chosen.choice === 'Override…' ? chosen.reason : chosen.choice === 'Commit Anyway' ? COMMIT_ANYWAY_REASON : undefined;
    if (reason) {
      const record = overrideRecord({ decision: chosen.decision, reason, agent: 'editor', source: GATE_SOURCE });
      await runtime.recordOutside(record);
      overrideRecordId = record.id;
    }
    const acceptedAs: AcceptedAs = chosen.choice === 'Commit' ? 'approved' : chosen.choice === 'Commit Anyway' ? 'accepted' : 'overridden';
    try {
      state = stateDir(process.env);
      binding = await commitBinding(root, gated.message, gated.rules, git);
      await writeApproval(state, binding, { recordId: chosen.decision.id, action: verdict.action ?? 'escalate', acceptedAs, ...(overrideRecordId ? { overrideRecordId } : {}), ...(reason ? { reason } : {}) });
    } catch (err) {
      // The commit still happens; an installed hook then judges it again.
      runtime.log.warn(`gate: the approval for the commit hook could not be written (${(err as Error)?.message ?? String(err)}); the hook will judge this commit again`);
      binding = undefined;
    }
  }
  const noVerify = failure && chosen.choice === 'Commit Anyway' && (await hookStatus({ repoDir: root, gitPath: git.gitPath }).catch(() => undefined))?.installed === true;
  try {
    await repo.commit(gated.message, noVerify ? { noVerify: true } : undefined);
  } catch (err) {
    const detail = ((err as { stderr?: unknown }).stderr as string | undefined)?.trim() || (err as Error)?.message || String(err);
    runtime.log.error(`commit failed: ${detail}`);
    void vscode.window.showErrorMessage(`Jev: the commit failed: ${detail.split('\n')[0]}`);
    return { committed: false, note: `commit failed: ${detail}`, ...(overrideRecordId ? { overrideRecordId } : {}) };
  } finally {
    if (binding && state) await discardApproval(state, binding);
  }
  repo.inputBox.value = '';
  const note = noVerify
    ? 'Committed UNJUDGED with --no-verify (fail-open): the judge failed, and other commit hooks were skipped too.'
    : chosen.choice === 'Override…'
      ? 'Committed over the escalate verdict; recorded as an override.'
      : chosen.choice === 'Commit Anyway'
        ? 'Committed despite the review verdict; recorded as an override.'
        : 'Committed.';
  runtime.log.info(`gate: ${chosen.choice} → ${note}`);
  void vscode.window.showInformationMessage(`Jev: ${note}`);
  return { committed: true, note, ...(overrideRecordId ? { overrideRecordId } : {}) };
}
