import { z } from 'zod';
import { invalidResponse } from '../judgment/errors';
import type { ChoiceAnswer, Judged, NoulAnswer, ScoreAnswer } from '../judgment/types';
import type { ToolAnnotations } from './types';
import { probability } from './schemas';

/**
 * Small pieces shared by the jev routing tools (coding loop, step, tool route, evaluate): typed answer
 * readers for `decide…` functions and the common MCP annotations (jev-tools-spec §3.1).
 */

/** Annotations of every jev tool: read-only, not destructive, idempotent, open world (jev-tools-spec §3.1). */
export function jevAnnotations(title: string): ToolAnnotations {
  return { title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
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
