/** Claims the user types when the commit message has no bullet lines. No `vscode` import. */

/** Splits typed claims: one per line, or separated by `;`; leading "- "/"* ", blanks and exact duplicates dropped. */
export function splitClaims(text: string): string[] {
  return [...new Set(text.split(/[\n;]/).map((c) => c.replace(/^\s*[-*]\s+/, '').trim()).filter((c) => c !== ''))];
}
