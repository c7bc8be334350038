/**
 * Where the guard is on, for the panel: every host and scope whose hook configuration holds the guard's
 * hook (install.ts `guardStatus`), read-only, with the agent each hook runs as (`--agent NAME`, else the
 * host's own name) and that agent's grants and the permission rules from `.jev/config.json` (src/guard/config.ts).
 * A hook file that cannot be read or parsed counts as off.
 */
import { relative } from 'node:path';
import { loadGuardConfig } from '../config';
import { DEFAULT_PERMISSIONS } from '../permissions';
import { HOST_NAMES, type HostName } from '../types';
import { guardStatus } from './install';
import type { Scope } from './locations';

/** Display names of the hosts, as their users call them. */
export const HOST_LABELS: Record<HostName, string> = {
  vscode: "VS Code's agent",
  'claude-code': 'Claude Code',
  codex: 'Codex',
  'copilot-cli': 'Copilot CLI',
};

/** One host and scope where the guard's hook is installed. */
export interface GuardPlace {
  host: HostName;
  label: string;
  scope: Scope;
  /** The hook file: relative to the workspace for project scope, `~/…` for user scope. */
  file: string;
  /** The agent the hook runs as: its `--agent`, else the host's name. */
  agent: string;
}

/** Hosts and scopes with the guard installed (HOST_NAMES order, project before user); `home` shortens user-scope paths. Never throws. */
export async function guardPlaces(workspace: string | undefined, env: Record<string, string | undefined>, state: string, home: string): Promise<GuardPlace[]> {
  const places: GuardPlace[] = [];
  for (const host of HOST_NAMES) {
    for (const scope of ['project', 'user'] as const) {
      if (scope === 'project' && !workspace) continue;
      if (host === 'copilot-cli' && scope === 'user') continue;
      try {
        const s = await guardStatus({ host, scope, workspace: workspace ?? home, env, state });
        if (!s.installed) continue;
        const file = scope === 'project' ? relative(workspace!, s.path) : s.path.startsWith(home) ? `~${s.path.slice(home.length)}` : s.path;
        const named = / --agent (?:'([^']+)'|(\S+))/.exec(s.command ?? '');
        places.push({ host, label: HOST_LABELS[host], scope, file, agent: named?.[1] ?? named?.[2] ?? host });
      } catch {
        // Unreadable: not shown as on.
      }
    }
  }
  return places;
}

/** A host agent as the Agents view shows it: whom the guard runs as, its grants and the rules in force. */
export interface HookAgent {
  name: string;
  /** The hosts whose hook runs as this agent. */
  hosts: string[];
  /** Its grants in `.jev/config.json`; null when the file names no such agent (no grant check: rules and the judge decide). */
  grants: string[] | null;
  /** The permission rules every call meets before judgment (the shipped defaults included when they apply). */
  rules: { allow: string[]; ask: string[]; deny: string[] };
  /** Why the config could not be read (then the hook fails closed, and nothing else is shown). */
  problem?: string;
}

/** The agents the installed hooks run as, with grants and rules from the workspace's config. Never throws. */
export async function hookAgents(places: readonly GuardPlace[], workspace: string | undefined): Promise<HookAgent[]> {
  const names = [...new Set(places.map((p) => p.agent))];
  if (!names.length) return [];
  const hostsOf = (name: string) => places.filter((p) => p.agent === name).map((p) => p.label);
  let config;
  try {
    config = workspace ? await loadGuardConfig(workspace) : { agents: [] };
  } catch (err) {
    return names.map((name) => ({ name, hosts: hostsOf(name), grants: null, rules: { allow: [], ask: [], deny: [] }, problem: (err as Error).message }));
  }
  const p = config.permissions;
  const withDefaults = !p || p.defaults;
  const rules = {
    allow: [...(p?.allow ?? []), ...(withDefaults ? DEFAULT_PERMISSIONS.allow : [])],
    ask: [...(p?.ask ?? []), ...(withDefaults ? DEFAULT_PERMISSIONS.ask : [])],
    deny: [...(p?.deny ?? []), ...(withDefaults ? DEFAULT_PERMISSIONS.deny : [])],
  };
  return names.map((name) => ({ name, hosts: hostsOf(name), grants: config.agents.find((a) => a.name === name)?.tools ?? null, rules }));
}
