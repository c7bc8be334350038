/**
 * The in-host MCP endpoint (DESIGN "The extension"): Streamable HTTP on 127.0.0.1, a random port, a random
 * bearer token per endpoint start, Host and Origin checked against the loopback authority (DNS rebinding),
 * one SDK `StreamableHTTPServerTransport` + one MCP server per session. No `vscode` import.
 *
 * Order of checks per request: path → Host → Origin (403) → token (401) → method → session. A request that
 * fails a check never reaches the MCP server.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

/** Request path of the endpoint. */
export const ENDPOINT_PATH = '/mcp';
/** Largest request body, bytes (matches the stdio server's limit: a valid 5 000-candidate jev_rank fits). */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;
/** Sessions kept at once; the least recently used one is closed beyond it. */
export const MAX_SESSIONS = 32;

/** Where the endpoint listens. `token` is a secret: never log it. */
export interface EndpointInfo {
  url: string;
  port: number;
  token: string;
}

/** Options of an McpHttpEndpoint. */
export interface EndpointOptions {
  /** Builds the MCP server of one new session; `connected` runs once its transport is connected. */
  createSession: () => { server: Server; connected?: (transport: Transport) => void };
  /** Diagnostics (never given the token or bodies). */
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  maxSessions?: number;
  maxBodyBytes?: number;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  lastUsed: number;
}

/** The endpoint. `start()` is idempotent; `stop()` closes every session and the listener. */
export class McpHttpEndpoint {
  private http?: HttpServer;
  private current?: EndpointInfo;
  private starting?: Promise<EndpointInfo>;
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly options: EndpointOptions) {}

  /** The running endpoint, if started. */
  get info(): EndpointInfo | undefined {
    return this.current;
  }

  /** Open sessions. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Starts listening on 127.0.0.1 with a new random port and token (resolves the same info while running). */
  start(): Promise<EndpointInfo> {
    if (this.current) return Promise.resolve(this.current);
    this.starting ??= this.listen().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async listen(): Promise<EndpointInfo> {
    const token = randomBytes(32).toString('base64url');
    const http = createServer((req, res) => {
      this.handle(req, res, token).catch((err: unknown) => {
        this.options.log?.('error', `MCP endpoint request failed: ${(err as Error)?.message ?? String(err)}`);
        if (!res.headersSent) jsonError(res, 500, -32603, 'Internal error');
        else res.end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(0, '127.0.0.1', () => {
        http.off('error', reject);
        resolve();
      });
    });
    const port = (http.address() as AddressInfo).port;
    this.http = http;
    this.current = { url: `http://127.0.0.1:${port}${ENDPOINT_PATH}`, port, token };
    this.options.log?.('info', `MCP endpoint listening on http://127.0.0.1:${port}${ENDPOINT_PATH}`);
    return this.current;
  }

  /** Closes all sessions and the listener. The next `start()` gets a new port and token. */
  async stop(): Promise<void> {
    await this.starting?.catch(() => undefined);
    const http = this.http;
    this.http = undefined;
    this.current = undefined;
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(sessions.map((s) => closeSession(s)));
    if (http) {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      this.options.log?.('info', 'MCP endpoint stopped');
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse, token: string): Promise<void> {
    const port = this.current?.port;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== ENDPOINT_PATH) return jsonError(res, 404, -32000, 'Not found');
    const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
    if (!hosts.includes((req.headers.host ?? '').toLowerCase())) return jsonError(res, 403, -32000, 'Forbidden: Host header is not the loopback endpoint');
    const origin = req.headers.origin;
    if (origin !== undefined && !hosts.some((h) => origin.toLowerCase() === `http://${h}`)) {
      return jsonError(res, 403, -32000, 'Forbidden: Origin is not allowed');
    }
    if (!bearerMatches(req.headers.authorization, token)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="jev-control-panel"');
      return jsonError(res, 401, -32000, 'Unauthorized: missing or wrong bearer token');
    }

    const sessionId = header(req, 'mcp-session-id');
    if (req.method === 'POST') {
      let body: unknown;
      try {
        body = JSON.parse(await readBody(req, this.options.maxBodyBytes ?? MAX_BODY_BYTES));
      } catch (err) {
        if ((err as Error).message === 'too large') {
          res.setHeader('Connection', 'close');
          return jsonError(res, 413, -32600, 'Request body too large');
        }
        return jsonError(res, 400, -32700, 'Parse error: the body is not JSON');
      }
      if (sessionId) return this.forward(sessionId, req, res, body);
      if (!isInitializeRequest(body)) return jsonError(res, 400, -32000, 'Bad Request: no session; send initialize first');
      return this.openSession(req, res, body, hosts);
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!sessionId) return jsonError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header required');
      return this.forward(sessionId, req, res);
    }
    res.setHeader('Allow', 'GET, POST, DELETE');
    return jsonError(res, 405, -32000, 'Method not allowed');
  }

  private async forward(sessionId: string, req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) return jsonError(res, 404, -32001, 'Session not found');
    session.lastUsed = Date.now();
    await session.transport.handleRequest(req, res, body);
  }

  private async openSession(req: IncomingMessage, res: ServerResponse, body: unknown, hosts: string[]): Promise<void> {
    const max = this.options.maxSessions ?? MAX_SESSIONS;
    while (this.sessions.size >= max) {
      const [oldestId, oldest] = [...this.sessions.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0]!;
      this.sessions.delete(oldestId);
      void closeSession(oldest);
    }
    const { server, connected } = this.options.createSession();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts: hosts,
      allowedOrigins: hosts.map((h) => `http://${h}`),
      onsessioninitialized: (id) => {
        this.sessions.set(id, { transport, server, lastUsed: Date.now() });
      },
    });
    const plain = new PlainFieldTransport(transport, () => {
      const id = transport.sessionId;
      if (id && this.sessions.get(id)?.transport === transport) this.sessions.delete(id);
    });
    await server.connect(plain);
    connected?.(plain);
    await transport.handleRequest(req, res, body);
  }
}

/**
 * The SDK's Node Streamable HTTP transport exposes `onmessage`/`onclose`/`onerror` as accessors that forward
 * to an inner transport. Wrappers that redefine `onmessage` on the instance (the factory's raw-arguments tap)
 * would cut that forwarding and no message would ever reach the server. This adapter has plain fields and
 * forwards both ways, so any such wrapper works.
 */
class PlainFieldTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];

  constructor(
    private readonly inner: StreamableHTTPServerTransport,
    onClosed: () => void,
  ) {
    inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
    inner.onclose = () => {
      onClosed();
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(...args: Parameters<Transport['send']>): Promise<void> {
    return this.inner.send(...args);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

async function closeSession(session: Session): Promise<void> {
  try {
    await session.server.close();
  } catch {
    // already closed
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Constant-time comparison of `Authorization: Bearer <token>`. */
function bearerMatches(authorization: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]!);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Stop buffering but drain the rest, so the 413 answer can still be written.
        req.removeAllListeners('data');
        req.resume();
        reject(new Error('too large'));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function jsonError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
