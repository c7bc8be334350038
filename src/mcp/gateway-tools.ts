/**
 * The tools a gateway session (gateway.ts) lists to its agent: the judgment tools its manifest grants,
 * then the granted external tools under namespaced names (`<server>__<tool>`), and a fingerprint of that
 * list so a session can tell its client when it moved.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { decideGrant } from '../registry/manifest';
import { refOf, type ResolvedTool } from '../registry/registry';
import type { GatewayDeps } from './gateway';
import { toolListing } from './server';
import type { DecisionCard } from './app-card';
import { withArrayItems } from './schema-repair';

/** One tool as the agent's client sees it. */
export interface GatewayTool {
  /** Name advertised over MCP. */
  name: string;
  /** Judgment tool name, or the registry's qualified id (`server/tool`). */
  target: string;
  kind: 'judgment' | 'external';
  listing: Tool;
}

const MCP_NAME_MAX = 64;

/** `<server>__<tool>` limited to [A-Za-z0-9_-] and 64 characters. */
export function namespacedName(server: string, tool: string): string {
  return `${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, MCP_NAME_MAX);
}

/**
 * The tools the agent may call now: granted judgment tools, then granted external tools. With `card`, the
 * judgment tools that have a decision card name it in their listing (`_meta.ui`).
 */
export function gatewayTools(deps: Pick<GatewayDeps, 'service' | 'registry' | 'manifest'>, card?: DecisionCard): GatewayTool[] {
  const manifest = deps.manifest();
  const out: GatewayTool[] = [];
  const used = new Set<string>();
  for (const tool of deps.service.tools.values()) {
    if (!decideGrant(manifest, { id: tool.name, name: tool.name, bareOwner: true }).allowed) continue;
    out.push({ name: tool.name, target: tool.name, kind: 'judgment', listing: toolListing(tool, card) });
    used.add(tool.name);
  }
  const registry = deps.registry();
  if (!registry) return out;
  for (const tool of registry.list()) {
    if (tool.transport !== 'mcp' || !decideGrant(manifest, refOf(tool)).allowed) continue;
    let name = namespacedName(tool.server!, tool.name);
    for (let n = 2; used.has(name); n++) name = `${namespacedName(tool.server!, tool.name).slice(0, MCP_NAME_MAX - 4)}_${n}`;
    used.add(name);
    out.push({ name, target: tool.id, kind: 'external', listing: externalListing(name, tool) });
  }
  return out;
}

/** What a client of the list sees, as one string: equal strings mean an equal tools/list answer. */
export function listingFingerprint(tools: readonly GatewayTool[]): string {
  return JSON.stringify(tools.map((t) => t.listing));
}

function externalListing(name: string, tool: ResolvedTool): Tool {
  // Arrays without items are repaired: one such node makes VS Code's agent refuse every request (schema-repair.ts).
  const schema = tool.inputSchema && tool.inputSchema.type === 'object' ? withArrayItems(tool.inputSchema).schema : { type: 'object', properties: {} };
  // No outputSchema: a result over the gateway's cap loses its structuredContent (forward-result.ts), which a
  // client would then refuse against the schema.
  return {
    name,
    title: tool.title ?? `${tool.name} (${tool.server})`,
    description: `[${tool.server}] ${tool.description}`.slice(0, 4_000),
    inputSchema: schema as Tool['inputSchema'],
    ...(tool.annotations ? { annotations: { ...tool.annotations } } : {}),
  };
}
