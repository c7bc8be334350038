/**
 * Where the server settings are saved, as one rule: `jevPanel.mcpServers`, `jevPanel.disabledServers` and
 * `jevPanel.agents` (the grants) always go to the same scope, so a reload never finds grants in one scope
 * naming servers that only another scope configures. The scope is the workspace when the workspace is
 * trusted and already holds servers or agents, else the user settings.
 */
import * as vscode from 'vscode';
import type { PanelSettings } from '../config/panel-settings';
import { invalidInput } from '../judgment/errors';

/** A settings scope as the confirmations name it. */
export interface SettingsScope {
  target: vscode.ConfigurationTarget.Workspace | vscode.ConfigurationTarget.Global;
  /** `workspace settings (.vscode/settings.json)` or `user settings`. */
  label: string;
}

const WORKSPACE: SettingsScope = { target: vscode.ConfigurationTarget.Workspace, label: 'workspace settings (.vscode/settings.json)' };
const USER: SettingsScope = { target: vscode.ConfigurationTarget.Global, label: 'user settings' };

/** The workspace scope (trusted workspaces only), with the settings file's path when a folder is open. */
export function workspaceScope(): SettingsScope {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const file = vscode.workspace.workspaceFile ?? (folder ? vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json') : undefined);
  return file ? { ...WORKSPACE, label: `workspace settings (${vscode.workspace.asRelativePath(file, false)})` } : WORKSPACE;
}

/** The scope servers, their on/off list and grants are saved to (the module's rule). */
export function serverScope(): SettingsScope {
  if (!vscode.workspace.isTrusted) return USER;
  const config = vscode.workspace.getConfiguration('jevPanel');
  const inWorkspace = (['mcpServers', 'disabledServers', 'agents'] as const).some((key) => {
    const v = config.inspect(key);
    return v?.workspaceValue !== undefined || v?.workspaceFolderValue !== undefined;
  });
  return inWorkspace ? workspaceScope() : USER;
}

/**
 * Turns configured server `name` on or off: saves `jevPanel.disabledServers` (with the servers' scope);
 * a disabled server is stopped and its tools are no longer offered. Throws JevError INVALID_INPUT when no
 * server of that name is configured.
 */
export async function setServerEnabled(settings: PanelSettings, name: string, enabled: boolean): Promise<void> {
  if (!settings.servers.some((s) => s.name === name)) throw invalidInput(`No MCP server named ${JSON.stringify(name)} is configured.`);
  const disabled = settings.disabledServers.filter((n) => n !== name);
  if (!enabled) disabled.push(name);
  const scope = serverScope();
  await vscode.workspace.getConfiguration('jevPanel').update('disabledServers', disabled.length ? disabled : undefined, scope.target);
}
