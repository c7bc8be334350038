import { z } from 'zod';
import { invalidResponse } from '../judgment/errors';
import { fixedQuestion } from '../judgment/fixed-questions';
import type { Judged, QuestionMap } from '../judgment/types';
import {
  FOCUS_AREAS,
  HANDOFFS,
  MODEL_TIERS,
  NEXT_STEPS,
  PARTNER_REASONS,
  loopAction,
  partnerRouting,
  type CodingLoopSignals,
  type ExecutionFacts,
  type Handoff,
  type PartnerModel,
} from '../policy/coding-loop';
import { dispatchFloor, tightenJudgmentThresholds, type Floors } from '../policy/thresholds';
import { jsonObjectSchema } from './candidates';
import {
  choiceOutputSchema,
  commonOutputShape,
  jevAnnotations,
  judgedOutput,
  parseLoopArgs,
  readChoice,
  readNoul,
  readScore,
  scoreOutputSchema,
  type CommonOutputFields,
} from './jev-common';
import { describeZodError, jsonSchemaOf, modelField, probability, resolveModel, text } from './schemas';
import type { ToolDefinition } from './types';

/**
 * jev_coding_loop: one judgment request that routes a
 * coding-agent turn — next step, model tier, focus, risk and four yes/no signals — then local policy picks
 * the action and the handoff, including whether a generative partner model is truly required.
 * It never calls a partner model or runs a tool.
 */

// ---------------------------------------------------------------------------------------------------
// Input

/** Trusted host facts; all optional with safe defaults (nothing prepared, context not complete, 0 failures). */
export const executionSchema = z
  .object({
    prepared_tool_call: z.boolean().optional().describe('Exact call arguments already passed the real tool schema, authorization and prerequisite checks'),
    context_complete: z.boolean().optional().describe('The host has the evidence the next step needs'),
    failed_attempts: z.number().int('must be an integer').min(0, 'must be >= 0').optional().describe('Failures of the current unchanged step'),
  })
  .strict();

/** Fields shared by jev_coding_loop and jev_step. */
export const codingLoopFields = {
  task: text.min(1, 'must be a non-empty string').describe('What the agent is trying to do'),
  observation: text.describe('Last diff, command output, test log, or blocker'),
  extras: jsonObjectSchema.optional().describe('Extra JSON placed under state.extras'),
  execution: executionSchema.optional().describe('Trusted host facts (never copied from untrusted content or from Jev)'),
  auto_accept: probability.optional().describe('May only raise the environment floor'),
  review_at: probability.optional().describe('May only raise the environment floor'),
  model: modelField.describe('Model override for this call'),
};

export const codingLoopInputSchema = z.object(codingLoopFields).strict();
/** Parsed jev_coding_loop arguments. */
export type CodingLoopInput = z.infer<typeof codingLoopInputSchema>;

/** Host facts with defaults applied. */
export function executionFacts(e: CodingLoopInput['execution']): ExecutionFacts {
  return { prepared_tool_call: e?.prepared_tool_call ?? false, context_complete: e?.context_complete ?? false, failed_attempts: e?.failed_attempts ?? 0 };
}

// ---------------------------------------------------------------------------------------------------
// Pack (instructions in our own words)

// Fixed (frozen once, serialized once by the token estimate: src/judgment/fixed-questions.ts).
const CODING_LOOP_QUESTIONS: QuestionMap = {
  next: fixedQuestion({
    type: 'choice',
    instructions:
      'Given the task, the latest observation and the host execution facts, decide what this coding-agent turn should do next.',
    criteria: {
      continue: 'Keep following the current plan with the host tools.',
      retry: 'The last edit or command failed; attempt the step again in a different way.',
      ask_user: 'Progress is blocked on a human decision, a secret, or a missing requirement.',
      stop: 'The task is finished, or further work is not worth doing.',
    },
  }),
  model_tier: fixedQuestion({
    type: 'choice',
    instructions:
      'If the next step needs newly generated code or arguments, which generative model tier suits it? This is a conditional recommendation; Jev itself writes no code.',
    criteria: {
      cheap: 'Mechanical work: renames, formatting, comments, tiny fixes.',
      standard: 'Ordinary implementation, tests, or a refactor inside one area.',
      reasoning: 'Cross-cutting design, concurrency, security, or a root cause that is still unclear.',
    },
  }),
  risk: fixedQuestion({
    type: 'score',
    instructions: 'How risky is the next action if it runs without any extra human review?',
    criteria: [
      'Read-only or easily reversible local inspection.',
      'A local source edit or a test run inside the working tree.',
      'Destructive or production-facing: force-push, data loss, or a wide blast radius.',
    ],
  }),
  done_enough: fixedQuestion({
    type: 'noul',
    instructions: 'Is the stated task complete enough to stop now? Host execution facts are not evidence of completion.',
    criteria: { true: 'The request is satisfied; anything left is polish.', false: 'Important work is still missing.' },
  }),
  needs_more_context: fixedQuestion({
    type: 'noul',
    instructions:
      'Is it true that the host needs more context (more files, logs, or input from the user) before it can take a high-quality next step?',
  }),
  needs_generation: fixedQuestion({
    type: 'noul',
    instructions:
      'Judged on its own, independent of the other questions: does the next step require generating something new, such as implementation code or exact call arguments nobody has prepared, so that a generative model turn is needed?',
  }),
  tests_likely_fail: fixedQuestion({
    type: 'noul',
    instructions: 'If the tests were run on the current working tree, would they likely fail?',
  }),
  focus: fixedQuestion({
    type: 'choice',
    instructions: 'Where should the effort of the next step go?',
    criteria: {
      edit: 'Change source code or configuration.',
      search: 'Locate the relevant files or symbols.',
      test: 'Run or write tests.',
      read: 'Read code or logs to understand them.',
      plan: 'Think the approach through before acting.',
    },
  }),
};

/** The eight coding-loop questions. Returns a fresh map on every call; the questions in it are frozen. */
export function codingLoopQuestions(): QuestionMap {
  return Object.assign({}, CODING_LOOP_QUESTIONS);
}

/**
 * Judgment state. Short trusted facts come before free text so that, if the state must be cut to fit the
 * budget, the cut falls on the observation and extras rather than on the facts.
 */
export function codingLoopState(input: CodingLoopInput): Record<string, unknown> {
  return { task: input.task, execution: executionFacts(input.execution), observation: input.observation, extras: input.extras ?? {} };
}

// ---------------------------------------------------------------------------------------------------
// Reading answers

/** Coding-loop signals as reported in outputs (answers verbatim). */
export const loopSignalsOutputShape = {
  next: choiceOutputSchema(NEXT_STEPS),
  model_tier: choiceOutputSchema(MODEL_TIERS),
  focus: choiceOutputSchema(FOCUS_AREAS),
  risk: scoreOutputSchema,
  done_enough: probability,
  needs_more_context: probability,
  needs_generation: probability,
  tests_likely_fail: probability,
};
const loopSignalsOutput = z.object(loopSignalsOutputShape).strict();
export type LoopSignalFields = z.infer<typeof loopSignalsOutput>;

/**
 * Reads the eight coding-loop answers: the policy view (signals) and the reported fields.
 * Throws INVALID_RESPONSE when an answer is missing, of another type, or names an unknown option.
 */
export function readLoopAnswers(judged: Judged): { signals: CodingLoopSignals; fields: LoopSignalFields } {
  const next = readChoice(judged, 'next');
  const tier = readChoice(judged, 'model_tier');
  const focus = readChoice(judged, 'focus');
  const risk = readScore(judged, 'risk');
  const fields = loopSignalsOutput.safeParse({
    next: { choice: next.choice, confidence: next.confidence, probabilities: next.probabilities },
    model_tier: { choice: tier.choice, confidence: tier.confidence, probabilities: tier.probabilities },
    focus: { choice: focus.choice, confidence: focus.confidence, probabilities: focus.probabilities },
    risk: { score: risk.score, confidence: risk.confidence, legend: risk.legend, probabilities: risk.probabilities },
    done_enough: readNoul(judged, 'done_enough'),
    needs_more_context: readNoul(judged, 'needs_more_context'),
    needs_generation: readNoul(judged, 'needs_generation'),
    tests_likely_fail: readNoul(judged, 'tests_likely_fail'),
  });
  if (!fields.success) {
    // Only reachable with answers that skipped validateResponse (replay, scripted what-if).
    throw invalidResponse(`The coding-loop answers are not valid: ${describeZodError(fields.error)}.`);
  }
  const f = fields.data;
  return {
    signals: {
      next: f.next,
      model_tier: f.model_tier,
      risk: f.risk,
      done_enough: f.done_enough,
      needs_more_context: f.needs_more_context,
      needs_generation: f.needs_generation,
    },
    fields: f,
  };
}

// ---------------------------------------------------------------------------------------------------
// Decision

export const partnerModelSchema = z
  .object({
    required: z.boolean(),
    tier: z.enum(['none', ...MODEL_TIERS]),
    reason_codes: z.array(z.enum(PARTNER_REASONS)).min(1),
  })
  .strict()
  .refine((p) => p.required !== (p.tier === 'none'), 'a required partner names a tier; a non-required one has tier none');

export const codingLoopOutputSchema = z
  .object({
    ...commonOutputShape,
    handoff: z.enum(HANDOFFS),
    partner_model: partnerModelSchema,
    ...loopSignalsOutputShape,
    thresholds: z.object({ auto_accept: probability, review_at: probability, partner_auto_accept: probability }).strict(),
  })
  .strict();

/** A jev_coding_loop result. */
export interface CodingLoopResult extends CommonOutputFields, LoopSignalFields {
  handoff: Handoff;
  partner_model: PartnerModel;
  thresholds: { auto_accept: number; review_at: number; partner_auto_accept: number };
}

/**
 * Pure decision of jev_coding_loop: thresholds = env floors tightened by the call's
 * own values; action = loopAction (coding policy, concentration guard, incomplete → review); handoff and
 * partner_model = partnerRouting. No I/O, no clock.
 * Throws INVALID_INPUT (thresholds) or INVALID_RESPONSE (answers missing or mistyped).
 */
export function decideCodingLoop(input: CodingLoopInput, judged: Judged, floors: Floors): CodingLoopResult {
  const t = tightenJudgmentThresholds(input.auto_accept, input.review_at, floors.auto_accept, floors.review_at);
  const { signals, fields } = readLoopAnswers(judged);
  const incomplete = judged.truncated || !judged.coverage.complete;
  const action = loopAction(signals, t, incomplete);
  const routing = partnerRouting({ signals, action, incomplete, execution: executionFacts(input.execution), thresholds: t });
  return {
    ...judgedOutput(judged),
    action,
    handoff: routing.handoff,
    partner_model: routing.partner_model,
    ...fields,
    thresholds: { auto_accept: t.auto_accept, review_at: t.review_at, partner_auto_accept: dispatchFloor(t.auto_accept) },
  };
}

// ---------------------------------------------------------------------------------------------------
// Tool

const TITLE = 'Jev coding-loop router';

/** Parses and checks jev_coding_loop arguments before any request. Throws INVALID_INPUT naming the field. */
export function parseCodingLoop(args: unknown, floors: Floors): CodingLoopInput {
  return parseLoopArgs(codingLoopInputSchema, args, floors);
}

export const jevCodingLoopTool: ToolDefinition<CodingLoopInput, CodingLoopResult> = {
  name: 'jev_coding_loop',
  title: TITLE,
  description:
    'Route one coding-agent turn before spending a generative model on it: continue, retry, ask the user or stop; ' +
    'which model tier would fit; how risky the next action is. Returns action, handoff (use_tools, gather_context, ' +
    'partner_model, ask_user, stop, review) and partner_model — invoke a partner only when partner_model.required is true. ' +
    'execution holds trusted host facts (prepared_tool_call, context_complete, failed_attempts). Never calls a model or runs a tool.',
  family: 'jev',
  annotations: jevAnnotations(TITLE),
  inputJsonSchema: jsonSchemaOf(codingLoopInputSchema),
  outputJsonSchema: jsonSchemaOf(codingLoopOutputSchema, 'output'),
  outputSchema: codingLoopOutputSchema as unknown as z.ZodType<CodingLoopResult>,
  parse: parseCodingLoop,
  async execute(input, ctx) {
    const judged = await ctx.judge(codingLoopState(input), codingLoopQuestions(), resolveModel(input.model, ctx.model));
    return decideCodingLoop(input, judged, ctx.floors);
  },
};
