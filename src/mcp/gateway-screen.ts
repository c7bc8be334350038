/**
 * Wiring of the content screen into a gateway call (gateway-calls.ts): which screener judges, which server
 * settings, annotations and agent setting (the manifest's `screen`) decide, and what the agent receives
 * (screen-result.ts).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { redactPatterns } from '../judgment/credential-shapes';
import type { Screener } from '../screen';
import type { GatewayDeps } from './gateway';
import { createGatewayScreener, hasOwnMode, isStrict, screenedResult, screenModeFor, screenPurpose, screenText, type ScreenedCall } from './screen-result';

// Sessions built without a screener (deps.screener) get one each, so a screened server is never passed unjudged.
const ownScreeners = new WeakMap<GatewayDeps, Screener>();

function screenerOf(deps: GatewayDeps): Screener {
  if (deps.screener) return deps.screener;
  let own = ownScreeners.get(deps);
  if (!own) ownScreeners.set(deps, (own = createGatewayScreener(deps.service, deps.agent)));
  return own;
}

/**
 * The screened call behind registry id `target` (`server/tool`) with the server's current settings and the
 * tool's annotations, or undefined when it is not an MCP server's tool of the current registry.
 */
export function screenedCallOf(deps: Pick<GatewayDeps, 'registry'>, target: string, args: unknown): ScreenedCall | undefined {
  const registry = deps.registry();
  const tool = registry?.resolve(target);
  if (!registry || !tool || tool.transport !== 'mcp' || tool.server === undefined) return undefined;
  const config = registry.server(tool.server)?.config;
  return {
    server: tool.server,
    tool: tool.name,
    ...(config ? { serverConfig: { screen: config.screen, trustAnnotations: config.trustAnnotations } } : {}),
    ...(tool.annotations ? { annotations: { openWorldHint: tool.annotations.openWorldHint } } : {}),
    args,
  };
}

/**
 * `forwarded` as the agent receives it after the screen, when the call of `target` is screened
 * (screenModeFor, with the agent's current `screen`); else `forwarded` itself. Never rejects: a screen that
 * fails is an `unscreened` outcome. `recordId` / `recordedIn`: the call's ledger record and where it is kept.
 */
export async function screenForwarded(
  deps: GatewayDeps,
  target: string,
  args: unknown,
  forwarded: CallToolResult,
  signal: AbortSignal,
  recordId: string,
  recordedIn?: string,
): Promise<CallToolResult> {
  const call = screenedCallOf(deps, target, args);
  // Read at each call, as the grants are, so an edited agent setting applies at once.
  const agentScreen = deps.manifest().screen;
  const chosen = call && screenModeFor(call, agentScreen);
  if (!call || !chosen) return forwarded;
  // The workspace's screen.mode applies where neither the server nor the agent chose a mode.
  const workspace = deps.screenDefault?.();
  const byWorkspace = chosen === 'warn' && workspace?.mode === 'strict' && !hasOwnMode(agentScreen);
  const mode = byWorkspace ? 'strict' : chosen;
  const where = `${call.server}/${call.tool}`;
  // Credentials of well-known shapes are masked before the text goes to the judge.
  const outcome = await screenerOf(deps).screen({ text: redactPatterns(screenText(forwarded)), purpose: screenPurpose(call), source: `gateway, server ${call.server} tool ${call.tool}`, signal });
  const byAgent = call.serverConfig?.screen !== 'strict' && isStrict(agentScreen);
  const strictBy = byAgent ? `agent ${deps.agent} is screened strictly` : byWorkspace ? `screen.mode is "strict" in ${workspace.setIn}` : undefined;
  return screenedResult(forwarded, outcome, mode, where, recordId, recordedIn, strictBy);
}
