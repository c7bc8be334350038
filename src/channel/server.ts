import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerMatches, readBody } from '../mcp/loopback-http';
import type { z } from 'zod';
import { MAX_PERMIT_BODY_BYTES, PERMIT_PATH, permitRequestSchema, type PermitChannelRequest, type PermitChannelResponse } from './permit-protocol';
import { CHANNEL_PATH, channelRequestSchema, MAX_CHANNEL_BODY_BYTES, type ChannelRequest, type ChannelResponse } from './protocol';

/**
 * The editor's side of the channel (protocol.ts): an HTTP server on 127.0.0.1 only, a random port, and a
 * bearer token checked in constant time. A request from a web page is refused (any Origin header, a Host
 * that is not the loopback address: DNS rebinding). It routes by path: a well-formed `POST /v1/gate` (the
 * commit hook, protocol.ts) reaches `handler`, a well-formed `POST /v1/permit` (the guard hook,
 * permit-protocol.ts) reaches `permit` (404 when the editor offers none). Each handler gets an AbortSignal
 * that fires when the hook goes away (Ctrl-C on the commit, the agent host's hook timeout). Never logs the
 * token or a body. No host import.
 */

/** Judges one commit request; the signal fires when the client disconnects. */
export type ChannelHandler = (request: ChannelRequest, signal: AbortSignal) => Promise<ChannelResponse>;
/** Judges one permit request; the signal fires when the client disconnects. */
export type PermitHandler = (request: PermitChannelRequest, signal: AbortSignal) => Promise<PermitChannelResponse>;

/** Where the server listens. */
export interface ChannelAddress {
  port: number;
}

/** Options of a GateChannelServer. */
export interface ChannelServerOptions {
  /** The session's bearer token (session-file.ts `newSessionSecrets`). */
  token: string;
  handler: ChannelHandler;
  /** The permit route's handler; without it `/v1/permit` is 404 (the hook then uses the CLI configuration). */
  permit?: PermitHandler;
  /** Diagnostics, never given the token or a body. */
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** One route: its body schema and size limit, and its handler. */
interface Route {
  schema: z.ZodType<Record<string, unknown>>;
  maxBytes: number;
  run: (body: Record<string, unknown>, signal: AbortSignal) => Promise<unknown>;
}

const refuse = (res: ServerResponse, status: number, message: string) => send(res, status, { error: message });

/** The loopback server of one editor session. */
export class GateChannelServer {
  private server?: Server;
  private address?: ChannelAddress;

  constructor(private readonly options: ChannelServerOptions) {}

  /** Where it listens, once started. */
  get info(): ChannelAddress | undefined {
    return this.address;
  }

  /** Listens on 127.0.0.1 on a free port (idempotent). Rejects with the listener's error. */
  async start(): Promise<ChannelAddress> {
    if (this.address) return this.address;
    const server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        this.options.log?.('error', `editor channel: ${(err as Error)?.message ?? String(err)}`);
        send(res, 500, { error: 'internal error' });
      });
    });
    server.headersTimeout = 10_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.address = { port: (server.address() as AddressInfo).port };
    return this.address;
  }

  /** Stops listening and cuts open connections (a judgment in flight is aborted). */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.address = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const port = this.address?.port;
    if (port === undefined) return refuse(res, 503, 'stopping');
    if ((req.headers.host ?? '').toLowerCase() !== `127.0.0.1:${port}`) return refuse(res, 403, 'the Host header is not the loopback address');
    if (req.headers.origin !== undefined) return refuse(res, 403, 'requests from web pages are not accepted');
    if (!bearerMatches(req.headers.authorization, this.options.token)) return refuse(res, 401, 'missing or wrong bearer token');
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const permit = this.options.permit;
    const route: Route | undefined =
      path === CHANNEL_PATH
        ? { schema: channelRequestSchema, maxBytes: MAX_CHANNEL_BODY_BYTES, run: (body, signal) => this.options.handler(body as unknown as ChannelRequest, signal) }
        : path === PERMIT_PATH && permit
          ? { schema: permitRequestSchema, maxBytes: MAX_PERMIT_BODY_BYTES, run: (body, signal) => permit(body as unknown as PermitChannelRequest, signal) }
          : undefined;
    if (!route) return refuse(res, 404, 'not found');
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return refuse(res, 405, 'use POST');
    }
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return refuse(res, 415, 'the body must be application/json');
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req, route.maxBytes));
    } catch (err) {
      if ((err as Error).message === 'too large') {
        res.setHeader('Connection', 'close');
        return refuse(res, 413, `the body is larger than ${route.maxBytes} bytes`);
      }
      return refuse(res, 400, 'the body is not JSON');
    }
    const parsed = route.schema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return refuse(res, 400, `invalid request: ${issue?.path.join('.') || '(body)'}: ${issue?.message ?? 'invalid'}`);
    }
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const answer = await route.run(parsed.data, abort.signal);
    send(res, 200, answer);
  }
}
