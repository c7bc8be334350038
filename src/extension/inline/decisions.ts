/**
 * Which decision each inline-inspected document shows: a `*.jev.json` request file shows its last run
 * (kept per URI for this window), a `jev-decision:` document shows the recorded decision it renders. The
 * lenses, decorations, hovers and code actions all read the same `DocView`, so they always agree.
 */
import * as vscode from 'vscode';
import type { DecisionRecord } from '../../ledger/record';
import { inputMarks, type InlineMark } from '../../panel/explain';
import { DECISION_SCHEME } from './ids';
import { locateJson, nodeAt, type JsonNode } from '../../request-files/json-locate';
import { readRequestFile, type BadRequestFile, type RequestFile } from '../../request-files/read';


/** The read-only document URI of a recorded decision: `jev-decision:/<tool>-<id>.json`. */
export function decisionUri(record: Pick<DecisionRecord, 'id' | 'tool'>): vscode.Uri {
  return vscode.Uri.from({ scheme: DECISION_SCHEME, path: `/${record.tool}-${record.id}.json` });
}

/** The decision id in a `jev-decision:` URI, or undefined. */
export function decisionIdOf(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== DECISION_SCHEME) return undefined;
  return /([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\.json$/.exec(uri.path)?.[1];
}

/** A mark placed on the current text. */
export interface PlacedMark extends InlineMark {
  node: JsonNode;
}

/** Everything the inline surfaces need about one document. */
export interface DocView {
  kind: 'request' | 'decision';
  /** Located JSON of the current text (undefined when it is not JSON). */
  root?: JsonNode;
  /** Request files: the parsed request, or why it cannot run. */
  request?: RequestFile | BadRequestFile;
  /** The decision shown: the last run of a request file, or the recorded decision of a decision document. */
  record?: DecisionRecord;
  /** A request file edited since its last run (the marks are placed by candidate id / claim text). */
  stale: boolean;
  /** Node of the tool input inside this text (the root for request files, `input` for decision documents). */
  inputNode?: JsonNode;
  /** Node of `result` (decision documents). */
  resultNode?: JsonNode;
  /** After-line marks, placed on the current text. */
  marks: PlacedMark[];
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Places a mark recorded against `recorded` input on the current input (by candidate id or claim text). */
function place(mark: InlineMark, recorded: unknown, current: unknown, inputNode: JsonNode | undefined): JsonNode | undefined {
  const [list, index] = mark.path;
  if (typeof list !== 'string' || typeof index !== 'number' || !isObj(recorded) || !isObj(current)) return nodeAt(inputNode, mark.path);
  const before = Array.isArray(recorded[list]) ? (recorded[list] as unknown[])[index] : undefined;
  const now = Array.isArray(current[list]) ? (current[list] as unknown[]) : [];
  const key = (v: unknown) => (isObj(v) ? `id:${String(v.id)}` : JSON.stringify(v));
  const at = now.findIndex((v) => key(v) === key(before));
  return at < 0 ? undefined : nodeAt(inputNode, [list, at]);
}

export class InlineDecisions implements vscode.Disposable {
  /** Last run of each request file: the decision id and the text it judged. */
  private readonly runs = new Map<string, { recordId: string; text: string }>();
  private readonly running = new Set<string>();
  private readonly cache = new Map<string, { version: number; generation: number; view: DocView }>();
  private generation = 0;
  private readonly emitter = new vscode.EventEmitter<void>();
  /** Any run, running state or record changed: lenses and decorations are recomputed. */
  readonly onDidChange = this.emitter.event;
  private readonly subs: vscode.Disposable[];

  /**
   * `getRecord` finds a decision by id (the runtime's feed, then the ledger; undefined while the runtime
   * is not loaded); `toolNames` lists the judgment tools (undefined while unknown: any name may run).
   */
  constructor(
    private readonly getRecord: (id: string) => DecisionRecord | undefined,
    private readonly toolNames: () => readonly string[] | undefined,
  ) {
    this.subs = [vscode.workspace.onDidCloseTextDocument((d) => this.cache.delete(d.uri.toString()))];
  }

  /** Whether `doc` is a request file (not a decision document). */
  isRequest(doc: vscode.TextDocument): boolean {
    return doc.uri.scheme !== DECISION_SCHEME && doc.uri.path.endsWith('.jev.json');
  }

  /** Records that `uri` was run: `record` judged `text`. */
  setRun(uri: vscode.Uri, record: DecisionRecord, text: string): void {
    this.runs.set(uri.toString(), { recordId: record.id, text });
    this.changed();
  }

  /** The decision id of `uri`'s last run. */
  runOf(uri: vscode.Uri): string | undefined {
    return this.runs.get(uri.toString())?.recordId;
  }

  setRunning(uri: vscode.Uri, running: boolean): void {
    if (running) this.running.add(uri.toString());
    else this.running.delete(uri.toString());
    this.changed();
  }

  isRunning(uri: vscode.Uri): boolean {
    return this.running.has(uri.toString());
  }

  /** Recomputes every view (the runtime loaded, a record arrived). */
  changed(): void {
    this.generation++;
    this.emitter.fire();
  }

  /** The view of `doc`, cached per document version. Undefined for documents the inline surfaces ignore. */
  view(doc: vscode.TextDocument): DocView | undefined {
    const key = doc.uri.toString();
    const hit = this.cache.get(key);
    if (hit && hit.version === doc.version && hit.generation === this.generation) return hit.view;
    const view = this.compute(doc);
    if (view) this.cache.set(key, { version: doc.version, generation: this.generation, view });
    return view;
  }

  private compute(doc: vscode.TextDocument): DocView | undefined {
    const text = doc.getText();
    if (doc.uri.scheme === DECISION_SCHEME) {
      const id = decisionIdOf(doc.uri);
      const record = id ? this.getRecord(id) : undefined;
      const root = locateJson(text)?.root;
      const inputNode = nodeAt(root, ['input']);
      const marks = record ? inputMarks(record).flatMap((m) => placed(m, nodeAt(inputNode, m.path))) : [];
      return { kind: 'decision', root, record, stale: false, inputNode, resultNode: nodeAt(root, ['result']), marks };
    }
    if (!this.isRequest(doc)) return undefined;
    const request = readRequestFile(text, this.toolNames());
    const run = this.runs.get(doc.uri.toString());
    const record = run ? this.getRecord(run.recordId) : undefined;
    const stale = run !== undefined && run.text !== text;
    const root = request.root;
    const current = request.ok ? request.input : undefined;
    const marks = record && root ? inputMarks(record).flatMap((m) => placed(m, stale ? place(m, record.input, current, root) : nodeAt(root, m.path))) : [];
    return { kind: 'request', root, request, record, stale, inputNode: root, marks };
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.emitter.dispose();
  }
}

function placed(mark: InlineMark, node: JsonNode | undefined): PlacedMark[] {
  return node ? [{ ...mark, node }] : [];
}
