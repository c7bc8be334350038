import { homedir } from 'node:os';
import { join } from 'node:path';
import type { HostName } from '../types';

/**
 * Where each host reads its hook configuration, per scope (project: the workspace; user: the home folder):
 * - claude-code: `.claude/settings.json`, `~/.claude/settings.json` (a shared settings file: merged).
 * - vscode: `.github/hooks/jev-guard.json`, `~/.copilot/hooks/jev-guard.json` (a file of our own).
 * - codex: `.codex/hooks.json`, `~/.codex/hooks.json` (`$CODEX_HOME/hooks.json`) (a shared file: merged).
 * - copilot-cli: `.github/hooks/jev-guard-copilot-cli.json` (a file of our own; project scope only).
 */

/** Install scope. */
export type Scope = 'project' | 'user';

/** Where and how a host's hook configuration is written. */
export interface HookTarget {
  path: string;
  /** `merged`: a file other settings live in; `owned`: a file only the guard writes. */
  kind: 'merged' | 'owned';
}

/** The hook configuration file of `host` in `scope`. Throws Error when the host has no such scope. */
export function hookTarget(host: HostName, scope: Scope, workspace: string, env: Record<string, string | undefined>): HookTarget {
  const home = env.HOME || homedir();
  switch (host) {
    case 'claude-code':
      return { path: scope === 'project' ? join(workspace, '.claude', 'settings.json') : join(home, '.claude', 'settings.json'), kind: 'merged' };
    case 'vscode':
      return { path: scope === 'project' ? join(workspace, '.github', 'hooks', 'jev-guard.json') : join(home, '.copilot', 'hooks', 'jev-guard.json'), kind: 'owned' };
    case 'codex':
      return { path: scope === 'project' ? join(workspace, '.codex', 'hooks.json') : join(env.CODEX_HOME || join(home, '.codex'), 'hooks.json'), kind: 'merged' };
    case 'copilot-cli':
      if (scope === 'user') throw new Error('copilot-cli: only --scope project is supported (its hooks live in the repository\'s .github/hooks/)');
      return { path: join(workspace, '.github', 'hooks', 'jev-guard-copilot-cli.json'), kind: 'owned' };
  }
}
