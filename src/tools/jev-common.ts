import { z } from 'zod';
import { invalidResponse } from '../judgment/errors';
import type { ChoiceAnswer, Coverage, Judged, NoulAnswer, ScoreAnswer, Usage } from '../judgment/types';
import type { Action } from '../policy/actions';
import { tightenJudgmentThresholds, type Floors } from '../policy/thresholds';
import { precheckRawArgs } from './candidates';
import type { ToolAnnotations } from './types';
import { actionSchema, coverageSchema, parseArgs, probability, usageSchema } from './schemas';

/**
 * Small pieces shared by the jev tools: typed answer readers for `decide…` functions, the common MCP
 * annotations and the output fields every jev tool starts with.
 */

/**
 * Annotations of every jev tool: read-only, not destructive, idempotent, closed world (the result is typed
 * data the configured judge computed from the caller's own input, no fetched content; docs/decisions.md
 * "Judgment tools are read-only and closed-world").
 */
export function jevAnnotations(title: string): ToolAnnotations {
  return { title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
}

/**
 * Parses the arguments of jev_coding_loop, jev_tool_route and jev_step before any request, in this order:
 * precheckRawArgs (own `__proto__` keys → INVALID_INPUT, more than 32 candidates → INPUT_TOO_LARGE), the
 * zod schema (INVALID_INPUT naming the field; `tooLarge` array fields over their limit → INPUT_TOO_LARGE),
 * then the per-call auto_accept/review_at against `floors` (INVALID_INPUT when they break the rules).
 */
export function parseLoopArgs<T extends { auto_accept?: number; review_at?: number }>(
  schema: z.ZodType<T>,
  args: unknown,
  floors: Floors,
  tooLarge: string[] = [],
): T {
  precheckRawArgs(args);
  const input = parseArgs(schema, args, tooLarge);
  tightenJudgmentThresholds(input.auto_accept, input.review_at, floors.auto_accept, floors.review_at);
  return input;
}

/**
 * Output fields every jev tool's result starts with, in this order: model, usage, truncated, coverage, action. Spread first into a z.object so the key order stays.
 */
export const commonOutputShape = {
  model: z.string(),
  usage: usageSchema,
  truncated: z.boolean(),
  coverage: coverageSchema,
  action: actionSchema,
};

/** The common output fields as a type (usage in tokens). */
export interface CommonOutputFields {
  model: string;
  usage: Usage;
  truncated: boolean;
  coverage: Coverage;
  action: Action;
}

/** model, usage (a copy), truncated and coverage of a judged request, in output order; the tool adds action. */
export function judgedOutput(judged: Judged): Omit<CommonOutputFields, 'action'> {
  return { model: judged.response.model, usage: { ...judged.response.usage }, truncated: judged.truncated, coverage: judged.coverage };
}

// decide… functions may be driven by recorded or scripted answers (ledger replay, what-if), which did not
// necessarily pass validateResponse for these questions; a missing or mistyped answer must fail, never default.
function answerOf(judged: Judged, id: string, type: 'noul' | 'choice' | 'score'): unknown {
  const answer = Object.hasOwn(judged.response.answers, id) ? judged.response.answers[id] : undefined;
  if (!answer || answer.type !== type) throw invalidResponse(`The judgment has no ${type} answer to ${JSON.stringify(id)}.`);
  return answer;
}

/** The choice answer to `id`. Throws INVALID_RESPONSE when missing or of another type. */
export function readChoice(judged: Judged, id: string): ChoiceAnswer {
  return answerOf(judged, id, 'choice') as ChoiceAnswer;
}

/** The score answer to `id`. Throws INVALID_RESPONSE when missing or of another type. */
export function readScore(judged: Judged, id: string): ScoreAnswer {
  return answerOf(judged, id, 'score') as ScoreAnswer;
}

/** P(true) of the noul answer to `id`. Throws INVALID_RESPONSE when missing or of another type. */
export function readNoul(judged: Judged, id: string): number {
  return (answerOf(judged, id, 'noul') as NoulAnswer).noul;
}

/** Output shape of a reported choice: the choice, its verbatim confidence and the full distribution. */
export function choiceOutputSchema<const T extends readonly [string, ...string[]]>(options: T) {
  return z.object({ choice: z.enum(options), confidence: probability, probabilities: z.record(z.string(), probability) }).strict();
}

/** Output shape of a reported score: expected level, verbatim confidence, level texts and distribution. */
export const scoreOutputSchema = z
  .object({
    score: z.number().min(0),
    confidence: probability,
    legend: z.record(z.string(), z.string()),
    probabilities: z.record(z.string(), probability),
  })
  .strict();
