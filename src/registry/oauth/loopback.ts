import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The redirect receiver of a browser sign-in: an HTTP listener on 127.0.0.1 (RFC 8252 loopback
 * redirect) that takes `GET /callback?code=…&state=…`, answers the browser with a short page, and
 * hands the code to the one waiting sign-in whose state matches. Nothing else is served.
 */

/** Path of the redirect URI. */
export const CALLBACK_PATH = '/callback';

/** The outcome of the browser step, as the authorization server sent it to the redirect URI. */
export class AuthorizationDeniedError extends Error {
  constructor(
    readonly error: string,
    description?: string,
  ) {
    super(`the authorization server refused the sign-in: ${error}${description ? ` (${description})` : ''}`);
    this.name = 'AuthorizationDeniedError';
  }
}

/** A listening receiver. */
export interface LoopbackRedirect {
  /** `http://127.0.0.1:PORT/callback`. */
  readonly redirectUrl: string;
  readonly port: number;
  /**
   * Resolves with the authorization code of the redirect carrying `state`. Rejects with
   * AuthorizationDeniedError when the server redirected with `error=…`, with Error on timeout (ms) or abort.
   */
  waitForCode(state: string, timeoutMs: number, signal?: AbortSignal): Promise<string>;
  close(): Promise<void>;
}

const page = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:system-ui;margin:3em"><h1>${title}</h1><p>${text}</p></body>`;

/**
 * Starts listening on 127.0.0.1: on `port` when given (fails when taken), else on `preferredPort` when
 * free, else on any free port. Throws Error when the fixed port cannot be used.
 */
export async function startLoopbackRedirect(options: { port?: number; preferredPort?: number } = {}): Promise<LoopbackRedirect> {
  const waiting = new Map<string, { resolve: (code: string) => void; reject: (err: Error) => void }>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const state = url.searchParams.get('state') ?? '';
    const waiter = waiting.get(state);
    if (!waiter) {
      res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' }).end(page('Sign-in not recognised', 'This sign-in was not started here, or it has expired. Start it again from Jev.'));
      return;
    }
    waiting.delete(state);
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (error || !code) {
      res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' }).end(page('Sign-in failed', 'The authorization server did not grant access. You can close this window.'));
      waiter.reject(new AuthorizationDeniedError(error ?? 'no code in the redirect', url.searchParams.get('error_description') ?? undefined));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page('Signed in', 'Jev received the authorization. You can close this window.'));
    waiter.resolve(code);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      server.once('error', onError);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', onError);
        resolve();
      });
    });
  if (options.port !== undefined) {
    try {
      await listen(options.port);
    } catch (err) {
      throw new Error(`cannot receive the sign-in redirect on 127.0.0.1:${options.port} (oauth.redirectPort): ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { cause: err });
    }
  } else {
    try {
      await listen(options.preferredPort ?? 0);
    } catch {
      await listen(0);
    }
  }
  server.unref();
  const port = (server.address() as AddressInfo).port;
  return {
    redirectUrl: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    port,
    waitForCode(state, timeoutMs, signal) {
      return new Promise<string>((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          waiting.delete(state);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`the browser sign-in did not finish within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}`));
        }, timeoutMs);
        const onAbort = () => {
          done();
          reject(new Error('the sign-in was cancelled'));
        };
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        waiting.set(state, {
          resolve: (code) => {
            done();
            resolve(code);
          },
          reject: (err) => {
            done();
            reject(err);
          },
        });
      });
    },
    close: () => closeServer(server),
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
