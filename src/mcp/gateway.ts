/**
 * The gateway: the MCP server one client session of an agent talks to (the editor's agent through the
 * in-host endpoint). It is the factory's server (`createMcpServer`) with tools/list and tools/call answered
 * here, so that
 * - only the tools granted to the agent's manifest are listed or callable (judgment tools included);
 * - external tools granted to it appear under namespaced names (`<server>__<tool>`), and every call goes
 *   through the ToolRegistry's capability check and is recorded (kind `execution`); a call whose server is
 *   still starting waits for it, and every failed call is recorded too (gateway-calls.ts);
 * - a client that sends a progress token hears the external server's progress notifications under it, so its
 *   own timeout can restart on them as the registry's does (src/registry/call-tool.ts);
 * - when what the agent may see changes (grants, a server's tools), the client gets
 *   `notifications/tools/list_changed` and the session stays open.
 * The manifest, registry and floors are read at every request, so grant toggles apply at once.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { DecisionRecord } from '../ledger/record';
import { gatewayCall } from './gateway-calls';
import { gatewayTools, listingFingerprint } from './gateway-tools';
import { RawArgumentsTap } from './raw-arguments';
import { createMcpServer } from './server';
import { clientAnnouncesUi, loadDecisionCard, type DecisionCard } from './app-card';
import type { AppTool } from './app-tools';
import type { CallProgress } from '../registry/connection-types';
import type { AgentManifest } from '../registry/manifest';
import type { ToolRegistry } from '../registry/registry';
import type { JudgmentService } from '../tools/judgment-service';
import type { Floors } from '../policy/thresholds';
import type { ForwardCap } from './forward-result';
import type { Screener } from '../screen';

export { gatewayTools, namespacedName, type GatewayTool } from './gateway-tools';

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
  /** Records a call the service did not record: an external tool call, or any refused or failed call (ledger + feed). */
  record: (record: DecisionRecord) => void;
  /**
   * The cap of one forwarded external result and the words of its marker (forward-result.ts), read at
   * each call; default: DEFAULT_FORWARD_MAX_BYTES, not recorded.
   */
  resultCap?: () => ForwardCap;
  /**
   * The screener of external results from servers marked for screening (screen-result.ts), shared by every
   * session of the process so each distinct content is judged once. Absent: one per session.
   */
  screener?: Screener;
  /**
   * The workspace's default screen mode (the config file's `screen.mode`) and where it is set, read at each
   * call. An agent's own `screen` replaces it; a server's `"strict"` is strict anyway. Absent: `warn`.
   */
  screenDefault?: () => { mode: 'warn' | 'strict'; setIn: string };
  /** Runs before each tools/list (the host starts its MCP servers here, with a bounded wait). */
  beforeList?: () => Promise<void>;
  /** The MCP Apps decision card (app-card.ts); default: the built card next to the bundle; `null`: none. */
  card?: DecisionCard | null;
  /**
   * Starts the configured servers the host has not started yet (it keeps track of which it started);
   * called before a call waits for a server still starting. Absent: the wait starts the server itself.
   */
  startServers?: () => void;
  /**
   * Subscribes to "what the agent may see may have changed" (grants, a server's tools); returns the
   * unsubscribe. Each session re-lists on it and, when its listing moved, sends tools/list_changed.
   */
  onToolsChanged?: (listener: () => void) => () => void;
  /**
   * App-only tools (app-tools.ts) listed after the agent's tools to a client that announced the MCP Apps
   * extension, for the decision card; the first is the one that opens a decision in the editor's panel.
   */
  appTools?: readonly AppTool[];
}

/** A session's MCP server plus the hook the endpoint calls once the transport is connected. */
export interface GatewaySession {
  server: Server;
  connected(transport: Transport): void;
}

/**
 * Builds the MCP server of one client session. Declares `tools.listChanged`; with `deps.onToolsChanged`,
 * a client that listed the tools is told (`notifications/tools/list_changed`) whenever its listing moved.
 */
export function createGatewaySession(deps: GatewayDeps): GatewaySession {
  const card = deps.card === undefined ? loadDecisionCard() : (deps.card ?? undefined);
  const server = createMcpServer(deps.service, { agent: deps.agent, card: card ?? null });
  server.registerCapabilities({ tools: { listChanged: true } });
  const tap = new RawArgumentsTap();
  /** The listing this client last saw (by a tools/list or a notification); undefined until it listed. */
  let seen: string | undefined;

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    await deps.beforeList?.();
    const tools = gatewayTools(deps, card);
    seen = listingFingerprint(tools);
    return { tools: [...tools.map((t) => t.listing), ...appTools().map((t) => t.listing)] };
  });

  /** The app-only tools this client may call: none for a client without the MCP Apps extension. */
  const appTools = (): readonly AppTool[] => (card && deps.appTools && clientAnnouncesUi(server.getClientCapabilities()) ? deps.appTools : []);

  server.setRequestHandler(CallToolRequestSchema, (request, extra): Promise<CallToolResult> => {
    const args = tap.take(extra.requestId) ?? request.params.arguments ?? {};
    const app = appTools().find((t) => t.listing.name === request.params.name);
    if (app) return app.call(args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {});
    const openTool = appTools()[0]?.listing.name;
    // A client that asked for progress (a token in _meta) hears an external server's progress under its own token.
    const token = request.params._meta?.progressToken;
    const onProgress = token === undefined
      ? undefined
      : (p: CallProgress) => {
          // A client gone meanwhile: the call's abort follows; nothing to do for one lost notification.
          extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, ...p } }).catch(() => undefined);
        };
    return gatewayCall(deps, request.params.name, args, extra.signal, { server, card, ...(openTool ? { openTool } : {}) }, onProgress);
  });

  const unsubscribe = deps.onToolsChanged?.(() => {
    if (seen === undefined) return;
    const now = listingFingerprint(gatewayTools(deps, card));
    if (now === seen) return;
    seen = now;
    // A client whose stream is gone re-lists when it reconnects; nothing to retry here.
    server.sendToolListChanged().catch(() => undefined);
  });
  const previous = server.onclose;
  server.onclose = () => {
    unsubscribe?.();
    previous?.();
  };

  // Attached after connect, so this tap wraps the factory's own (both see the raw message).
  return { server, connected: (transport) => tap.attach(transport) };
}
