/**
 * Text helpers of the mock judge's heuristics: tokens, overlap, folding, softmax and how question text is
 * read. Pure; the caches are bounded and only ever hold derived values.
 */
// Folding is pure and a request's vocabulary is small, so folded forms are cached (bounded).
const foldCache = new Map<string, string>();
const FOLD_CACHE_SIZE = 10_000;

/** Lowercase tokens split on non-letters/digits (Unicode), keeping tokens longer than one character. */
export function tokenize(text: string): string[] {
  return tokensOfLower(text.toLowerCase());
}

/** {@link tokenize} of text that is already lowercased. */
export function tokensOfLower(lower: string): string[] {
  // ASCII fast path (the usual case): there the letters and digits are a-z and 0-9, so matching runs of
  // two or more is the same as splitting on the rest and dropping one-character pieces. Tested on the
  // lowercased text, since lowercasing can turn a non-ASCII letter into an ASCII one (Kelvin sign → k).
  if (ASCII_TEXT.test(lower)) return lower.match(ASCII_WORDS) ?? [];
  return lower.split(NON_WORD).filter((t) => t.length > 1);
}

/** Text of ASCII characters only. */
export const ASCII_TEXT = /^[\x00-\x7f]*$/;
const ASCII_WORDS = /[a-z0-9]{2,}/g;
const NON_WORD = /[^\p{L}\p{N}]+/u;

/** Set of {@link tokenize} tokens. */
export function tokenSet(text: string): Set<string> {
  return new Set(tokenize(text));
}

/**
 * Fraction in [0,1] of the distinct tokens of `b` that occur in `a` (a token set or text).
 * 0 when `b` has no tokens.
 */
export function overlap(a: ReadonlySet<string> | string, b: string): number {
  const have = typeof a === 'string' ? tokenSet(a) : a;
  const want = wantedTokens(b);
  if (want.size === 0) return 0;
  let hit = 0;
  for (const t of want) if (have.has(t)) hit++;
  return hit / want.size;
}

// The wanted side of an overlap is mostly pack text (instructions, option and level descriptions) or a
// query that every option of a request is compared with, so its token sets are cached (bounded; long
// texts are not kept). The cached sets are only read.
const wantCache = new Map<string, ReadonlySet<string>>();
const WANT_CACHE_SIZE = 2_000;
const WANT_CACHE_MAX_CHARS = 4_000;

function wantedTokens(text: string): ReadonlySet<string> {
  if (text.length > WANT_CACHE_MAX_CHARS) return tokenSet(text);
  let tokens = wantCache.get(text);
  if (tokens === undefined) {
    if (wantCache.size >= WANT_CACHE_SIZE) wantCache.clear();
    tokens = tokenSet(text);
    wantCache.set(text, tokens);
  }
  return tokens;
}

/** Softmax with max-shift (numerically stable). Empty input → empty output. */
export function softmax(scores: number[]): number[] {
  if (scores.length === 0) return [];
  const max = Math.max(...scores);
  const exps = scores.map((s) => Math.exp(s - max));
  const total = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / total);
}

/** Noul probabilities are kept off the 0/1 edges: clamp to [0.001, 0.999]. */
export function clampNoul(p: number): number {
  return Math.min(0.999, Math.max(0.001, p));
}

/** First sentence of an instruction (up to `.`/`?`/`!` followed by a space or the end, or a newline). */
export function leadSentence(text: string): string {
  const m = /[.?!](?=\s|$)|\n/.exec(text);
  return m ? text.slice(0, m.index + 1) : text;
}

/**
 * Question text as the heuristics read it: a string as-is, missing (undefined/null) as '', anything else
 * (object, array, number) as its JSON rendering. evaluate_policy passes the caller's `instructions` and
 * criteria through unchanged, so they need not be strings.
 */
export function questionText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return safeStringify(value);
}

/**
 * Light suffix folding for the routing rule only, so "reading"/"read", "tests"/"test", "running"/"run"
 * meet: drop a final "ing", "ed" or "s" (not "ss"/"us"/"is") when at least 3 letters remain, then undo a
 * doubled final consonant ("runn" → "run"; "ll", "ss", "zz" kept).
 */
export function foldToken(token: string): string {
  let folded = foldCache.get(token);
  if (folded === undefined) {
    if (foldCache.size >= FOLD_CACHE_SIZE) foldCache.clear();
    folded = foldUncached(token);
    foldCache.set(token, folded);
  }
  return folded;
}

function foldUncached(token: string): string {
  let t = token;
  const m = /^(.{3,}?)(?:ing|ed)$/.exec(t) ?? (/(?:ss|us|is)$/.test(t) ? null : /^(.{3,}?)s$/.exec(t));
  if (m) {
    t = m[1]!;
    if (/([b-df-hj-np-tv-xz])\1$/.test(t) && !/(?:ll|ss|zz)$/.test(t)) t = t.slice(0, -1);
  }
  return t;
}

/** Folded {@link tokenize} tokens of a text. */
export function foldedTokens(text: string): Set<string> {
  return new Set(tokenize(text).map(foldToken));
}

/** A string as-is, a number as its decimal text, anything else as ''. */
export const scalarText = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** JSON text of a value, or '' when it has none (undefined) or cannot be serialized (cycles, BigInt). */
export function safeStringify(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return ''; // cycles/BigInt cannot reach the wire anyway; the leaf text still carries the content
  }
}
