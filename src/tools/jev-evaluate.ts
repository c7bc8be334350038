import { z } from 'zod';
import { JevError, invalidResponse } from '../judgment/errors';
import type { Answer, Coverage, Judged, QuestionMap, Usage } from '../judgment/types';
import { actionFromConfidence, actionFromNoul, minConfidence, requireCompleteContext, worstAction, type Action } from '../policy/actions';
import { confidenceSupportsAuto } from '../policy/distribution';
import { jsonProblem, rejectProtoKeys } from './candidates';
import { jevAnnotations } from './jev-common';
import { actionSchema, coverageSchema, jsonSchemaOf, modelField, parseArgs, probability, resolveModel, text, usageSchema } from './schemas';
import type { ToolDefinition } from './types';
import type { Floors } from '../policy/thresholds';

/**
 * jev_evaluate: the escape hatch — any state, any question map,
 * one request; answers returned verbatim with one overall action from the environment thresholds.
 */

/** Most options one choice question may offer. */
export const MAX_CHOICE_OPTIONS = 250;

const instructions = text.min(1, 'must be a non-empty string');

const noulQuestion = z
  .object({
    type: z.literal('noul'),
    instructions,
    criteria: z.object({ true: text.optional(), false: text.optional() }).strict().optional(),
  })
  .strict();

const choiceQuestion = z
  .object({
    type: z.literal('choice'),
    instructions,
    criteria: z
      .record(z.string().min(1, 'option keys must be non-empty'), text.nullable(), { error: 'must be an object of option → description' })
      .refine((c) => Object.keys(c).length >= 2, 'a choice must offer at least 2 options'),
  })
  .strict();

const scoreQuestion = z
  .object({
    type: z.literal('score'),
    instructions,
    criteria: z.array(text, { error: 'must be an array of level texts, lowest first' }).min(2, 'a score must list at least 2 levels'),
  })
  .strict();

const questionSchema = z.discriminatedUnion('type', [noulQuestion, choiceQuestion, scoreQuestion], {
  error: 'must be a question whose type is noul, choice or score',
});

export const evaluateInputSchema = z
  .object({
    state: z
      .union([text, z.array(z.unknown()), z.record(z.string(), z.unknown())], { error: 'must be a string, a JSON object or an array' })
      .superRefine((value, ctx) => {
        const hit = jsonProblem(value);
        if (hit) ctx.addIssue({ code: 'custom', path: hit.path, message: hit.rule });
      })
      .describe('What to judge: text or JSON'),
    questions: z
      .record(z.string().min(1, 'question ids must be non-empty'), questionSchema)
      .refine((q) => Object.keys(q).length >= 1, 'must hold at least one question')
      .describe('Question id → noul | choice | score question'),
    model: modelField.describe('Model override for this call'),
  })
  .strict();
/** Parsed jev_evaluate arguments. */
export type EvaluateInput = z.infer<typeof evaluateInputSchema>;

/** The questions as sent: noul criteria only when given, in the caller's key order. */
export function evaluateQuestions(input: EvaluateInput): QuestionMap {
  const out: QuestionMap = {};
  for (const [id, q] of Object.entries(input.questions)) {
    if (q.type === 'noul') out[id] = q.criteria ? { type: 'noul', instructions: q.instructions, criteria: { ...q.criteria } } : { type: 'noul', instructions: q.instructions };
    else if (q.type === 'choice') out[id] = { type: 'choice', instructions: q.instructions, criteria: { ...q.criteria } };
    else out[id] = { type: 'score', instructions: q.instructions, criteria: [...q.criteria] };
  }
  return out;
}

const answerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('noul'), noul: probability }).strict(),
  z.object({ type: z.literal('choice'), choice: z.string(), confidence: probability, probabilities: z.record(z.string(), probability) }).strict(),
  z
    .object({
      type: z.literal('score'),
      score: z.number().min(0),
      confidence: probability,
      probabilities: z.record(z.string(), probability),
      legend: z.record(z.string(), z.string()),
    })
    .strict(),
]);

export const evaluateOutputSchema = z
  .object({
    model: z.string(),
    answers: z.record(z.string(), answerSchema),
    usage: usageSchema,
    truncated: z.boolean(),
    coverage: coverageSchema,
    action: actionSchema,
  })
  .strict();

/** A jev_evaluate result. */
export interface EvaluateResult {
  model: string;
  answers: Record<string, Answer>;
  usage: Usage;
  truncated: boolean;
  coverage: Coverage;
  action: Action;
}

/**
 * Pure decision of jev_evaluate, with the environment thresholds
 * (no per-call thresholds): the minimum choice/score confidence gives one action; each noul gives
 * actionFromNoul; action = the worst; an auto whose choice/score distribution fails the concentration
 * guard at auto_accept → review; incomplete context → review.
 * Throws INVALID_RESPONSE when an asked question has no answer of its type.
 */
export function decideEvaluate(input: EvaluateInput, judged: Judged, floors: Floors): EvaluateResult {
  const { auto_accept: a, review_at: r } = floors;
  const answers: Record<string, Answer> = {};
  const actions: Action[] = [];
  const distributions: { confidence: number; probabilities: Record<string, number> }[] = [];
  for (const [id, q] of Object.entries(input.questions)) {
    const answer = Object.hasOwn(judged.response.answers, id) ? judged.response.answers[id] : undefined;
    if (!answer || answer.type !== q.type) throw invalidResponse(`The judgment has no ${q.type} answer to ${JSON.stringify(id)}.`);
    answers[id] = answer;
    if (answer.type === 'noul') actions.push(actionFromNoul(answer.noul, a, r));
    else distributions.push({ confidence: answer.confidence, probabilities: answer.probabilities });
  }
  if (distributions.length) actions.push(actionFromConfidence(minConfidence(distributions.map((d) => d.confidence)), a, r));
  let action = worstAction(actions);
  if (action === 'auto' && distributions.some((d) => !confidenceSupportsAuto(d.confidence, d.probabilities, a))) action = 'review';
  action = requireCompleteContext(action, judged.truncated || !judged.coverage.complete);
  return {
    model: judged.response.model,
    answers,
    usage: { ...judged.response.usage },
    truncated: judged.truncated,
    coverage: judged.coverage,
    action,
  };
}

const TITLE = 'Evaluate with Jev';

/** Parses jev_evaluate arguments before any request. Throws INVALID_INPUT / INPUT_TOO_LARGE naming the field. */
export function parseEvaluate(args: unknown): EvaluateInput {
  rejectProtoKeys(args);
  const input = parseArgs(evaluateInputSchema, args);
  for (const [id, q] of Object.entries(input.questions)) {
    if (q.type === 'choice' && Object.keys(q.criteria).length > MAX_CHOICE_OPTIONS) {
      throw new JevError('INPUT_TOO_LARGE', `questions.${id}.criteria: a choice may offer at most ${MAX_CHOICE_OPTIONS} options.`);
    }
  }
  return input;
}

export const jevEvaluateTool: ToolDefinition<EvaluateInput, EvaluateResult> = {
  name: 'jev_evaluate',
  title: TITLE,
  description:
    'Escape hatch: judge any state (text or JSON) with your own question map — noul (yes/no probability), choice ' +
    '(closed options) or score (ordered levels, lowest first). One request; answers come back verbatim with an overall ' +
    'action from the configured thresholds. Keep each question to one judgment and do arithmetic in code.',
  family: 'jev',
  annotations: jevAnnotations(TITLE),
  inputJsonSchema: jsonSchemaOf(evaluateInputSchema),
  outputJsonSchema: jsonSchemaOf(evaluateOutputSchema, 'output'),
  outputSchema: evaluateOutputSchema as unknown as z.ZodType<EvaluateResult>,
  parse: (args) => parseEvaluate(args),
  async execute(input, ctx) {
    const judged = await ctx.judge(input.state, evaluateQuestions(input), resolveModel(input.model, ctx.model));
    return decideEvaluate(input, judged, ctx.floors);
  },
};
