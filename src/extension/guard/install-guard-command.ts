/**
 * "Jev: Turn On Guard for VS Code's Agent" / "Jev: Turn Off Guard for VS Code's Agent": the same install
 * and uninstall as `jevcp guard install|uninstall --host vscode` (src/guard/install/), project scope: the
 * file `.github/hooks/jev-guard.json` in the workspace folder. The hook runs the stable launcher of the
 * commit hook (src/gate/hook/launcher.ts, kept current by launcher-refresh.ts) under `/bin/sh`, so it
 * survives extension and editor updates and runs the bundled CLI with the editor's runtime. While this
 * editor is open on the folder, the guard judges through it (src/channel/), else with the CLI configuration.
 * Asks first (modal, naming the file); refused in an untrusted workspace and on Windows (no `sh` for the hook).
 */
import * as vscode from 'vscode';
import { stateDir } from '../../gate/state-dir';
import { guardStatus, installGuard, uninstallGuard, type GuardInstallResult, type GuardUninstallResult } from '../../guard/install/install';
import type { CoreHost } from '../core-host';
import { refreshLauncher } from '../gate/launcher-refresh';

/** The file the install writes, relative to the workspace folder (src/guard/install/locations.ts, host vscode, project scope). */
export const GUARD_FILE = '.github/hooks/jev-guard.json';
/** The confirming buttons. */
export const TURN_ON = 'Turn On Guard';
export const TURN_OFF = 'Turn Off Guard';
/** The shell that runs the launcher (an absolute path, as src/guard/install/install.ts requires). */
const SH = '/bin/sh';

/** Stands in for the modal in tests: true to go ahead. */
export type ConfirmPrompt = (message: string) => boolean | Promise<boolean>;

async function workspaceFolder(arg: unknown, purpose: string): Promise<string | undefined> {
  if (arg instanceof vscode.Uri && arg.scheme === 'file') return arg.fsPath;
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  if (folders.length <= 1) return folders[0]?.uri.fsPath;
  return (await vscode.window.showWorkspaceFolderPick({ placeHolder: purpose }))?.uri.fsPath;
}

/** When the hook file is written again through the workbench's file service, ms after the install. */
const ANNOUNCE_AFTER_MS = [1_000, 4_000];

/**
 * Writes the new hook file again, same bytes, through VS Code's file service a little later. VS Code finds
 * hook files by watching `.github/hooks`; a folder the install just created can be watched only after the
 * file landed in it, and on a busy machine its discovery then misses the file (the agent runs without the
 * hook). A later write through the workbench is seen. Skipped when the file changed meanwhile.
 */
function announceHookFile(path: string, log: { warn(message: string): void }): void {
  const uri = vscode.Uri.file(path);
  const written = vscode.workspace.fs.readFile(uri).then((b) => Buffer.from(b).toString('utf8'));
  for (const delay of ANNOUNCE_AFTER_MS) {
    setTimeout(() => {
      void (async () => {
        const now = Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
        if (now === (await written)) await vscode.workspace.fs.writeFile(uri, Buffer.from(now, 'utf8'));
      })().catch((err: unknown) => log.warn(`guard hook file ${path}: could not announce it to the workbench (${(err as Error)?.message ?? String(err)})`));
    }, delay).unref?.();
  }
}

async function confirmed(message: string, button: string, confirm?: ConfirmPrompt): Promise<boolean> {
  return confirm ? confirm(message) : (await vscode.window.showWarningMessage(message, { modal: true }, button)) === button;
}

/**
 * Installs (or refreshes) the guard's hook for VS Code's agent in a workspace folder, after the user
 * confirms. Returns what installGuard did, or undefined when nothing was written (the reason is shown).
 */
export async function installVsCodeGuard(context: vscode.ExtensionContext, core: CoreHost, arg?: unknown, confirm?: ConfirmPrompt): Promise<GuardInstallResult | undefined> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage("Jev: trust this workspace before turning on the guard for VS Code's agent.");
    return undefined;
  }
  if (process.platform === 'win32') {
    void vscode.window.showWarningMessage('Jev: the guard hook is installed from the editor only on macOS and Linux for now; run `jevcp guard install --host vscode` in the workspace.');
    return undefined;
  }
  const workspace = await workspaceFolder(arg, "Folder whose agent's tool calls Jev guards");
  if (!workspace) {
    void vscode.window.showWarningMessage('Jev: open a folder first.');
    return undefined;
  }
  const message =
    `Jev will write ${GUARD_FILE} in ${workspace}: a hook that makes VS Code's agent ask Jev before each tool call. ` +
    'Calls your rules do not settle are judged by this editor while it is open here (otherwise by the CLI configuration); a call is never allowed without a real judgment. ' +
    'Commit the file to share it, or turn the guard off to remove it.';
  if (!(await confirmed(message, TURN_ON, confirm))) return undefined;
  try {
    const runtime = await core.get();
    await runtime.ready;
    const launcher = await refreshLauncher(context, runtime.log);
    if (!launcher) throw new Error('the launcher the hook runs could not be written (see the Jev log)');
    const result = await installGuard({ host: 'vscode', scope: 'project', workspace, env: process.env, state: stateDir(process.env), nodePath: SH, cliPath: launcher });
    if (result.action !== 'unchanged') announceHookFile(result.path, runtime.log);
    const what = result.action === 'unchanged' ? 'is already on' : result.action === 'updated' ? 'was updated' : 'is on';
    const mock = runtime.backend.choice.kind === 'mock' ? ' Jev has only the mock judge here: calls that need judging are left to you (Jev: Set API Key or Use Editor Chat Model).' : '';
    void vscode.window.showInformationMessage(`Jev: the guard for VS Code's agent ${what}: ${result.path}.${mock}`);
    return result;
  } catch (err) {
    void vscode.window.showErrorMessage(`Jev: the guard was not turned on: ${(err as Error)?.message ?? String(err)}`);
    return undefined;
  }
}

/** Removes the guard's hook for VS Code's agent (restoring the file as it was), after the user confirms. */
export async function uninstallVsCodeGuard(arg?: unknown, confirm?: ConfirmPrompt): Promise<GuardUninstallResult | undefined> {
  const workspace = await workspaceFolder(arg, 'Folder to turn the Jev guard off in');
  if (!workspace) {
    void vscode.window.showWarningMessage('Jev: open a folder first.');
    return undefined;
  }
  try {
    const base = { host: 'vscode' as const, scope: 'project' as const, workspace, env: process.env, state: stateDir(process.env) };
    const status = await guardStatus(base);
    if (!status.installed) {
      void vscode.window.showInformationMessage(`Jev: the guard for VS Code's agent is not on in ${workspace}; nothing changed.`);
      return { action: 'not-installed', path: status.path };
    }
    if (!(await confirmed(`Jev will remove its guard hook from ${status.path} (the file goes back to how it was before).`, TURN_OFF, confirm))) return undefined;
    const result = await uninstallGuard(base);
    void vscode.window.showInformationMessage(`Jev: the guard for VS Code's agent is off (${result.action === 'restored' ? 'the file is back as it was' : 'its entries are removed'}): ${result.path}.`);
    return result;
  } catch (err) {
    void vscode.window.showErrorMessage(`Jev: the guard was not turned off: ${(err as Error)?.message ?? String(err)}`);
    return undefined;
  }
}
