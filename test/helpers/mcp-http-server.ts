/**
 * A small Streamable HTTP MCP server on 127.0.0.1 for registry tests (real SDK server, real HTTP).
 * Tools: `echo {message}` → structured `{echo}`, `add {a, b}` → structured `{sum}`, and on request `add_tool` (registers
 * `extra` in the caller's session, which sends notifications/tools/list_changed). Counts tools/call
 * requests that reach it, records the session ids of DELETE requests and the sessions still open, and
 * requires `Authorization: Bearer <token>` when a token is given.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface TestHttpServer {
  url: string;
  /** tools/call requests received so far. */
  toolCalls(): number;
  /** Session ids of the DELETE requests received, in order. */
  deletes(): string[];
  /** Ids of the sessions open now. */
  openSessions(): string[];
  close(): Promise<void>;
}

function buildServer(withAddTool: boolean): McpServer {
  const server = new McpServer({ name: 'test-http', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echo over HTTP.', inputSchema: { message: z.string() }, outputSchema: { echo: z.string() }, annotations: { readOnlyHint: true } },
    async ({ message }) => ({ structuredContent: { echo: message }, content: [{ type: 'text', text: JSON.stringify({ echo: message }) }] }),
  );
  server.registerTool(
    'add',
    { description: 'Add two numbers over HTTP.', inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() }, annotations: { readOnlyHint: true } },
    async ({ a, b }) => ({ structuredContent: { sum: a + b }, content: [{ type: 'text', text: JSON.stringify({ sum: a + b }) }] }),
  );
  if (withAddTool) server.registerTool('add_tool', { description: 'Adds the tool "extra" to this session.', inputSchema: {} }, async () => {
    server.registerTool('extra', { description: 'Added at run time.', inputSchema: {} }, async () => ({ content: [{ type: 'text', text: JSON.stringify({ extra: true }) }] }));
    return { content: [{ type: 'text', text: JSON.stringify({ added: 'extra' }) }] };
  });
  return server;
}

/** Starts the server on a random loopback port; `options.addTool` offers the `add_tool` tool too. */
export async function startHttpMcpServer(token?: string, options: { addTool?: boolean } = {}): Promise<TestHttpServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  let calls = 0;
  const deletes: string[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      if (token && req.headers.authorization !== `Bearer ${token}`) {
        res.writeHead(401).end('unauthorized');
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      const messages = Array.isArray(body) ? body : body ? [body] : [];
      if (messages.some((m: { method?: string }) => m?.method === 'tools/call')) calls++;
      const sid = req.headers['mcp-session-id'];
      if (req.method === 'DELETE' && typeof sid === 'string') deletes.push(sid);
      let transport = typeof sid === 'string' ? transports.get(sid) : undefined;
      if (!transport) {
        const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => {
            transports.set(id, created);
          },
        });
        created.onclose = () => {
          if (created.sessionId) transports.delete(created.sessionId);
        };
        await buildServer(options.addTool === true).connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res, body);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    }
  };
  const http: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    toolCalls: () => calls,
    deletes: () => deletes.slice(),
    openSessions: () => [...transports.keys()],
    close: async () => {
      for (const t of transports.values()) await t.close().catch(() => undefined);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
