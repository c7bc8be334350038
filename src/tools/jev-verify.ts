import { z } from 'zod';
import { invalidResponse } from '../judgment/errors';
import type { ChoiceAnswer, ChoiceQuestion, Judged, QuestionMap } from '../judgment/types';
import { tightenJudgmentThresholds, type Floors } from '../policy/thresholds';
import {
  VERDICTS,
  claimJudgment,
  summarizeClaims,
  verifyCutoff,
  verifyItemAction,
  verifyOverallAction,
} from '../policy/verify';
import { assertClaimQuestionsFit, assertUniqueEvidenceIds, claimsSchema, evidenceSchema, precheckClaims, type Evidence } from './evidence';
import { commonOutputShape, jevAnnotations, judgedOutput } from './jev-common';
import { actionSchema, jsonSchemaOf, modelField, parseArgs, probability, resolveModel } from './schemas';
import type { ToolDefinition } from './types';

/**
 * jev_verify: classify each claim as verified / contradicted / unsupported against evidence the host
 * already has. One request, one Choice per claim.
 */

// ---------------------------------------------------------------------------------------------------
// Input

export const verifyInputSchema = z
  .object({
    claims: claimsSchema,
    evidence: evidenceSchema,
    auto_accept: probability.optional(),
    model: modelField,
  })
  .strict();

export type VerifyInput = z.infer<typeof verifyInputSchema>;

// ---------------------------------------------------------------------------------------------------
// Pack

/** Verdict descriptions, in option order. */
export const VERIFY_CRITERIA: Readonly<Record<(typeof VERDICTS)[number], string>> = Object.freeze({
  verified: 'The evidence supports it.',
  contradicted: 'The evidence contradicts it.',
  unsupported: 'The evidence neither supports nor contradicts it.',
});

/** Question id of claim `i`. */
export const claimQuestionId = (i: number) => `claim_${i}`;

/**
 * One claim question; its instruction names the claim by its literal state path `claims[i]`.
 * `extra` is appended (jev_gate's guidance).
 */
export function claimQuestion(i: number, extra = ''): ChoiceQuestion {
  return {
    type: 'choice',
    // Kept short: one copy per claim, and up to 1 000 claims share the question budget.
    instructions: `Does the evidence support state.claims[${i}]? Judge from the supplied evidence only, not general knowledge.${extra ? ` ${extra}` : ''}`,
    criteria: { ...VERIFY_CRITERIA },
  };
}

/** Question map for `count` claims: claim_0 … claim_{count-1}. */
export function packVerify(count: number): QuestionMap {
  const out: QuestionMap = {};
  for (let i = 0; i < count; i++) out[claimQuestionId(i)] = claimQuestion(i);
  return out;
}

/** The state sent upstream. */
export function verifyState(input: { claims: string[]; evidence: Evidence }): { claims: string[]; evidence: Evidence } {
  return { claims: input.claims, evidence: input.evidence };
}

// ---------------------------------------------------------------------------------------------------
// Output

export const verdictSchema = z.enum(VERDICTS);
export const claimResultSchema = z
  .object({
    claim: z.string(),
    verdict: verdictSchema,
    confidence: probability,
    probabilities: z.record(z.string(), probability),
    action: actionSchema,
  })
  .strict();
export const verifySummarySchema = z
  .object({
    verified: z.number().int().min(0),
    contradicted: z.number().int().min(0),
    unsupported: z.number().int().min(0),
    needs_review: z.number().int().min(0),
  })
  .strict();

export const verifyOutputSchema = z
  .object({
    ...commonOutputShape,
    summary: verifySummarySchema,
    results: z.array(claimResultSchema).min(1),
    thresholds: z.object({ auto_accept: probability, review_at: probability }).strict(),
  })
  .strict();

export type VerifyResult = z.infer<typeof verifyOutputSchema>;
export type ClaimResult = z.infer<typeof claimResultSchema>;

/** The validated answer to claim `i`. Throws INVALID_RESPONSE when absent (validated responses have it). */
export function claimAnswer(judged: Judged, i: number): ChoiceAnswer {
  const a = judged.response.answers[claimQuestionId(i)];
  if (!a || a.type !== 'choice') throw invalidResponse(`The answer to ${claimQuestionId(i)} is missing or not a choice.`);
  return a;
}

// ---------------------------------------------------------------------------------------------------
// Decision

/**
 * Pure decision of jev_verify. auto_accept = max(caller, floor); the escalation cut-off is
 * min(0.5, auto_accept); the review_at floor is not used (docs/decisions.md). Per claim: verifyItemAction; overall:
 * verifyOverallAction. Throws INVALID_INPUT for a bad auto_accept.
 */
export function decideVerify(input: VerifyInput, judged: Judged, floors: Floors): VerifyResult {
  const autoAccept = tightenJudgmentThresholds(input.auto_accept, undefined, floors.auto_accept, 0).auto_accept;
  const cutoff = verifyCutoff(autoAccept);
  const incomplete = judged.truncated || !judged.coverage.complete;
  const results: ClaimResult[] = input.claims.map((claim, i) => {
    const c = claimJudgment(claimAnswer(judged, i));
    return { claim, ...c, action: verifyItemAction(c, autoAccept, cutoff, incomplete) };
  });
  return {
    ...judgedOutput(judged),
    action: verifyOverallAction(results, incomplete),
    summary: summarizeClaims(results),
    results,
    thresholds: { auto_accept: autoAccept, review_at: cutoff },
  };
}

// ---------------------------------------------------------------------------------------------------
// Tool

const TITLE = 'Jev claim verifier';

export const jevVerifyTool: ToolDefinition<VerifyInput, VerifyResult> = {
  name: 'jev_verify',
  title: TITLE,
  description:
    'Check factual claims (at most 1,000) against evidence you already have (PR text, docs, logs, diffs): each claim is ' +
    'verified, contradicted or unsupported, with its probabilities, confidence and a per-claim action; plus summary counts ' +
    'and an overall action. A confident "unsupported" accepts the classification, not the claim; use jev_gate for a ' +
    'completion approval. Optional auto_accept may only raise the configured floor.',
  family: 'jev',
  annotations: jevAnnotations(TITLE),
  inputJsonSchema: jsonSchemaOf(verifyInputSchema),
  outputJsonSchema: jsonSchemaOf(verifyOutputSchema, 'output'),
  outputSchema: verifyOutputSchema,
  parse(args, floors) {
    precheckClaims(args);
    const input = parseArgs(verifyInputSchema, args, ['claims']);
    assertUniqueEvidenceIds(input.evidence);
    assertClaimQuestionsFit(packVerify(input.claims.length), input.claims.length);
    tightenJudgmentThresholds(input.auto_accept, undefined, floors.auto_accept, 0);
    return input;
  },
  async execute(input, ctx) {
    const judged = await ctx.judge(verifyState(input), packVerify(input.claims.length), resolveModel(input.model, ctx.model));
    return decideVerify(input, judged, ctx.floors);
  },
};
