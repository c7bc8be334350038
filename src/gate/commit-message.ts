import { cleanupMessage, EDITED_MESSAGE_RULES, type MessageRules } from './message-rules';

/** A commit message as the gate reads it. */
export interface CommitMessage {
  /** First non-blank line without a list marker (`- `, `* `) ('' when none): the request, never a claim. */
  subject: string;
  /** Lines after the subject, blank edges trimmed. */
  body: string;
  /** Text of bullet lines (`- ` or `* `, optionally indented), in order. */
  bullets: string[];
}

/**
 * Parses commit message text as git will commit it (message-rules.ts `cleanupMessage`: nothing below the
 * scissors line, comments dropped only when `rules` say git drops them). Default rules: an edited message
 * with `#` comments. Bullet lines of the body become candidate claims; the subject line never does, and
 * a list marker in front of it is dropped.
 */
export function parseCommitMessage(text: string, rules: MessageRules = EDITED_MESSAGE_RULES): CommitMessage {
  const kept = cleanupMessage(text.replace(/\r\n?/g, '\n'), rules)
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''));
  const first = kept.findIndex((l) => l.trim() !== '');
  if (first < 0) return { subject: '', body: '', bullets: [] };
  // A subject written as a list item is still the subject line: git users read it as the request.
  const subject = kept[first]!.trim().replace(/^[-*]\s+/, '');
  const body = kept
    .slice(first + 1)
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
  const bullets = body
    .split('\n')
    .map((l) => /^\s*[-*]\s+(.*\S)\s*$/.exec(l)?.[1])
    .filter((b): b is string => b !== undefined);
  return { subject, body, bullets };
}

/** The message as the gate's `request` text: subject, blank line, body. */
export function messageText(m: CommitMessage): string {
  return m.body ? `${m.subject}\n\n${m.body}` : m.subject;
}
