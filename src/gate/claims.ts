import type { CommitMessage } from './commit-message';

/** The claims jev_gate verifies: the ones given, the message's bullet lines, or else its subject line. */

/** Trimmed, blank ones dropped, exact duplicates dropped (first kept), order kept. */
function distinct(claims: readonly string[]): string[] {
  return [...new Set(claims.map((c) => c.trim()).filter((c) => c !== ''))];
}

/** Splits typed claims: one per line, or separated by `;`; leading "- "/"* ", blanks and exact duplicates dropped. */
export function splitClaims(text: string): string[] {
  return distinct(text.split(/[\n;]/).map((c) => c.replace(/^\s*[-*]\s+/, '')));
}

/** Which claims were chosen, and whether the subject line stands in for them. */
export interface ChosenClaims {
  claims: string[];
  /** True when nothing was claimed and the subject line is judged as the claim. */
  subjectAsClaim: boolean;
}

/**
 * Chooses the claims: the `given` ones (`--claim` values, or what the user typed in the editor), then
 * the message's bullet lines, without blanks or exact duplicates. With none, the subject line stands in.
 * Empty `claims` only when there is neither a claim nor a subject.
 */
export function chooseClaims(given: readonly string[], message: CommitMessage | undefined): ChosenClaims {
  const claims = distinct([...given, ...(message?.bullets ?? [])]);
  if (claims.length > 0 || !message?.subject) return { claims, subjectAsClaim: false };
  return { claims: [message.subject], subjectAsClaim: true };
}
