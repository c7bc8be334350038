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
import { startScriptedServer, type RecordedRequest, type ScriptStep, type ScriptedServer } from './scripted-http-server';

/** One request as the server saw it. */
export interface OpenAiRecordedRequest extends RecordedRequest {
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
 * What the server does with one request (see ScriptStep): `{status, body?, headers?}`, `{delayMs, then}`,
 * `{hang: true}`, `{reset: true}`, `{raw, status?, contentType?}`. A 2xx without body uses the responder;
 * other statuses without one get an error body containing the marker `fake-upstream-detail`.
 */
export type OpenAiStep = ScriptStep;

/** Picks the step of a request when none is scripted. */
export type Responder = (request: OpenAiRecordedRequest) => OpenAiStep;

const DEFAULT_USAGE: FakeUsage = { prompt_tokens: 50, completion_tokens: 1 };

/** A 200 chat completion with one choice: generated `content` and its `logprobs` block (or null). */
function chatCompletion(content: string, logprobs: unknown, usage: FakeUsage, model: string): OpenAiStep {
  return {
    status: 200,
    body: {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 0,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'length', logprobs }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    },
  };
}

/**
 * A 200 chat completion whose first token has `top` as top_logprobs (token → natural-log probability,
 * listed in the given order); the generated token is the most likely one.
 */
export function completion(top: Record<string, number> | Array<[string, number]>, usage: FakeUsage = DEFAULT_USAGE, model = 'fake-model'): OpenAiStep {
  const entries = Array.isArray(top) ? top : Object.entries(top);
  const list = entries.map(([token, logprob]) => ({ token, logprob, bytes: [...Buffer.from(token)] }));
  const best = list.reduce<(typeof list)[number] | undefined>((a, b) => (a === undefined || b.logprob > a.logprob ? b : a), undefined);
  return chatCompletion(best?.token ?? '', { content: best ? [{ ...best, top_logprobs: list }] : [] }, usage, model);
}

/** A 200 chat completion without logprobs (`logprobs: null`), as servers that ignore the parameter send. */
export function noLogprobsCompletion(usage: FakeUsage = DEFAULT_USAGE): OpenAiStep {
  return chatCompletion('A', null, usage, 'fake-model');
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

/** The scripted server (see ScriptedServer: url without `/v1`, requests, script, delay, in-flight and socket counts, close) plus the responder. */
export interface FakeOpenAi extends ScriptedServer<OpenAiRecordedRequest> {
  setResponder(fn: Responder): void;
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
  let responder: Responder = options.responder ?? defaultResponder;
  const server = await startScriptedServer<OpenAiRecordedRequest>({
    name: 'fake OpenAI',
    record: (base, index) => {
      const prompt = promptOf(base.body);
      const labels = [...prompt.matchAll(/^([A-Z])\) /gm)].map((m) => m[1]!);
      return { ...base, prompt, labels, index };
    },
    answer: (record) => responder(record),
    errorBody,
    script: options.script,
    delayMs: options.delayMs,
  });
  return {
    ...server,
    setResponder: (fn) => {
      responder = fn;
    },
  };
}
