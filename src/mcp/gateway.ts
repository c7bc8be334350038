/**
 * The gateway: the MCP server one client session of an agent talks to (the editor's agent through the
 * in-host endpoint). It is the factory's server (`createMcpServer`) with tools/list and tools/call answered
 * here, so that
 * - only the tools granted to the agent's manifest are listed or callable (judgment tools included);
 * - external tools granted to it appear under namespaced names (`<server>__<tool>`), and every call goes
 *   through the ToolRegistry's capability check and is recorded (kind `execution`).
 * The manifest, registry and floors are read at every request, so grant toggles apply at once.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { DecisionRecord } from '../ledger/record';
import { RawArgumentsTap } from './raw-arguments';
import { toCallToolResult } from './results';
import { unknownTool } from './tool-call-errors';
import { createMcpServer, toolListing } from './server';
import { registryErrorDetails } from '../registry/errors';
import { executionRecord } from '../registry/execute';
import { decideGrant, type AgentManifest } from '../registry/manifest';
import { refOf, type ResolvedTool, type ToolRegistry } from '../registry/registry';
import type { JudgmentService } from '../tools/judgment-service';
import type { Floors } from '../policy/thresholds';

/** What the gateway reads at every request. */
export interface GatewayDeps {
  /** The agent every call runs as (`editor` for the editor's agent). */
  agent: string;
  service: JudgmentService;
  /** The current registry (external servers), if any. */
  registry: () => ToolRegistry | undefined;
  /** The agent's current manifest. */
  manifest: () => AgentManifest;
  floors: () => Floors;
  /** Records an external tool call (ledger + feed). */
  record: (record: DecisionRecord) => void;
  /** Runs before each tools/list (the host starts its MCP servers here, with a bounded wait). */
  beforeList?: () => Promise<void>;
}

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

/** The tools the agent may call now: granted judgment tools, then granted external tools. */
export function gatewayTools(deps: Pick<GatewayDeps, 'service' | 'registry' | 'manifest'>): GatewayTool[] {
  const manifest = deps.manifest();
  const out: GatewayTool[] = [];
  const used = new Set<string>();
  for (const tool of deps.service.tools.values()) {
    if (!decideGrant(manifest, { id: tool.name, name: tool.name, bareOwner: true }).allowed) continue;
    out.push({ name: tool.name, target: tool.name, kind: 'judgment', listing: toolListing(tool) });
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

function externalListing(name: string, tool: ResolvedTool): Tool {
  const schema = tool.inputSchema && tool.inputSchema.type === 'object' ? tool.inputSchema : { type: 'object', properties: {} };
  // No outputSchema: results are re-shaped by the registry (a JSON object), not the server's own shape.
  return {
    name,
    title: tool.title ?? `${tool.name} (${tool.server})`,
    description: `[${tool.server}] ${tool.description}`.slice(0, 4_000),
    inputSchema: schema as Tool['inputSchema'],
    ...(tool.annotations ? { annotations: { ...tool.annotations } } : {}),
  };
}

/**
 * Version of a tool set for MCP server definitions: `<packageVersion>+<hash of the tool names>`, so a client
 * that caches a definition sees a change whenever the listed tools change.
 */
export function toolSetVersion(packageVersion: string, names: readonly string[]): string {
  let h = 0;
  for (const ch of names.join('\n')) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return `${packageVersion}+${(h >>> 0).toString(16)}`;
}

/** A session's MCP server plus the hook the endpoint calls once the transport is connected. */
export interface GatewaySession {
  server: Server;
  connected(transport: Transport): void;
}

/** Builds the MCP server of one client session. */
export function createGatewaySession(deps: GatewayDeps): GatewaySession {
  const server = createMcpServer(deps.service, { agent: deps.agent });
  const tap = new RawArgumentsTap();

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    await deps.beforeList?.();
    return { tools: gatewayTools(deps).map((t) => t.listing) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name } = request.params;
    const args = tap.take(extra.requestId) ?? request.params.arguments ?? {};
    const tool = gatewayTools(deps).find((t) => t.name === name);
    if (!tool) return deniedOrUnknown(deps, name, args, extra.signal);
    if (tool.kind === 'judgment') {
      const definition = deps.service.tools.get(tool.target)!;
      const outcome = await deps.service.call(tool.target, args, { signal: extra.signal, agent: deps.agent });
      return toCallToolResult(outcome, definition.family);
    }
    return callExternal(deps, tool, args, extra.signal);
  });

  // Attached after connect, so this tap wraps the factory's own (both see the raw message).
  return { server, connected: (transport) => tap.attach(transport) };
}

/**
 * A judgment tool the manifest denies gets the deciding rule. An external one goes to the registry, whose
 * capability check refuses it before any transport and is recorded. Anything else is unknown (-32602).
 */
async function deniedOrUnknown(deps: GatewayDeps, name: string, args: unknown, signal: AbortSignal): Promise<CallToolResult> {
  if (deps.service.tools.has(name)) {
    const decision = decideGrant(deps.manifest(), { id: name, name, bareOwner: true });
    return { isError: true, content: [{ type: 'text', text: `Agent "${deps.agent}" may not call ${name}: ${decision.reason}.` }] };
  }
  const external = deps.registry()?.list().find((t) => t.transport === 'mcp' && namespacedName(t.server!, t.name) === name);
  if (!external) throw unknownTool(name);
  return callExternal(deps, { name, target: external.id, kind: 'external', listing: externalListing(name, external) }, args, signal);
}

async function callExternal(deps: GatewayDeps, tool: GatewayTool, args: unknown, signal: AbortSignal): Promise<CallToolResult> {
  const registry = deps.registry();
  const started = Date.now();
  let outcome: { ok: true; result: Record<string, unknown> } | { ok: false; error: ReturnType<typeof registryErrorDetails> };
  if (!registry) outcome = { ok: false, error: { code: 'CONFIG_ERROR', message: 'No MCP servers are configured.', retryable: false } };
  else if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    outcome = { ok: false, error: { code: 'INVALID_INPUT', message: `${tool.target}: arguments must be a JSON object.`, retryable: false } };
  } else {
    try {
      outcome = { ok: true, result: await registry.call(deps.agent, deps.manifest(), tool.target, args as Record<string, unknown>, { signal }) };
    } catch (err) {
      outcome = { ok: false, error: registryErrorDetails(err) };
    }
  }
  const record = executionRecord({ agent: deps.agent, tool: tool.target, input: args, thresholds: deps.floors(), started, outcome });

  deps.record(record);
  if (!outcome.ok) return { isError: true, content: [{ type: 'text', text: outcome.error.message }] };
  const text = JSON.stringify(outcome.result, null, 2);
  return { content: [{ type: 'text', text }], structuredContent: outcome.result };
}
