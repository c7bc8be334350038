/**
 * How the mock judge's heuristics see one request's state ({@link MockView}), built once per request, and
 * the per-view memo for values derived from it.
 */
import { parseLenientJson } from './lenient-json';
import { safeStringify, tokenSet } from './text';

/** Top-level fields that state intent (what is asked), never evidence of what happened. */
const INTENT_FIELDS = new Set(['task', 'request', 'purpose', 'query', 'claims', 'candidates']);
/** Host metadata (how the host ran the step); never evidence at all. */
export const METADATA_FIELD = 'execution';

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
 * Memoizes a value derived from a view: `derive` runs at most once per view. One request asks up to 41
 * questions of the same view (jev_step with 32 candidates), and the routing fits, pending sentences and
 * evidence predicates are the same for all of them. A view is read-only once built (see {@link MockView}),
 * so a memo never goes stale.
 */
export function perView<T>(derive: (view: MockView) => T): (view: MockView) => T {
  const memo = new WeakMap<MockView, { value: T }>();
  return (view) => {
    let hit = memo.get(view);
    if (!hit) {
      hit = { value: derive(view) };
      memo.set(view, hit);
    }
    return hit.value;
  };
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

/** A non-null, non-array object. */
export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function withoutMetadata(state: unknown): unknown {
  if (!isPlainObject(state) || !Object.hasOwn(state, METADATA_FIELD)) return state;
  return Object.fromEntries(Object.entries(state).filter(([k]) => k !== METADATA_FIELD));
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
