/**
 * CodeLenses of request files and decision documents: "Run <tool>" and the
 * agent it runs as; after a run the decision headline (`execute_tool · auto · 0.92 ≥ 0.80`) opening it in
 * the decision panel, "Open JSON" (the read-only decision document), and "Execute" only when the decision
 * accepted a call.
 */
import * as vscode from 'vscode';
import type { DecisionRecord } from '../../ledger/record';
import type { InlineDecisions } from './decisions';
import { headline, type Tone } from '../../panel/explain';
import { INLINE_COMMANDS } from './ids';


/** Codicon of a tone. */
export const TONE_ICON: Record<Tone, string> = { good: '$(pass)', warn: '$(warning)', bad: '$(error)', neutral: '$(info)' };

/** What the lenses need besides the decisions. */
export interface LensDeps {
  decisions: InlineDecisions;
  /** Agent request files run as (label of the agent lens). */
  agentLabel(): string;
  /** The accepted call `record` may still execute from the editor, or undefined. */
  executable(record: DecisionRecord): { name: string; candidateId: string } | undefined;
  /** The accepted call `record`'s agent may not run, and why (shown instead of Execute). */
  deniedCall?(record: DecisionRecord): { name: string; reason: string } | undefined;
}

export class InlineCodeLenses implements vscode.CodeLensProvider {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.emitter.event;

  constructor(private readonly deps: LensDeps) {}

  /** Asks the editor to recompute the lenses. */
  refresh(): void {
    this.emitter.fire();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const view = this.deps.decisions.view(doc);
    if (!view) return [];
    const at = view.root ? doc.positionAt(view.root.start) : new vscode.Position(0, 0);
    const range = new vscode.Range(at, at);
    const lens = (title: string, command = '', args: unknown[] = [], tooltip?: string) =>
      new vscode.CodeLens(range, { title, command, arguments: args, ...(tooltip ? { tooltip } : {}) });
    const lenses: vscode.CodeLens[] = [];

    if (view.kind === 'request') {
      const request = view.request!;
      if (this.deps.decisions.isRunning(doc.uri)) lenses.push(lens(`$(sync~spin) Judging with ${request.ok ? request.tool : 'the tool'}…`));
      else if (!request.ok) lenses.push(lens(`$(warning) Cannot run: ${request.reason}`));
      else {
        lenses.push(lens(`$(play) Run ${request.tool}`, INLINE_COMMANDS.run, [doc.uri], `Judge this request with ${request.tool} and show the decision inline`));
        lenses.push(lens(`$(person) as ${this.deps.agentLabel()}`, INLINE_COMMANDS.chooseAgent, [], 'The agent the request runs as; its grants apply when a call is executed'));
      }
    }
    const record = view.record;
    if (record) {
      const h = headline(record);
      const edited = view.stale ? '(file edited since) ' : '';
      if (record.kind === 'execution') {
        const outcome = record.error ? `${record.error.code}` : 'ok';
        lenses.push(lens(`${record.error ? TONE_ICON.bad : TONE_ICON.good} executed ${record.tool} as ${record.agent}: ${outcome}`, INLINE_COMMANDS.openDecision, [record.id]));
        if (record.decision_id) lenses.push(lens('$(json) Open the decision', INLINE_COMMANDS.openDocument, [record.decision_id]));
        return lenses;
      }
      lenses.push(lens(`${TONE_ICON[h.tone]} ${edited}${h.text}`, INLINE_COMMANDS.openDecision, [record.id], `${record.tool} decision ${record.id}: open it in the decision panel`));
      if (view.kind === 'request') lenses.push(lens('$(json) Open JSON', INLINE_COMMANDS.openDocument, [record.id], 'The recorded decision as a read-only JSON document'));
      const call = view.stale ? undefined : this.deps.executable(record);
      if (call) {
        lenses.push(lens(`$(run) Execute ${call.name}`, INLINE_COMMANDS.execute, [record.id], `Run candidate ${call.candidateId} exactly as prepared, as agent ${record.agent}, through the tool registry`));
      }
      const denied = view.stale ? undefined : this.deps.deniedCall?.(record);
      if (denied) {
        lenses.push(
          lens(`$(lock) ${denied.name}: ${record.agent} may not run it`, 'workbench.action.openSettings', ['jevPanel.agents'], `${denied.reason}. Grant the tool to agent ${record.agent} in jevPanel.agents to execute it.`),
        );
      }
    }
    return lenses;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
