/**
 * "Jev: Install Commit Hook" / "Jev: Uninstall Commit Hook": the same host-independent install/uninstall
 * as `jevcp hook install|uninstall` (src/gate/hook/), pointed at this editor's node and the CLI bundled
 * with the extension, with the gate settings baked in (evidence command, fail-open). The hook then gates
 * every commit, from the Source Control view or a terminal.
 */
import * as vscode from 'vscode';
import { join } from 'node:path';
import { installHook, type InstallHookResult } from '../../gate/hook/install';
import { uninstallHook, type UninstallHookResult } from '../../gate/hook/uninstall';
import { FAIL_OPEN_ENV } from '../../gate/fail-open';
import { currentGateSettings } from './gate-command';
import { gitApi, pickRepository } from './git';

/**
 * The environment the hook exports for the gate: ELECTRON_RUN_AS_NODE when this editor's executable is
 * Electron (desktop VS Code's extension host), and the fail-open switch when `jevPanel.gate.failOpen` is on.
 */
export function hookEnv(opts: { electron: boolean; failOpen: boolean }): Record<string, string> {
  return { ...(opts.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}), ...(opts.failOpen ? { [FAIL_OPEN_ENV]: '1' } : {}) };
}

/**
 * The folder whose repository the hook goes into (the argument's, the only/picked Git repository, or the
 * first workspace folder) and the Git extension's git executable when there is one.
 */
async function hookLocation(arg: unknown): Promise<{ repoDir: string; gitPath?: string } | undefined> {
  try {
    const api = await gitApi();
    const repo = await pickRepository(api, arg, 'Repository to gate with the Jev commit hook');
    if (repo) return { repoDir: repo.rootUri.fsPath, gitPath: api.git.path };
  } catch {
    // No Git extension: fall back to the workspace folder; installHook finds the repository with git itself.
  }
  const dir = arg instanceof vscode.Uri ? arg.fsPath : vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  return dir === undefined ? undefined : { repoDir: dir };
}

/**
 * Installs (or refreshes) the commit-msg hook. Refused in an untrusted workspace (the hook runs code on
 * every commit). Returns what installHook did, or undefined when nothing was installed (the reason is shown).
 */
export async function installCommitHook(context: vscode.ExtensionContext, arg?: unknown): Promise<InstallHookResult | undefined> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage('Jev: trust this workspace before installing a commit hook in it.');
    return undefined;
  }
  const location = await hookLocation(arg);
  if (!location) {
    void vscode.window.showWarningMessage('Jev: open a folder with a git repository first.');
    return undefined;
  }
  const settings = currentGateSettings();
  try {
    const result = await installHook({
      ...location,
      nodePath: process.execPath,
      cliPath: join(context.extensionPath, 'dist', 'cli.js'),
      ...(settings.evidenceCommand ? { evidenceCommand: settings.evidenceCommand } : {}),
      env: hookEnv({ electron: typeof process.versions.electron === 'string', failOpen: settings.failOpen }),
    });
    const what = result.action === 'unchanged' ? 'is already installed' : result.action === 'updated' ? 'was updated' : 'is installed';
    void vscode.window.showInformationMessage(
      `Jev: the commit-msg hook ${what} in ${result.hooksDir}${result.chainedPath ? ' (your previous hook runs first)' : ''}. ` +
        'It runs `jevcp gate` with the CLI configuration (JEV_* environment variables, not the key stored in the editor). ' +
        'Skip it once with git commit --no-verify; reinstall it after updating the extension.',
    );
    return result;
  } catch (err) {
    void vscode.window.showErrorMessage(`Jev: the commit hook was not installed: ${(err as Error)?.message ?? String(err)}`);
    return undefined;
  }
}

/** Removes the hook and restores what was there before. Returns what uninstallHook did, or undefined on failure. */
export async function uninstallCommitHook(arg?: unknown): Promise<UninstallHookResult | undefined> {
  const location = await hookLocation(arg);
  if (!location) {
    void vscode.window.showWarningMessage('Jev: open a folder with a git repository first.');
    return undefined;
  }
  try {
    const result = await uninstallHook(location);
    const text =
      result.action === 'restored'
        ? `the Jev hook is removed and your previous commit-msg hook is back in ${result.hooksDir}.`
        : result.action === 'removed'
          ? `the Jev hook is removed from ${result.hooksDir}.`
          : `no Jev hook is installed in ${result.hooksDir}${result.foreignHook ? ' (another commit-msg hook is there; it was left alone)' : ''}.`;
    void vscode.window.showInformationMessage(`Jev: ${text}`);
    return result;
  } catch (err) {
    void vscode.window.showErrorMessage(`Jev: the commit hook was not removed: ${(err as Error)?.message ?? String(err)}`);
    return undefined;
  }
}
