import { REDACTED, redactSecrets, redactText } from '../judgment/redact';
import { SECRET_KEY } from '../tools/call-projection';
import { redactPatterns } from '../judgment/credential-shapes';

/**
 * Redaction of a tool call before it goes upstream or to the ledger: the configured secrets (the API
 * key, judgment/redact.ts) and well-known credential shapes an agent may put in a command
 * (judgment/credential-shapes.ts: keys, bearer tokens, private key blocks, `password=…`).
 */

function walk(value: unknown, depth: number, key?: string): unknown {
  // A value under a secret-named key (`password`, `api_key`…) goes whatever its shape.
  if (typeof value === 'string') return key !== undefined && value !== '' && SECRET_KEY.test(key) ? REDACTED : redactPatterns(value);
  if (depth > 64 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => walk(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, { value: walk(v, depth + 1, k), enumerable: true, writable: true, configurable: true });
  return out;
}

/** `value` with the configured `secrets` (from judgment/redact.ts `usableSecrets`), values under secret-named keys and known credential shapes redacted, deep. */
export function redactCall<T>(value: T, secrets: readonly string[]): T {
  return walk(redactSecrets(value, secrets), 0) as T;
}

/** One string with both kinds of redaction. */
export function redactLine(text: string, secrets: readonly string[]): string {
  return redactPatterns(redactText(text, secrets));
}
