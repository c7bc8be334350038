/**
 * Keyword heuristics of the deterministic mock judge (jev-tools-spec §10). Pure functions: no clock, no
 * randomness, no I/O. They read the state through a {@link MockView} and return raw values: a noul
 * probability, or one unnormalized score per choice option / score level (turned into distributions by
 * `mock.ts`). Triggers are keyed on the pack wording of §4 (e.g. "complete enough to stop", `claims[i]`).
 *
 * Deliberate differences from the anchor's mock (its weaknesses, §16.8):
 * - host execution metadata (`execution`) and object keys are never evidence;
 * - intent fields (task, request, purpose, query, claims, candidates) say what is wanted, not what
 *   happened, so they never count as completion or failure evidence;
 * - negated outcomes ("0 failed", "no errors", "not complete") are not failure/completion evidence, and a
 *   failure signal outranks a completion signal;
 * - a truncated JSON state (a string after budget fitting) is read leniently, so fields survive the cut;
 * - rank overlap measures how much of the query a candidate covers (long, complete answers are not
 *   penalized for their length);
 * - prepared-call routing (`selected` / `suitable_i` of the tool-route pack) has its own rule, see
 *   {@link candidateFits}: the anchor's mock had none, so it could never dispatch a call;
 * - an observation naming work still pending for the agent's own tools ("src/parser.ts has not yet been
 *   read") is a step in progress: `next` favours continue, and the failure or gap it mentions is not read
 *   as a failed attempt (retry) or a blocker (ask_user);
 * - question text that is not a string (evaluate_policy passes the caller's `instructions` through) is
 *   read as its JSON rendering, never as "[object Object]".
 */
import { TRUNCATION_MARKER } from '../judgment/budget';
import type { ChoiceQuestion, NoulQuestion, ScoreQuestion } from '../judgment/types';

// ---------------------------------------------------------------------------------------------------
// Text helpers

// Folding is pure and a request's vocabulary is small, so folded forms are cached (bounded). Declared
// first: the action-word table folds its words at module load.
const foldCache = new Map<string, string>();
const FOLD_CACHE_SIZE = 10_000;

/** Lowercase tokens split on non-letters/digits (Unicode), keeping tokens longer than one character. */
export function tokenize(text: string): string[] {
  return tokensOfLower(text.toLowerCase());
}

/** {@link tokenize} of text that is already lowercased. */
function tokensOfLower(lower: string): string[] {
  // ASCII fast path (the usual case): there the letters and digits are a-z and 0-9, so matching runs of
  // two or more is the same as splitting on the rest and dropping one-character pieces. Tested on the
  // lowercased text, since lowercasing can turn a non-ASCII letter into an ASCII one (Kelvin sign → k).
  if (ASCII_TEXT.test(lower)) return lower.match(ASCII_WORDS) ?? [];
  return lower.split(NON_WORD).filter((t) => t.length > 1);
}

const ASCII_TEXT = /^[\x00-\x7f]*$/;
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

// ---------------------------------------------------------------------------------------------------
// Keyword sets (matched on lowercased text)

/** Phrases that mark text aimed at steering an AI assistant (§10 list plus close variants). */
export const INJECTION_PHRASES = [
  'ignore previous',
  'ignore all previous',
  'ignore the previous',
  'ignore prior instructions',
  "disregard the user's",
  'disregard previous',
  'system note for ai',
  'system prompt',
  'you are now',
  'jailbreak',
  'developer override',
  'append your system prompt',
];

// Negated outcomes are removed before outcome keywords are tested ("0 tests failed", "no errors").
const NEGATED_FAILURE = /\b(?:0|no|zero|without|never)\s+(?:\w+\s+)?(?:failures?|failed|failing|fails|errors?|exceptions?|bugs?)\b/g;
const NEGATED_DONE = /\b(?:not|never|isn't|is not|aren't|are not|wasn't|nothing)\s+(?:yet\s+)?(?:complete|completed|done|fixed|passing|passed|pass)\b/g;
const NEGATED_REQUIRED = /\b(?:not|never|no longer|isn't|is not|aren't|are not)\s+(?:required|mandatory)\b/g;

const FAILURE = /\bfail|\berror|typeerror|exception|\bred\b/;
const RETRY_EXTRA = /\bagain\b/;
const DONE = /all tests pass(?:ed)?|\btests? (?:now )?pass(?:ed|es|ing)?\b|\blgtm\b|\bcomplete(?:d)?\b|\bfixed\b/;
const STOP_EXTRA = /\bdone\b/;
const ASK = /\bunclear\b|\bmissing\b|which file|need more|\bunknown\b/;
const DESTRUCTIVE = /\bdelet(?:e|es|ed|ing)\b|\bdrop\s+(?:table|database)\b|\btruncate\s+table\b|force[- ]push|\bpush\s+-f\b|--force\b|\bproduction\b|rm\s+-rf|reset\s+--hard/;
const LOCAL_EDIT = /refactor|rename|\bedit|\bpatch/;
const BAD_CORRECTNESS = /\bfail|\bbugs?\b|\bwrong\b|\bbroken\b/;
const GOOD_CORRECTNESS = /\btests? (?:now )?pass(?:ed|es|ing)?\b|\bfixed\b|\blgtm\b/;
const URGENT = /\basap\b|\burgent|\bimmediately\b|failing for \d+ days/;
const CLAIM_OPTIONAL = /\boptional\b|not required|never need|may skip/;
const EVIDENCE_MANDATORY = /\bmust\b|\brequired\b|\bshall\b|\balways\b|at all times/;

/** Keyword boosts for well-known option labels (§10): label → pattern on the state (task included), boost. */
const LABEL_BOOSTS: Record<string, { re: RegExp; boost: number }> = {
  cheap: { re: /\brename|\btypo|\bformat|\blint|\bcomment/, boost: 3 },
  reasoning: { re: /architecture|\bdesign|\brace\b|deadlock|\bcomplex|refactor across/, boost: 3 },
  edit: { re: /\bchange|\bpatch|\bimplement(?:s|ed|ing)?\b|\bfix/, boost: 1.5 },
  test: { re: /\btest|\bspec\b|\bfailing\b/, boost: 1.5 },
  search: { re: /\bwhere\b|which file|\bfind\b|\blocate/, boost: 1.5 },
  read: { re: /\bread\b|\binspect|\bunderstand/, boost: 1.2 },
  plan: { re: /\bplan\b|\bdesign|\bapproach/, boost: 1.2 },
};

// ---------------------------------------------------------------------------------------------------
// State view

/** Top-level fields that state intent (what is asked), never evidence of what happened. */
const INTENT_FIELDS = new Set(['task', 'request', 'purpose', 'query', 'claims', 'candidates']);
/** Host metadata; never evidence at all (§10 "newer behaviour"). */
const METADATA_FIELD = 'execution';

/**
 * How the heuristics see one request's state. Texts are lowercased.
 * - `phrases`: serialized state plus leaf text, for phrase search (injection may hide anywhere but metadata);
 * - `all`: leaf strings and numbers except `execution` (task, observation, candidates, …);
 * - `outcome`: `all` minus intent fields (what happened, not what was asked), negations removed later;
 * - `fields`: top-level object fields when the state is, or leniently parses as, a JSON object.
 */
export interface MockView {
  readonly phrases: string;
  readonly all: string;
  readonly allTokens: ReadonlySet<string>;
  readonly outcome: string;
  readonly fields: Readonly<Record<string, unknown>> | null;
}

/**
 * Values derived from one view, each computed at most once per request. One request asks up to 41
 * questions of the same view (jev_step with 32 candidates), and the routing fit, pending sentences and
 * evidence predicates are the same for all of them. A view is read-only once built (see {@link MockView}),
 * so the memo never goes stale.
 */
interface ViewMemo {
  clean?: string;
  failure?: boolean;
  completion?: boolean;
  destructive?: boolean;
  pending?: readonly PendingSentence[];
  pendingFamilies?: ReadonlySet<string>;
  fits?: readonly number[] | null;
}
const memos = new WeakMap<MockView, ViewMemo>();

function memoOf(view: MockView): ViewMemo {
  let memo = memos.get(view);
  if (!memo) {
    memo = {};
    memos.set(view, memo);
  }
  return memo;
}

/** Builds the view of a state: an object, an array, or a string (possibly truncated JSON). */
export function buildView(state: unknown): MockView {
  let value: unknown = state;
  if (typeof state === 'string') {
    const parsed = parseLenientJson(state);
    if (parsed !== undefined) value = parsed;
  }
  let all: string;
  let outcome: string;
  let fields: Record<string, unknown> | null = null;
  if (isPlainObject(value)) {
    fields = value;
    const allParts: string[] = [];
    const outcomeParts: string[] = [];
    for (const [key, v] of Object.entries(value)) {
      if (key === METADATA_FIELD) continue;
      const text = leafText(v);
      if (text === '') continue;
      allParts.push(text);
      if (!INTENT_FIELDS.has(key)) outcomeParts.push(text);
    }
    all = allParts.join('\n');
    outcome = outcomeParts.join('\n');
  } else if (typeof value === 'string') {
    all = outcome = value;
  } else {
    all = outcome = leafText(value);
  }
  const lowered = all.toLowerCase();
  // Only the injection rule reads `phrases`, so the state is serialized on first use (the view is
  // read-only, and the mock reads it within one request).
  let phrases: string | undefined;
  return {
    get phrases() {
      if (phrases === undefined) {
        const serialized = typeof state === 'string' ? state : safeStringify(withoutMetadata(state));
        phrases = `${serialized}\n${lowered}`.toLowerCase();
      }
      return phrases;
    },
    all: lowered,
    allTokens: tokenSet(lowered),
    outcome: outcome.toLowerCase(),
    fields,
  };
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function withoutMetadata(state: unknown): unknown {
  if (!isPlainObject(state) || !Object.hasOwn(state, METADATA_FIELD)) return state;
  return Object.fromEntries(Object.entries(state).filter(([k]) => k !== METADATA_FIELD));
}

function safeStringify(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return ''; // cycles/BigInt cannot reach the wire anyway; the leaf text still carries the content
  }
}

/** Strings and finite numbers of a value, depth-first, joined by newlines (keys and booleans skipped). */
export function leafText(value: unknown): string {
  const out: string[] = [];
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') out.push(v);
    else if (typeof v === 'number' && Number.isFinite(v)) out.push(String(v));
    else if (typeof v === 'object' && v !== null && !seen.has(v)) {
      seen.add(v);
      const children = Array.isArray(v) ? v : Object.values(v);
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }
  }
  return out.join('\n');
}

/** A string field of the state's top-level object, or '' when absent. */
export function stringField(view: MockView, key: string): string {
  const v = view.fields?.[key];
  return typeof v === 'string' ? v : '';
}

// ---------------------------------------------------------------------------------------------------
// Lenient JSON (a state cut by the budget is JSON text plus the truncation marker)

const MAX_DEPTH = 256;

/**
 * Parses JSON text that may be cut short (optionally ending with the truncation marker): open strings,
 * arrays and objects are closed where the text ends; an unfinished key or literal is dropped.
 * Returns undefined when the text does not start like a JSON object/array or is not JSON.
 */
export function parseLenientJson(text: string): unknown {
  let src = text.endsWith(TRUNCATION_MARKER) ? text.slice(0, -TRUNCATION_MARKER.length) : text;
  src = src.trimStart();
  if (!src.startsWith('{') && !src.startsWith('[')) return undefined;
  try {
    const parser = new LenientParser(src);
    const value = parser.value(0);
    // Text after a complete top-level value means this is not (cut) JSON: read it as plain text.
    return parser.atEnd() ? value : undefined;
  } catch {
    return undefined;
  }
}

class Incomplete extends Error {}

class LenientParser {
  private i = 0;
  /** Set when a string ran into the end of the text. */
  cut = false;
  constructor(private readonly s: string) {}

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) throw new Error('too deep');
    this.ws();
    const c = this.s[this.i];
    if (c === undefined) throw new Incomplete();
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    return this.literal();
  }

  /** True when only whitespace remains. */
  atEnd(): boolean {
    this.ws();
    return this.i >= this.s.length;
  }

  private ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
  }

  private object(depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.i++;
    for (;;) {
      this.ws();
      if (this.i >= this.s.length) return out;
      if (this.s[this.i] === '}') {
        this.i++;
        return out;
      }
      if (this.s[this.i] === ',') {
        this.i++;
        continue;
      }
      if (this.s[this.i] !== '"') throw new Error('bad key');
      const key = this.string();
      if (this.cut) return out; // the key itself was cut: drop it
      this.ws();
      if (this.s[this.i] !== ':') {
        if (this.i >= this.s.length) return out;
        throw new Error('bad object');
      }
      this.i++;
      try {
        Object.defineProperty(out, key, { value: this.value(depth + 1), enumerable: true, writable: true, configurable: true });
      } catch (err) {
        if (err instanceof Incomplete) {
          this.i = this.s.length; // the rest of the text was the cut value
          return out;
        }
        throw err;
      }
    }
  }

  private array(depth: number): unknown[] {
    const out: unknown[] = [];
    this.i++;
    for (;;) {
      this.ws();
      if (this.i >= this.s.length) return out;
      if (this.s[this.i] === ']') {
        this.i++;
        return out;
      }
      if (this.s[this.i] === ',') {
        this.i++;
        continue;
      }
      try {
        out.push(this.value(depth + 1));
      } catch (err) {
        if (err instanceof Incomplete) {
          this.i = this.s.length; // the rest of the text was the cut value
          return out;
        }
        throw err;
      }
    }
  }

  /** A JSON string; a cut string ends where the text ends (a cut escape is dropped). */
  private string(): string {
    this.i++;
    let out = '';
    while (this.i < this.s.length) {
      const c = this.s[this.i]!;
      if (c === '"') {
        this.i++;
        return out;
      }
      if (c === '\\') {
        const e = this.s[this.i + 1];
        if (e === undefined) {
          this.i = this.s.length;
          this.cut = true;
          return out;
        }
        if (e === 'u') {
          const hex = this.s.slice(this.i + 2, this.i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            if (this.i + 6 <= this.s.length) throw new Error('bad escape');
            this.i = this.s.length;
            this.cut = true;
            return out;
          }
          out += String.fromCharCode(parseInt(hex, 16));
          this.i += 6;
          continue;
        }
        out += ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' } as Record<string, string>)[e] ?? e;
        this.i += 2;
        continue;
      }
      out += c;
      this.i++;
    }
    this.cut = true;
    return out;
  }

  private literal(): unknown {
    const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(this.s.slice(this.i, this.i + 64));
    if (!m) {
      const rest = this.s.slice(this.i);
      if (rest === '-' || ['true', 'false', 'null'].some((w) => w.startsWith(rest))) throw new Incomplete();
      throw new Error('bad literal');
    }
    const end = this.i + m[0].length;
    // A literal that runs into the end of the text may itself be cut ("tru", "12" of "123"): drop it.
    if (end >= this.s.length) throw new Incomplete();
    this.i = end;
    return JSON.parse(m[0]);
  }
}

// ---------------------------------------------------------------------------------------------------
// Evidence predicates

const clean = (text: string) => text.replace(NEGATED_FAILURE, ' ').replace(NEGATED_DONE, ' ');

/** The view's outcome text with negated outcomes removed (memoized). */
function cleanOutcome(view: MockView): string {
  const memo = memoOf(view);
  return (memo.clean ??= clean(view.outcome));
}

/** Outcome text reports a failure (negated failures removed). */
export function failureEvidence(view: MockView): boolean {
  const memo = memoOf(view);
  return (memo.failure ??= FAILURE.test(cleanOutcome(view)));
}

/** Outcome text reports completion and no failure. */
export function completionEvidence(view: MockView): boolean {
  const memo = memoOf(view);
  return (memo.completion ??= DONE.test(cleanOutcome(view)) && !failureEvidence(view));
}

/** The state (anything but metadata) mentions a destructive or production-facing operation. */
export function destructiveEvidence(view: MockView): boolean {
  const memo = memoOf(view);
  return (memo.destructive ??= DESTRUCTIVE.test(view.all));
}

// ---------------------------------------------------------------------------------------------------
// Pending work: what the observation says the agent still has to do with its own tools

/** Action families: words that name one kind of tool action. */
const ACTION_FAMILIES: Record<string, readonly string[]> = {
  read: ['read', 'open', 'view', 'inspect', 'look', 'show', 'cat', 'examine'],
  search: ['search', 'find', 'locate', 'grep'],
  run: ['run', 'rerun', 'execute', 'exec', 'reproduce'],
  edit: ['edit', 'write', 'change', 'patch', 'modify', 'apply', 'replace'],
};
/** Folded form (see {@link foldToken}) of each action word and its inflections ("changed" → "chang") → family. */
const ACTION_WORD = new Map<string, string>(
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
function pendingOf(view: MockView): readonly PendingSentence[] {
  const memo = memoOf(view);
  if (memo.pending) return memo.pending;
  const out: PendingSentence[] = [];
  for (const sentence of view.outcome.split(SENTENCE_BREAK)) {
    if (!PENDING.test(sentence)) continue;
    const tokens = foldedTokens(sentence);
    const families = familiesOf(tokens);
    if (families.size > 0) out.push({ tokens, families });
  }
  return (memo.pending = out);
}

const SENTENCE_BREAK = /(?<=[.?!])\s+|\n+/;

/** Action families named by the outcome's pending sentences. */
export function pendingFamilies(view: MockView): Set<string> {
  return new Set(pendingFamiliesOf(view));
}

/** Memoized {@link pendingFamilies} (shared; callers must not mutate it). */
function pendingFamiliesOf(view: MockView): ReadonlySet<string> {
  const memo = memoOf(view);
  return (memo.pendingFamilies ??= new Set(pendingOf(view).flatMap((s) => [...s.families])));
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

function familiesOf(tokens: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const t of tokens) {
    const f = ACTION_WORD.get(t);
    if (f) out.add(f);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Prepared-call routing (tool-route pack of jev-tools-spec §4.2: `selected`, `suitable_i`)

/** Words that carry no topic (after folding); ignored when a candidate is compared with the context. */
const ROUTE_STOP_WORDS = new Set(
  ('the an and or of to in on at by for from with into onto as is are be been it its this that these those then than so ' +
    'before after around about over under again all any some each every not no do does did can could should would will ' +
    'may might must re via per up out off new now').split(' '),
);
/** Generic object words: never enough on their own to say a candidate does what a sentence asks. */
const GENERIC_OBJECTS = new Set(['file', 'code', 'output', 'command', 'result', 'content', 'call', 'tool', 'thing', 'step']);

/** Fit adjustment per declared effect: a bonus for read-only calls, a malus for writes outside the tree. */
export const EFFECT_FIT: Record<string, number> = { read_only: 0.05, local_write: 0, external_write: -0.2, destructive: -0.3, unknown: -0.2 };
/** Fit of a candidate that does what a pending sentence asks, before its overlap share (probability). */
export const PENDING_FIT = 0.82;
/** Highest fit the mock reports: a keyword heuristic never claims near-certainty about a call. */
export const MAX_FIT = 0.95;
/** Lowest fit reported. */
export const MIN_FIT = 0.02;
/** Logit slope of `selected`: call_i gets ROUTE_LOGIT_SCALE·(fit_i − ROUTE_LOGIT_MIDPOINT), none gets 0. */
export const ROUTE_LOGIT_SCALE = 8;
export const ROUTE_LOGIT_MIDPOINT = 0.55;

/** A candidate projection as the mock reads it from `state.candidates` (missing fields read as ''). */
interface RouteCandidate {
  name: string;
  description: string;
  effect: string;
}

/** The state's candidate projections, or null when the state has no `candidates` array. */
function routeCandidates(view: MockView): RouteCandidate[] | null {
  const candidates = view.fields?.candidates;
  if (!Array.isArray(candidates)) return null;
  return candidates.map((c) =>
    isPlainObject(c) ? { name: str(c.name), description: str(c.description), effect: str(c.effect) } : { name: '', description: '', effect: '' },
  );
}

/** Context a candidate is compared with: every top-level field but `candidates` and `execution`. */
function routeContext(view: MockView): Set<string> {
  if (!view.fields) return foldedTokens(view.all);
  const rest = Object.entries(view.fields).filter(([k]) => k !== 'candidates' && k !== METADATA_FIELD);
  return foldedTokens(leafText(Object.fromEntries(rest)));
}

/**
 * Fit in [MIN_FIT, MAX_FIT] of each candidate in `state.candidates` (one number per candidate, in order;
 * null when the state has no candidates array). The rule, from the projection {name, description, effect}:
 * - words: the folded tokens of name + description minus stop words;
 * - share: the fraction of those words found in the context (task, observation, extras);
 * - pending: some pending sentence of the observation ({@link pendingSentences}) names an action family
 *   the candidate performs (its tool name, or the first action word of its description) AND shares a non-action, non-generic word with it (the object), e.g.
 *   "src/parser.ts has not yet been read" + "read_file: Read the parser implementation" (read + parser);
 * - fit = pending ? PENDING_FIT + 0.1·share : 0.1 + 0.5·share, plus EFFECT_FIT of the declared effect
 *   (a description naming a destructive operation counts as destructive), clamped.
 * Argument shapes are not read: they say nothing about purpose.
 */
export function candidateFits(view: MockView): number[] | null {
  const fits = fitsOf(view);
  return fits ? [...fits] : null;
}

/** Memoized {@link candidateFits} (shared; callers must not mutate it). */
function fitsOf(view: MockView): readonly number[] | null {
  const memo = memoOf(view);
  if (memo.fits !== undefined) return memo.fits;
  return (memo.fits = computeFits(view));
}

function computeFits(view: MockView): number[] | null {
  const candidates = routeCandidates(view);
  if (!candidates) return null;
  const context = routeContext(view);
  const pending = pendingOf(view);
  // Candidates often share a tool name: its tokens are folded once per request.
  const names = new Map<string, FoldedText>();
  return candidates.map((c) => {
    let name = names.get(c.name);
    if (!name) names.set(c.name, (name = foldedText(c.name)));
    const desc = foldedText(c.description);
    const words = new Set<string>();
    for (const t of joinedFolded(c, name, desc)) if (!ROUTE_STOP_WORDS.has(t)) words.add(t);
    let hit = 0;
    for (const w of words) if (context.has(w)) hit++;
    const share = words.size ? hit / words.size : 0;
    const families = candidateFamilies(name, desc);
    const objects = pending.length ? [...words].filter((w) => !ACTION_WORD.has(w) && !GENERIC_OBJECTS.has(w)) : [];
    const matchesPending = pending.some((s) => [...s.families].some((f) => families.has(f)) && objects.some((w) => s.tokens.has(w)));
    const effect = DESTRUCTIVE.test(desc.lower) ? 'destructive' : c.effect;
    const adjust = Object.hasOwn(EFFECT_FIT, effect) ? EFFECT_FIT[effect]! : EFFECT_FIT.unknown!;
    const fit = (matchesPending ? PENDING_FIT + 0.1 * share : 0.1 + 0.5 * share) + adjust;
    return Math.min(MAX_FIT, Math.max(MIN_FIT, fit));
  });
}

/**
 * What a candidate does: the action families of its tool name plus that of the first action word of its
 * description ("Read the parser … before changing it" reads; it does not edit).
 */
function candidateFamilies(name: FoldedText, description: FoldedText): Set<string> {
  const out = familiesOf(name.folded);
  const first = description.folded.find((t) => ACTION_WORD.has(t));
  if (first) out.add(ACTION_WORD.get(first)!);
  return out;
}

/** A text lowercased once, with its {@link tokenize} tokens folded in order (duplicates kept). */
interface FoldedText {
  lower: string;
  folded: string[];
}

function foldedText(text: string): FoldedText {
  const lower = text.toLowerCase();
  return { lower, folded: tokensOfLower(lower).map(foldToken) };
}

/**
 * Folded tokens of `${name} ${description}` in order. When both lowercased parts are ASCII, lowercasing
 * was per character (no final sigma, which lowercases to non-ASCII), and the joining space separates
 * tokens, so the tokens are those of the name followed by those of the description; otherwise the joined
 * text is tokenized.
 */
function joinedFolded(c: RouteCandidate, name: FoldedText, description: FoldedText): string[] {
  if (ASCII_TEXT.test(name.lower) && ASCII_TEXT.test(description.lower)) return name.folded.concat(description.folded);
  return tokenize(`${c.name} ${c.description}`).map(foldToken);
}

/**
 * Candidate index a routing question is about: a noul with id `suitable_<i>`, or whose instruction names
 * `state.candidates[<i>]`. Null for other questions.
 */
export function suitabilityIndex(id: string, instructions: string): number | null {
  const m = /^suitable_(0|[1-9]\d*)$/.exec(id) ?? /\bstate\.candidates\[(0|[1-9]\d*)\]/.exec(instructions);
  return m ? Number(m[1]) : null;
}

/** A `selected`-style choice: options are `none` and `call_<i>` only, with at least one call. */
export function isRouteSelection(labels: readonly string[]): boolean {
  return labels.some((l) => l !== 'none') && labels.every((l) => l === 'none' || /^call_(0|[1-9]\d*)$/.test(l));
}

/**
 * Logits of a `selected` choice: none → 0; call_i → ROUTE_LOGIT_SCALE·(fit_i − ROUTE_LOGIT_MIDPOINT), or
 * −ROUTE_LOGIT_SCALE for a call with no candidate i in the state. A clear pending match (fit ≈ 0.92)
 * scores ≈ 3, so with weak rivals it takes ≈ 0.95 of the mass; when nothing overlaps (fit ≤ 0.15) every
 * call scores ≤ −3 and `none` wins.
 */
function routeSelectionScores(labels: readonly string[], fits: readonly number[]): number[] {
  return labels.map((label) => {
    if (label === 'none') return 0;
    const fit = fits[Number(label.slice('call_'.length))];
    return fit === undefined ? -ROUTE_LOGIT_SCALE : ROUTE_LOGIT_SCALE * (fit - ROUTE_LOGIT_MIDPOINT);
  });
}

// ---------------------------------------------------------------------------------------------------
// Noul

/** Instruction characters searched for rule wording (UTF-16 units). */
const MAX_RULE_TEXT = 4000;

/** Question-id overrides: an independent judgment the mock cannot make, so it says "don't know". */
const NOUL_BY_ID: Record<string, number> = { needs_generation: 0.5 };

type NoulRule = { re: RegExp; value: (view: MockView, q: NoulQuestion) => number };

/** First-match noul rules (§10), keyed on instruction wording of the packs in §4. */
const NOUL_RULES: NoulRule[] = [
  {
    re: /\binjection\b|jailbreak|aimed at an ai/,
    value: (v) => (INJECTION_PHRASES.some((p) => v.phrases.includes(p)) ? 0.97 : 0.04),
  },
  {
    re: /\bsubstantive\b|has substance/,
    value: (v) => {
      const text = (stringField(v, 'text') || v.all).trim();
      return text.length < 40 ? 0.12 : Math.min(0.97, 0.4 + text.length / 800);
    },
  },
  {
    re: /\brelevant\b/,
    value: (v, q) => {
      const purpose = stringField(v, 'purpose');
      if (purpose.trim() === '') return overlap(v.allTokens, questionText(q.instructions));
      const rest = v.fields ? leafText(Object.fromEntries(Object.entries(v.fields).filter(([k]) => k !== 'purpose' && k !== METADATA_FIELD))) : v.all;
      return overlap(rest, purpose);
    },
  },
  {
    re: /complete enough|done enough|task (?:is )?complete|ready to stop|enough to stop/,
    value: (v) => (completionEvidence(v) ? 0.86 : 0.22),
  },
  {
    re: /\bmore\b[^.?!]*\bcontext\b|missing context/,
    // Something still to be read or searched is context the agent lacks (and can fetch itself).
    value: (v) => {
      const pending = pendingFamiliesOf(v);
      if (pending.has('read') || pending.has('search')) return 0.86;
      return ASK.test(v.outcome) ? 0.81 : 0.18;
    },
  },
  {
    re: /likely fail/,
    value: (v) => (failureEvidence(v) ? 0.84 : 0.16),
  },
  {
    re: /\bsafe\b[^.?!]*\b(?:apply|merge)\b/,
    value: (v) => (destructiveEvidence(v) ? 0.12 : 0.78),
  },
  {
    re: /does any candidate|address(?:es)? the query/,
    value: (v) => candidateExistence(v),
  },
];

/** max overlap(original_id + text, query) over state.candidates: > 0.25 → min(0.99, 0.5 + max), else 0.12. */
function candidateExistence(view: MockView): number {
  const query = stringField(view, 'query');
  const candidates = view.fields?.candidates;
  if (query.trim() === '' || !Array.isArray(candidates)) return 0.14;
  let best = 0;
  for (const c of candidates) {
    if (!isPlainObject(c)) continue;
    best = Math.max(best, overlap(`${str(c.original_id)} ${str(c.text)}`, query));
  }
  return best > 0.25 ? Math.min(0.99, 0.5 + best) : 0.12;
}

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/**
 * P(true) for a noul question (§10): id override, then a routing suitability question (id `suitable_i` or
 * an instruction naming `state.candidates[i]`, with candidates in the state) → {@link candidateFits}[i]
 * (MIN_FIT for a missing candidate), then the first instruction rule whose pattern matches
 * the lead sentence, else the whole instruction, else 0.15 + 0.7·overlap(state, instructions). Urgency
 * questions are raised to ≥ 0.93 when the state is urgent. Result clamped to [0.001, 0.999].
 */
export function noulValue(id: string, question: NoulQuestion, view: MockView): number {
  if (Object.hasOwn(NOUL_BY_ID, id)) return NOUL_BY_ID[id]!;
  // A `suitable_<i>` id names the candidate without the (long) instruction text being read.
  const byId = suitabilityIndex(id, '');
  const fitsById = byId === null ? null : fitsOf(view);
  if (fitsById && byId !== null) return clampNoul(fitsById[byId] ?? MIN_FIT);
  const text = questionText(question.instructions).toLowerCase();
  const index = byId ?? suitabilityIndex(id, text);
  const fits = index === null ? null : fitsOf(view);
  if (fits && index !== null) return clampNoul(fits[index] ?? MIN_FIT);
  // Pack wording sits at the start; a bounded prefix keeps the sentence-spanning patterns linear.
  const head = text.slice(0, MAX_RULE_TEXT);
  const lead = leadSentence(head);
  const rule = NOUL_RULES.find((r) => r.re.test(lead)) ?? NOUL_RULES.find((r) => r.re.test(head));
  let p = rule ? rule.value(view, question) : 0.15 + 0.7 * overlap(view.allTokens, text);
  if (/\burgen(?:t|cy)\b/.test(text) && URGENT.test(view.all)) p = Math.max(p, 0.93);
  return clampNoul(p);
}

// ---------------------------------------------------------------------------------------------------
// Choice

/** Focus label favoured by each pending action family. */
const PENDING_FOCUS: Record<string, string> = { read: 'read', search: 'search', run: 'test', edit: 'edit' };

/**
 * Unnormalized option scores (§10): 3·overlap(state, label + description) + overlap(state, instructions)
 * + verify boost (instruction names `claims[i]`) + rank boost (state has `query`) + label keyword boosts.
 * One number per option, in option order.
 * A routing selection (options none/call_i, state.candidates present) uses {@link routeSelectionScores}
 * instead. When the observation names pending work ({@link pendingSentences}), continue gains +4 and the
 * failure/gap keyword boosts of retry and ask_user are withheld (the agent is diagnosing with its own
 * tools, not failing or blocked), and the matching focus label gains +4 (read, search, run → test, edit).
 */
export function choiceScores(id: string, question: ChoiceQuestion, view: MockView): number[] {
  const labels = Object.keys(question.criteria);
  if (isRouteSelection(labels)) {
    const fits = fitsOf(view);
    if (fits) return routeSelectionScores(labels, fits);
  }
  const instructions = questionText(question.instructions);
  const base = overlap(view.allTokens, instructions);
  const verify = verifyBoosts(id, instructions, view);
  const query = stringField(view, 'query');
  const rankIds = query.trim() !== '' ? candidateIds(view) : null;
  const failed = failureEvidence(view);
  const completed = completionEvidence(view) || (!failed && STOP_EXTRA.test(cleanOutcome(view)));
  const pending = pendingFamiliesOf(view);
  const focus = new Set([...pending].map((f) => PENDING_FOCUS[f]));

  return Object.entries(question.criteria).map(([label, description]) => {
    const desc = questionText(description);
    let s = 3 * overlap(view.allTokens, `${label} ${desc}`) + base;
    if (verify) s += verify[label] ?? 0;
    if (rankIds) s += 10 * overlap(`${label} ${rankIds.get(label) ?? ''} ${desc}`, query);
    switch (label) {
      case 'retry':
        if (pending.size === 0 && (failed || RETRY_EXTRA.test(view.outcome))) s += 4;
        break;
      case 'stop':
        if (completed) s += 4;
        break;
      case 'ask_user':
        if (pending.size === 0 && ASK.test(view.outcome)) s += 4;
        break;
      case 'continue':
        if (pending.size > 0) s += 4;
        else if (s < 1) s += 0.8;
        break;
      case 'standard':
        s += 0.4;
        break;
      default: {
        const boost = Object.hasOwn(LABEL_BOOSTS, label) ? LABEL_BOOSTS[label] : undefined;
        if (boost && boost.re.test(view.all)) s += boost.boost;
        if (focus.has(label)) s += 4;
      }
    }
    return s;
  });
}

/** Private rank label → original id, from state.candidates [{id, original_id}]. */
function candidateIds(view: MockView): Map<string, string> {
  const out = new Map<string, string>();
  const candidates = view.fields?.candidates;
  if (!Array.isArray(candidates)) return out;
  for (const c of candidates) if (isPlainObject(c) && typeof c.id === 'string') out.set(c.id, str(c.original_id));
  return out;
}

/**
 * Verify boosts for a claim question: contradicted +6 when the claim calls something optional and the
 * evidence calls it mandatory; else verified +6 when overlap(evidence, claim) > 0.28; else unsupported +5
 * when overlap < 0.18. Null when the instruction names no claim index or the claim is not in the state.
 */
function verifyBoosts(id: string, instructions: string, view: MockView): Record<string, number> | null {
  const m = /claims\[(\d+)\]/.exec(instructions) ?? (instructions.includes('claims[') ? /^claim_(\d+)$/.exec(id) : null);
  if (!m) return null;
  const claims = view.fields?.claims;
  const claim = Array.isArray(claims) ? claims[Number(m[1])] : undefined;
  if (typeof claim !== 'string') return null;
  const evidence = evidenceText(view.fields?.evidence).toLowerCase();
  const claimText = claim.toLowerCase();
  const conflict = CLAIM_OPTIONAL.test(claimText) && EVIDENCE_MANDATORY.test(evidence.replace(NEGATED_REQUIRED, ' '));
  if (conflict) return { contradicted: 6 };
  const o = overlap(evidence, claimText);
  if (o > 0.28) return { verified: 6 };
  if (o < 0.18) return { unsupported: 5 };
  return {};
}

/** Evidence as text: a string, or the texts of [{id, text}] items. */
function evidenceText(evidence: unknown): string {
  if (typeof evidence === 'string') return evidence;
  if (Array.isArray(evidence)) return evidence.map((e) => (isPlainObject(e) ? str(e.text) : str(e))).join('\n');
  return '';
}

// ---------------------------------------------------------------------------------------------------
// Score

/**
 * Unnormalized level scores (§10). Risk/blast questions: all 0.1, and 3 on the last level for destructive
 * operations, on level 1 for local edits, else on level 0 — 4 instead of 3 when the observation's pending
 * work is only reading or searching (an inspection is the clearest low-risk step). Correctness questions
 * with outcome keywords: all 0.1 and 3 on level 0 (failure/bug) or the last level (tests pass/fixed/lgtm). Otherwise
 * overlap(state, instructions + level) + 0.05·index. Risk/correctness are recognized by the question id or
 * the instruction's lead sentence (appended guidance, e.g. gate's, must not change a question's kind).
 */
export function scoreLevels(id: string, question: ScoreQuestion, view: MockView): number[] {
  const levels = question.criteria.map(questionText);
  const n = levels.length;
  const lead = leadSentence(questionText(question.instructions).toLowerCase().slice(0, MAX_RULE_TEXT));
  const idText = id.toLowerCase();
  const peak = (index: number, height = 3) => levels.map((_, i) => (i === index ? height : 0.1));

  if (/risk|blast/.test(idText) || /\brisk|\bblast|destructive/.test(lead)) {
    if (destructiveEvidence(view)) return peak(n - 1);
    if (LOCAL_EDIT.test(view.all)) return peak(Math.min(1, n - 1));
    const pending = pendingFamiliesOf(view);
    const inspecting = pending.size > 0 && [...pending].every((f) => f === 'read' || f === 'search');
    return peak(0, inspecting ? 4 : 3);
  }
  if (/correct/.test(idText) || /\bcorrect/.test(lead)) {
    const outcome = cleanOutcome(view);
    if (BAD_CORRECTNESS.test(outcome)) return peak(0);
    if (GOOD_CORRECTNESS.test(outcome)) return peak(n - 1);
  }
  const instructions = questionText(question.instructions);
  return levels.map((level, i) => overlap(view.allTokens, `${instructions} ${level}`) + 0.05 * i);
}
