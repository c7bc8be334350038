/** Pending work: what the observation says the agent still has to do with its own tools. */
import { foldedTokens, foldToken } from './text';
import { perView, type MockView } from './view';

/** Action families: words that name one kind of tool action. */
const ACTION_FAMILIES: Record<string, readonly string[]> = {
  read: ['read', 'open', 'view', 'inspect', 'look', 'show', 'cat', 'examine'],
  search: ['search', 'find', 'locate', 'grep'],
  run: ['run', 'rerun', 'execute', 'exec', 'reproduce'],
  edit: ['edit', 'write', 'change', 'patch', 'modify', 'apply', 'replace'],
};
/** Folded form (see {@link foldToken}) of each action word and its inflections ("changed" → "chang") → family. */
export const ACTION_WORD = new Map<string, string>(
  Object.entries(ACTION_FAMILIES).flatMap(([family, words]) =>
    words.flatMap((w) => {
      const stem = w.replace(/e$/, '').replace(/y$/, 'i');
      return [w, `${w}s`, `${stem}ed`, `${w.replace(/e$/, '')}ing`].map((form) => [foldToken(form), family] as [string, string]);
    }),
  ),
);

/**
 * A sentence says something is still to be done: "has not (yet) been read", "not yet run", "need(s) to
 * read" (not "no need to"/"does not need to"), "yet to be", "next step is"/"next:", or the imperative
 * "inspect". Only sentences that also name an action family count (see {@link pendingSentences}).
 */
const PENDING =
  /\bnot\s+(?:yet\s+)?(?:been\s+)?(?:read|opened|viewed|inspected|examined|searched|run|executed|reproduced|edited|changed|patched|applied)\b|\byet to be\b|(?<!\bnot\s|\bno\s)\bneeds?\s+to\b|\bstill\s+(?:needs?|has|have)\s+to\b|\bnext(?:\s+step)?\s*(?::|is\b)|\binspect\b/;

/** A pending sentence: its folded tokens and the action families it names. */
export interface PendingSentence {
  tokens: Set<string>;
  families: Set<string>;
}

/**
 * Sentences of the outcome text (observation and extras; never intent fields or metadata) that say work
 * is still pending for the agent's tools, e.g. "src/parser.ts has not yet been read". Split on line breaks
 * and on `.`/`?`/`!` followed by whitespace (so "src/parser.ts" stays whole).
 */
export function pendingSentences(view: MockView): PendingSentence[] {
  return pendingOf(view).map((s) => ({ tokens: new Set(s.tokens), families: new Set(s.families) }));
}

/** Memoized {@link pendingSentences} (shared; callers must not mutate it). */
export const pendingOf: (view: MockView) => readonly PendingSentence[] = perView((view) => {
  const out: PendingSentence[] = [];
  for (const sentence of view.outcome.split(SENTENCE_BREAK)) {
    if (!PENDING.test(sentence)) continue;
    const tokens = foldedTokens(sentence);
    const families = familiesOf(tokens);
    if (families.size > 0) out.push({ tokens, families });
  }
  return out;
});

const SENTENCE_BREAK = /(?<=[.?!])\s+|\n+/;

/** Action families named by the outcome's pending sentences. */
export function pendingFamilies(view: MockView): Set<string> {
  return new Set(pendingFamiliesOf(view));
}

/** Memoized {@link pendingFamilies} (shared; callers must not mutate it). */
export const pendingFamiliesOf: (view: MockView) => ReadonlySet<string> = perView(
  (view) => new Set(pendingOf(view).flatMap((s) => [...s.families])),
);

/** Action families named by folded tokens. */
export function familiesOf(tokens: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const t of tokens) {
    const f = ACTION_WORD.get(t);
    if (f) out.add(f);
  }
  return out;
}
