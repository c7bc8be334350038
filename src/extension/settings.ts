/**
 * `jevPanel.*` through VS Code's configuration: every scope read for the validation in
 * src/config/panel-settings.ts (workspace values only in a trusted workspace).
 */
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import { readPanelSettings, type PanelSettings, type SettingKey } from '../config/panel-settings';
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
