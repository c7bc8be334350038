/**
 * A scriptable fake System One server for tests: real HTTP on 127.0.0.1, random port (node:http).
 *
 * Usage:
 * ```ts
 * const fake = await startFakeSystemOne();            // answers every request well-formed
 * const provider = new SystemOneProvider({ baseUrl: fake.url, spendCap: new SpendCap() });
 * fake.script({ status: 429, headers: { 'retry-after': '1' } }, { status: 200 }); // then well-formed
 * fake.setAnswerer((req) => answerAll(req.body.questions, { risky: noul(0.1) }));
 * ...
 * assert.equal(fake.count(), 2);
 * await fake.close();
 * ```
 * Each request takes the next scripted step; with none queued, the answerer builds a 200 body.
 * Every request is recorded (method, path, headers, parsed body) before its step runs.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Answer, ChoiceAnswer, NoulAnswer, Question, QuestionMap, ScoreAnswer } from '../../src/judgment/types';

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
}

/**
 * What the server does with one request:
 * - `{status, body?, headers?}`: answer `status`; `body` is JSON-encoded (any value). Without `body`, a 2xx
 *   uses the answerer's body and other statuses get a small realistic error body (see `errorBody`).
 * - `{delayMs, then}`: wait, then run `then` (the wait ends early if the client goes away).
 * - `{hang: true}`: never answer (until the client closes the socket or the server closes).
 * - `{reset: true}`: destroy the socket without answering (connection reset).
 * - `{raw, status?, contentType?}`: send `raw` text as-is (default 200, text/plain) — a non-JSON body.
 */
export type FakeStep =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { delayMs: number; then: FakeStep }
  | { hang: true }
  | { reset: true }
  | { raw: string; status?: number; contentType?: string };

/** Builds the 200 body for a request when no step is queued. */
export type Answerer = (request: RecordedRequest) => unknown;

export interface FakeSystemOneOptions {
  /** Defaults to `defaultAnswerer`. */
  answerer?: Answerer;
  /** Steps queued from the start (same as calling `script`). */
  script?: FakeStep[];
}

export interface FakeSystemOne {
  /** Base URL to hand to the provider, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  url: string;
  /** All requests so far, in arrival order (live array). */
  requests: RecordedRequest[];
  /** Number of requests received so far. */
  count(): number;
  /** Queues steps; each later request consumes one. */
  script(...steps: FakeStep[]): void;
  /** Replaces the answerer used when no step is queued. */
  setAnswerer(fn: Answerer): void;
  /** Number of client sockets that have closed so far (cancellation tests). */
  closedSockets(): number;
  /** Resolves once at least `n` sockets have closed; rejects after `timeoutMs` (default 2 000). */
  waitForClosedSockets(n?: number, timeoutMs?: number): Promise<void>;
  /** Closes every socket and the server. Idempotent. */
  close(): Promise<void>;
}

/** Answer to a noul question: P(true) = `p`. */
export function noul(p: number): NoulAnswer {
  return { type: 'noul', noul: p };
}

/** Answer to a choice question. `probabilities` should name every offered option. */
export function choice(option: string, confidence: number, probabilities: Record<string, number>): ChoiceAnswer {
  return { type: 'choice', choice: option, confidence, probabilities: { ...probabilities } };
}

/**
 * Answer to a score question with `levels` (the question's criteria list, or a level count) and
 * `probs` per level index (array, lowest level first). The score is the distribution's expected level;
 * confidence defaults to the largest probability.
 */
export function score(levels: string[] | number, probs: number[], confidence?: number): ScoreAnswer {
  const texts = typeof levels === 'number' ? Array.from({ length: levels }, (_, i) => `level ${i}`) : levels;
  if (probs.length !== texts.length) throw new Error(`score(): ${probs.length} probabilities for ${texts.length} levels`);
  const probabilities: Record<string, number> = {};
  const legend: Record<string, string> = {};
  let expected = 0;
  texts.forEach((text, i) => {
    probabilities[String(i)] = probs[i]!;
    legend[String(i)] = text;
    expected += i * probs[i]!;
  });
  return { type: 'score', score: expected, confidence: confidence ?? Math.max(...probs), probabilities, legend };
}

/** Splits `top` on index `at` and the rest evenly over the other `n − 1` slots. */
function concentrated(n: number, at: number, top = 0.9): number[] {
  if (n === 1) return [1];
  return Array.from({ length: n }, (_, i) => (i === at ? top : (1 - top) / (n - 1)));
}

/**
 * Well-formed default answer: noul 0.9; choice = first option, confidence 0.9, 0.9 on it and the rest
 * spread evenly; score = 0.9 on the top level, the rest spread evenly, score = expected level.
 */
export function defaultAnswer(question: Question): Answer {
  if (question.type === 'noul') return noul(0.9);
  if (question.type === 'choice') {
    const options = Object.keys(question.criteria);
    const probs = concentrated(options.length, 0);
    return choice(options[0]!, 0.9, Object.fromEntries(options.map((o, i) => [o, probs[i]!])));
  }
  const n = question.criteria.length;
  return score(question.criteria, concentrated(n, n - 1), 0.9);
}

/** Pass as an override value to `answerAll` to leave that answer out (missing-answer tests). */
export const OMIT: unique symbol = Symbol('omit answer');

export interface AnswerAllOptions {
  /** Response `model` (default `jev-test-1`). */
  model?: string;
  /** Response `usage` (default 100 input / one output token per question). */
  usage?: { input_tokens: number; output_tokens: number };
}

/**
 * A full response body `{model, usage, answers}` for `questions`: `defaultAnswer` for each id unless
 * `overrides[id]` gives the answer (any value, even a malformed one) or OMIT. Override ids that were not
 * asked are included too (unasked answers).
 */
export function answerAll(
  questions: QuestionMap,
  overrides: Record<string, unknown> = {},
  options: AnswerAllOptions = {},
): { model: string; usage: { input_tokens: number; output_tokens: number }; answers: Record<string, unknown> } {
  const answers: Record<string, unknown> = {};
  for (const [id, q] of Object.entries(questions)) answers[id] = defaultAnswer(q);
  for (const [id, value] of Object.entries(overrides)) {
    if (value === OMIT) delete answers[id];
    else answers[id] = value;
  }
  const count = Object.keys(questions).length;
  return {
    model: options.model ?? 'jev-test-1',
    usage: options.usage ?? { input_tokens: 100, output_tokens: count },
    answers,
  };
}

/** The answerer used unless replaced: `answerAll` of the request's questions, echoing its model. */
export const defaultAnswerer: Answerer = (request) => {
  const questions = (request.body?.questions ?? {}) as QuestionMap;
  const model = typeof request.body?.model === 'string' ? request.body.model : undefined;
  return answerAll(questions, {}, { model });
};

/** Realistic upstream error body for `status`; contains the marker text `fake-upstream-detail`. */
export function errorBody(status: number): unknown {
  if (status === 401 || status === 403) {
    return { detail: { error_type: 'authentication_error', message: 'fake-upstream-detail: invalid API key' } };
  }
  if (status === 422) {
    return { detail: [{ type: 'missing', loc: ['body', 'questions'], msg: 'fake-upstream-detail: Field required', input: {} }] };
  }
  return { error: `fake-upstream-detail: HTTP ${status}` };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Starts the fake on 127.0.0.1 with a random port. */
export async function startFakeSystemOne(options: FakeSystemOneOptions = {}): Promise<FakeSystemOne> {
  const requests: RecordedRequest[] = [];
  const queue: FakeStep[] = [...(options.script ?? [])];
  let answerer: Answerer = options.answerer ?? defaultAnswerer;
  const sockets = new Set<Socket>();
  let closed = 0;
  const closeWaiters = new Set<() => void>();

  function send(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}, contentType = 'application/json') {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
  }

  function run(step: FakeStep, record: RecordedRequest, req: IncomingMessage, res: ServerResponse): void {
    if ('delayMs' in step) {
      const timer = setTimeout(() => run(step.then, record, req, res), step.delayMs);
      req.socket.once('close', () => clearTimeout(timer));
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
    if (body === undefined) body = step.status >= 200 && step.status <= 299 ? answerer(record) : errorBody(step.status);
    send(res, step.status, JSON.stringify(body), step.headers);
  }

  const server = createServer((req, res) => {
    readBody(req).then(
      (rawBody) => {
        let body: unknown;
        try {
          body = rawBody ? JSON.parse(rawBody) : undefined;
        } catch {
          body = undefined;
        }
        const record: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, rawBody };
        requests.push(record);
        const step = queue.shift() ?? ({ status: 200 } as FakeStep);
        try {
          run(step, record, req, res);
        } catch (err) {
          // An answerer that throws is a test bug: answer 500 so the test sees it, and keep the message.
          send(res, 500, JSON.stringify({ error: `fake answerer threw: ${String(err)}` }));
        }
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
    setAnswerer: (fn) => {
      answerer = fn;
    },
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
          reject(new Error(`fake System One: ${closed} socket(s) closed, waited for ${n} during ${timeoutMs} ms`));
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
