/**
 * Inline inspection of request files and recorded decisions, inside the real extension host: the "Run" lens, the decision headline lens after a run, after-line decorations on each
 * candidate, hovers explaining reason codes, the "Execute call" action only when the decision allows it
 * (run through the registry under the agent's grants), the read-only `jev-decision:` document, and a bad
 * field flagged by the request-file JSON schema.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { JevPanelApi } from '../../../src/extension/api';
import type { DecisionRecord } from '../../../src/ledger/record';
import type { ExecutionOutcome } from '../../../src/registry/execute';
import { fmtProb } from '../../../src/panel/numbers';
import { activateJev, markerServer, repoRoot, resetSettings, setSetting, waitFor } from '../helpers';

/** `waitFor` for a value that may be undefined until found. */
async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs?: number): Promise<T> {
  return (await waitFor(what, check, timeoutMs)) as T;
}

/** Lenses of `uri` exactly as the editor resolves them (every provider). */
async function lensesOf(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
  return (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
}

/** Hover texts at `position`. */
async function hoverText(uri: vscode.Uri, position: vscode.Position): Promise<string> {
  const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position)) ?? [];
  return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n---\n');
}

/** Titles of the code actions offered on `range`. */
async function actionTitles(uri: vscode.Uri, range: vscode.Range): Promise<string[]> {
  const actions = (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', uri, range)) ?? [];
  return actions.map((a) => a.title);
}

/** Zero-based line of the first occurrence of `needle` in `doc`. */
function lineOf(doc: vscode.TextDocument, needle: string): number {
  const at = doc.getText().indexOf(needle);
  assert.ok(at >= 0, `${needle} not in ${doc.uri.toString()}`);
  return doc.positionAt(at).line;
}

describe('inline request files', () => {
  let api: JevPanelApi;
  let folder: string;

  before(async () => {
    api = await activateJev();
    await resetSettings(api);
    // The deterministic mock, whatever an earlier suite allowed (a chat model stays allowed in globalState).
    await setSetting(api, 'provider', 'mock');
    assert.equal(api.status().provider, 'mock');
    await api.inline.ready();
    folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  });

  after(async () => {
    await resetSettings(api);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  async function openRequest(name: string, text: string): Promise<vscode.TextEditor> {
    const file = join(folder, name);
    writeFileSync(file, text);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    return vscode.window.showTextDocument(doc);
  }

  it('shows "Run jev_step" on a request file, then the decision, decorations, hovers and the Execute action after a run', async () => {
    const editor = await openRequest('parser-fix.jev.json', readFileSync(join(repoRoot(), 'examples', 'parser-fix.jev.json'), 'utf8'));
    const { document: doc } = editor;
    const before = await until('the Run lens', async () => (await lensesOf(doc.uri)).find((l) => l.command?.title === '$(play) Run jev_step'));
    assert.equal(before.command!.command, 'jevPanel.runRequestFile');
    assert.equal(before.range.start.line, 0);
    assert.ok(!(await lensesOf(doc.uri)).some((l) => /execute_tool/.test(l.command?.title ?? '')), 'no decision lens before a run');

    // The lens's own command, as a click runs it (the agent is given so no quick pick opens).
    const record = (await vscode.commands.executeCommand('jevPanel.runRequestFile', doc.uri, { agent: 'editor' })) as DecisionRecord;
    assert.equal(record.tool, 'jev_step');
    assert.equal(record.agent, 'editor');
    assert.equal(api.inline.runOf(doc.uri), record.id);
    assert.ok(api.feed().some((r) => r.id === record.id), 'the run is in the panel feed');
    const result = record.result as { handoff: string; action: string; selection: { id: string; confidence: number } };
    assert.equal(result.handoff, 'execute_tool');

    const headline = await until('the decision lens', async () => (await lensesOf(doc.uri)).find((l) => /execute_tool · auto · /.test(l.command?.title ?? '')));
    assert.equal(headline.command!.title, `$(pass) execute_tool · auto · selected ${result.selection.id}: confidence ${fmtProb(result.selection.confidence)} ≥ dispatch_at 0.80`);
    assert.equal(headline.command!.command, 'jevPanel.openDecision');
    assert.deepEqual(headline.command!.arguments, [record.id]);
    const titles = (await lensesOf(doc.uri)).map((l) => l.command?.title);
    assert.ok(titles.includes('$(json) Open JSON'), titles.join(' | '));
    // editor's default grants (the judgment tools) cannot run read_file: no Execute, the lens says why.
    assert.ok(!titles.includes('$(run) Execute read_file'), titles.join(' | '));
    const lock = (await lensesOf(doc.uri)).find((l) => l.command?.title === '$(lock) read_file: editor may not run it');
    assert.ok(lock, titles.join(' | '));
    assert.match(lock.command!.tooltip ?? '', /jevPanel\.agents/);
    // Grant it (a server that may offer read_file, and files/* to editor): Execute is offered.
    await setSetting(api, 'mcpServers', { files: markerServer('files', mkdtempSync(join(tmpdir(), 'jev-inline-files-'))) });
    await setSetting(api, 'agents', [{ name: 'editor', tools: ['jev_*', 'files/*'] }]);
    await until('the Execute lens', async () => (await lensesOf(doc.uri)).find((l) => l.command?.title === '$(run) Execute read_file'));

    // Decorations: one per candidate, on its "id" line: selected, eligible, blocked.
    const marks = await until('three decorations', () => (api.inline.decorationsFor(doc.uri).length === 3 ? api.inline.decorationsFor(doc.uri) : undefined));
    assert.deepEqual(
      marks.map((m) => [m.line, m.tone]),
      [
        [lineOf(doc, '"id": "read-parser"'), 'good'],
        [lineOf(doc, '"id": "run-parser-tests"'), 'neutral'],
        [lineOf(doc, '"id": "reset-branch"'), 'bad'],
      ],
    );
    assert.match(marks[0]!.text, /^✓ selected · confidence 0\.\d\d\d? ≥ dispatch_at 0\.80 · suitability 0\.\d\d\d? ≥ dispatch_at 0\.80 → execute_tool \(auto\)$/);
    assert.match(marks[1]!.text, /^○ eligible, not chosen/);
    assert.equal(marks[2]!.text, '✕ blocked: not_authorized');

    // Hovers: a blocked candidate's reason explained; the header shows the summary with thresholds.
    const blocked = await hoverText(doc.uri, new vscode.Position(lineOf(doc, '"id": "reset-branch"'), 8));
    assert.match(blocked, /`not_authorized` — The host marked this call as not authorized/);
    const header = await hoverText(doc.uri, new vscode.Position(lineOf(doc, '"tool"'), 4));
    assert.match(header, /\*\*Handoff\*\* `execute_tool` — Run the returned call exactly as prepared/);
    assert.match(header, /\*\*Thresholds\*\* auto_accept 0\.80 · review_at 0\.50 · dispatch_at 0\.80/);
    assert.match(header, /command:jevPanel\.openDecision/);

    // The Execute action: on the returned candidate, not on an eligible-but-not-chosen one.
    const chosen = new vscode.Range(lineOf(doc, '"id": "read-parser"'), 8, lineOf(doc, '"id": "read-parser"'), 9);
    assert.ok((await actionTitles(doc.uri, chosen)).includes('Execute read_file (candidate read-parser) as editor'));
    const other = new vscode.Range(lineOf(doc, '"id": "run-parser-tests"'), 8, lineOf(doc, '"id": "run-parser-tests"'), 9);
    assert.ok(!(await actionTitles(doc.uri, other)).some((t) => t.startsWith('Execute')));

    // Editing the file marks the decision stale and withdraws the action; decorations follow the candidates.
    await editor.edit((e) => e.insert(new vscode.Position(0, 1), '\n  "model": "jev-latest",'));
    const stale = await until('the edited-since lens', async () => (await lensesOf(doc.uri)).find((l) => (l.command?.title ?? '').includes('(file edited since)')));
    assert.match(stale.command!.title, /execute_tool · auto/);
    assert.ok(!(await actionTitles(doc.uri, new vscode.Range(lineOf(doc, '"id": "read-parser"'), 8, lineOf(doc, '"id": "read-parser"'), 9))).some((t) => t.startsWith('Execute')));
    await until('decorations moved with the edit', () => api.inline.decorationsFor(doc.uri)[0]?.line === lineOf(doc, '"id": "read-parser"'));
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await setSetting(api, 'mcpServers', undefined);
    await setSetting(api, 'agents', undefined);
  });

  it('opens a recorded decision as a read-only jev-decision: JSON document with the same lenses and hovers', async () => {
    const record = (await api.call('jev_step', JSON.parse(readFileSync(join(repoRoot(), 'examples', 'parser-fix.jev.json'), 'utf8').replace('"tool": "jev_step",', '')), 'editor')).record;
    const editor = (await vscode.commands.executeCommand('jevPanel.openDecisionDocument', record.id)) as vscode.TextEditor;
    const doc = editor.document;
    assert.equal(doc.uri.scheme, 'jev-decision');
    assert.equal(doc.languageId, 'json');
    assert.equal((JSON.parse(doc.getText()) as DecisionRecord).id, record.id);

    const headline = await until('the decision lens', async () => (await lensesOf(doc.uri)).find((l) => /execute_tool · auto/.test(l.command?.title ?? '')));
    assert.deepEqual(headline.command!.arguments, [record.id]);
    const handoff = await hoverText(doc.uri, doc.positionAt(doc.getText().indexOf('"handoff": "execute_tool"') + 14));
    assert.match(handoff, /\*\*Handoff\*\* `execute_tool`/);
    const reason = await hoverText(doc.uri, doc.positionAt(doc.getText().indexOf('"not_authorized"') + 2));
    assert.match(reason, /The host marked this call as not authorized/);
    const marks = await until('decorations on the decision document', () => (api.inline.decorationsFor(doc.uri).length === 3 ? api.inline.decorationsFor(doc.uri) : undefined));
    assert.deepEqual(
      marks.map((m) => m.tone),
      ['good', 'neutral', 'bad'],
    );
  });

  it('executes an accepted call through the registry only under a granted agent, once per decision', async () => {
    const markers = mkdtempSync(join(tmpdir(), 'jev-inline-markers-'));
    await setSetting(api, 'mcpServers', { marker: markerServer('marker', markers) });
    await setSetting(api, 'agents', [{ name: 'coder', tools: ['marker/*'] }]);
    const editor = await openRequest('echo-note.jev.json', readFileSync(join(repoRoot(), 'test', 'host', 'fixtures', 'echo-note.jev.json'), 'utf8'));
    const uri = editor.document.uri;

    const granted = (await vscode.commands.executeCommand('jevPanel.runRequestFile', uri, { agent: 'coder' })) as DecisionRecord;
    assert.equal((granted.result as { handoff: string }).handoff, 'execute_tool');
    assert.ok((await actionTitles(uri, new vscode.Range(0, 0, 0, 0))).includes('Execute echo (candidate echo-note) as coder'));
    const ran = (await vscode.commands.executeCommand('jevPanel.executeDecisionCall', granted.id)) as ExecutionOutcome;
    assert.ok(ran.executed && ran.ok, JSON.stringify(ran));
    assert.equal(ran.tool, 'marker/echo');
    assert.deepEqual(ran.result, { echoed: 'v1.2 ships the parser fix', server: 'marker' });
    assert.equal(ran.record.decision_id, granted.id);
    assert.ok(api.feed().some((r) => r.id === ran.record.id && r.kind === 'execution'), 'the execution is in the feed');
    const again = (await vscode.commands.executeCommand('jevPanel.executeDecisionCall', granted.id)) as ExecutionOutcome;
    assert.equal(again.executed, false);
    assert.match((again as { reason: string }).reason, /already executed/);
    assert.ok(!(await actionTitles(uri, new vscode.Range(0, 0, 0, 0))).some((t) => t.startsWith('Execute')), 'no second Execute');

    // The same decision for `editor` (granted only the judgment tools): the registry refuses the call.
    const denied = (await vscode.commands.executeCommand('jevPanel.runRequestFile', uri, { agent: 'editor' })) as DecisionRecord;
    assert.equal((denied.result as { handoff: string }).handoff, 'execute_tool');
    const refused = (await vscode.commands.executeCommand('jevPanel.executeDecisionCall', denied.id)) as ExecutionOutcome;
    assert.ok(refused.executed && !refused.ok, JSON.stringify(refused));
    assert.equal(refused.error.code, 'INVALID_INPUT');
    assert.match(refused.error.message, /CapabilityViolation: Agent "editor" may not call/);
    // Not granted: the lens says so instead of offering Execute.
    await until('the lock lens', async () => (await lensesOf(uri)).find((l) => l.command?.title === '$(lock) echo: editor may not run it'));
    assert.ok(!(await actionTitles(uri, new vscode.Range(0, 0, 0, 0))).some((t) => t.startsWith('Execute')));

    // A decision that did not accept a call never executes.
    const review = (await api.call('jev_step', { task: 'x', observation: 'nothing to do yet', candidates: [] }, 'coder')).record;
    const none = (await vscode.commands.executeCommand('jevPanel.executeDecisionCall', review.id)) as ExecutionOutcome;
    assert.equal(none.executed, false);
    await setSetting(api, 'mcpServers', undefined);
    await setSetting(api, 'agents', undefined);
  });

  it('flags a bad field of a request file through the contributed JSON schema', async () => {
    const editor = await openRequest('bad.jev.json', '{\n  "tool": "jev_step",\n  "task": "t",\n  "observation": "o",\n  "taks": "typo",\n  "auto_accept": "high"\n}\n');
    const uri = editor.document.uri;
    const diagnostics = await until(
      'schema diagnostics on bad.jev.json',
      () => {
        const d = vscode.languages.getDiagnostics(uri);
        return d.some((x) => /taks/.test(x.message)) && d.some((x) => x.range.start.line === 5) ? d : undefined;
      },
      20_000,
    );
    const typo = diagnostics.find((d) => /taks/.test(d.message))!;
    assert.equal(typo.range.start.line, 4);
    assert.match(typo.message, /not allowed/i);
    assert.match(diagnostics.find((d) => d.range.start.line === 5)!.message, /number/i);
    // A valid file gets no schema diagnostics.
    const good = await openRequest('good.jev.json', '{\n  "task": "t",\n  "observation": "o"\n}\n');
    await new Promise((r) => setTimeout(r, 1500));
    assert.deepEqual(vscode.languages.getDiagnostics(good.document.uri).map((d) => d.message), []);
  });
});
