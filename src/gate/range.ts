import { configError, invalidInput } from '../judgment/errors';
import { parseCommitMessage } from './commit-message';
import { diffBetween, mergeBase, rangeCommits, resolveCommit, type GitOptions, type RangeCommit } from './git';

/**
 * The gate on a range of commits, for CI (`jevcp gate --range BASE..HEAD`): the combined diff of the
 * pull request (from the merge base of BASE and HEAD to HEAD, what a code host shows), judged against
 * the messages of the range's commits (merges left out): their bullet lines are the claims, or, when
 * no commit has any, each commit's subject line.
 */

/** A parsed `BASE..HEAD` (or `BASE...HEAD`, the same here). */
export interface RangeSpec {
  base: string;
  head: string;
  /** As given. */
  text: string;
}

/**
 * Parses `--range`. Both ends are required. Throws JevError INVALID_INPUT naming the flag and the rule.
 */
export function parseRange(text: string, flag = '--range'): RangeSpec {
  const m = /^([^.\s][^\s]*?)\.{2,3}([^.\s][^\s]*)$/.exec(text.trim());
  if (!m || m[1]!.endsWith('.') || m[2]!.startsWith('.')) {
    throw invalidInput(`gate: ${flag} must be BASE..HEAD (two revisions, e.g. origin/main..HEAD or the pull request's base and head SHAs); got ${JSON.stringify(text)}.`);
  }
  return { base: m[1]!, head: m[2]!, text: text.trim() };
}

/** What the range gate judges. */
export interface RangeChange {
  base: string;
  head: string;
  /** Merge base of base and head: the diff starts here. */
  mergeBase: string;
  diff: string;
  /** Commits in base..head, oldest first, without merges. */
  commits: RangeCommit[];
}

/**
 * Reads the range from git. Throws JevError CONFIG_ERROR when an end names no commit or the two share no
 * history (a shallow checkout: the message says to fetch the full history).
 */
export async function readRange(root: string, spec: RangeSpec, git: GitOptions = {}): Promise<RangeChange> {
  const base = await resolveCommit(root, spec.base, git);
  const head = await resolveCommit(root, spec.head, git);
  const common = await mergeBase(root, base, head, git);
  if (common === undefined) {
    throw configError(`gate: ${spec.base} and ${spec.head} have no merge base here; check out the full history (actions/checkout with fetch-depth: 0, or git fetch --unshallow).`);
  }
  return { base, head, mergeBase: common, diff: await diffBetween(root, common, head, git), commits: await rangeCommits(root, base, head, git) };
}

/** The request text and claims of a range. */
export interface RangeSubject {
  /** The commit messages as one text (each headed by its short id), the gate's `request`. */
  message: string;
  /** Every commit's bullet lines, or, when none has any, every commit's subject line. */
  claims: string[];
  /** Set when subject lines stand in for missing bullet lines. */
  note?: string;
}

/** The request and claims of the range's commits (messages read as stored: nothing is a comment). */
export function rangeSubject(commits: readonly RangeCommit[]): RangeSubject {
  const parsed = commits.map((c) => ({ id: c.id.slice(0, 12), m: parseCommitMessage(c.message, { comment: '#', cleanup: 'whitespace' }) }));
  const message = parsed.map(({ id, m }) => `commit ${id}: ${m.subject}${m.body ? `\n\n${m.body}` : ''}`).join('\n\n');
  const bullets = parsed.flatMap(({ m }) => m.bullets);
  if (bullets.length > 0) return { message, claims: bullets };
  return {
    message,
    claims: parsed.map(({ m }) => m.subject).filter((s) => s !== ''),
    note: `no "- " or "* " lines in the range's commit messages; judging each commit's subject line as a claim`,
  };
}
