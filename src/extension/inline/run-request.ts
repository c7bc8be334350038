/**
 * Running a request file ("Run <tool>" lens, `jevPanel.runRequestFile`), choosing the agent request files
 * run as, and executing the call a decision accepted (`jevPanel.executeDecisionCall`) through the tool
 * registry under that agent's grants (registry/execute.ts: only handoff execute_tool with action auto, only
 * the exact call, recorded as an execution).
 */
import * as vscode from 'vscode';
import type { DecisionRecord } from '../../ledger/record';
import { acceptedCall, type ExecutionOutcome } from '../../registry/execute';
import type { CoreHost } from '../core-host';
import type { InlineDecisions } from './decisions';
import { showDecisionDocument } from './decision-document';
import { readRequestFile } from '../../request-files/read';
import { editorWording } from '../../config/editor-wording';

/** How to let `agent` run a tool, appended to a denial. */
function grantHint(agent: string): string {
  return `. To allow it, grant the tool to agent ${JSON.stringify(agent)} in the setting jevPanel.agents (or toggle it in the panel's Agents list)`;
}

/** workspaceState key of the agent request files run as. */
export const REQUEST_AGENT_KEY = 'jevPanel.requestAgent';

/** Options of a run (tests and other callers; the lens passes only the URI). */
export interface RunOptions {
  /** Agent to run as, instead of the remembered/picked one. */
  agent?: string;
}

export class RequestRunner {
  /** Decisions whose call was executed from the editor in this window (each accepted call runs once). */
  private readonly executed = new Set<string>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly core: CoreHost,
    private readonly decisions: InlineDecisions,
  ) {}

  /** Agent names from the settings (the `editor` default included), once the runtime is loaded. */
  private agents(): string[] {
    return this.core.loaded?.settings.agents.map((a) => a.name) ?? [];
  }

  /** Label of the agent lens: the remembered agent, the only one, or "choose agent". */
  agentLabel(): string {
    const names = this.agents();
    const stored = this.context.workspaceState.get<string>(REQUEST_AGENT_KEY);
    if (stored && names.includes(stored)) return stored;
    return names.length === 1 ? names[0]! : 'choose agent…';
  }

  /** Asks which agent request files run as (remembered for this workspace). Undefined when dismissed. */
  async chooseAgent(): Promise<string | undefined> {
    const runtime = await this.core.get();
    await runtime.ready;
    const stored = this.context.workspaceState.get<string>(REQUEST_AGENT_KEY);
    const pick = await vscode.window.showQuickPick(
      runtime.settings.agents.map((a) => ({ label: a.name, description: a.name === stored ? 'current' : undefined, detail: `grants: ${a.tools.join(', ') || 'none'}` })),
      { placeHolder: 'Agent that request files run as (its grants apply when an accepted call is executed)' },
    );
    if (!pick) return undefined;
    await this.context.workspaceState.update(REQUEST_AGENT_KEY, pick.label);
    this.decisions.changed();
    return pick.label;
  }

  private async agentFor(opts: RunOptions): Promise<string | undefined> {
    if (opts.agent) return opts.agent;
    const names = this.agents();
    const stored = this.context.workspaceState.get<string>(REQUEST_AGENT_KEY);
    if (stored && names.includes(stored)) return stored;
    if (names.length === 1) return names[0];
    return this.chooseAgent();
  }

  /**
   * Judges the request file `arg` (a Uri; default: the active editor's document) with its tool and shows
   * the decision inline. Returns the decision record, or undefined when nothing ran (the reason is shown).
   */
  async run(arg?: unknown, opts: RunOptions = {}): Promise<DecisionRecord | undefined> {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    if (!uri) {
      void vscode.window.showInformationMessage('Jev: open a *.jev.json request file to run it.');
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    if (!this.decisions.isRequest(doc)) {
      void vscode.window.showWarningMessage(`Jev: ${vscode.workspace.asRelativePath(uri)} is not a *.jev.json request file.`);
      return undefined;
    }
    const runtime = await this.core.get();
    await runtime.ready;
    const text = doc.getText();
    const request = readRequestFile(text, [...runtime.service.tools.keys()]);
    if (!request.ok) {
      void vscode.window.showWarningMessage(`Jev: ${vscode.workspace.asRelativePath(uri)}: ${request.reason}`);
      return undefined;
    }
    const agent = await this.agentFor(opts);
    if (!agent) return undefined;
    this.decisions.setRunning(uri, true);
    let record: DecisionRecord;
    try {
      const outcome = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: `Jev: judging ${vscode.workspace.asRelativePath(uri)} with ${request.tool}` },
        () => runtime.service.call(request.tool, request.input, { agent }),
      );
      record = outcome.record;
      if (!outcome.ok) {
        void vscode.window.showWarningMessage(`Jev: ${request.tool} failed: ${outcome.error.code}: ${editorWording(outcome.error.message)}`);
      }
    } finally {
      this.decisions.setRunning(uri, false);
    }
    this.decisions.setRun(uri, record, text);
    return record;
  }

  /**
   * The accepted call `record` may still execute from the editor, or undefined (none, already executed, or
   * not granted to the decision's agent: see `deniedCall`).
   */
  executable(record: DecisionRecord): { name: string; candidateId: string } | undefined {
    if (this.executed.has(record.id)) return undefined;
    const accepted = acceptedCall(record);
    if (!('call' in accepted) || this.permission(record.agent, accepted.call.name)?.allowed === false) return undefined;
    return { name: accepted.call.name, candidateId: accepted.call.candidate_id };
  }

  /** When `record` accepted a call its agent may not run: the tool and why (the lens shows it instead of Execute). */
  deniedCall(record: DecisionRecord): { name: string; reason: string } | undefined {
    if (this.executed.has(record.id)) return undefined;
    const accepted = acceptedCall(record);
    if (!('call' in accepted)) return undefined;
    const permission = this.permission(record.agent, accepted.call.name);
    return permission && !permission.allowed ? { name: accepted.call.name, reason: permission.reason } : undefined;
  }

  private permission(agent: string, tool: string): { allowed: boolean; reason: string } | undefined {
    return this.core.loaded?.agents.permission(agent, tool);
  }

  /**
   * Executes the call decision `id` accepted, as the agent the decision was judged for. Each decision's call
   * runs at most once from the editor. Returns the execution outcome (`executed: false` with the reason when
   * the decision does not allow it).
   */
  async execute(id: unknown): Promise<ExecutionOutcome> {
    const runtime = await this.core.get();
    await runtime.ready;
    const record = typeof id === 'string' ? runtime.feed.getRecord(id) : undefined;
    if (!record) return this.notExecuted(`no decision ${JSON.stringify(id)} is in memory or in the ledger`);
    const accepted = acceptedCall(record);
    if ('reason' in accepted) return this.notExecuted(accepted.reason);
    if (this.executed.has(record.id)) return this.notExecuted(`the call of decision ${record.id} was already executed from the editor; run the request again for a new decision`);
    this.executed.add(record.id);
    this.decisions.changed();
    const outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Jev: running ${accepted.call.name} as ${record.agent}…` },
      () => runtime.executeAccepted(record, record.agent),
    );
    if (!outcome.executed) {
      this.executed.delete(record.id);
      this.decisions.changed();
      return this.notExecuted(outcome.reason);
    }
    if (!outcome.ok) {
      // A failed execution ran nothing useful: keep the Execute lens so the user can retry after fixing it.
      this.executed.delete(record.id);
      this.decisions.changed();
    }
    const open = 'Open Result';
    const shown = outcome.ok
      ? vscode.window.showInformationMessage(`Jev: ${outcome.tool} ran as ${record.agent}.`, open)
      : vscode.window.showErrorMessage(`Jev: ${outcome.tool} failed as ${record.agent}: ${outcome.error.code}: ${editorWording(outcome.error.message)}${/CapabilityViolation/.test(outcome.error.message) ? grantHint(record.agent) : ''}`, open);
    void shown.then((choice) => (choice === open ? showDecisionDocument(outcome.record) : undefined));
    return outcome;
  }

  private notExecuted(reason: string): ExecutionOutcome {
    void vscode.window.showWarningMessage(`Jev: nothing was executed: ${reason}.`);
    return { executed: false, reason };
  }

  /** Opens decision `id` (or a picked recent one) as a read-only JSON document. */
  async openDocument(id: unknown): Promise<vscode.TextEditor | undefined> {
    const runtime = await this.core.get();
    await runtime.ready;
    let target = typeof id === 'string' ? runtime.feed.getRecord(id) : undefined;
    if (!target && typeof id === 'string') {
      void vscode.window.showWarningMessage(`Jev: decision ${id} is neither in memory nor in the ledger.`);
      return undefined;
    }
    if (!target) {
      const rows = runtime.feed.rows().slice(-50).reverse();
      if (rows.length === 0) {
        void vscode.window.showInformationMessage('Jev: no decisions yet.');
        return undefined;
      }
      const pick = await vscode.window.showQuickPick(
        rows.map((r) => ({ label: `${r.tool} — ${r.handoff ?? r.action ?? r.error ?? ''}`, description: `${r.agent} · ${r.time}`, id: r.id })),
        { placeHolder: 'Open a decision as JSON' },
      );
      target = pick ? runtime.feed.getRecord(pick.id) : undefined;
    }
    return target ? showDecisionDocument(target) : undefined;
  }
}

