import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallOutcome, JudgmentService } from '../tools/judgment-service';
import type { ToolDefinition } from '../tools/types';
import { CARD_TOOLS, cardResourceContents, cardResourceListing, clientAnnouncesUi, loadDecisionCard, uiToolMeta, withDecisionMeta, type DecisionCard } from './app-card';
import { PACKAGE_VERSION, SERVER_NAME } from './identity';
import { SERVER_INSTRUCTIONS } from './instructions';
import { PACK_RESOURCES, type PackResource } from './packs';
import { RawArgumentsTap } from './raw-arguments';
import { toCallToolResult } from './results';
import { guardToolCallParams, unknownTool } from './tool-call-errors';

/** MCP error code for an unknown resource URI (MCP spec: resources, "Resource not found"). */
const RESOURCE_NOT_FOUND = -32002;

/** Options of `createMcpServer`. */
export interface McpServerOptions {
  /** Server instructions (default: SERVER_INSTRUCTIONS, < 1 500 chars). */
  instructions?: string;
  /** Ledger `agent` label of calls made through this server (default 'mcp'). */
  agent?: string;
  /** Pack resources served under jev://packs/ (default: the 8 PACK_RESOURCES). */
  packs?: readonly PackResource[];
  /**
   * The MCP Apps decision card (app-card.ts); default: the built card next to the bundle. `null` or no
   * built card: no UI metadata and no `ui://` resource.
   */
  card?: DecisionCard | null;
}

/**
 * MCP `Tool` entry of one judgment tool: title, description, input/output schemas, annotations, and,
 * when a card is served and the tool is one of CARD_TOOLS, `_meta.ui.resourceUri` naming it.
 */
export function toolListing(tool: ToolDefinition, card?: DecisionCard): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputJsonSchema as Tool['inputSchema'],
    outputSchema: tool.outputJsonSchema as Tool['outputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
    ...(card && CARD_TOOLS.has(tool.name) ? { _meta: uiToolMeta(card) } : {}),
  };
}

/** Low-level SDK server whose transports get the raw-arguments tap before the protocol attaches. */
class JevMcpServer extends Server {
  constructor(
    info: { name: string; version: string },
    options: ConstructorParameters<typeof Server>[1],
    private readonly tap: RawArgumentsTap,
  ) {
    super(info, options);
  }

  override async connect(transport: Transport): Promise<void> {
    guardToolCallParams(transport);
    this.tap.attach(transport);
    await super.connect(transport);
  }
}

/**
 * Builds the MCP server for `service` over any transport (stdio here; the extension connects a
 * Streamable HTTP transport). Name `jev-control-panel`, version from package.json, capabilities tools +
 * resources, the 14 tools with input/output schemas, the jev://packs resources.
 *
 * tools/call: malformed params or an unknown name → JSON-RPC error -32602 (tool-call-errors.ts); otherwise `service.call(name, rawArgs, {signal})` where
 * `signal` is the MCP request's abort signal (a client cancellation aborts the upstream request), and
 * the outcome maps to the success/failure envelope of the tool's family (results.ts).
 */
export function createMcpServer(service: JudgmentService, options: McpServerOptions = {}): Server {
  const tap = new RawArgumentsTap();
  const server = new JevMcpServer(
    { name: SERVER_NAME, version: PACKAGE_VERSION },
    { capabilities: { tools: {}, resources: {} }, instructions: options.instructions ?? SERVER_INSTRUCTIONS },
    tap,
  );
  const card = options.card === undefined ? loadDecisionCard() : (options.card ?? undefined);
  const tools = [...service.tools.values()].map((t) => toolListing(t, card));
  const packs = options.packs ?? PACK_RESOURCES;
  const agent = options.agent ?? 'mcp';

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const tool = service.tools.get(name);
    if (!tool) throw unknownTool(name);
    const args = tap.take(extra.requestId) ?? request.params.arguments ?? {};
    const outcome = await service.call(name, args, { signal: extra.signal, agent });
    return cardResult(server, card, tool, outcome);
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      ...packs.map((p) => ({ uri: p.uri, name: p.name, title: p.title, description: p.description, mimeType: 'application/json' })),
      ...(card ? [cardResourceListing(card)] : []),
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    if (card && request.params.uri === card.uri) return { contents: cardResourceContents(card) };
    const pack = packs.find((p) => p.uri === request.params.uri);
    if (!pack) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${request.params.uri.slice(0, 200)}`);
    return { contents: [{ uri: pack.uri, mimeType: 'application/json', text: JSON.stringify(pack.body(), null, 2) }] };
  });

  return server;
}

/**
 * The MCP result of a judgment tool call: the plain envelope (results.ts), plus the decision in `_meta`
 * only when a card is served, the tool names it and the client announced the MCP Apps extension. `openTool`: the
 * session's app-only tool that opens the decision in the editor's panel (src/mcp/app-tools.ts), if any.
 */
export function cardResult(server: Server, card: DecisionCard | undefined, tool: ToolDefinition, outcome: CallOutcome, openTool?: string): CallToolResult {
  const plain = toCallToolResult(outcome, tool.family);
  if (!card || !CARD_TOOLS.has(tool.name) || !clientAnnouncesUi(server.getClientCapabilities())) return plain;
  return withDecisionMeta(plain, outcome.record, openTool);
}

/** Largest stdio message accepted, bytes. The SDK default (10 MiB) is below a valid 5 000-candidate rank. */
export const STDIO_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** A running stdio server: `closed` resolves when the client closes stdin or `close()` is called. */
export interface StdioServing {
  server: Server;
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves `service` over this process's stdin/stdout (stdout carries only protocol messages;
 * diagnostics go to stderr). Resolves once connected.
 */
export async function serveStdio(service: JudgmentService, options: McpServerOptions = {}): Promise<StdioServing> {
  return serveStdioSession({ server: createMcpServer(service, options) });
}

/**
 * Serves one prepared session (e.g. a gateway session, src/mcp/gateway.ts) over this process's
 * stdin/stdout; `connected` runs once the transport is connected. Resolves once connected.
 */
export async function serveStdioSession(session: { server: Server; connected?: (transport: Transport) => void }): Promise<StdioServing> {
  const { server } = session;
  const transport = new StdioServerTransport(process.stdin, process.stdout, { maxBufferSize: STDIO_MAX_MESSAGE_BYTES });
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  server.onclose = () => resolveClosed();
  // EOF on stdin ends the session (the SDK transport does not watch for it).
  process.stdin.once('end', () => void server.close());
  await server.connect(transport);
  session.connected?.(transport);
  return { server, closed, close: () => server.close() };
}
