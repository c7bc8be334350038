/** A commit message as the gate reads it. */
export interface CommitMessage {
  /** First non-blank line ('' when none). */
  subject: string;
  /** Lines after the subject, blank edges trimmed. */
  body: string;
  /** Text of bullet lines (`- ` or `* `, optionally indented), in order. */
  bullets: string[];
}

/** The line git places above the verbose diff in a commit message file; everything below it is dropped. */
const SCISSORS = /^# -+ >8 -+$/;

/**
 * Parses commit message text the way git's default cleanup would leave it: comment lines (`#`) are
 * removed, and everything after the scissors line (`git commit -v`) is ignored. Bullet lines become
 * candidate claims.
 */
export function parseCommitMessage(text: string): CommitMessage {
  const kept: string[] = [];
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (SCISSORS.test(raw)) break;
    if (raw.startsWith('#')) continue;
    kept.push(raw.replace(/\s+$/, ''));
  }
  const first = kept.findIndex((l) => l.trim() !== '');
  if (first < 0) return { subject: '', body: '', bullets: [] };
  const subject = kept[first]!.trim();
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
