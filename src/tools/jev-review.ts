import { z } from 'zod';
import type { Judged, QuestionMap } from '../judgment/types';
import { REVIEW_DIMENSIONS, projectReview } from '../policy/review';
import { tightenJudgmentThresholds, type Floors } from '../policy/thresholds';
import { commonOutputShape, jevAnnotations, judgedOutput } from './jev-common';
import { actionSchema, jsonSchemaOf, modelField, parseArgs, probability, resolveModel, text } from './schemas';
import type { ToolDefinition } from './types';

/**
 * jev_review: judge a proposed diff against the request before the agent declares the task done.
 * Never applies the patch.
 */

// ---------------------------------------------------------------------------------------------------
// Input

const nonBlank = text.min(1, { message: 'must not be blank' }).refine((s) => s.trim() !== '', { message: 'must not be blank' });

export const reviewInputSchema = z
  .object({
    request: nonBlank,
    diff: text,
    tests: text.optional(),
    auto_accept: probability.optional(),
    review_at: probability.optional(),
    model: modelField,
  })
  .strict();

export type ReviewInput = z.infer<typeof reviewInputSchema>;

// ---------------------------------------------------------------------------------------------------
// Pack

/**
 * The review question map: four 0–2 scores (correctness, spec_match, test_gap, blast_radius; levels lowest
 * first) and the safe_to_apply noul. `extra`, when given, is appended to every instruction (jev_gate's
 * guidance). Key order is part of the contract.
 */
export function packReview(extra = ''): QuestionMap {
  const tail = extra ? ` ${extra}` : '';
  return {
    correctness: {
      type: 'score',
      instructions: `How likely is the proposed diff to be functionally correct for the request in the state?${tail}`,
      criteria: [
        'Clearly wrong: it breaks behaviour or does not do what it claims.',
        'Unclear: it needs a closer look or tests to tell.',
        'Looks correct for the request.',
      ],
    },
    spec_match: {
      type: 'score',
      instructions: `How closely does the diff do what the request asked, without unrequested extra work?${tail}`,
      criteria: [
        'Misses the request or solves a different problem.',
        'Partly matches; important pieces are missing.',
        'Matches the request.',
      ],
    },
    test_gap: {
      type: 'score',
      instructions: `How large is the gap between the risky paths this diff touches and the tests that exercise them?${tail}`,
      criteria: [
        'Covered by tests, or tests are not applicable.',
        'Some paths are untested.',
        'The risky path is likely untested.',
      ],
    },
    blast_radius: {
      type: 'score',
      instructions: `If this diff lands, how wide is the blast radius of a mistake in it?${tail}`,
      criteria: [
        'Tiny and local.',
        'Moderate: a few modules.',
        'Wide: shared code, public interfaces, data or production-facing behaviour.',
      ],
    },
    safe_to_apply: {
      type: 'noul',
      instructions: `Is it safe to apply this diff without a human looking at it first?${tail}`,
      criteria: { true: 'Low risk and ready to apply.', false: 'Hold it for human review or more tests.' },
    },
  };
}

/** The state sent upstream: request, diff and reported test output ("" when none). */
export function reviewState(input: { request: string; diff: string; tests?: string }): { request: string; diff: string; tests: string } {
  return { request: input.request, diff: input.diff, tests: input.tests ?? '' };
}

// ---------------------------------------------------------------------------------------------------
// Output

const scoreEntry = z.object({ score: z.number().min(0).max(2), confidence: probability }).strict();
const dimensionRecord = <T extends z.ZodType>(v: T) =>
  z.object(Object.fromEntries(REVIEW_DIMENSIONS.map((d) => [d, v])) as Record<(typeof REVIEW_DIMENSIONS)[number], T>).strict();
export const judgmentThresholdsSchema = z.object({ auto_accept: probability, review_at: probability }).strict();

/** The review block shared by jev_review and jev_gate. */
export const reviewProjectionSchema = z
  .object({
    action: actionSchema,
    composite: probability,
    safe_to_apply: probability,
    scores: dimensionRecord(scoreEntry),
    weights: dimensionRecord(probability),
    thresholds: judgmentThresholdsSchema,
  })
  .strict();

/** jev_review's output: the common fields, then the review block (its action is the result's action). */
export const reviewOutputSchema = z.object({ ...commonOutputShape, ...reviewProjectionSchema.shape }).strict();

export type ReviewResult = z.infer<typeof reviewOutputSchema>;

// ---------------------------------------------------------------------------------------------------
// Decision

/**
 * Pure decision of jev_review: thresholds tightened from the caller's values and `floors` (per-call
 * values only raise them); then projectReview (composite, reviewAction, concentration guard, incomplete
 * context). Throws INVALID_INPUT for bad thresholds.
 */
export function decideReview(input: ReviewInput, judged: Judged, floors: Floors): ReviewResult {
  const thresholds = tightenJudgmentThresholds(input.auto_accept, input.review_at, floors.auto_accept, floors.review_at);
  const incomplete = judged.truncated || !judged.coverage.complete;
  const review = projectReview(judged.response.answers, thresholds, incomplete);
  return { ...judgedOutput(judged), ...review };
}

// ---------------------------------------------------------------------------------------------------
// Tool

const TITLE = 'Jev patch review';

export const jevReviewTool: ToolDefinition<ReviewInput, ReviewResult> = {
  name: 'jev_review',
  title: TITLE,
  description:
    'Judge a proposed diff before declaring a task done: scores correctness, match to the request, test gap and blast radius ' +
    '(0–2 each, combined in code with weights 0.4/0.3/0.15/0.15, the last two inverted) plus whether it is safe to apply ' +
    'without a human. Returns action auto | review | escalate. Does not apply the patch. Optional auto_accept/review_at may ' +
    'only raise the configured floors.',
  family: 'jev',
  annotations: jevAnnotations(TITLE),
  inputJsonSchema: jsonSchemaOf(reviewInputSchema),
  outputJsonSchema: jsonSchemaOf(reviewOutputSchema, 'output'),
  outputSchema: reviewOutputSchema,
  parse(args, floors) {
    const input = parseArgs(reviewInputSchema, args);
    tightenJudgmentThresholds(input.auto_accept, input.review_at, floors.auto_accept, floors.review_at);
    return input;
  },
  async execute(input, ctx) {
    const judged = await ctx.judge(reviewState(input), packReview(), resolveModel(input.model, ctx.model));
    return decideReview(input, judged, ctx.floors);
  },
};
