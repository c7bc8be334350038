import { request as httpRequest } from 'node:http';
import { cancelled } from '../judgment/errors';
import type { EditorSession } from './session-file';

/**
 * One POST to an editor session on any route of the channel (protocol.ts, permit-protocol.ts,
 * permit-route.ts). Free of the routes' schemas, so the lean guard entry can load it.
 */

/** Longest wait for the connection, ms (loopback: it is there at once or not at all). */
export const CHANNEL_CONNECT_TIMEOUT_MS = 3_000;

/** What asking one editor gave. */
export type AskResult<R> = { kind: 'answer'; response: R } | { kind: 'unavailable'; reason: string };

/** One POST on the channel: the route, the body, how to recognise its answer. */
export interface ChannelPost<R> {
  /** Route path (`/v1/gate`, `/v1/permit`). */
  path: string;
  body: unknown;
  /** Whether a 200 body is an answer of this route's protocol. */
  isAnswer: (v: unknown) => v is R;
  signal?: AbortSignal;
  /** Longest wait for the answer, ms. */
  answerTimeoutMs: number;
  /** Message of the CANCELLED error when `signal` fires. */
  interrupted: string;
}

/**
 * Posts to the editor of `session` on any route. Resolves to its answer or to `unavailable` with the
 * reason, as askEditor does; rejects only with JevError CANCELLED (message `interrupted`) when `signal` fires.
 */
export function postToEditor<R>(session: EditorSession, post: ChannelPost<R>): Promise<AskResult<R>> {
  const { signal, answerTimeoutMs } = post;
  const payload = Buffer.from(JSON.stringify(post.body), 'utf8');
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled(post.interrupted));
    let settled = false;
    const done = (result: AskResult<R> | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(answerTimer);
      signal?.removeEventListener('abort', onAbort);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const req = httpRequest({
      host: '127.0.0.1',
      port: session.port,
      path: post.path,
      method: 'POST',
      headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json', 'content-length': payload.length, connection: 'close' },
    });
    const onAbort = () => {
      req.destroy();
      done(cancelled(post.interrupted));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const connectTimer = setTimeout(() => {
      req.destroy();
      done({ kind: 'unavailable', reason: `no answer within ${CHANNEL_CONNECT_TIMEOUT_MS} ms` });
    }, CHANNEL_CONNECT_TIMEOUT_MS);
    const answerTimer = setTimeout(() => {
      req.destroy();
      done({ kind: 'unavailable', reason: `the editor did not answer within ${Math.round(answerTimeoutMs / 1000)} s` });
    }, answerTimeoutMs);
    req.on('socket', (socket) => socket.once('connect', () => clearTimeout(connectTimer)));
    req.on('error', (err) => done({ kind: 'unavailable', reason: (err as { code?: string }).code ?? 'connection error' }));
    req.on('response', (res) => {
      clearTimeout(connectTimer);
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', () => done({ kind: 'unavailable', reason: 'the answer was cut off' }));
      res.on('end', () => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          parsed = undefined;
        }
        if (res.statusCode === 200 && post.isAnswer(parsed)) return done({ kind: 'answer', response: parsed });
        const message = typeof (parsed as { error?: unknown } | undefined)?.error === 'string' ? `: ${(parsed as { error: string }).error}` : '';
        done({ kind: 'unavailable', reason: `HTTP ${res.statusCode}${message}` });
      });
    });
    req.end(payload);
  });
}
