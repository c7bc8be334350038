/**
 * Protocol errors of `tools/call` (MCP spec, tools, "Error Handling"): an unknown tool and malformed
 * request params are JSON-RPC errors -32602, not tool results; a failure inside a known tool stays a
 * tool result with `isError` (results.ts), so the model can read it.
 *
 * The SDK's low-level Server parses `tools/call` before any handler runs and answers a bad shape with
 * -32603 and the whole validation report; the guard below answers first, with one line naming the field.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestParamsSchema, ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { interceptMessages } from './message-intercept';

/** JSON-RPC "Invalid params". */
export const INVALID_PARAMS: number = ErrorCode.InvalidParams;

/**
 * An error the protocol sends as a JSON-RPC error response with this `code` and `message` (a plain Error
 * with a numeric `code`: the SDK's McpError would prefix the message with its code a second time).
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/** -32602 for a tool this server does not list; the name is quoted and capped at 100 characters. */
export function unknownTool(name: string): ProtocolError {
  const shown = name.length > 100 ? `${name.slice(0, 100)}…` : name;
  return new ProtocolError(INVALID_PARAMS, `Unknown tool: ${JSON.stringify(shown)}`);
}

/**
 * One line saying what is wrong with the params of a `tools/call` request, e.g.
 * `Invalid tools/call params: params.name: expected string, received number`; undefined when `message`
 * is not a `tools/call` request or its params are well-formed (name a string, arguments absent or an object).
 */
export function toolCallParamsProblem(message: JSONRPCMessage): string | undefined {
  const m = message as { method?: unknown; id?: unknown; params?: unknown };
  if (m.method !== 'tools/call' || (typeof m.id !== 'string' && typeof m.id !== 'number')) return undefined;
  if (plainlyWellFormed(m.params)) return undefined;
  const parsed = CallToolRequestParamsSchema.safeParse(m.params);
  if (parsed.success) return undefined;
  const [first, ...rest] = parsed.error.issues;
  if (!first) return 'Invalid tools/call params';
  const field = ['params', ...first.path.map(String)].join('.');
  const what = first.message.replace(/^Invalid input: /, '').replace(/\s+/g, ' ').slice(0, 200);
  return `Invalid tools/call params: ${field}: ${what}${rest.length ? ` (and ${rest.length} more)` : ''}`;
}

/**
 * True for the common shape every client sends, `{name: string, arguments?: object}` and nothing else, which
 * the SDK's schema accepts; anything else (`_meta`, `task`, a wrong type) goes through the schema. Why: the
 * schema copies the whole arguments record on every call, and the SDK parses the request again anyway.
 */
function plainlyWellFormed(params: unknown): boolean {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return false;
  const p = params as Record<string, unknown>;
  for (const key in p) if (key !== 'name' && key !== 'arguments') return false;
  if (typeof p.name !== 'string') return false;
  const args = p.arguments;
  if (args === undefined) return true;
  return typeof args === 'object' && args !== null && !Array.isArray(args) && Object.getPrototypeOf(args) === Object.prototype;
}

/**
 * Answers malformed `tools/call` requests received by `transport` with -32602 and toolCallParamsProblem's
 * line; they never reach the protocol. Install before the server connects.
 */
export function guardToolCallParams(transport: Transport): void {
  interceptMessages(transport, (message, extra, next) => {
    const problem = toolCallParamsProblem(message);
    if (problem === undefined) return next(message, extra);
    const id = (message as { id: string | number }).id;
    transport.send({ jsonrpc: '2.0', id, error: { code: INVALID_PARAMS, message: problem } }).catch((err: unknown) => transport.onerror?.(err as Error));
  });
}
