/**
 * The "Execute call" code action: offered only when the decision shown allows
 * it — a jev_step / jev_tool_route decision with handoff execute_tool and action auto (registry/execute.ts
 * `acceptedCall`), not yet executed from the editor, on a request file unchanged since the run — and only
 * on the returned candidate or the document's first line. The call runs through the tool registry under the
 * decision's agent's grants.
 */
import * as vscode from 'vscode';
import type { DecisionRecord } from '../../ledger/record';
import type { InlineDecisions } from './decisions';
import { EXECUTE_KIND_VALUE, INLINE_COMMANDS } from './ids';

/** Kind of the action (`jev.executeCall`). */
export const EXECUTE_KIND = vscode.CodeActionKind.Empty.append(EXECUTE_KIND_VALUE);

export class InlineCodeActions implements vscode.CodeActionProvider {
  constructor(
    private readonly decisions: InlineDecisions,
    private readonly executable: (record: DecisionRecord) => { name: string; candidateId: string } | undefined,
  ) {}

  provideCodeActions(doc: vscode.TextDocument, range: vscode.Range | vscode.Selection): vscode.CodeAction[] {
    const view = this.decisions.view(doc);
    const record = view?.record;
    if (!view || !record || view.stale || !view.root) return [];
    const call = this.executable(record);
    if (!call) return [];
    const chosen = view.marks.find((m) => m.path[0] === 'candidates' && m.tone === 'good');
    const first = doc.positionAt(view.root.start).line;
    const onChosen = chosen && new vscode.Range(doc.positionAt(chosen.node.start), doc.positionAt(chosen.node.end)).intersection(range) !== undefined;
    if (!onChosen && range.start.line !== first) return [];
    const action = new vscode.CodeAction(`Execute ${call.name} (candidate ${call.candidateId}) as ${record.agent}`, EXECUTE_KIND);
    action.command = { title: action.title, command: INLINE_COMMANDS.execute, arguments: [record.id] };
    action.isPreferred = true;
    return [action];
  }
}
