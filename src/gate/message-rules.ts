import { runGit, type GitOptions } from './git';

/**
 * A commit message file read the way `git commit` will read it, so the judge sees what git commits and
 * nothing else: the comment string (`core.commentChar` / `core.commentString`, including `auto`), the
 * cleanup mode (`commit.cleanup`, with git's defaults for an edited or a given message), and the scissors
 * line of `commit.verbose`, below which git drops everything (the diff it shows in the editor).
 */

/** Git's effective cleanup modes (`git commit --cleanup`). */
export type CleanupMode = 'strip' | 'whitespace' | 'verbatim' | 'scissors';
const CLEANUP_MODES: readonly string[] = ['strip', 'whitespace', 'verbatim', 'scissors', 'default'];

/** How git will clean one commit message. */
export interface MessageRules {
  /** Lines starting with this are comments (`#` by default); `auto`: git chose one (see `resolveComment`). */
  comment: string;
  /** The effective cleanup mode (after git's `default` rule). */
  cleanup: CleanupMode;
}

/** Rules of an edited message with git's defaults: `#` comments are dropped, the scissors line cuts. */
export const EDITED_MESSAGE_RULES: Readonly<MessageRules> = Object.freeze({ comment: '#', cleanup: 'strip' });

/** The candidates git tries, in order, for `core.commentChar=auto`. */
export const AUTO_COMMENT_CANDIDATES = '#;@!$%^&|:';
/** git's scissors line, after the comment string and a space. */
export const CUT_LINE = '------------------------ >8 ------------------------';

/**
 * The effective mode for a configured `commit.cleanup` (undefined = `default`): `default` strips comments
 * when git opened an editor and only tidies whitespace otherwise; `scissors` without an editor is
 * `whitespace` (git's own rules).
 */
export function effectiveCleanup(configured: string | undefined, editorUsed: boolean): CleanupMode {
  switch (configured) {
    case 'verbatim':
    case 'whitespace':
    case 'strip':
      return configured;
    case 'scissors':
      return editorUsed ? 'scissors' : 'whitespace';
    default:
      return editorUsed ? 'strip' : 'whitespace';
  }
}

const lineStarts = (text: string): string[] => text.split(/\r?\n|\r/).map((l) => l.charAt(0));

/**
 * The comment string for `text` under `comment`. For `auto`: the character of git's scissors line when
 * there is one; else the first character of the last non-blank line when it is a candidate (git appends
 * its help lines there); else, as git chooses, the first candidate that starts no line.
 */
export function resolveComment(text: string, comment: string): string {
  if (comment !== 'auto') return comment;
  const lines = text.split(/\r?\n|\r/);
  for (const c of AUTO_COMMENT_CANDIDATES) if (lines.includes(`${c} ${CUT_LINE}`)) return c;
  const last = [...lines].reverse().find((l) => l.trim() !== '');
  if (last && AUTO_COMMENT_CANDIDATES.includes(last.charAt(0))) return last.charAt(0);
  const used = new Set(lineStarts(text));
  return [...AUTO_COMMENT_CANDIDATES].find((c) => !used.has(c)) ?? '#';
}

/** `text` up to (not including) git's scissors line for `comment`, as git truncates it. */
export function cutAtScissors(text: string, comment: string): string {
  const line = `${comment} ${CUT_LINE}`;
  if (text.startsWith(`${line}\n`) || text.startsWith(`${line}\r\n`) || text === line) return '';
  const at = text.search(new RegExp(`\\n${escapeRegExp(line)}\\r?(\\n|$)`));
  return at < 0 ? text : text.slice(0, at + 1);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * git's stripspace: trailing whitespace removed from every line, runs of blank lines collapsed to one,
 * blank lines at both ends dropped, every line ending in `\n`; with `comment`, lines starting with it
 * are dropped first.
 */
export function stripSpace(text: string, comment?: string): string {
  const out: string[] = [];
  let empties = 0;
  for (const raw of text.split('\n')) {
    if (comment !== undefined && raw.startsWith(comment)) continue;
    const line = raw.replace(/[ \t\r\v\f]+$/, '');
    if (line === '') {
      empties++;
      continue;
    }
    if (empties > 0 && out.length > 0) out.push('');
    empties = 0;
    out.push(line);
  }
  return out.length ? `${out.join('\n')}\n` : '';
}

/**
 * The message git will commit from the message file `text`: cut at the scissors line (git always does
 * when `commit -v` put one there), then cleaned per `rules.cleanup`. Pure.
 */
export function cleanupMessage(text: string, rules: MessageRules): string {
  const comment = resolveComment(text, rules.comment);
  const cut = cutAtScissors(text, comment);
  switch (rules.cleanup) {
    case 'verbatim':
      return cut;
    case 'whitespace':
    case 'scissors':
      return stripSpace(cut);
    case 'strip':
      return stripSpace(cut, comment);
  }
}

/** The last value git has for `key` (all scopes, `-c` included), or undefined. */
async function lastConfig(root: string, pattern: string, git: GitOptions): Promise<string | undefined> {
  const r = await runGit(['config', '--get-regexp', pattern], root, git);
  if (r.code !== 0) return undefined;
  const lines = r.stdout.split('\n').filter((l) => l !== '');
  const last = lines.at(-1);
  if (last === undefined) return undefined;
  const space = last.indexOf(' ');
  return space < 0 ? '' : last.slice(space + 1);
}

/** `[major, minor]` of `git --version` ("git version 2.39.5" → [2, 39]); undefined when unreadable. */
export function parseGitVersion(text: string): [number, number] | undefined {
  const m = /git version (\d+)\.(\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** git 2.45 added `core.commentString` and comment strings longer than one character. */
const hasCommentString = (v: [number, number] | undefined) => v !== undefined && (v[0] > 2 || (v[0] === 2 && v[1] >= 45));

/**
 * The rules of the repository at `root` for a message that was (`editorUsed`) or was not edited in an
 * editor. Inside a commit-msg hook git sets `GIT_EDITOR=:` when it opens no editor (`-m`, `-F`, the
 * editor's Source Control box), so a hook passes `editorUsedByGit(env)`; a message file read outside the
 * hook is an edited one. The comment string is what this git reads: `core.commentChar` or, from git 2.45,
 * `core.commentString` too (the last one set wins); an older git ignores `core.commentString` and refuses a
 * comment character longer than one byte, so `#` applies, as for an empty value. Throws what runGit throws.
 */
export async function readMessageRules(root: string, editorUsed: boolean, git: GitOptions = {}): Promise<MessageRules> {
  const version = parseGitVersion((await runGit(['--version'], root, git)).stdout);
  const modern = hasCommentString(version);
  const comment = await lastConfig(root, modern ? '^core\\.comment(char|string)$' : '^core\\.commentchar$', git);
  const cleanup = (await lastConfig(root, '^commit\\.cleanup$', git))?.trim().toLowerCase();
  const usable = comment !== undefined && comment !== '' && !/[\r\n]/.test(comment) && (modern || comment === 'auto' || Buffer.byteLength(comment) === 1);
  return {
    comment: usable ? comment : '#',
    cleanup: effectiveCleanup(cleanup !== undefined && CLEANUP_MODES.includes(cleanup) ? cleanup : undefined, editorUsed),
  };
}

/** Whether git opened an editor for the message of the commit running this hook (`GIT_EDITOR` is `:` when not). */
export function editorUsedByGit(env: Record<string, string | undefined>): boolean {
  return env.GIT_EDITOR !== ':';
}
