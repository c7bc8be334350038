import { z } from 'zod';
import { MAX_STATE_PLUS_LONGEST_QUESTION_TOKENS, MAX_TOTAL_TOKENS, questionEstimates } from '../judgment/budget';
import { invalidInput, JevError } from '../judgment/errors';
import type { QuestionMap } from '../judgment/types';
import { text } from './schemas';

/**
 * Claims and evidence shared by jev_verify and jev_gate.
 * Evidence is the only factual support a claim is judged against.
 */

/** Most claims per request. */
export const MAX_CLAIMS = 1_000;
/** Most evidence items per request (each text is also capped by `text`). */
export const MAX_EVIDENCE_ITEMS = 10_000;

/** One non-blank claim. */
export const claimSchema = text.min(1, { message: 'must be a non-blank statement' }).refine((s) => s.trim() !== '', { message: 'must be a non-blank statement' });

/** 1 … 1 000 claims. */
export const claimsSchema = z.array(claimSchema).min(1, { message: 'must list at least one claim' }).max(MAX_CLAIMS, {
  message: `at most ${MAX_CLAIMS} claims per request; split them across requests`,
});

/** One evidence item: a host id (for citation) and its text. */
export const evidenceItemSchema = z
  .object({
    id: z.string().min(1, { message: 'must be a non-empty id' }).max(1_000),
    text,
  })
  .strict();

/** Evidence: one text, or a list of `{id, text}` items with unique ids. */
export const evidenceSchema = z.union([
  text,
  z.array(evidenceItemSchema).max(MAX_EVIDENCE_ITEMS, { message: `at most ${MAX_EVIDENCE_ITEMS} evidence items` }),
]);

export type Evidence = z.infer<typeof evidenceSchema>;

/**
 * Checks limits zod cannot report in our terms, before schema parsing: more than 1 000 claims is
 * INPUT_TOO_LARGE (naming the field and limit) whatever else is wrong with the claims.
 */
export function precheckClaims(args: unknown): void {
  const claims = (args as { claims?: unknown } | null)?.claims;
  if (Array.isArray(claims) && claims.length > MAX_CLAIMS) {
    throw new JevError('INPUT_TOO_LARGE', `claims: at most ${MAX_CLAIMS} claims per request (got ${claims.length}); split them across requests.`);
  }
}

/** Rejects duplicate evidence ids (a citation must be unambiguous). Throws INVALID_INPUT naming the id. */
export function assertUniqueEvidenceIds(evidence: Evidence): void {
  if (typeof evidence === 'string') return;
  const seen = new Set<string>();
  evidence.forEach((item, i) => {
    if (seen.has(item.id)) throw invalidInput(`evidence[${i}].id: duplicate evidence id ${JSON.stringify(item.id)}; ids must be unique.`);
    seen.add(item.id);
  });
}

/**
 * One question per claim shares the 64 000-token request budget, so a long claim list can
 * exceed it before any state is added. Throws INPUT_TOO_LARGE naming `claims` and a count that fits, so the
 * failure happens at parse time, before any request.
 */
export function assertClaimQuestionsFit(questions: QuestionMap, claimCount: number): void {
  const { questions: q, longest } = questionEstimates(questions);
  if (q <= MAX_TOTAL_TOKENS && longest <= MAX_STATE_PLUS_LONGEST_QUESTION_TOKENS) return;
  const fits = Math.max(1, Math.floor((claimCount * MAX_TOTAL_TOKENS) / q) - 1);
  throw new JevError(
    'INPUT_TOO_LARGE',
    `claims: ${claimCount} claims need about ${q} estimated tokens of questions, over the ${MAX_TOTAL_TOKENS}-token request budget; send at most about ${fits} claims per request.`,
  );
}
