/**
 * tools/call of a gateway session (gateway.ts): finds the granted tool, waiting for a server that is still
 * starting when the name is in its namespace (`<server>__`), runs it (judgment tools through the
 * JudgmentService, external ones through the registry's capability check), and records every failure the
 * service does not record itself (unknown tool, denied, server unavailable or still starting, server
 * error, timeout, a fault in this code) in the ledger and the feed, as kind `execution`.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { JevErrorDetails } from '../judgment/errors';
import type { McpConnection } from '../registry/connection';
import type { CallProgress } from '../registry/connection-types';
import { CapabilityViolation, registryErrorDetails, ToolCallError, ToolNotFoundError } from '../registry/errors';
import { executionRecord, type RegistryCallOutcome } from '../registry/execute';
import { decideGrant } from '../registry/manifest';
import { refOf } from '../registry/registry';
import type { GatewayDeps, GatewayTool } from './gateway';
import { gatewayTools, namespacedName } from './gateway-tools';
import { ProtocolError, unknownTool } from './tool-call-errors';
import { cardResult } from './server';
import { DEFAULT_FORWARD_MAX_BYTES, forwardResult } from './forward-result';
import { screenForwarded } from './gateway-screen';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { DecisionCard } from './app-card';

/** Longest tool name kept in a failure record or message (a caller's name is untrusted). */
const NAME_SHOWN = 100;

/** Why a call cannot run: what the ledger records (`target`, `error`) and what the client reads (`text`). */
interface Refusal {
  target: string;
  error: JevErrorDetails;
  text: string;
  /** No tool by this name at all: after recording, a protocol error (-32602), not a tool result. */
  unknown?: true;
}

/**
 * Answers tools/call `name` with `args` for the agent of `deps`. Never throws: every failure is an
 * `isError` result and is recorded (a judgment tool's own failures are recorded by the service). `view`:
 * the session's server and card, so a judgment result carries the decision for a client that shows the card, and
 * the app-only tool that opens it in the editor's panel when the session has one (app-tools.ts).
 * `onProgress` hears an external call's progress notifications (the session relays them to its client).
 */
export async function gatewayCall(
  deps: GatewayDeps,
  name: string,
  args: unknown,
  signal: AbortSignal,
  view: { server: Server; card: DecisionCard | undefined; openTool?: string },
  onProgress?: (progress: CallProgress) => void,
): Promise<CallToolResult> {
  const started = Date.now();
  try {
    const found = await findTool(deps, name, signal);
    if ('refused' in found) return refuse(deps, args, started, found.refused);
    const tool = found.tool;
    if (tool.kind === 'judgment') {
      const definition = deps.service.tools.get(tool.target)!;
      const outcome = await deps.service.call(tool.target, args, { signal, agent: deps.agent });
      return cardResult(view.server, view.card, definition, outcome, view.openTool);
    }
    return await callExternal(deps, tool, args, signal, started, onProgress);
  } catch (err) {
    if (err instanceof ProtocolError) throw err;
    const error = registryErrorDetails(err);
    return refuse(deps, args, started, { target: shown(name), error, text: error.message });
  }
}

/**
 * The granted tool `name` names now, or after the servers whose namespace it is in have started. One wait,
 * bounded by the longest startup timeout among them; waited again only when the registry was rebuilt
 * meanwhile (its connections are new), within the same deadline.
 */
async function findTool(deps: GatewayDeps, name: string, signal: AbortSignal): Promise<{ tool: GatewayTool } | { refused: Refusal }> {
  let deadline: number | undefined;
  for (let round = 0; ; round++) {
    const tool = gatewayTools(deps).find((t) => t.name === name);
    if (tool) return { tool };
    const registry = deps.registry();
    const starting = serversOf(deps, name).filter((c) => c.status.state === 'starting');
    if (starting.length === 0) return { refused: refusal(deps, name) };
    deadline ??= Date.now() + Math.max(...starting.map((c) => c.startupTimeoutMs));
    const left = deadline - Date.now();
    if (left <= 0 || signal.aborted || round >= 3) return { refused: stillStarting(name, starting, signal.aborted) };
    deps.startServers?.();
    await waitForStart(starting, left, signal);
    if (deps.registry() === registry) {
      const later = gatewayTools(deps).find((t) => t.name === name);
      if (later) return { tool: later };
      const still = serversOf(deps, name).filter((c) => c.status.state === 'starting');
      return { refused: still.length ? stillStarting(name, still, signal.aborted) : refusal(deps, name) };
    }
  }
}

/** Configured servers whose namespace (`<server>__`) `name` is in. */
function serversOf(deps: GatewayDeps, name: string): McpConnection[] {
  return (deps.registry()?.servers ?? []).filter((c) => name.startsWith(namespacedName(c.name, '')));
}

/** Resolves when every connection settled, after `ms`, or on abort, whichever is first. */
async function waitForStart(connections: readonly McpConnection[], ms: number, signal: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    onAbort = () => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([Promise.all(connections.map((c) => c.start())), stop]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

function stillStarting(name: string, starting: readonly McpConnection[], cancelled: boolean): Refusal {
  const names = starting.map((c) => JSON.stringify(c.name)).join(', ');
  if (cancelled) return { target: shown(name), error: { code: 'CANCELLED', message: `The call to ${shown(name)} was cancelled while server ${names} was starting.`, retryable: false }, text: `The call to ${shown(name)} was cancelled.` };
  const ms = Math.max(...starting.map((c) => c.startupTimeoutMs));
  const message = `Server ${names} did not finish starting within its startup timeout (${ms} ms), so ${shown(name)} cannot be called yet.`;
  return { target: shown(name), error: { code: 'TIMEOUT', message, retryable: true }, text: message };
}

/** Why `name` is not callable now: a denied grant (with its rule), an unavailable server, or an unknown name. */
function refusal(deps: GatewayDeps, name: string): Refusal {
  const manifest = deps.manifest();
  if (deps.service.tools.has(name)) {
    const decision = decideGrant(manifest, { id: name, name, bareOwner: true });
    const violation = new CapabilityViolation(deps.agent, name, decision);
    return { target: name, error: registryErrorDetails(violation), text: `Agent "${deps.agent}" may not call ${name}: ${decision.reason}.` };
  }
  const registry = deps.registry();
  const external = registry?.list().find((t) => t.transport === 'mcp' && namespacedName(t.server!, t.name) === name);
  if (external) {
    const decision = decideGrant(manifest, refOf(external));
    const violation = new CapabilityViolation(deps.agent, external.id, decision);
    return { target: external.id, error: registryErrorDetails(violation), text: `Agent "${deps.agent}" may not call ${external.id}: ${decision.reason}.` };
  }
  const down = serversOf(deps, name).find((c) => !c.toolsKnown);
  if (down) {
    const st = down.status;
    const message = `Server ${JSON.stringify(down.name)} is not available (${st.state}${st.reason ? `: ${st.reason}` : ''}), so ${shown(name)} cannot be called.`;
    return { target: shown(name), error: registryErrorDetails(new ToolCallError('unavailable', shown(name), message, down.name)), text: message };
  }
  const servers = registry?.servers.map((c) => c.name) ?? [];
  const detail = `agent ${JSON.stringify(deps.agent)} has no granted tool by this name (configured servers: ${servers.join(', ') || 'none'})`;
  return { target: shown(name), error: registryErrorDetails(new ToolNotFoundError(shown(name), detail)), text: unknownTool(name).message, unknown: true };
}

/**
 * Runs an external tool through the registry (its capability check included), records the call, and
 * forwards the server's own result, cut to the session's cap (forward-result.ts) and, for a server marked
 * for screening, screened (gateway-screen.ts), as is an error the tool itself reported.
 */
async function callExternal(deps: GatewayDeps, tool: GatewayTool, args: unknown, signal: AbortSignal, started: number, onProgress?: (progress: CallProgress) => void): Promise<CallToolResult> {
  const registry = deps.registry();
  let outcome: RegistryCallOutcome;
  let raw: CallToolResult | undefined;
  // An error the tool itself reported carries the server's words to the agent: screened like a result.
  let toolReported = false;
  if (!registry) outcome = { ok: false, error: { code: 'CONFIG_ERROR', message: 'No MCP servers are configured.', retryable: false } };
  else if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    outcome = { ok: false, error: { code: 'INVALID_INPUT', message: `${tool.target}: arguments must be a JSON object.`, retryable: false } };
  } else {
    try {
      const done = await registry.callDetailed(deps.agent, deps.manifest(), tool.target, args as Record<string, unknown>, { signal, ...(onProgress ? { onProgress } : {}) });
      outcome = { ok: true, result: done.result };
      raw = done.raw;
    } catch (err) {
      outcome = { ok: false, error: registryErrorDetails(err) };
      toolReported = err instanceof ToolCallError && err.kind === 'tool_error';
    }
  }
  const record = executionRecord({ agent: deps.agent, tool: tool.target, input: args, thresholds: deps.floors(), started, outcome });
  deps.record(record);
  const cap = deps.resultCap?.() ?? { maxBytes: DEFAULT_FORWARD_MAX_BYTES, setting: 'the default cap' };
  if (!outcome.ok) {
    const failed: CallToolResult = { isError: true, content: [{ type: 'text', text: outcome.error.message }] };
    return toolReported ? screenForwarded(deps, tool.target, args, failed, signal, record.id, cap.recordedIn) : failed;
  }
  // An in-process tool has no MCP result of its own: its JSON object, as the judgment tools answer.
  const result = raw ?? { content: [{ type: 'text', text: JSON.stringify(outcome.result, null, 2) }], structuredContent: outcome.result };
  // Screened as forwarded: the agent reads only what is forwarded, and the ledger keeps the raw result either way.
  return screenForwarded(deps, tool.target, args, forwardResult(result, cap, record.id), signal, record.id, cap.recordedIn);
}

/**
 * Records a call that never ran and answers it with `isError`; an unknown name throws ProtocolError -32602
 * instead (the MCP spec makes an unknown tool a protocol error), after it is recorded.
 */
function refuse(deps: GatewayDeps, args: unknown, started: number, refused: Refusal): CallToolResult {
  deps.record(executionRecord({ agent: deps.agent, tool: refused.target, input: args, thresholds: deps.floors(), started, outcome: { ok: false, error: refused.error } }));
  if (refused.unknown) throw unknownTool(refused.target);
  return { isError: true, content: [{ type: 'text', text: refused.text }] };
}

function shown(name: string): string {
  return name.length > NAME_SHOWN ? `${name.slice(0, NAME_SHOWN)}…` : name;
}
