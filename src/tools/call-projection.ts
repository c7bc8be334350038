import { truncateText } from '../judgment/budget';
import { REDACTED } from '../judgment/redact';

/**
 * The form of a proposed tool call's input that jev_permit sends to the judge: the values themselves (a
 * command's text is the evidence of what it does), with secret-shaped values replaced by `[REDACTED]` and
 * the whole bounded. Configured secrets (the API key) are already gone: JudgmentService redacts them from
 * every tool's arguments (src/judgment/redact.ts). Anything cut sets `clipped`, which the tool reports as
 * incomplete coverage (so a clipped call is never allowed).
 */

/** Longest string kept whole, UTF-16 units (marker included when cut). */
export const PROJECTION_MAX_STRING = 8_000;
/** Object keys and array items kept per level. */
export const PROJECTION_MAX_ENTRIES = 64;
/** Nesting kept (the input itself is level 0); deeper values become `[nested]`. */
export const PROJECTION_MAX_DEPTH = 8;
/** Total string characters kept across the projection; later strings are cut to what is left. */
export const PROJECTION_MAX_CHARS = 32_000;

/** Keys whose string value is a secret whatever it looks like (matched case-insensitively on the whole key). */
/** A key whose value is a secret by its name (`password`, `api_key`, `client_secret`, `Authorization`…). */
export const SECRET_KEY = /^(?:.*[_-])?(?:password|passwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|authorization|cookie|credentials?)$/i;

/**
 * Secret shapes inside strings: PEM private keys, well-known token prefixes (GitHub, OpenAI-style `sk-`,
 * Slack, AWS access key ids, Google API keys), JSON Web Tokens, bearer/basic credentials and the password of
 * a URL's user info. Each match is replaced by REDACTED.
 */
const SECRET_PATTERNS: readonly RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  /\bsk-[A-Za-z0-9_-]{16,}\b/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g,
];
/** Credentials after an auth scheme: the scheme stays, the credential goes. */
const AUTH_SCHEME = /\b(Bearer|Basic|token)\s+[A-Za-z0-9._~+/=-]{12,}/gi;
/** `scheme://user:password@host`: the password goes. */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+@/gi;

/** What the projection did. */
export interface CallProjection {
  /** The bounded, redacted input (plain JSON). */
  input: unknown;
  /** Values or parts of strings replaced by REDACTED. */
  redacted: number;
  /** Some string, key list, array or nesting was cut. */
  clipped: boolean;
}

/** `text` with secret-shaped parts replaced, and how many were replaced. */
export function redactSecretShapes(text: string): { text: string; redacted: number } {
  let redacted = 0;
  let out = text;
  const count = () => {
    redacted++;
    return REDACTED;
  };
  for (const re of SECRET_PATTERNS) out = out.replace(re, count);
  out = out.replace(AUTH_SCHEME, (_m, scheme: string) => {
    redacted++;
    return `${scheme} ${REDACTED}`;
  });
  out = out.replace(URL_PASSWORD, (_m, head: string) => {
    redacted++;
    return `${head}${REDACTED}@`;
  });
  return { text: out, redacted };
}

/**
 * Projection of a call input (plain JSON, as parsed by jev_permit): strings redacted (redactSecretShapes,
 * and whole values under secret-named keys such as `password` or `api_key`), then cut to
 * PROJECTION_MAX_STRING and to what is left of PROJECTION_MAX_CHARS; objects and arrays keep their first 64
 * entries (a `…` entry counts the rest); nesting past 8 levels becomes `[nested]`. Key order is kept.
 */
export function projectCallInput(input: unknown): CallProjection {
  const state = { redacted: 0, clipped: false, left: PROJECTION_MAX_CHARS };
  const keep = (text: string): string => {
    const max = Math.min(PROJECTION_MAX_STRING, Math.max(0, state.left));
    const out = truncateText(text, max);
    if (out !== text) state.clipped = true;
    state.left -= out.length;
    return out;
  };
  const walk = (value: unknown, depth: number, key: string | undefined): unknown => {
    if (typeof value === 'string') {
      if (key !== undefined && SECRET_KEY.test(key) && value !== '') {
        state.redacted++;
        return REDACTED;
      }
      const r = redactSecretShapes(value);
      state.redacted += r.redacted;
      return keep(r.text);
    }
    if (value === null || typeof value !== 'object') return value;
    if (depth >= PROJECTION_MAX_DEPTH) {
      state.clipped = true;
      return '[nested]';
    }
    if (Array.isArray(value)) {
      const items = value.slice(0, PROJECTION_MAX_ENTRIES).map((v) => walk(v, depth + 1, undefined));
      if (value.length > PROJECTION_MAX_ENTRIES) {
        state.clipped = true;
        items.push(`… ${value.length - PROJECTION_MAX_ENTRIES} more items`);
      }
      return items;
    }
    const keys = Object.keys(value);
    const out: Record<string, unknown> = {};
    for (const k of keys.slice(0, PROJECTION_MAX_ENTRIES)) {
      const name = redactSecretShapes(k);
      state.redacted += name.redacted;
      // defineProperty keeps any key an own data property (the parser already refused `__proto__`).
      Object.defineProperty(out, name.text, { value: walk((value as Record<string, unknown>)[k], depth + 1, k), enumerable: true, writable: true, configurable: true });
    }
    if (keys.length > PROJECTION_MAX_ENTRIES) {
      state.clipped = true;
      out['…'] = `${keys.length - PROJECTION_MAX_ENTRIES} more keys`;
    }
    return out;
  };
  const projected = walk(input, 0, undefined);
  return { input: projected, redacted: state.redacted, clipped: state.clipped };
}

/**
 * `value` with the same redaction as projectCallInput (secret-named keys, secret-shaped strings, key names)
 * but nothing cut: what the ledger keeps of a proposed call. Nesting past 64 levels becomes `[nested]`. Pure.
 */
export function redactCallInput(value: unknown, depth = 0, key?: string): unknown {
  if (typeof value === 'string') {
    if (key !== undefined && SECRET_KEY.test(key) && value !== '') return REDACTED;
    return redactSecretShapes(value).text;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= 64) return '[nested]';
  if (Array.isArray(value)) return value.map((v) => redactCallInput(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    Object.defineProperty(out, redactSecretShapes(k).text, { value: redactCallInput(v, depth + 1, k), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
