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
import type { Answer, ChoiceAnswer, NoulAnswer, Question, QuestionMap, ScoreAnswer } from '../../src/judgment/types';
import { startScriptedServer, type RecordedRequest, type ScriptStep, type ScriptedServer } from './scripted-http-server';

export type { RecordedRequest };

/**
 * What the server does with one request (see ScriptStep): `{status, body?, headers?}`, `{delayMs, then}`,
 * `{hang: true}`, `{reset: true}`, `{raw, status?, contentType?}`. A 2xx without `body` uses the
 * answerer's body; other statuses without one get a small realistic error body (see `errorBody`).
 */
export type FakeStep = ScriptStep;

/** Builds the 200 body for a request when no step is queued. */
export type Answerer = (request: RecordedRequest) => unknown;

export interface FakeSystemOneOptions {
  /** Defaults to `defaultAnswerer`. */
  answerer?: Answerer;
  /** Steps queued from the start (same as calling `script`). */
  script?: FakeStep[];
}

/** The scripted server's members the tests use (see ScriptedServer), plus the answerer. */
export interface FakeSystemOne
  extends Pick<ScriptedServer<RecordedRequest>, 'url' | 'requests' | 'count' | 'script' | 'closedSockets' | 'waitForClosedSockets' | 'close'> {
  /** Replaces the answerer used when no step is queued. */
  setAnswerer(fn: Answerer): void;
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

/** Starts the fake on 127.0.0.1 with a random port. */
export async function startFakeSystemOne(options: FakeSystemOneOptions = {}): Promise<FakeSystemOne> {
  let answerer: Answerer = options.answerer ?? defaultAnswerer;
  const server = await startScriptedServer<RecordedRequest>({
    name: 'fake System One',
    record: (base) => base,
    answer: (record, step) => ({ ...step, body: answerer(record) }),
    errorBody,
    script: options.script,
  });
  return {
    url: server.url,
    requests: server.requests,
    count: server.count,
    script: server.script,
    setAnswerer: (fn) => {
      answerer = fn;
    },
    closedSockets: server.closedSockets,
    waitForClosedSockets: server.waitForClosedSockets,
    close: server.close,
  };
}
