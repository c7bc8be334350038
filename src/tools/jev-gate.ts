import { z } from 'zod';
import type { Judged, QuestionMap } from '../judgment/types';
import { worstAction } from '../policy/actions';
import { projectReview } from '../policy/review';
import { tightenJudgmentThresholds, type Floors } from '../policy/thresholds';
import { GATE_REASON_CODES, claimJudgment, gateItemAction, gateReasonCodes, summarizeClaims } from '../policy/verify';
import { assertClaimQuestionsFit, assertUniqueEvidenceIds, claimsSchema, evidenceSchema, precheckClaims, type Evidence } from './evidence';
import { judgmentThresholdsSchema, packReview, reviewProjectionSchema } from './jev-review';
import { claimAnswer, claimQuestion, claimQuestionId, claimResultSchema, verifySummarySchema, type ClaimResult } from './jev-verify';
import { commonOutputShape, jevAnnotations, judgedOutput } from './jev-common';
import { actionSchema, jsonSchemaOf, modelField, parseArgs, probability, resolveModel, text } from './schemas';
import type { ToolDefinition } from './types';

/**
 * jev_gate: review a patch and verify its completion claims in ONE upstream request.
 * Runs no tests and applies nothing.
 */

// ---------------------------------------------------------------------------------------------------
// Input

export const gateInputSchema = z
  .object({
    request: text.min(1, { message: 'must not be blank' }).refine((s) => s.trim() !== '', { message: 'must not be blank' }),
    diff: text,
    tests: text.optional(),
    claims: claimsSchema,
    evidence: evidenceSchema,
    auto_accept: probability.optional(),
    review_at: probability.optional(),
    model: modelField,
  })
  .strict();

export type GateInput = z.infer<typeof gateInputSchema>;

// ---------------------------------------------------------------------------------------------------
// Pack

/** Appended to every review question of the gate. */
export const GATE_REVIEW_GUIDANCE =
  'Judge the diff against the request and treat the tests field as reported output. The claims are assertions by the ' +
  'author, not evidence that the patch is correct or tested.';

/** Appended to every claim question of the gate. */
export const GATE_CLAIM_GUIDANCE =
  'Use only the evidence field as factual support. The request and the claims are assertions, not evidence; the diff ' +
  'and tests are judged by the separate review questions. A claim that needs a diff or a test log is supported only if ' +
  'that material appears in the evidence field.';

/** The gate question map: the five review questions, then claim_0 … claim_{count-1}. */
export function packGate(count: number): QuestionMap {
  const out: QuestionMap = packReview(GATE_REVIEW_GUIDANCE);
  for (let i = 0; i < count; i++) out[claimQuestionId(i)] = claimQuestion(i, GATE_CLAIM_GUIDANCE);
  return out;
}

/** The state sent upstream. */
export function gateState(input: GateInput): { request: string; diff: string; tests: string; claims: string[]; evidence: Evidence } {
  return { request: input.request, diff: input.diff, tests: input.tests ?? '', claims: input.claims, evidence: input.evidence };
}

// ---------------------------------------------------------------------------------------------------
// Output

export const gateOutputSchema = z
  .object({
    ...commonOutputShape,
    reason_codes: z.array(z.enum(GATE_REASON_CODES)).min(1),
    review: reviewProjectionSchema,
    verification: z
      .object({
        action: actionSchema,
        summary: verifySummarySchema,
        results: z.array(claimResultSchema).min(1),
        thresholds: judgmentThresholdsSchema,
      })
      .strict(),
  })
  .strict();

export type GateResult = z.infer<typeof gateOutputSchema>;

// ---------------------------------------------------------------------------------------------------
// Decision

/**
 * Pure decision of jev_gate. Thresholds tightened from caller values and `floors`. The review block is
 * projectReview; each claim follows gateItemAction; verification.action = worst of the claims; action =
 * worst(review, verification). reason_codes in their fixed order, never empty.
 * auto needs complete context, an accepted review and every claim verified at or above auto_accept.
 * Throws INVALID_INPUT for bad thresholds.
 */
export function decideGate(input: GateInput, judged: Judged, floors: Floors): GateResult {
  const t = tightenJudgmentThresholds(input.auto_accept, input.review_at, floors.auto_accept, floors.review_at);
  const incomplete = judged.truncated || !judged.coverage.complete;
  const review = projectReview(judged.response.answers, t, incomplete);
  const claims = input.claims.map((_, i) => claimJudgment(claimAnswer(judged, i)));
  const results: ClaimResult[] = input.claims.map((claim, i) => ({
    claim,
    ...claims[i]!,
    action: gateItemAction(claims[i]!, t.auto_accept, t.review_at, incomplete),
  }));
  const verificationAction = worstAction(results.map((r) => r.action));
  const action = worstAction([review.action, verificationAction]);
  return {
    ...judgedOutput(judged),
    action,
    reason_codes: gateReasonCodes({ incomplete, reviewAction: review.action, claims, action, autoAccept: t.auto_accept, reviewAt: t.review_at }),
    review,
    verification: { action: verificationAction, summary: summarizeClaims(results), results, thresholds: { ...t } },
  };
}

// ---------------------------------------------------------------------------------------------------
// Tool

const TITLE = 'Jev combined review gate';

export const jevGateTool: ToolDefinition<GateInput, GateResult> = {
  name: 'jev_gate',
  title: TITLE,
  description:
    'Review a patch and verify its completion claims in one upstream request. The review reads request, diff and tests; ' +
    'claims are checked against the evidence field only (include the relevant diff or test output there). auto needs ' +
    'complete context, an accepted review and every claim verified at or above auto_accept. Returns review, verification ' +
    '(per-claim results and counts), action and reason_codes. Runs no tests and applies nothing; failures never approve.',
  family: 'jev',
  annotations: jevAnnotations(TITLE),
  inputJsonSchema: jsonSchemaOf(gateInputSchema),
  outputJsonSchema: jsonSchemaOf(gateOutputSchema, 'output'),
  outputSchema: gateOutputSchema,
  parse(args, floors) {
    precheckClaims(args);
    const input = parseArgs(gateInputSchema, args, ['claims']);
    assertUniqueEvidenceIds(input.evidence);
    assertClaimQuestionsFit(packGate(input.claims.length), input.claims.length);
    tightenJudgmentThresholds(input.auto_accept, input.review_at, floors.auto_accept, floors.review_at);
    return input;
  },
  async execute(input, ctx) {
    const judged = await ctx.judge(gateState(input), packGate(input.claims.length), resolveModel(input.model, ctx.model));
    return decideGate(input, judged, ctx.floors);
  },
};
