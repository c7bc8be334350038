import { REDACTED } from './redact';

/**
 * Well-known credential shapes, redacted from what goes upstream or to the ledger when they turn up in text
 * nobody configured as a secret: a command an agent wrote (src/guard/secrets.ts), a staged diff or an
 * evidence command's output (src/gate/request.ts).
 */

/** Shapes that are credentials wherever they stand: GitHub, OpenAI/Anthropic, AWS, Slack, Google keys, bearer tokens, private key blocks. */
const TOKEN_SHAPES: readonly RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}\b/g,
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{16,}/gi,
];

/**
 * Shapes of a command line that carry a secret: `password=…`, a secret-named environment assignment, curl's
 * `-u user:password`, `user:password@` in a URL. Not for source code, where `token = getToken()` is ordinary.
 */
const COMMAND_SHAPES: readonly RegExp[] = [
  /\b((?:password|passwd|secret|token|api[_-]?key)\s*[=:]\s*)(['"]?)[^\s'"]{6,}\2/gi,
  // An environment assignment whose name says secret: AWS_SECRET_ACCESS_KEY=…, GITHUB_TOKEN=…, DB_PASSWORD=…
  /\b([A-Z][A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|API_KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)[A-Z0-9_]*\s*=\s*)(['"]?)[^\s'"]{4,}\2/g,
  // curl/wget style user:password (-u, --user, --proxy-user) and user:password@ in URLs.
  /((?:\s|^)(?:-u|--user|--proxy-user)\s+['"]?[^\s:'"]+:)[^\s'"]+/g,
  /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:)[^\s@/]+(?=@)/gi,
];

function replaceAll(text: string, patterns: readonly RegExp[]): string {
  let out = text;
  for (const re of patterns) {
    out = out.replace(re, (_match: string, p1?: string) => {
      // Keep what names the secret (`Bearer `, `password=`, `-u user:`), drop the secret itself.
      if (/^(Bearer|Basic)$/i.test(p1 ?? '')) return `${p1} ${REDACTED}`;
      if (typeof p1 === 'string' && /[=:]\s*$/.test(p1)) return `${p1}${REDACTED}`;
      return REDACTED;
    });
  }
  return out;
}

/** `text` with distinctive credential shapes (tokens, keys, private key blocks) replaced by REDACTED; safe on source code. */
export function redactTokenShapes(text: string): string {
  return replaceAll(text, TOKEN_SHAPES);
}

/** `text` (a command line) with token shapes and command-line secret shapes replaced by REDACTED. */
export function redactPatterns(text: string): string {
  return replaceAll(text, [...TOKEN_SHAPES, ...COMMAND_SHAPES]);
}
