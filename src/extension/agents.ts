/**
 * Agents and their grants in the editor: the manifests from `jevPanel.agents`, each known tool's effective
 * permission with the registry's why, the permission answer the inline "Execute" offer reads, and the
 * panel's grant toggle saved back to `jevPanel.agents`. The grant rules themselves are
 * src/registry/manifest.ts.
 */
import * as vscode from 'vscode';
import type { PanelSettings } from '../config/panel-settings';
import { configError } from '../judgment/errors';
import type { AgentView } from '../panel/protocol';
import { callPermission, decideGrant, refOfName, toggleGrant, type AgentManifest } from '../registry/manifest';
import type { ToolRegistry } from '../registry/registry';

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
          return { tool: tool.id, allowed: why.allowed, why: why.reason };
        }),
        warnings: (registry?.grantWarnings([manifest]) ?? []).filter((w) => w.startsWith(prefix)),
      };
    });
  }

  /** Whether `agent` may call `tool` (bare or `server/tool`), with the why (callPermission's rule). */
  permission(agent: string, tool: string): { allowed: boolean; reason: string } {
    const manifest = this.manifest(agent);
    return callPermission(manifest, tool, this.deps.registry()?.why(manifest, tool), this.deps.settings().servers.map((s) => s.name));
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

  private async applyToggle(agent: string, grant: string, enabled: boolean): Promise<void> {
    const agents = this.deps.settings().agents.map((a) => ({ name: a.name, tools: [...a.tools] }));
    let manifest = agents.find((a) => a.name === agent);
    if (!manifest) {
      manifest = { name: agent, tools: [] };
      agents.push(manifest);
    }
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
 * Saves `jevPanel.agents` to the scope the manifests came from: the workspace when it defines them and is
 * trusted, else the user settings.
 */
async function saveAgents(agents: readonly AgentManifest[]): Promise<void> {
  const config = vscode.workspace.getConfiguration('jevPanel');
  const inspected = config.inspect('agents');
  const target =
    vscode.workspace.isTrusted && (inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined)
      ? vscode.ConfigurationTarget.Workspace
      : vscode.ConfigurationTarget.Global;
  await config.update('agents', agents, target);
}
