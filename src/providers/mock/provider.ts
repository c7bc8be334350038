/**
 * Deterministic mock judge: answers System One requests from keyword heuristics (this folder), with no
 * network, no clock and no randomness. The same request always yields byte-identical answers. It is
 * uncalibrated and meant for offline use, demos and tests; the UI shows it as a warning.
 *
 * The heuristics are pure functions that read the state through a view (view.ts) and return raw values:
 * a noul probability (noul.ts), or one unnormalized score per choice option (choice.ts) or score level
 * (score.ts), which this file turns into distributions. Their triggers are keyed on the instruction
 * wording of the jev tools' question packs (src/tools/), e.g. "complete enough to stop", `claims[i]`.
 * Rules that keep them from reading a request's shape as evidence:
 * - host execution metadata (`execution`) and object keys are never evidence;
 * - intent fields (task, request, purpose, query, claims, candidates) say what is wanted, not what
 *   happened, so they never count as completion or failure evidence;
 * - negated outcomes ("0 failed", "no errors", "not complete") are not failure/completion evidence, and a
 *   failure signal outranks a completion signal (evidence.ts);
 * - a truncated JSON state (a string after budget fitting) is read leniently, so fields survive the cut
 *   (lenient-json.ts);
 * - rank overlap measures how much of the query a candidate covers (long, complete answers are not
 *   penalized for their length);
 * - prepared-call routing (`selected` / `suitable_i` of the tool-route pack) has its own rule
 *   (routing.ts), so the mock can dispatch a call;
 * - the permission check of one proposed call (jev_permit's pack, `state.call`) has its own keyword rules
 *   (permit.ts), so the mock can allow a read and ask or deny a destructive or exfiltrating call;
 * - an observation naming work still pending for the agent's own tools ("src/parser.ts has not yet been
 *   read") is a step in progress (pending.ts): `next` favours continue, and the failure or gap it
 *   mentions is not read as a failed attempt (retry) or a blocker (ask_user);
 * - question text that is not a string (evaluate_policy passes the caller's `instructions` through) is
 *   read as its JSON rendering, never as "[object Object]".
 */
import { estimateTokens } from '../../judgment/budget';
import { cancelled, JevError } from '../../judgment/errors';
import { requestBodyJson } from '../../judgment/request-body';
import type { Answer, ChoiceQuestion, Question, ScoreQuestion, SystemOneRequest, SystemOneResponse } from '../../judgment/types';
import { confidenceFromProbabilities } from '../../policy/distribution';
import { choiceScores } from './choice';
import { noulValue } from './noul';
import { scoreLevels } from './score';
import { questionText, softmax } from './text';
import { buildView, type MockView } from './view';
import type { CallContext, JudgmentProvider } from '../../judgment/provider';

/** Suffix appended to the requested model name in mock answers. */
export const MOCK_MODEL_SUFFIX = '+mock';
/** Output tokens reported per question (tokens). */
export const MOCK_OUTPUT_TOKENS_PER_QUESTION = 8;

/** The model id of the mock's answers to a request for `model`: `<model>+mock`. */
export function mockModelId(model: string): string {
  return `${model}${MOCK_MODEL_SUFFIX}`;
}

/** Models the mock "lists" for a configured model: `[model + "+mock"]`. */
export function mockModelsList(model: string): string[] {
  return [mockModelId(model)];
}

/**
 * The mock provider. `systemOne` returns `{model: request.model + "+mock", usage: {input_tokens:
 * estimateTokens(JSON of {state, questions}), output_tokens: 8 × question count}, answers}` where every
 * answer satisfies `validateResponse`. Errors: CANCELLED when `ctx.signal` is aborted; INVALID_INPUT when a
 * question is malformed (unknown type, no options or levels). The deadline is left to the caller (no clock).
 */
export class MockProvider implements JudgmentProvider {
  readonly id = 'mock';
  readonly calibrated = false;

  async systemOne(request: SystemOneRequest, ctx: CallContext): Promise<SystemOneResponse> {
    throwIfCancelled(ctx);
    const response = mockResponse(request);
    throwIfCancelled(ctx);
    return response;
  }
}

function throwIfCancelled(ctx: CallContext): void {
  if (ctx.signal.aborted) throw cancelled();
}

/** The mock's answer to one request (pure). Exported for replay/what-if tooling and tests. */
export function mockResponse(request: SystemOneRequest): SystemOneResponse {
  const questions = request.questions;
  if (typeof questions !== 'object' || questions === null || Array.isArray(questions)) {
    throw new JevError('INVALID_INPUT', 'questions must be an object mapping question ids to questions.');
  }
  const view = buildView(request.state);
  const entries = Object.entries(questions);
  // fromEntries keeps ids such as "__proto__" as own keys instead of touching the prototype.
  const answers = Object.fromEntries(entries.map(([id, q]) => [id, answerOne(id, q, view)]));
  return {
    model: mockModelId(request.model),
    usage: {
      input_tokens: estimateTokens(stateAndQuestionsJson(request)),
      output_tokens: MOCK_OUTPUT_TOKENS_PER_QUESTION * entries.length,
    },
    answers,
  };
}

/**
 * `JSON.stringify({state, questions})` of a request, cut from its body (src/judgment/request-body.ts),
 * which judge() records already serialized: the body is that text with `,"model":<model>` before its
 * closing brace.
 */
function stateAndQuestionsJson(request: SystemOneRequest): string {
  const body = requestBodyJson(request);
  const tail = `,"model":${JSON.stringify(request.model)}}`;
  return body.endsWith(tail) ? `${body.slice(0, body.length - tail.length)}}` : JSON.stringify({ state: request.state, questions: request.questions });
}

function answerOne(id: string, question: Question, view: MockView): Answer {
  switch (question?.type) {
    case 'noul':
      return { type: 'noul', noul: noulValue(id, question, view) };
    case 'choice':
      return choiceAnswer(id, question, view);
    case 'score':
      return scoreAnswer(id, question, view);
    default:
      throw new JevError('INVALID_INPUT', `Question ${JSON.stringify(id)} has an unknown type; expected noul, choice or score.`);
  }
}

function choiceAnswer(id: string, question: ChoiceQuestion, view: MockView): Answer {
  const options = isObject(question.criteria) ? Object.keys(question.criteria) : [];
  if (options.length === 0) throw new JevError('INVALID_INPUT', `Choice question ${JSON.stringify(id)} has no options.`);
  const probs = softmax(choiceScores(id, question, view));
  const probabilities = Object.fromEntries(options.map((o, i) => [o, probs[i]!]));
  return { type: 'choice', choice: options[firstMax(probs)]!, confidence: confidenceFromProbabilities(probabilities), probabilities };
}

function scoreAnswer(id: string, question: ScoreQuestion, view: MockView): Answer {
  if (!Array.isArray(question.criteria) || question.criteria.length === 0) {
    throw new JevError('INVALID_INPUT', `Score question ${JSON.stringify(id)} has no levels.`);
  }
  const probs = softmax(scoreLevels(id, question, view));
  const probabilities = Object.fromEntries(probs.map((p, i) => [String(i), p]));
  const legend = Object.fromEntries(question.criteria.map((level, i) => [String(i), questionText(level)]));
  // Expected index, kept inside [0, n−1] against rounding.
  const expected = probs.reduce((acc, p, i) => acc + i * p, 0);
  const score = Math.min(probs.length - 1, Math.max(0, expected));
  return { type: 'score', score, confidence: confidenceFromProbabilities(probabilities), probabilities, legend };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Index of the first maximum. */
function firstMax(values: number[]): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return best;
}
