/**
 * The one jev_gate request, built the same way for `jevcp gate` (and so the commit-msg hook) and the
 * editor's "Gate Staged Changes": request = the commit message as git will commit it (message-rules.ts);
 * claims = the given ones plus the message's bullet lines, else the subject line (with a note); diff =
 * the staged diff, cut to jev_gate's field limit when huge so the budget's coverage is reported instead of
 * a refusal; evidence = a stat of that diff plus the evidence command's output. A face only supplies its
 * inputs and the names of its own flags or settings (`GateWording`).
 */
import { invalidInput } from '../judgment/errors';
import { chooseClaims } from './claims';
import { messageText, parseCommitMessage, type CommitMessage } from './commit-message';
import { EDITED_MESSAGE_RULES, resolveComment, type MessageRules } from './message-rules';
import { capStagedDiff } from './diff-cap';
import { diffStat } from './diff-stat';
import { evidenceText, type EvidenceRun } from './evidence-command';
import { redactTokenShapes } from '../judgment/credential-shapes';
import { REDACTED } from '../judgment/redact';

/** How a face names its inputs in the gate's notes and errors. */
export interface GateWording {
  /** Put before every error message: `gate: ` in the CLI, '' in the editor (which adds its own "Jev:"). */
  errorPrefix: string;
  /** Where the message was read, completing "the commit message …": `in MSG`, `in the Source Control input box`. */
  messageSource: string;
  /** What to do about an empty message, e.g. `write a message, or commit with --no-verify to skip the gate`. */
  emptyMessageRemedy: string;
  /** How a message is given, for the error when there is neither a message nor a claim: `--message-file FILE`. */
  messageOption: string;
  /** How claims are given besides bullet lines: `--claim`, `claims typed`. */
  claimOption: string;
  /** How the evidence command is set: `--evidence-cmd`, `setting jevPanel.gate.evidenceCommand`. */
  evidenceOption: string;
}

/** What the gate is built from. */
export interface GateParts {
  /** The commit message as written (a message file, the SCM input box); undefined when none was given. */
  message?: string;
  /** How git cleans that message (message-rules.ts); default: an edited message with `#` comments. */
  messageRules?: MessageRules;
  /** The staged diff (`git diff --cached`, see git.ts `stagedDiff`), or a range's diff. */
  diff: string;
  /** What the diff is, heading its stat in the evidence (default `staged files`). */
  diffLabel?: string;
  /** Claims given besides the message's bullet lines (`--claim` values, or typed in the editor). */
  claims?: readonly string[];
  /** The evidence command's run, when one is configured. */
  evidence?: EvidenceRun;
}

/** jev_gate arguments. */
export interface GateInput {
  request: string;
  diff: string;
  claims: string[];
  evidence: { id: string; text: string }[];
  tests?: string;
}

/** The input plus what the user should know about how it was built. */
export interface GateRequest {
  input: GateInput;
  /**
   * Fallbacks taken, one lower-case clause each without a final stop (the CLI prints `jevcp: <note>.`,
   * the editor shows them as sentences with the verdict).
   */
  notes: string[];
  /** Whether the diff was cut to the field limit (the gate then cannot be auto). */
  diffCut: boolean;
  /** Length of the whole staged diff, UTF-16 units. */
  diffChars: number;
}

/**
 * The commit message as the gate reads it (as git will commit it, under `rules`). Throws JevError
 * INVALID_INPUT when it is empty (only blank or comment lines): the message is what the diff is judged
 * against, and git aborts an empty message only after the commit-msg hook ran, so the hook does see one.
 * Faces call this before running anything costly.
 */
export function readGateMessage(text: string, wording: GateWording, rules: MessageRules = EDITED_MESSAGE_RULES): CommitMessage {
  const message = parseCommitMessage(text, rules);
  if (message.subject === '') {
    const what = rules.cleanup === 'strip' ? `only blank or ${resolveComment(text, rules.comment)} comment lines` : 'only blank lines';
    throw invalidInput(`${wording.errorPrefix}the commit message ${wording.messageSource} is empty (${what}); ${wording.emptyMessageRemedy}.`);
  }
  return message;
}

/** What the staged diff is judged against: jev_gate's `request` and `claims`. */
export interface GateSubject {
  request: string;
  claims: string[];
  /** Set when the subject line stands in for the claims (see GateRequest `notes`). */
  note?: string;
}

/**
 * The request and claims. Throws JevError INVALID_INPUT when the message is empty (see `readGateMessage`),
 * or when there is neither a message nor a claim: a generic claim nobody made is never judged in their
 * place. Cheap: faces call it before running the evidence command, and `buildGateRequest` calls it again.
 */
export function gateSubject(parts: Pick<GateParts, 'message' | 'messageRules' | 'claims'>, wording: GateWording): GateSubject {
  const message = parts.message === undefined ? undefined : readGateMessage(parts.message, wording, parts.messageRules);
  const { claims, subjectAsClaim } = chooseClaims(parts.claims ?? [], message);
  if (claims.length === 0) {
    throw invalidInput(`${wording.errorPrefix}nothing to judge the staged diff against: give a commit message (${wording.messageOption}) or a claim (${wording.claimOption}).`);
  }
  return {
    request: message ? messageText(message) : claims.join('\n'),
    claims,
    ...(subjectAsClaim ? { note: `no claims given (no ${wording.claimOption}, no "- " or "* " lines in the message); judging the subject line as the claim` } : {}),
  };
}

/** Builds the jev_gate input from the staged change. Throws what `gateSubject` throws; nothing else. */
export function buildGateRequest(parts: GateParts, wording: GateWording): GateRequest {
  const { request, claims, note } = gateSubject(parts, wording);
  const notes: string[] = note ? [note] : [];
  const capped = capStagedDiff(parts.diff);
  // A credential committed by mistake must not travel on to the judge and the ledger; its marker stays visible.
  const diff = redactTokenShapes(capped.diff);
  if (diff !== capped.diff) notes.push(`the staged diff holds what looks like a credential (a key, token or private key); it was replaced by ${REDACTED} before judging — check the change before you commit it`);
  if (capped.cut) {
    notes.push(
      `the staged diff has ${capped.originalChars} characters; only the first ${capped.diff.length} are sent and the judge's budget covers fewer, so coverage is incomplete and the gate cannot pass automatically`,
    );
  }
  const evidence = [{ id: 'diff-stat', text: `${parts.diffLabel ?? 'staged files'} (from the diff)\n${diffStat(parts.diff)}` }];
  let tests: string | undefined;
  const run = parts.evidence;
  if (run) {
    tests = redactTokenShapes(evidenceText(run));
    evidence.push({ id: 'evidence-cmd', text: tests });
    if (run.timedOut) notes.push(`the evidence command timed out after ${run.timeoutMs} ms; its partial output is the evidence`);
    else if (run.startError) notes.push(`the evidence command could not start (${run.startError}); that failure is the evidence`);
  } else {
    notes.push(`no evidence command given (${wording.evidenceOption}); the only evidence is the diff stat, so claims will rarely be verified`);
  }
  return {
    input: { request, diff, claims, evidence, ...(tests !== undefined ? { tests } : {}) },
    notes,
    diffCut: capped.cut,
    diffChars: capped.originalChars,
  };
}

/** Whether there is nothing to gate: an empty staged diff is never judged (the CLI passes, exit 0). */
export function nothingStaged(diff: string): boolean {
  return diff.trim() === '';
}

/** What both faces say when nothing is staged. */
export const NOTHING_STAGED = 'nothing staged; nothing to gate';
