/**
 * Redaction of configured secrets (the API key) from values before they reach a provider, a result or the
 * ledger. The README promises the key is never written to the ledger; a staged file or any tool input may
 * still contain it verbatim, so every occurrence is replaced by `[REDACTED]`.
 */

/** What a secret is replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * Nesting depth (arrays and objects) below which redaction walks. Deeper parts are left as found, so a hostile
 * input cannot overflow the stack: the tools refuse arguments nested deeper than 64 levels before any request,
 * and the JSONL sink redacts the serialized line.
 */
export const MAX_REDACT_DEPTH = 256;

/** Shortest secret that is redacted: shorter strings would mangle ordinary text. */
export const MIN_SECRET_LENGTH = 8;

/**
 * The secrets worth redacting from `list`: strings of at least MIN_SECRET_LENGTH characters (others are
 * ignored), without duplicates, longest first (so a secret that contains another is replaced whole).
 */
export function usableSecrets(list: readonly (string | undefined)[] | undefined): string[] {
  if (!list) return [];
  const kept = new Set<string>();
  for (const s of list) if (typeof s === 'string' && s.length >= MIN_SECRET_LENGTH) kept.add(s);
  return [...kept].sort((a, b) => b.length - a.length);
}

/** `text` with every occurrence of every secret replaced by REDACTED; the same string when none occurs. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/**
 * `value` with every secret replaced inside string values and object keys, deep (arrays and plain objects;
 * other objects are kept as they are). Parts without a secret are returned as the same references, so a
 * value without any secret comes back unchanged (`===`). An own `__proto__` key stays an own key (the
 * parsers reject it; redaction must not turn it into a prototype). Cyclic references, and parts nested deeper
 * than MAX_REDACT_DEPTH, are left as found.
 * `secrets` should come from `usableSecrets`.
 */
export function redactSecrets<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  return walk(value, secrets, new Set()) as T;
}

function walk(value: unknown, secrets: readonly string[], path: Set<object>): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (typeof value !== 'object' || value === null || path.has(value) || path.size >= MAX_REDACT_DEPTH) return value;
  if (Array.isArray(value)) {
    path.add(value);
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = walk(value[i], secrets, path);
      if (item !== value[i]) (out ??= value.slice())[i] = item;
    }
    path.delete(value);
    return out ?? value;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  path.add(value);
  const entries = Object.entries(value);
  let changed = false;
  const next = entries.map(([k, v]) => {
    const key = redactText(k, secrets);
    const item = walk(v, secrets, path);
    if (key !== k || item !== v) changed = true;
    return [key, item] as const;
  });
  path.delete(value);
  if (!changed) return value;
  const out = Object.create(proto) as Record<string, unknown>;
  for (const [k, v] of next) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}
