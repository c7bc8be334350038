import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerMatches, readBody } from '../../mcp/loopback-http';
import { CHANNEL_PATH, channelRequestSchema, MAX_CHANNEL_BODY_BYTES, type ChannelRequest, type ChannelResponse } from './protocol';

/**
 * The editor's side of the channel (protocol.ts): an HTTP server on 127.0.0.1 only, a random port, and a
 * bearer token checked in constant time. A request from a web page is refused (any Origin header, a Host
 * that is not the loopback address: DNS rebinding). Only a well-formed `POST /v1/gate` reaches the handler,
 * which gets an AbortSignal that fires when the hook goes away (Ctrl-C on the commit). Never logs the
 * token or a body. No host import.
 */

/** Judges one request; the signal fires when the client disconnects. */
export type ChannelHandler = (request: ChannelRequest, signal: AbortSignal) => Promise<ChannelResponse>;

/** Where the server listens. */
export interface ChannelAddress {
  port: number;
}

/** Options of a GateChannelServer. */
export interface ChannelServerOptions {
  /** The session's bearer token (session-file.ts `newSessionSecrets`). */
  token: string;
  handler: ChannelHandler;
  /** Diagnostics, never given the token or a body. */
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
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
        this.options.log?.('error', `commit hook channel: ${(err as Error)?.message ?? String(err)}`);
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
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== CHANNEL_PATH) return refuse(res, 404, 'not found');
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return refuse(res, 405, 'use POST');
    }
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return refuse(res, 415, 'the body must be application/json');
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req, MAX_CHANNEL_BODY_BYTES));
    } catch (err) {
      if ((err as Error).message === 'too large') {
        res.setHeader('Connection', 'close');
        return refuse(res, 413, `the body is larger than ${MAX_CHANNEL_BODY_BYTES} bytes`);
      }
      return refuse(res, 400, 'the body is not JSON');
    }
    const parsed = channelRequestSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return refuse(res, 400, `invalid request: ${issue?.path.join('.') || '(body)'}: ${issue?.message ?? 'invalid'}`);
    }
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const answer = await this.options.handler(parsed.data as unknown as ChannelRequest, abort.signal);
    send(res, 200, answer);
  }
}
