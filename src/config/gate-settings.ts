/**
 * The commit gate's settings (`jevPanel.gate.*`), read through an `inspect` function (VS Code's
 * `WorkspaceConfiguration.inspect` in the editor); the value rules are the CLI's (gate/evidence-command.ts). Workspace Trust: in an untrusted workspace only
 * user (global) values count — a workspace must not be able to make the editor run a shell command of its
 * choosing, or let commits through when the judge fails.
 */
import { DEFAULT_EVIDENCE_TIMEOUT_MS, evidenceCommandProblem, evidenceTimeoutProblem } from '../gate/evidence-command';
import type { InspectedValue } from './panel-settings';

/** Keys relative to `jevPanel`. */
export const GATE_SETTING_KEYS = ['gate.evidenceCommand', 'gate.evidenceTimeoutMs', 'gate.failOpen'] as const;
export type GateSettingKey = (typeof GATE_SETTING_KEYS)[number];

/** Validated gate settings. */
export interface GateSettings {
  /** Shell command whose output is the gate's evidence (e.g. `npm test`); undefined = none. */
  evidenceCommand?: string;
  /** Time limit of the evidence command, ms. */
  evidenceTimeoutMs: number;
  /** Let a commit through (with "Commit Anyway") when the judge fails; default false (fail-closed). */
  failOpen: boolean;
  /** One line per invalid or ignored value: `jevPanel.gate.<key>: <rule>; using <fallback>`. */
  problems: string[];
}

/**
 * Reads the gate settings through `inspect` (VS Code's `WorkspaceConfiguration.inspect`). Never throws:
 * a bad value is named in `problems` and replaced by its default.
 */
export function readGateSettings(inspect: (key: GateSettingKey) => InspectedValue | undefined, trusted: boolean): GateSettings {
  const problems: string[] = [];
  const get = (key: GateSettingKey): unknown => {
    const v = inspect(key) ?? {};
    const ws = v.workspaceFolderValue !== undefined ? v.workspaceFolderValue : v.workspaceValue;
    if (ws !== undefined) {
      if (trusted) return ws;
      problems.push(`jevPanel.${key}: the workspace value is ignored because the workspace is not trusted`);
    }
    return v.globalValue !== undefined ? v.globalValue : v.defaultValue;
  };

  let evidenceCommand: string | undefined;
  const cmd = get('gate.evidenceCommand');
  if (typeof cmd === 'string' && cmd.trim() !== '') {
    const problem = evidenceCommandProblem(cmd);
    if (problem) problems.push(`jevPanel.gate.evidenceCommand: ${problem}; using no evidence command`);
    else evidenceCommand = cmd.trim();
  } else if (typeof cmd !== 'string' && cmd !== undefined && cmd !== null) problems.push('jevPanel.gate.evidenceCommand: must be a string; using no evidence command');

  let evidenceTimeoutMs = DEFAULT_EVIDENCE_TIMEOUT_MS;
  const timeout = get('gate.evidenceTimeoutMs');
  if (timeout !== undefined && timeout !== null) {
    const problem = evidenceTimeoutProblem(timeout);
    if (problem) problems.push(`jevPanel.gate.evidenceTimeoutMs: ${problem}; using ${DEFAULT_EVIDENCE_TIMEOUT_MS}`);
    else evidenceTimeoutMs = timeout as number;
  }

  let failOpen = false;
  const open = get('gate.failOpen');
  if (open !== undefined && open !== null) {
    if (typeof open === 'boolean') failOpen = open;
    else problems.push('jevPanel.gate.failOpen: must be true or false; using false (fail-closed)');
  }
  return { ...(evidenceCommand !== undefined ? { evidenceCommand } : {}), evidenceTimeoutMs, failOpen, problems };
}
