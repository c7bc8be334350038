import { REDACTED, redactSecrets, redactText } from '../judgment/redact';
import { SECRET_KEY } from '../tools/call-projection';

/**
 * Redaction of a tool call before it goes upstream or to the ledger: the configured secrets (the API
 * key, judgment/redact.ts) and well-known credential shapes an agent may put in a command (GitHub,
 * OpenAI/Anthropic, AWS, Slack and Google keys, bearer tokens, private key blocks, `password=…`).
 */

const PATTERNS: readonly RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}\b/g,
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{16,}/gi,
  /\b((?:password|passwd|secret|token|api[_-]?key)\s*[=:]\s*)(['"]?)[^\s'"]{6,}\2/gi,
  // An environment assignment whose name says secret: AWS_SECRET_ACCESS_KEY=…, GITHUB_TOKEN=…, DB_PASSWORD=…
  /\b([A-Z][A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|API_KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)[A-Z0-9_]*\s*=\s*)(['"]?)[^\s'"]{4,}\2/g,
  // curl/wget style user:password (-u, --user, --password) and user:password@ in URLs.
  /((?:\s|^)(?:-u|--user|--proxy-user)\s+['"]?[^\s:'"]+:)[^\s'"]+/g,
  /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:)[^\s@/]+(?=@)/gi,
];

/** `text` with known credential shapes replaced by REDACTED. */
export function redactPatterns(text: string): string {
  let out = text;
  for (const re of PATTERNS) {
    out = out.replace(re, (match: string, p1?: string) => {
      if (/^(Bearer|Basic)$/i.test(p1 ?? '')) return `${p1} ${REDACTED}`;
      if (typeof p1 === 'string' && /[=:]\s*$/.test(p1)) return `${p1}${REDACTED}`;
      return match.startsWith('-----BEGIN') ? REDACTED : REDACTED;
    });
  }
  return out;
}

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
