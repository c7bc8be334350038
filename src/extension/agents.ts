/**
 * Agents and their grants in the editor: the manifests from `jevPanel.agents`, each known tool's effective
 * permission with the registry's why, the permission answer the inline "Execute" offer reads, and the
 * panel's grant toggle and per-server shortcuts ("grant all", "grant read-only") saved back to
 * `jevPanel.agents` at the servers' scope (server-settings.ts). The grant rules themselves are
 * src/registry/manifest.ts and src/registry/server-grants.ts.
 */
import * as vscode from 'vscode';
import type { PanelSettings } from '../config/panel-settings';
import { configError } from '../judgment/errors';
import type { AgentView } from '../panel/protocol';
import { callPermission, decideGrant, refOfName, toggleGrant, type AgentManifest } from '../registry/manifest';
import type { ToolRegistry } from '../registry/registry';
import { grantServerTools, type ServerGrantMode } from '../registry/server-grants';
import { serverScope } from './server-settings';
import { toolCountWarning } from '../registry/tool-count';

/** What the controller reads. */
export interface AgentsDeps {
  settings(): PanelSettings;
  registry(): ToolRegistry | undefined;
  /** Re-reads the settings after a save (resolves once the new manifests apply). */
  refresh(reason: string): Promise<void>;
}

/** Agents and grants as the panel, the inline surfaces and the endpoint read them. */
export class AgentsController {
  /** Tail of the grant-toggle queue (never rejects). */
  private toggling: Promise<void> = Promise.resolve();

  constructor(private readonly deps: AgentsDeps) {}

  /** Manifest of agent `name` (an empty one when settings define none by that name). */
  manifest(name: string): AgentManifest {
    return this.deps.settings().agents.find((a) => a.name === name) ?? { name, tools: [] };
  }

  /** Agents with every known tool's effective permission and its why. */
  views(): AgentView[] {
    const registry = this.deps.registry();
    const known = registry?.list() ?? [];
    return this.deps.settings().agents.map((manifest) => {
      const prefix = `agent ${JSON.stringify(manifest.name)}`;
      return {
        name: manifest.name,
        grants: [...manifest.tools],
        permissions: known.map((tool) => {
          const why = registry!.why(manifest, tool.id);
          return { tool: tool.id, allowed: why.allowed, why: why.reason, ...(tool.annotations?.readOnlyHint === true ? { readOnly: true } : {}) };
        }),
        warnings: [
          ...(registry?.grantWarnings([manifest]) ?? []).filter((w) => w.startsWith(prefix)).map((w) => this.disabledNote(w)),
          // The judgment tools are in the registry too (server-supervisor.ts), so this is what the agent is offered.
          ...[toolCountWarning(manifest.name, known.filter((t) => registry!.why(manifest, t.id).allowed).map((t) => t.id))].filter((w): w is string => w !== undefined),
        ],
      };
    });
  }

  /** Whether `agent` may call `tool` (bare or `server/tool`), with the why (callPermission's rule; disabled servers offer nothing). */
  permission(agent: string, tool: string): { allowed: boolean; reason: string } {
    const manifest = this.manifest(agent);
    const { servers, disabledServers } = this.deps.settings();
    const enabled = servers.map((s) => s.name).filter((n) => !disabledServers.includes(n));
    return callPermission(manifest, tool, this.deps.registry()?.why(manifest, tool), enabled);
  }

  /** A grant naming a disabled server is not a typo: the warning says it is disabled instead of "not configured". */
  private disabledNote(warning: string): string {
    const named = /names server "([^"]+)", which is not configured$/.exec(warning);
    if (!named || !this.deps.settings().disabledServers.includes(named[1]!)) return warning;
    return warning.replace(/which is not configured$/, 'which is disabled (its tools are not offered)');
  }

  /**
   * Turns `grant` on or off for `agent` (toggleGrant's rule) and saves the manifests to the scope they came
   * from. Serialized: each toggle reads the manifests the previous one saved, so quick toggles are never
   * lost. Rejects with JevError CONFIG_ERROR when another rule keeps the permission as it is.
   */
  toggle(agent: string, grant: string, enabled: boolean): Promise<void> {
    const run = this.toggling.then(() => this.applyToggle(agent, grant, enabled));
    this.toggling = run.catch(() => undefined);
    return run;
  }

  /**
   * Grants `agent` every tool of `server` (`all`), or exactly the tools whose annotations say
   * `readOnlyHint: true` (`readOnly`: the server's other tools are revoked), and saves the manifests.
   * Serialized with the toggles. Rejects with JevError CONFIG_ERROR naming the rule that prevents it, or
   * when `readOnly` finds no known tools of that server.
   */
  grantServer(agent: string, server: string, mode: ServerGrantMode): Promise<void> {
    const run = this.toggling.then(async () => {
      const { agents, manifest } = this.editable(agent);
      const registry = this.deps.registry();
      const tools = (registry?.list() ?? []).filter((t) => t.server === server).map((t) => ({ id: t.id, readOnly: t.annotations?.readOnlyHint === true }));
      const decide = (grants: readonly string[], tool: string) => {
        const candidate = { name: agent, tools: [...grants] };
        return registry ? registry.why(candidate, tool) : decideGrant(candidate, refOfName(tool));
      };
      const result = grantServerTools(manifest.tools, server, tools, mode, decide);
      if ('error' in result) throw configError(result.error);
      manifest.tools = result.grants;
      await saveAgents(agents);
      await this.deps.refresh(`grant ${mode} of ${server}`);
    });
    this.toggling = run.catch(() => undefined);
    return run;
  }

  /** A copy of the manifests to edit and the one of `agent` in it (added when missing). */
  private editable(agent: string): { agents: AgentManifest[]; manifest: AgentManifest } {
    // Every field is kept (an agent's `screen` too): a grant toggle rewrites the whole setting.
    const agents = this.deps.settings().agents.map((a) => ({ ...a, tools: [...a.tools] }));
    let manifest = agents.find((a) => a.name === agent);
    if (!manifest) {
      manifest = { name: agent, tools: [] };
      agents.push(manifest);
    }
    return { agents, manifest };
  }

  private async applyToggle(agent: string, grant: string, enabled: boolean): Promise<void> {
    const { agents, manifest } = this.editable(agent);
    const tool = grant.startsWith('!') ? grant.slice(1) : grant;
    const registry = this.deps.registry();
    const decide = (tools: readonly string[]) => {
      const candidate = { name: agent, tools: [...tools] };
      // No registry yet: judge the name as written (the registry's rule for unknown tools).
      return registry ? registry.why(candidate, tool) : decideGrant(candidate, refOfName(tool));
    };
    const toggled = toggleGrant(manifest.tools, tool, enabled, decide);
    if ('error' in toggled) throw configError(toggled.error);
    manifest.tools = toggled.grants;
    await saveAgents(agents);
    await this.deps.refresh('grant toggled');
  }
}

/**
 * Saves `jevPanel.agents` at the servers' scope (server-settings.ts): the workspace when it is trusted and
 * holds servers or agents, else the user settings, so grants and the servers they name load together.
 */
async function saveAgents(agents: readonly AgentManifest[]): Promise<void> {
  await vscode.workspace.getConfiguration('jevPanel').update('agents', agents, serverScope().target);
}
