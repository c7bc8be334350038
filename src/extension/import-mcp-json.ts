/**
 * "Jev: Import .vscode/mcp.json": converts the runnable servers of the workspace's mcp.json (parsing in
 * src/registry/mcp-json.ts), shows what a (re-)import changes (added / changed / removed / unchanged
 * servers) and where it writes (`jevPanel.mcpServers` in the workspace settings file), and writes only
 * after the user confirms. Servers an earlier import brought and mcp.json no longer lists are removed;
 * servers added by hand are kept. The runtime then restarts only the changed servers.
 */
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import type { ServerConfig } from '../registry/servers';
import type { ServerDiff } from '../registry/server-diff';
import type { CoreHost } from './core-host';
import { workspaceScope } from './server-settings';

/** workspaceState key: names of the servers the last import wrote (a re-import may remove them). */
const IMPORTED_SERVERS = 'jevPanel.importedServers';

/** Options of the command (tests and walkthrough links); the UI path asks. */
export interface ImportOptions {
  /** Write without the confirmation dialog (the message is still returned and logged). */
  assumeYes?: boolean;
}

/** What the command did: the servers converted, the lines skipped, what changed, where, and the message shown. */
export interface ImportResult {
  imported: string[];
  skipped: string[];
  diff: ServerDiff;
  /** e.g. `workspace settings (.vscode/settings.json)`. */
  target: string;
  /** The confirmation text (what will be written, where, what changes). */
  message: string;
  /** False when the user cancelled or nothing would change. */
  written: boolean;
}

/** The confirmation text: the target file and scope, then each non-empty group of the diff. */
export function importMessage(source: string, target: string, diff: ServerDiff, skipped: number): string {
  const group = (label: string, names: string[]) => (names.length ? ` ${label}: ${names.join(', ')}.` : '');
  return (
    `Import ${source} into jevPanel.mcpServers of the ${target}?` +
    group('Added', diff.added) +
    group('Changed (restarted if running)', diff.changed) +
    group('Removed (stopped)', diff.removed) +
    group('Unchanged (kept running)', diff.unchanged) +
    (skipped ? ` Skipped ${skipped} (see the Jev log).` : '')
  );
}

/** Runs the import of `uri` (default: the first folder's .vscode/mcp.json). Undefined when there is nothing to read. */
export async function importMcpJsonCommand(context: vscode.ExtensionContext, core: CoreHost, uri?: vscode.Uri, options: ImportOptions = {}): Promise<ImportResult | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const file = uri ?? (folder ? vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json') : undefined);
  if (!file || !folder) {
    void vscode.window.showWarningMessage('Jev: open a folder with .vscode/mcp.json first (the servers are saved in its workspace settings).');
    return undefined;
  }
  let text: string;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
  } catch {
    void vscode.window.showWarningMessage(`Jev: ${vscode.workspace.asRelativePath(file)} was not found.`);
    return undefined;
  }
  const { importMcpJson, planImport } = await core.module();
  let result: ReturnType<typeof importMcpJson>;
  try {
    result = importMcpJson(text, { workspaceFolder: folder.uri.fsPath, userHome: homedir() });
  } catch (err) {
    void vscode.window.showErrorMessage(`Jev: ${(err as Error).message}`);
    return undefined;
  }
  const runtime = await core.get();
  for (const line of result.skipped) runtime.log.warn(`mcp.json import skipped ${line}`);

  const config = vscode.workspace.getConfiguration('jevPanel');
  const existing = { ...((config.inspect<Record<string, ServerConfig>>('mcpServers')?.workspaceValue ?? {}) as Record<string, ServerConfig>) };
  const previous = context.workspaceState.get<string[]>(IMPORTED_SERVERS) ?? [];
  const { next, diff } = planImport(existing, previous, result.servers);
  const scope = workspaceScope();
  const imported = Object.keys(result.servers);
  const source = vscode.workspace.asRelativePath(file, false);
  const message = importMessage(source, scope.label, diff, result.skipped.length);
  const unchanged = !diff.added.length && !diff.changed.length && !diff.removed.length;
  if (unchanged) {
    void vscode.window.showInformationMessage(`Jev: ${source} matches jevPanel.mcpServers of the ${scope.label}; nothing to write.`);
    await context.workspaceState.update(IMPORTED_SERVERS, imported);
    return { imported, skipped: result.skipped, diff, target: scope.label, message, written: false };
  }
  runtime.log.info(`mcp.json import: ${message}`);
  if (!options.assumeYes) {
    const trustNote = vscode.workspace.isTrusted ? '' : ' They stay off until you trust this workspace.';
    const choice = await vscode.window.showInformationMessage(`Jev: ${message}`, { modal: true, detail: `Writes the "jevPanel.mcpServers" key of ${scope.label}.${trustNote}` }, 'Import');
    if (choice !== 'Import') return { imported, skipped: result.skipped, diff, target: scope.label, message, written: false };
  }
  await config.update('mcpServers', next, vscode.ConfigurationTarget.Workspace);
  await context.workspaceState.update(IMPORTED_SERVERS, imported);
  await runtime.refresh('mcp.json imported');
  void vscode.window.showInformationMessage(`Jev: wrote ${Object.keys(next).length} server${Object.keys(next).length === 1 ? '' : 's'} to jevPanel.mcpServers of the ${scope.label}.`);
  return { imported, skipped: result.skipped, diff, target: scope.label, message, written: true };
}
