/**
 * Drives the 14 judgment tools end to end over real HTTP for decision-order tests: a JudgmentService with
 * ALL_TOOLS and a real SystemOneProvider pointed at the fake System One server (127.0.0.1), answers
 * scripted per question id.
 *
 * Usage:
 * ```ts
 * const h = await startDecisionHarness();
 * const run = await h.run('jev_screen', { text: 'hello' }, { injection: noul(0.9) });
 * const result = okResult(run);                  // asserts success, returns the structured result
 * assert.equal(run.requests.length, 1);
 * await h.close();
 * ```
 */
import assert from 'node:assert/strict';
import type { JevErrorCode } from '../../src/judgment/errors';
import type { Answer, QuestionMap } from '../../src/judgment/types';
import { SpendCap } from '../../src/providers/spend-cap';
import { SystemOneProvider } from '../../src/providers/systemone';
import { ALL_TOOLS } from '../../src/tools/index';
import { JudgmentService, type CallOutcome } from '../../src/tools/judgment-service';
import { DEFAULT_FLOORS, type Floors } from '../../src/policy/thresholds';
import { answerAll, choice, startFakeSystemOne, type FakeSystemOne, type RecordedRequest } from './fake-systemone';

/** Answers by question id (any value, even malformed; `OMIT` leaves one out). Unlisted ids get defaultAnswer. */
export type Answers = Record<string, unknown>;
/** Fixed answers, or answers built per request from the questions it asked (tournaments, per-index claims). */
export type AnswerPlan = Answers | ((questions: QuestionMap, request: RecordedRequest) => Answers);

/** Tiny backoff so retry tests stay fast. */
export const FAST_RETRY = { baseDelayMs: 5, maxDelayMs: 20 };

export interface ServiceOptions {
  /** Environment floors (merged over DEFAULT_FLOORS: auto 0.8, review 0.5, block 0.75). */
  floors?: Partial<Floors>;
  /** Total deadline per tool call, ms (default 10 000). */
  timeoutMs?: number;
  spendCap?: SpendCap;
  /** Host default model (default `jev-latest`). */
  model?: string;
}

export interface RunOptions extends ServiceOptions {
  /** Response usage for every request of this run (e.g. input_tokens 64 001 → provider over budget). */
  usage?: { input_tokens: number; output_tokens: number };
  signal?: AbortSignal;
  /** Use this service instead of building one from the options. */
  service?: JudgmentService;
}

/** One tool call: its outcome and the requests the fake server saw during it. */
export interface Run {
  outcome: CallOutcome;
  requests: RecordedRequest[];
}

export interface DecisionHarness {
  fake: FakeSystemOne;
  /** A JudgmentService over a fresh SystemOneProvider pointed at the fake (fast retries). */
  service(options?: ServiceOptions): JudgmentService;
  /** Calls `tool` with `args`; the fake answers every request of the call from `plan`. */
  run(tool: string, args: unknown, plan?: AnswerPlan, options?: RunOptions): Promise<Run>;
  close(): Promise<void>;
}

/** Starts the fake System One server and returns the harness around it. */
export async function startDecisionHarness(): Promise<DecisionHarness> {
  const fake = await startFakeSystemOne();
  const service = (o: ServiceOptions = {}) =>
    new JudgmentService({
      provider: new SystemOneProvider({ baseUrl: fake.url, apiKey: 'sk-decision-test', spendCap: o.spendCap ?? new SpendCap(), retry: FAST_RETRY }),
      tools: ALL_TOOLS,
      floors: { ...DEFAULT_FLOORS, ...o.floors },
      model: o.model ?? 'jev-latest',
      timeoutMs: o.timeoutMs ?? 10_000,
    });
  return {
    fake,
    service,
    async run(tool, args, plan = {}, options = {}) {
      fake.setAnswerer((request) => {
        const questions = (request.body?.questions ?? {}) as QuestionMap;
        const answers = typeof plan === 'function' ? plan(questions, request) : plan;
        return answerAll(questions, answers, options.usage ? { usage: options.usage } : {});
      });
      const start = fake.count();
      const svc = options.service ?? service(options);
      const outcome = await svc.call(tool, args, { signal: options.signal });
      return { outcome, requests: fake.requests.slice(start) };
    },
    close: () => fake.close(),
  };
}

/** Asserts the call succeeded and returns its structured result. */
export function okResult(run: Run): any {
  if (!run.outcome.ok) assert.fail(`expected a result, got ${run.outcome.error.code}: ${run.outcome.error.message}`);
  return run.outcome.result;
}

/**
 * Asserts the call failed with `code` and `retryable`, and that nothing looks like an answer: no result in
 * the outcome or its ledger record, and the record carries the same error. Returns the error message.
 */
export function failed(run: Run, code: JevErrorCode, retryable: boolean): string {
  const o = run.outcome;
  if (o.ok) assert.fail(`expected ${code}, got a result with action ${JSON.stringify((o.result as { action?: unknown }).action)}`);
  assert.equal(o.error.code, code, `code (message: ${o.error.message})`);
  assert.equal(o.error.retryable, retryable, `retryable of ${code} (message: ${o.error.message})`);
  assert.ok(!('result' in o), 'a failed call carries no result');
  assert.equal(o.record.result, undefined, 'the ledger record of a failure carries no result');
  assert.deepEqual(o.record.error, { code, message: o.error.message, retryable });
  assert.ok(!o.error.message.includes('fake-upstream-detail'), 'the upstream body is never echoed');
  return o.error.message;
}

/**
 * A choice answer: `peak` on `chosen`, the rest of the mass spread evenly over the other options;
 * reported confidence `confidence` (default: the peak). A high confidence with a low peak is the
 * "flat distribution" the concentration guard must catch.
 */
export function pick(options: readonly string[], chosen: string, peak: number, confidence = peak): Answer {
  const rest = (1 - peak) / (options.length - 1);
  return choice(chosen, confidence, Object.fromEntries(options.map((o) => [o, o === chosen ? peak : rest])));
}

/** Question ids of a recorded request, in request order. */
export function questionIds(request: RecordedRequest): string[] {
  return Object.keys((request.body?.questions ?? {}) as object);
}
