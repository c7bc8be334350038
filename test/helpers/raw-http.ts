/**
 * Raw HTTP for endpoint tests, where an SDK client would hide what is under test: a POST with full control
 * over the headers (Host and Origin included), and a loopback port with nothing listening.
 */
import { request } from 'node:http';
import { createServer } from 'node:net';

/** Status and body text of one raw response. */
export interface RawResponse {
  status: number;
  text: string;
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
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
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
