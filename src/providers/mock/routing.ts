/**
 * Prepared-call routing of the mock judge: how well each candidate call in `state.candidates` fits what
 * the step asks (the tool-route questions `selected` and `suitable_<i>` of src/tools/jev-tool-route.ts).
 */
import { DESTRUCTIVE } from './keywords';
import { ACTION_WORD, familiesOf, pendingOf } from './pending';
import { ASCII_TEXT, foldedTokens, foldToken, scalarText, tokenize, tokensOfLower } from './text';
import { isPlainObject, leafText, METADATA_FIELD, perView, type MockView } from './view';

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
    isPlainObject(c) ? { name: scalarText(c.name), description: scalarText(c.description), effect: scalarText(c.effect) } : { name: '', description: '', effect: '' },
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
export const fitsOf: (view: MockView) => readonly number[] | null = perView((view) => computeFits(view));

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
export function routeSelectionScores(labels: readonly string[], fits: readonly number[]): number[] {
  return labels.map((label) => {
    if (label === 'none') return 0;
    const fit = fits[Number(label.slice('call_'.length))];
    return fit === undefined ? -ROUTE_LOGIT_SCALE : ROUTE_LOGIT_SCALE * (fit - ROUTE_LOGIT_MIDPOINT);
  });
}
