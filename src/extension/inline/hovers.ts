/**
 * Hovers of request files and decision documents: on a candidate or claim,
 * what the decision made of it; on the top of a request file (or a decision document's header), the
 * decision summary; inside a decision document's `result`, the handoff, action and each reason code
 * explained with the thresholds. Command links are trusted only for our own commands (a hover's Markdown
 * could otherwise run any command).
 */
import * as vscode from 'vscode';
import type { DecisionRecord } from '../../ledger/record';
import type { DocView, InlineDecisions } from './decisions';
import { explainResultPath, summaryMarkdown } from '../../panel/explain';
import { INLINE_COMMANDS } from './ids';
import { pathAt, type JsonNode } from '../../request-files/json-locate';

/** Markdown command link `[label](command:id?args)`. */
export function commandLink(label: string, command: string, args: unknown[]): string {
  return `[${label}](command:${command}?${encodeURIComponent(JSON.stringify(args))})`;
}

export class InlineHovers implements vscode.HoverProvider {
  constructor(
    private readonly decisions: InlineDecisions,
    private readonly executable: (record: DecisionRecord) => { name: string } | undefined,
  ) {}

  provideHover(doc: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const view = this.decisions.view(doc);
    const record = view?.record;
    if (!view || !record || !view.root) return undefined;
    const offset = doc.offsetAt(position);
    const within = (n: JsonNode) => offset >= (n.keyStart ?? n.start) && offset <= n.end;
    const range = (n: JsonNode) => new vscode.Range(doc.positionAt(n.keyStart ?? n.start), doc.positionAt(n.end));

    const mark = view.marks.find((m) => within(m.node));
    if (mark) return this.hover(view, mark.hover, range(mark.node), false);

    if (view.kind === 'decision' && view.resultNode && within(view.resultNode)) {
      const path = pathAt(view.resultNode, offset);
      const text = path.length ? explainResultPath(record, path) : undefined;
      if (text) {
        let node: JsonNode | undefined = view.resultNode;
        for (const seg of path) node = typeof seg === 'number' ? node?.items?.[seg] : node?.properties?.get(seg);
        return this.hover(view, text, node ? range(node) : undefined, false);
      }
    }
    // The header: the request file's first line and its "tool" member; a decision document's id/tool/agent lines.
    const header = new Set<number>([doc.positionAt(view.root.start).line]);
    for (const key of view.kind === 'request' ? ['tool'] : ['id', 'tool', 'agent', 'kind']) {
      const n = view.root.properties?.get(key);
      if (n) header.add(doc.positionAt(n.keyStart ?? n.start).line);
    }
    if (header.has(position.line)) return this.hover(view, summaryMarkdown(record), undefined, true);
    return undefined;
  }

  private hover(view: DocView, markdown: string, range: vscode.Range | undefined, withLinks: boolean): vscode.Hover {
    const record = view.record!;
    const md = new vscode.MarkdownString(undefined, true);
    md.isTrusted = { enabledCommands: [INLINE_COMMANDS.openDecision, INLINE_COMMANDS.openDocument, INLINE_COMMANDS.execute] };
    if (view.stale) md.appendMarkdown('_This file changed after the run shown here; run it again to refresh._\n\n');
    md.appendMarkdown(markdown);
    const links = [commandLink('Open in the decision panel', INLINE_COMMANDS.openDecision, [record.id])];
    if (view.kind === 'request') links.push(commandLink('Open JSON', INLINE_COMMANDS.openDocument, [record.id]));
    const call = view.stale ? undefined : this.executable(record);
    if (call && withLinks) links.push(commandLink(`Execute ${call.name}`, INLINE_COMMANDS.execute, [record.id]));
    md.appendMarkdown(`\n\n${links.join(' · ')}`);
    return new vscode.Hover(md, range);
  }
}
