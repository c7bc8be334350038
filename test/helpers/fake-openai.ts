/**
 * A scriptable fake OpenAI-compatible server for tests and benches: real HTTP on 127.0.0.1, random port,
 * `POST /v1/chat/completions` answered with scripted first-token logprobs.
 *
 * Usage:
 * ```ts
 * const fake = await startFakeOpenAi();                  // every request: the default completion
 * const provider = new OpenAiProvider({ baseUrl: fake.url, spendCap: new SpendCap() });
 * fake.script({ status: 429 }, completion({ A: -0.1, B: -2.5 }));   // then the responder again
 * fake.setResponder((req) => completion({ [req.labels[1]!]: -0.05 }));
 * fake.setDelay(20);                                     // every request waits 20 ms before its step
 * assert.equal(fake.count(), 2); assert.ok(fake.maxInFlight() <= 4);
 * await fake.close();
 * ```
 * Each request takes the next scripted step; with none queued, the responder picks one. Every request is
 * recorded (path, headers, parsed body, prompt text and the option labels found in it) before it runs.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the server saw it. */
export interface OpenAiRecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** JSON-parsed body; undefined when empty or not JSON. */
  body: any;
  rawBody: string;
  /** Text of the last user message ('' when absent). */
  prompt: string;
  /** Option labels offered by the prompt, in order (lines such as `A) …`, `Y) yes`). */
  labels: string[];
  /** 0-based arrival index. */
  index: number;
}

/** Token counts of a fake completion. */
export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

/**
 * What the server does with one request:
 * - `{status, body?, headers?}`: answer `status` with JSON `body`; a 2xx without body uses the responder,
 *   other statuses a small error body containing the marker `fake-upstream-detail`.
 * - `{delayMs, then}`: wait, then run `then` (ends early when the client goes away).
 * - `{hang: true}`: never answer; `{reset: true}`: destroy the socket.
 * - `{raw, status?, contentType?}`: send `raw` text as-is.
 */
export type OpenAiStep =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { delayMs: number; then: OpenAiStep }
  | { hang: true }
  | { reset: true }
  | { raw: string; status?: number; contentType?: string };

/** Picks the step of a request when none is scripted. */
export type Responder = (request: OpenAiRecordedRequest) => OpenAiStep;

/**
 * A 200 chat completion whose first token has `top` as top_logprobs (token → natural-log probability,
 * listed in the given order); the generated token is the most likely one.
 */
export function completion(top: Record<string, number> | Array<[string, number]>, usage: FakeUsage = { prompt_tokens: 50, completion_tokens: 1 }, model = 'fake-model'): OpenAiStep {
  const entries = Array.isArray(top) ? top : Object.entries(top);
  const list = entries.map(([token, logprob]) => ({ token, logprob, bytes: [...Buffer.from(token)] }));
  const best = list.reduce<(typeof list)[number] | undefined>((a, b) => (a === undefined || b.logprob > a.logprob ? b : a), undefined);
  return {
    status: 200,
    body: {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 0,
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: best?.token ?? '' },
          finish_reason: 'length',
          logprobs: { content: best ? [{ ...best, top_logprobs: list }] : [] },
        },
      ],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    },
  };
}

/** A 200 chat completion without logprobs (`logprobs: null`), as servers that ignore the parameter send. */
export function noLogprobsCompletion(usage: FakeUsage = { prompt_tokens: 50, completion_tokens: 1 }): OpenAiStep {
  return {
    status: 200,
    body: {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 0,
      model: 'fake-model',
      choices: [{ index: 0, message: { role: 'assistant', content: 'A' }, finish_reason: 'length', logprobs: null }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    },
  };
}

/** Natural log of `p`, for readable scripts: `completion({ A: ln(0.7), B: ln(0.3) })`. */
export const ln = (p: number) => Math.log(p);

/**
 * The default responder: the first offered label gets probability 0.8, the others share 0.2 evenly;
 * at most `top_logprobs` (default 20) labels are listed, most likely first.
 */
export const defaultResponder: Responder = (request) => {
  const labels = request.labels.length > 0 ? request.labels : ['A'];
  const rest = labels.length > 1 ? 0.2 / (labels.length - 1) : 0;
  const limit = typeof request.body?.top_logprobs === 'number' ? request.body.top_logprobs : 20;
  const top = labels.map((l, i): [string, number] => [l, Math.log(i === 0 ? (labels.length > 1 ? 0.8 : 1) : rest)]);
  return completion(top.slice(0, limit));
};

/** Realistic error body for `status`; contains the marker `fake-upstream-detail`. */
export function errorBody(status: number): unknown {
  return { error: { message: `fake-upstream-detail: HTTP ${status}`, type: 'fake_error', code: status } };
}

export interface FakeOpenAiOptions {
  responder?: Responder;
  script?: OpenAiStep[];
  /** Delay before every request's step, ms (default 0). */
  delayMs?: number;
}

export interface FakeOpenAi {
  /** Base URL without `/v1`, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** All requests so far (live array). */
  requests: OpenAiRecordedRequest[];
  count(): number;
  script(...steps: OpenAiStep[]): void;
  setResponder(fn: Responder): void;
  setDelay(ms: number): void;
  /** Requests received whose response has not finished and whose socket is still open. */
  inFlight(): number;
  /** Largest `inFlight()` seen so far. */
  maxInFlight(): number;
  /** Requests whose connection closed before their response was sent (client aborts). */
  abortedRequests(): number;
  closedSockets(): number;
  /** Resolves once at least `n` sockets have closed; rejects after `timeoutMs` (default 2 000). */
  waitForClosedSockets(n?: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function promptOf(body: any): string {
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user' && typeof messages[i].content === 'string') return messages[i].content;
  }
  return '';
}

/** Starts the fake on 127.0.0.1 with a random port. */
export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const requests: OpenAiRecordedRequest[] = [];
  const queue: OpenAiStep[] = [...(options.script ?? [])];
  let responder: Responder = options.responder ?? defaultResponder;
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

  function run(step: OpenAiStep, record: OpenAiRecordedRequest, req: IncomingMessage, res: ServerResponse): void {
    if ('delayMs' in step) {
      const timer = setTimeout(() => run(step.then, record, req, res), step.delayMs);
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
        run(responder(record), record, req, res);
        return;
      }
      body = errorBody(step.status);
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
        let body: any;
        try {
          body = rawBody ? JSON.parse(rawBody) : undefined;
        } catch {
          body = undefined;
        }
        const prompt = promptOf(body);
        const labels = [...prompt.matchAll(/^([A-Z])\) /gm)].map((m) => m[1]!);
        const record: OpenAiRecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, rawBody, prompt, labels, index: requests.length };
        requests.push(record);
        const step = queue.shift() ?? ({ status: 200 } as OpenAiStep);
        const go = () => {
          try {
            run(step, record, req, res);
          } catch (err) {
            send(res, 500, JSON.stringify({ error: `fake responder threw: ${String(err)}` }));
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
    setResponder: (fn) => {
      responder = fn;
    },
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
          reject(new Error(`fake OpenAI: ${closed} socket(s) closed, waited for ${n} during ${timeoutMs} ms`));
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
