/**
 * The MCP server over Streamable HTTP, shared by the extension's in-host endpoint (README "The VS Code
 * extension") and `jevcp serve --http PORT` (README "The CLI"): 127.0.0.1 only, a random (or given) port, a bearer token
 * (random per start unless given), Host and Origin checked against the loopback authority (DNS rebinding),
 * one SDK `StreamableHTTPServerTransport` + one MCP server per session. Host-independent (no `vscode`).
 *
 * Order of checks per request: path → Host → Origin (403) → token (401) → method → session. A request that
 * fails a check never reaches the MCP server. Sessions (http-sessions.ts): a busy one is never closed, an
 * idle one expires after `idleTimeoutMs`, and an initialize beyond `maxSessions` gets 503 with Retry-After.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isInitializeRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { configError } from '../judgment/errors';
import { cancelledIds, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS, SessionTable } from './http-sessions';
import { bearerMatches, loopbackAuthorities, readBody } from './loopback-http';

/** Request path of the endpoint. */
export const ENDPOINT_PATH = '/mcp';
/** Largest request body, bytes (matches the stdio server's limit: a valid 5 000-candidate jev_rank fits). */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;
/** Longest wait at `stop()` for responses under way (e.g. a cancelled call's error) before connections are cut, ms. */
export const STOP_GRACE_MS = 1_000;
/** How long an idle keep-alive connection stays open, ms. */
export const KEEP_ALIVE_MS = 60_000;
/** Shortest bearer token accepted from a caller, characters (a generated one has 43: 256 bits, base64url). */
export const MIN_TOKEN_CHARS = 32;

/**
 * Why `token` cannot be the endpoint's bearer token, or undefined when it can: at least MIN_TOKEN_CHARS
 * characters of the RFC 6750 token68 alphabet (A–Z a–z 0–9 - . _ ~ + /, then optional trailing =), so a
 * client can send it verbatim in `Authorization: Bearer <token>`.
 */
export function bearerTokenProblem(token: string): string | undefined {
  if (token.length < MIN_TOKEN_CHARS) return `must be at least ${MIN_TOKEN_CHARS} characters (got ${token.length})`;
  if (!/^[A-Za-z0-9\-._~+/]+=*$/.test(token)) return 'may contain only A-Z a-z 0-9 - . _ ~ + / (then optional trailing =)';
  return undefined;
}

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
  /** TCP port on 127.0.0.1; 0 or absent = a random free port (a new one at every start). */
  port?: number;
  /** Fixed bearer token (checked by `bearerTokenProblem`; the constructor throws Error if it fails); absent = a new random one at every start. */
  token?: string;
  /** Sessions open at once, an integer ≥ 1 (default DEFAULT_MAX_SESSIONS); an initialize beyond it gets 503 + Retry-After. */
  maxSessions?: number;
  /** Idle time after which a session is closed, ms, an integer ≥ 1 (default DEFAULT_SESSION_IDLE_MS). */
  idleTimeoutMs?: number;
  maxBodyBytes?: number;
}

/** The endpoint. `start()` is idempotent; `stop()` closes every session and the listener. */
export class McpHttpEndpoint {
  private http?: HttpServer;
  private current?: EndpointInfo;
  private starting?: Promise<EndpointInfo>;
  private readonly sessions: SessionTable;

  /**
   * @throws JevError CONFIG_ERROR when `options.token` fails `bearerTokenProblem`, `options.port` is not an
   * integer in 0–65535, or `maxSessions` / `idleTimeoutMs` is not an integer ≥ 1.
   */
  constructor(private readonly options: EndpointOptions) {
    const problem = options.token === undefined ? undefined : bearerTokenProblem(options.token);
    if (problem) throw configError(`McpHttpEndpoint: token ${problem}`);
    const port = options.port ?? 0;
    if (!Number.isInteger(port) || port < 0 || port > 65_535) throw configError(`McpHttpEndpoint: port must be an integer in 0–65535, got ${port}`);
    const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_SESSION_IDLE_MS;
    for (const [name, value] of [['maxSessions', maxSessions], ['idleTimeoutMs', idleTimeoutMs]] as const) {
      if (!Number.isSafeInteger(value) || value < 1) throw configError(`McpHttpEndpoint: ${name} must be an integer ≥ 1, got ${value}`);
    }
    this.sessions = new SessionTable({ maxSessions, idleTimeoutMs }, (message) => options.log?.('info', message));
  }

  /** The running endpoint, if started. */
  get info(): EndpointInfo | undefined {
    return this.current;
  }

  /** Open sessions. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /**
   * Starts listening on 127.0.0.1 (resolves the same info while running). Rejects with the listener's
   * error (e.g. code EADDRINUSE) when the port cannot be bound.
   */
  start(): Promise<EndpointInfo> {
    if (this.current) return Promise.resolve(this.current);
    this.starting ??= this.listen().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async listen(): Promise<EndpointInfo> {
    const token = this.options.token ?? randomBytes(32).toString('base64url');
    const http = createServer((req, res) => {
      this.handle(req, res, token).catch((err: unknown) => {
        this.options.log?.('error', `MCP endpoint request failed: ${(err as Error)?.message ?? String(err)}`);
        if (!res.headersSent) jsonError(res, 500, -32603, 'Internal error');
        else res.end();
      });
    });
    // An idle keep-alive connection is closed after this long. Node's 5 s default races clients that reuse a
    // connection just as it is closed (ECONNRESET: the request is lost, not answered), which a busy loop makes
    // common (bench/http-load.mjs lost calls so). Clients close theirs earlier (a second under the advertised
    // Keep-Alive timeout); the header timeout stays above it, as Node asks.
    http.keepAliveTimeout = KEEP_ALIVE_MS;
    http.headersTimeout = KEEP_ALIVE_MS + 5_000;
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(this.options.port ?? 0, '127.0.0.1', () => {
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

  /** Closes all sessions (their in-flight calls are aborted) and the listener. A random port or token is new at the next `start()`. */
  async stop(): Promise<void> {
    await this.starting?.catch(() => undefined);
    const http = this.http;
    this.http = undefined;
    this.current = undefined;
    await this.sessions.closeAll();
    if (http) {
      // Closed sessions have ended their streams; let what is still being written reach the client, then cut.
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => http.closeAllConnections(), STOP_GRACE_MS);
        http.close(() => {
          clearTimeout(force);
          resolve();
        });
        http.closeIdleConnections();
      });
      this.options.log?.('info', 'MCP endpoint stopped');
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse, token: string): Promise<void> {
    const port = this.current?.port;
    if (port === undefined) {
      res.setHeader('Connection', 'close');
      return jsonError(res, 503, -32000, 'Service unavailable: the endpoint is stopping');
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== ENDPOINT_PATH) return jsonError(res, 404, -32000, 'Not found');
    const hosts = loopbackAuthorities(port);
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
      return this.openSession(req, res, body);
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
    if (req.method === 'GET') session.stream(res);
    const messages = messagesOf(body);
    session.post(messages, res);
    await session.transport.handleRequest(req, res, body);
    // The protocol has acted on the cancellations by now (their POST is answered 202 after dispatch).
    const cancelled = cancelledIds(messages);
    if (cancelled.length > 0) session.cancelled(cancelled);
  }

  private async openSession(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const place = this.sessions.reserve();
    if ('retryAfterS' in place) {
      res.setHeader('Retry-After', String(place.retryAfterS));
      this.options.log?.('warn', `MCP endpoint at capacity (${this.sessions.size} sessions busy or not yet expired): initialize refused with 503`);
      return jsonError(res, 503, -32000, `Service unavailable: too many MCP sessions; retry in ${place.retryAfterS} s`);
    }
    try {
      const { server, connected } = this.options.createSession();
      // Host and Origin were checked in handle(), before any session exists.
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          this.sessions.add(id, transport, server);
        },
      });
      // Set before connect: the protocol chains it, so a session closed by DELETE leaves the table too.
      transport.onclose = () => this.sessions.forget(transport);
      await server.connect(transport);
      connected?.(transport);
      await transport.handleRequest(req, res, body);
      // An initialize the transport refused (e.g. a bad body) opened no session: do not keep its server.
      if (transport.sessionId === undefined || this.sessions.get(transport.sessionId)?.transport !== transport) await server.close().catch(() => undefined);
    } finally {
      place.release();
    }
  }
}

/** The JSON-RPC messages of a POST body (one or a batch); nothing for GET and DELETE. */
function messagesOf(body: unknown): JSONRPCMessage[] {
  if (Array.isArray(body)) return body as JSONRPCMessage[];
  return typeof body === 'object' && body !== null ? [body as JSONRPCMessage] : [];
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function jsonError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
