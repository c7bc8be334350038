/**
 * Checks shared by the loopback HTTP servers (the MCP endpoint, the commit hook's editor channel): the
 * loopback authorities, the bearer token compared in constant time, and a size-bounded body. No SDK import.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The authorities (`host:port`, lowercase) a loopback server on `port` answers to: 127.0.0.1, localhost
 * and the IPv6 loopback `[::1]`. A Host or Origin naming anything else is another site (DNS rebinding).
 */
export function loopbackAuthorities(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

/** Constant-time comparison of `Authorization: Bearer <token>` with `token` (false when absent or malformed). */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]!);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The request body as text, at most `limit` bytes. Rejects with Error `too large` beyond it (the rest is
 * drained, so a 413 answer can still be written) and with the stream's error.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
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
