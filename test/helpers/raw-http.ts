/**
 * Raw HTTP for endpoint tests, where an SDK client would hide what is under test: a POST with full control
 * over the headers (Host and Origin included), a POST whose response stream is watched as it arrives, and a
 * loopback port with nothing listening.
 */
import { request, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';

/** Status and body text of one raw response. */
export interface RawResponse {
  status: number;
  text: string;
  headers: IncomingHttpHeaders;
}

/**
 * POSTs `body` to `url` as JSON with an MCP-style Accept header; `headers` are added last, so they can
 * replace any of these and set Host. Rejects on a connection error.
 */
export function rawPost(url: string | URL, headers: Record<string, string>, body: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A POST whose response is still arriving: its status and headers first, then the end of its body. */
export interface RawStream {
  /** Resolves with the status and headers as soon as they arrive. */
  head: Promise<{ status: number; headers: IncomingHttpHeaders }>;
  /** Resolves with the whole body text and `Date.now()` at its end (or when the connection closed). */
  ended: Promise<{ text: string; at: number }>;
  /** The body received so far. */
  received(): string;
  /** Destroys the request (the client goes away). */
  abort(): void;
}

/** Like rawPost, but hands back the response as it streams (for SSE answers that stay open). */
export function rawPostStream(url: string | URL, headers: Record<string, string>, body: string): RawStream {
  let text = '';
  type Head = { status: number; headers: IncomingHttpHeaders };
  let resolveHead!: (v: Head) => void;
  let rejectHead!: (err: Error) => void;
  const head = new Promise<Head>((resolve, reject) => ((resolveHead = resolve), (rejectHead = reject)));
  let resolveEnded!: (v: { text: string; at: number }) => void;
  const ended = new Promise<{ text: string; at: number }>((resolve) => (resolveEnded = resolve));
  const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
    resolveHead({ status: res.statusCode ?? 0, headers: res.headers });
    res.on('data', (c: Buffer) => (text += c.toString()));
    res.on('close', () => resolveEnded({ text, at: Date.now() }));
  });
  req.on('error', (err) => {
    rejectHead(err);
    resolveEnded({ text, at: Date.now() });
  });
  req.end(body);
  return { head, ended, received: () => text, abort: () => req.destroy() };
}

/** A JSON-RPC `initialize` request as raw text (protocol 2025-06-18). */
export const RAW_INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });

/** A port on 127.0.0.1 with nothing listening: bound, then released (connections to it are refused). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
