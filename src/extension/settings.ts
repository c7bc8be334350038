/**
 * `jevPanel.*` through VS Code's configuration: reading every scope for the validation in
 * src/config/panel-settings.ts, and saving the agent manifests where they came from.
 */
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import { readPanelSettings, type PanelSettings, type SettingKey } from '../config/panel-settings';
import type { AgentManifest } from '../registry/manifest';
import { ALL_TOOLS } from '../tools';

/** Judgment tool names: the default grants of agent `editor`. */
const JUDGMENT_TOOL_NAMES: readonly string[] = ALL_TOOLS.map((t) => t.name);

/** The validated settings of this window (workspace values only in a trusted workspace). */
export function readSettings(): PanelSettings {
  const config = vscode.workspace.getConfiguration('jevPanel');
  return readPanelSettings((key: SettingKey) => config.inspect(key), {
    trusted: vscode.workspace.isTrusted,
    judgmentTools: JUDGMENT_TOOL_NAMES,
    homeDir: homedir(),
  });
}

/**
 * Saves `jevPanel.agents` to the scope the manifests came from: the workspace when it defines them and is
 * trusted, else the user settings.
 */
export async function saveAgents(agents: readonly AgentManifest[]): Promise<void> {
  const config = vscode.workspace.getConfiguration('jevPanel');
  const inspected = config.inspect('agents');
  const target =
    vscode.workspace.isTrusted && (inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined)
      ? vscode.ConfigurationTarget.Workspace
      : vscode.ConfigurationTarget.Global;
  await config.update('agents', agents, target);
}
