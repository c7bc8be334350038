import { HOST_NAMES, type HostName } from '../types';
import type { HostAdapter } from './adapter';
import { claudeCode } from './claude-code';
import { codex } from './codex';
import { copilotCli } from './copilot-cli';
import { vscode } from './vscode';

export type { HostAdapter } from './adapter';

/** The host adapters by name. */
export const HOSTS: Readonly<Record<HostName, HostAdapter>> = { 'claude-code': claudeCode, vscode, codex, 'copilot-cli': copilotCli };

/** The adapter of `name`; throws Error listing the hosts when it is not one. */
export function hostAdapter(name: string): HostAdapter {
  if (!(HOST_NAMES as readonly string[]).includes(name)) throw new Error(`--host must be one of ${HOST_NAMES.join(', ')}; got ${JSON.stringify(name)}`);
  return HOSTS[name as HostName];
}
