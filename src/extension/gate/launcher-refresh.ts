/**
 * Keeps the stable launcher (src/gate/hook/launcher.ts) pointing at this extension's bundled CLI and this
 * editor's runtime. Run every time the extension starts, so the commit hooks installed from the editor,
 * which call only the launcher, survive extension and editor updates.
 */
import type * as vscode from 'vscode';
import { join } from 'node:path';
import { writeLauncher } from '../../gate/hook/launcher';
import { stateDir } from '../../gate/state-dir';

/** The launcher's options for this extension host. */
export function launcherOptions(context: vscode.ExtensionContext) {
  return {
    nodePath: process.execPath,
    cliPath: join(context.extensionPath, 'dist', 'cli.js'),
    electron: typeof process.versions.electron === 'string',
    version: String((context.extension.packageJSON as { version?: unknown }).version ?? '0'),
  };
}

/**
 * Rewrites the launcher when it changed. Resolves to its path, or undefined when it could not be written
 * (then `log` says why; hooks installed from the CLI still run their own CLI).
 */
export async function refreshLauncher(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Promise<string | undefined> {
  try {
    const { path, changed } = await writeLauncher(stateDir(process.env), launcherOptions(context));
    if (changed) log.info(`commit hook launcher updated: ${path}`);
    return path;
  } catch (err) {
    log.warn(`the commit hook launcher could not be written: ${(err as Error)?.message ?? String(err)}`);
    return undefined;
  }
}
