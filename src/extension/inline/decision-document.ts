/**
 * Recorded decisions as read-only JSON documents, `jev-decision:/<tool>-<id>.json` (a
 * TextDocumentContentProvider on our own scheme, so our lenses and hovers never touch user files). The
 * text is the DecisionRecord exactly as the ledger holds it, pretty-printed.
 */
import * as vscode from 'vscode';
import type { DecisionRecord } from '../../ledger/record';
import { decisionIdOf, decisionUri } from './decisions';

/** Serves decision documents (scheme `jev-decision`, registered by register.ts) from `lookup` (the runtime's feed, which falls back to the ledger). */
export class DecisionDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly lookup: (id: string) => Promise<DecisionRecord | undefined>) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const id = decisionIdOf(uri);
    const record = id ? await this.lookup(id) : undefined;
    if (!record) return `${JSON.stringify({ error: `Decision ${id ?? uri.path} is neither in memory nor in the decision ledger.` }, null, 2)}\n`;
    return `${JSON.stringify(record, null, 2)}\n`;
  }
}

/** Opens decision `record` as a read-only JSON document beside the active editor. */
export async function showDecisionDocument(record: Pick<DecisionRecord, 'id' | 'tool'>): Promise<vscode.TextEditor> {
  let doc = await vscode.workspace.openTextDocument(decisionUri(record));
  if (doc.languageId !== 'json') doc = await vscode.languages.setTextDocumentLanguage(doc, 'json');
  return vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
}
