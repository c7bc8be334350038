/**
 * The machinery under the fake upstream servers (fake-systemone.ts, fake-openai.ts): real HTTP on
 * 127.0.0.1 with a random port, every request recorded before it runs, scripted steps, in-flight and
 * closed-socket counting, and an idempotent close. The fakes add their own record fields, answers and
 * error bodies.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the server saw it. */
export interface RecordedRequest {
  method: string;
  /** Path plus query, e.g. `/v1/systemone`. */
  path: string;
  /** Lower-cased header names (node:http). */
  headers: IncomingHttpHeaders;
  /** JSON-parsed body; undefined when empty or not JSON (see `rawBody`). */
  body: any;
  rawBody: string;
  /** The client's port: requests with the same one came over the same (kept-alive) connection. */
  remotePort: number;
}

/**
 * What the server does with one request:
 * - `{status, body?, headers?}`: answer `status`; `body` is JSON-encoded (any value). Without `body`, a 2xx
 *   is answered by the fake's `answer` and other statuses get the fake's `errorBody(status)`.
 * - `{delayMs, then}`: wait, then run `then` (the wait ends early if the client goes away).
 * - `{hang: true}`: never answer (until the client closes the socket or the server closes).
 * - `{reset: true}`: destroy the socket without answering (connection reset).
 * - `{raw, status?, contentType?}`: send `raw` text as-is (default 200, text/plain) — a non-JSON body.
 */
export type ScriptStep =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { delayMs: number; then: ScriptStep }
  | { hang: true }
  | { reset: true }
  | { raw: string; status?: number; contentType?: string };

/** A 2xx step without a body, as `answer` receives it. */
export type BodilessStep = { status: number; headers?: Record<string, string> };

export interface ScriptedServerOptions<R extends RecordedRequest> {
  /** Names the fake in error messages, e.g. `fake System One`. */
  name: string;
  /** Extends the base record of request number `index` (0-based) with the fake's own fields. */
  record(base: RecordedRequest, index: number): R;
  /** The step that answers a 2xx step without a body (and every request when nothing is scripted). */
  answer(record: R, step: BodilessStep): ScriptStep;
  /** The JSON body of a non-2xx step without one. */
  errorBody(status: number): unknown;
  /** Steps queued from the start. */
  script?: ScriptStep[];
  /** Delay before every request's step, ms (default 0). */
  delayMs?: number;
}

export interface ScriptedServer<R extends RecordedRequest> {
  /** Base URL, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  url: string;
  /** All requests so far, in arrival order (live array). */
  requests: R[];
  /** Number of requests received so far. */
  count: () => number;
  /** Queues steps; each later request consumes one. */
  script: (...steps: ScriptStep[]) => void;
  /** Sets the delay before every later request's step, ms. */
  setDelay: (ms: number) => void;
  /** Requests received whose response has not finished and whose socket is still open. */
  inFlight: () => number;
  /** Largest `inFlight()` seen so far. */
  maxInFlight: () => number;
  /** Requests whose connection closed before their response was sent (client aborts). */
  abortedRequests: () => number;
  /** Number of client sockets that have closed so far (cancellation tests). */
  closedSockets: () => number;
  /** Resolves once at least `n` sockets have closed; rejects after `timeoutMs` (default 2 000). */
  waitForClosedSockets: (n?: number, timeoutMs?: number) => Promise<void>;
  /** Closes every socket and the server. Idempotent. */
  close: () => Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** Starts a scripted server on 127.0.0.1 with a random port. */
export async function startScriptedServer<R extends RecordedRequest>(options: ScriptedServerOptions<R>): Promise<ScriptedServer<R>> {
  const requests: R[] = [];
  const queue: ScriptStep[] = [...(options.script ?? [])];
  let delayMs = options.delayMs ?? 0;
  const sockets = new Set<Socket>();
  let closed = 0;
  let active = 0;
  let maxActive = 0;
  let aborted = 0;
  const closeWaiters = new Set<() => void>();

  function send(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}, contentType = 'application/json') {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
  }

  /** `answered` is set once `answer` has filled a bodiless 2xx, so an answer without a body cannot loop. */
  function run(step: ScriptStep, record: R, req: IncomingMessage, res: ServerResponse, answered = false): void {
    if ('delayMs' in step) {
      const timer = setTimeout(() => run(step.then, record, req, res, answered), step.delayMs);
      res.once('close', () => clearTimeout(timer));
      return;
    }
    if ('hang' in step) return;
    if ('reset' in step) {
      req.socket.destroy();
      return;
    }
    if ('raw' in step) {
      send(res, step.status ?? 200, step.raw, {}, step.contentType ?? 'text/plain');
      return;
    }
    let body = step.body;
    if (body === undefined) {
      if (step.status >= 200 && step.status <= 299) {
        if (answered) throw new Error('the answer step has no body');
        run(options.answer(record, { status: step.status, headers: step.headers }), record, req, res, true);
        return;
      }
      body = options.errorBody(step.status);
    }
    send(res, step.status, JSON.stringify(body), step.headers);
  }

  const server = createServer((req, res) => {
    active++;
    maxActive = Math.max(maxActive, active);
    let done = false;
    const finish = (wasAborted: boolean) => {
      if (done) return;
      done = true;
      active--;
      if (wasAborted) aborted++;
    };
    res.once('finish', () => finish(false));
    res.once('close', () => finish(!res.writableFinished));
    readBody(req).then(
      (rawBody) => {
        const base: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: parseJson(rawBody), rawBody, remotePort: req.socket.remotePort ?? 0 };
        const record = options.record(base, requests.length);
        requests.push(record);
        const step = queue.shift() ?? ({ status: 200 } as ScriptStep);
        const go = () => {
          try {
            run(step, record, req, res);
          } catch (err) {
            // An answer that throws is a test bug: answer 500 so the test sees it, and keep the message.
            send(res, 500, JSON.stringify({ error: `${options.name}: answer threw: ${String(err)}` }));
          }
        };
        if (delayMs > 0) {
          const timer = setTimeout(go, delayMs);
          res.once('close', () => clearTimeout(timer));
        } else go();
      },
      () => req.socket.destroy(),
    );
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      closed++;
      for (const wake of closeWaiters) wake();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    count: () => requests.length,
    script: (...steps) => void queue.push(...steps),
    setDelay: (ms) => {
      delayMs = ms;
    },
    inFlight: () => active,
    maxInFlight: () => maxActive,
    abortedRequests: () => aborted,
    closedSockets: () => closed,
    waitForClosedSockets(n = 1, timeoutMs = 2_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (closed < n) return;
          cleanup();
          resolve();
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`${options.name}: ${closed} socket(s) closed, waited for ${n} during ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          closeWaiters.delete(check);
        };
        closeWaiters.add(check);
        check();
      });
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      });
      return closing;
    },
  };
}
