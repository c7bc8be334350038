/**
 * The one wording of a claim summary, for the CLI and the panel (src/cli/format.ts, outcome-diff.ts).
 */

/**
 * `3 claims: 2 verified, 1 contradicted, 0 unsupported; 1 of them needs review` (`1 claim: …; it needs review`): the verdict counts add up
 * to the number of claims, and "needs review" is a subset of them, not a fourth verdict.
 */
export function claimSummaryText(s: Record<string, unknown>, action?: string): string {
  const n = [s.verified, s.contradicted, s.unsupported].reduce<number>((sum, x) => sum + (typeof x === 'number' ? x : 0), 0);
  const review = typeof s.needs_review === 'number' ? s.needs_review : 0;
  const subset = n === 1 ? `it ${review ? 'needs' : 'needs no'} review` : `${String(review)} of them ${review === 1 ? 'needs' : 'need'} review`;
  const tail = action ? ` (verification ${action})` : '';
  return `${String(n)} claim${n === 1 ? '' : 's'}: ${String(s.verified)} verified, ${String(s.contradicted)} contradicted, ${String(s.unsupported)} unsupported; ${subset}${tail}`;
}
