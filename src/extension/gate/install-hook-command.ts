/**
 * "Jev: Install Commit Hook" / "Jev: Uninstall Commit Hook": the same host-independent install/uninstall
 * as `jevcp hook install|uninstall` (src/gate/hook/). The hook installed here names only the stable
 * launcher (launcher-refresh.ts), never this editor's binary or the versioned extension folder, so it
 * survives updates; the gate settings are baked in (evidence command, fail-open). Without a real judge the
 * user chooses first (Set API Key, Use Editor Chat Model, or Install Anyway with advisory mock verdicts),
 * and a hooks directory other repositories use (a global core.hooksPath) needs a confirmation.
 */
import * as vscode from 'vscode';
import { installHook, type InstallHookResult } from '../../gate/hook/install';
import { hookStatus } from '../../gate/hook/status';
import { uninstallHook, type UninstallHookResult } from '../../gate/hook/uninstall';
import { FAIL_OPEN_ENV } from '../../gate/fail-open';
import type { CoreHost } from '../core-host';
import type { JevRuntime } from '../runtime';
import { currentGateSettings } from './gate-command';
import { gitApi, pickRepository } from './git';
import { refreshLauncher } from './launcher-refresh';

/** The choices offered when Jev has no judgment backend. */
export type InstallChoice = 'Set API Key' | 'Use Editor Chat Model' | 'Install Anyway';
export const NO_BACKEND_CHOICES: readonly InstallChoice[] = ['Set API Key', 'Use Editor Chat Model', 'Install Anyway'];
/** The button that confirms a shared hooks directory. */
export const CONFIRM_SHARED = 'Install for All Repositories';

/** Replacements for the install's modals, for tests (a test cannot click a modal). */
export interface InstallPrompts {
  /** Stands in for the no-backend modal: the button "clicked", or undefined (dismissed). */
  chooseInstall?: (message: string, choices: readonly InstallChoice[]) => InstallChoice | undefined | Promise<InstallChoice | undefined>;
  /** Stands in for the shared-hooks modal: true to install there. */
  confirmShared?: (message: string) => boolean | Promise<boolean>;
}

/** The environment the hook exports for the gate: the fail-open switch when `jevPanel.gate.failOpen` is on. */
export function hookEnv(opts: { failOpen: boolean }): Record<string, string> {
  return opts.failOpen ? { [FAIL_OPEN_ENV]: '1' } : {};
}

/** What the no-backend modal says. */
export const NO_BACKEND_MESSAGE =
  'Jev has no judgment backend here, only the mock judge: the commit hook would block every commit with "no judgment backend". ' +
  'Set an API key or let Jev use the editor\'s chat model. "Install Anyway" installs it with the mock judge: its verdicts are then advisory warnings that never block a commit.';

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
 * Whether the hook may go in, and with the mock allowed: asks when only the mock judge is there. Resolves
 * to undefined when the user dismissed the question or the chosen setup did not give a real judge.
 */
async function backendDecision(runtime: JevRuntime, prompts: InstallPrompts): Promise<{ allowMock: boolean } | undefined> {
  if (runtime.backend.choice.kind !== 'mock') return { allowMock: false };
  const choice = prompts.chooseInstall
    ? await prompts.chooseInstall(NO_BACKEND_MESSAGE, NO_BACKEND_CHOICES)
    : ((await vscode.window.showWarningMessage(NO_BACKEND_MESSAGE, { modal: true }, ...NO_BACKEND_CHOICES)) as InstallChoice | undefined);
  if (choice === undefined) return undefined;
  if (choice === 'Install Anyway') return { allowMock: true };
  await vscode.commands.executeCommand(choice === 'Set API Key' ? 'jevPanel.setApiKey' : 'jevPanel.useChatModel');
  await runtime.refresh('backend chosen for the commit hook');
  if (runtime.backend.choice.kind !== 'mock') return { allowMock: false };
  void vscode.window.showWarningMessage('Jev: there is still no judgment backend, so the commit hook was not installed.');
  return undefined;
}

/**
 * Installs (or refreshes) the commit-msg hook. Refused in an untrusted workspace (the hook runs code on
 * every commit). Returns what installHook did, or undefined when nothing was installed (the reason is shown).
 */
export async function installCommitHook(context: vscode.ExtensionContext, core: CoreHost, arg?: unknown, prompts: InstallPrompts = {}): Promise<InstallHookResult | undefined> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage('Jev: trust this workspace before installing a commit hook in it.');
    return undefined;
  }
  const location = await hookLocation(arg);
  if (!location) {
    void vscode.window.showWarningMessage('Jev: open a folder with a git repository first.');
    return undefined;
  }
  const runtime = await core.get();
  await runtime.ready;
  const settings = currentGateSettings();
  try {
    const backend = await backendDecision(runtime, prompts);
    if (!backend) return undefined;
    const status = await hookStatus(location);
    let shared = false;
    if (status.shared) {
      const message = `The hooks directory ${status.hooksDir} ${status.shared.why}. A Jev hook there gates commits in all of them, not only this one.`;
      shared = prompts.confirmShared ? await prompts.confirmShared(message) : (await vscode.window.showWarningMessage(message, { modal: true }, CONFIRM_SHARED)) === CONFIRM_SHARED;
      if (!shared) return undefined;
    }
    const launcher = await refreshLauncher(context, runtime.log);
    if (!launcher) throw new Error('the launcher the hook runs could not be written (see the Jev log)');
    const result = await installHook({
      ...location,
      launcherPath: launcher,
      allowMock: backend.allowMock,
      shared,
      ...(settings.evidenceCommand ? { evidenceCommand: settings.evidenceCommand } : {}),
      env: hookEnv({ failOpen: settings.failOpen }),
    });
    const what = result.action === 'unchanged' ? 'is already installed' : result.action === 'updated' ? 'was updated' : 'is installed';
    void vscode.window.showInformationMessage(
      `Jev: the commit-msg hook ${what} in ${result.hooksDir}${result.chainedPath ? ' (your previous hook runs first)' : ''}. ` +
        (backend.allowMock
          ? 'It has only the mock judge: its verdicts are advisory and never block. '
          : 'Commits from any terminal are judged by this editor while it is open here, otherwise with the CLI configuration (JEV_* variables). ') +
        'Skip it once with git commit --no-verify.',
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
