/**
 * After-line decorations on each candidate and claim of the decision a document shows: selected with confidence and suitability, blocked with its reason codes, eligible but not
 * chosen; claim verdicts. Decorations do not persist, so they are re-applied whenever the visible editors,
 * a shown document or the decisions change.
 */
import * as vscode from 'vscode';
import type { InlineDecisions } from './decisions';
import type { Tone } from '../../panel/explain';

/** One applied decoration, as the host tests read it. */
export interface AppliedMark {
  /** Zero-based line. */
  line: number;
  tone: Tone;
  text: string;
}

const COLORS: Record<Tone, string> = {
  good: 'testing.iconPassed',
  warn: 'editorWarning.foreground',
  bad: 'errorForeground',
  neutral: 'editorCodeLens.foreground',
};

export class InlineDecorations implements vscode.Disposable {
  private readonly types: Record<Tone, vscode.TextEditorDecorationType>;
  private readonly applied = new Map<string, AppliedMark[]>();
  private readonly subs: vscode.Disposable[];

  constructor(private readonly decisions: InlineDecisions) {
    const type = (tone: Tone) =>
      vscode.window.createTextEditorDecorationType({
        after: { color: new vscode.ThemeColor(COLORS[tone]), margin: '0 0 0 2ch', fontStyle: 'italic' },
        rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
      });
    this.types = { good: type('good'), warn: type('warn'), bad: type('bad'), neutral: type('neutral') };
    this.subs = [
      vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((e) => this.apply(e))),
      vscode.workspace.onDidChangeTextDocument((e) => {
        for (const editor of vscode.window.visibleTextEditors) if (editor.document === e.document) this.apply(editor);
      }),
      decisions.onDidChange(() => this.refresh()),
    ];
    this.refresh();
  }

  /** Re-applies the decorations of every visible editor. */
  refresh(): void {
    for (const editor of vscode.window.visibleTextEditors) this.apply(editor);
  }

  /** The decorations last applied to `uri` (empty when none). */
  appliedFor(uri: vscode.Uri): AppliedMark[] {
    return this.applied.get(uri.toString()) ?? [];
  }

  private apply(editor: vscode.TextEditor): void {
    const doc = editor.document;
    const view = this.decisions.view(doc);
    if (!view) return;
    const byTone: Record<Tone, vscode.DecorationOptions[]> = { good: [], warn: [], bad: [], neutral: [] };
    const applied: AppliedMark[] = [];
    for (const mark of view.marks) {
      // A candidate's mark sits on its "id" line (the object's own line is often just "{").
      const idNode = mark.node.properties?.get('id');
      const line = doc.positionAt(idNode?.keyStart ?? mark.node.start).line;
      const end = doc.lineAt(line).range.end;
      byTone[mark.tone].push({ range: new vscode.Range(end, end), renderOptions: { after: { contentText: mark.text } } });
      applied.push({ line, tone: mark.tone, text: mark.text });
    }
    for (const tone of Object.keys(byTone) as Tone[]) editor.setDecorations(this.types[tone], byTone[tone]);
    this.applied.set(doc.uri.toString(), applied);
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    for (const t of Object.values(this.types)) t.dispose();
  }
}
