/**
 * The jev_gate input the editor's "Gate Staged Changes" builds (issue 5 "Commit gate in the editor"):
 * request = the SCM input box message (comments stripped, as git would), claims = its bullet lines (or
 * the claims the user typed when there are none), evidence = a stat of the staged diff plus the evidence
 * command's output, diff = the staged diff, cut to the field limit when huge so the budget's coverage is
 * reported instead of a refusal. Same rules as `jevcp gate` (src/cli/commands/gate.ts). No `vscode` import.
 */
import { evidenceText, type EvidenceRun } from './evidence-command';
import { messageText, parseCommitMessage } from './commit-message';
import { capStagedDiff } from './diff-cap';
import { diffStat } from './diff-stat';

/** What the gate is built from. */
export interface GateParts {
  /** The commit message as typed (the SCM input box). */
  message: string;
  /** The staged diff (`git diff --cached`). */
  diff: string;
  /** Claims the user typed when the message has no bullet lines. */
  askedClaims?: readonly string[];
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
  /** Fallbacks taken, one sentence each (shown with the verdict). */
  notes: string[];
  /** Whether the diff was cut to the field limit (the gate then cannot be auto). */
  diffCut: boolean;
  /** Length of the whole staged diff, UTF-16 units. */
  diffChars: number;
}

/**
 * Builds the jev_gate input. Throws Error naming the rule when the message is blank (the message is the
 * gate's request, and a commit needs one anyway). Claims: the message's bullet lines, else `askedClaims`,
 * else the subject line (with a note saying so).
 */
export function buildGateRequest(parts: GateParts): GateRequest {
  const message = parseCommitMessage(parts.message);
  const request = messageText(message);
  if (request.trim() === '') throw new Error('The commit message is empty: write it in the Source Control input box first; it is what the gate judges the diff against.');
  const notes: string[] = [];
  let claims = [...new Set(message.bullets.map((b) => b.trim()).filter((b) => b !== ''))];
  if (claims.length === 0) claims = [...new Set((parts.askedClaims ?? []).map((c) => c.trim()).filter((c) => c !== ''))];
  if (claims.length === 0) {
    claims = [message.subject];
    notes.push('No claims (no "- " or "* " lines in the message, none typed): the subject line is judged as the claim.');
  }
  const capped = capStagedDiff(parts.diff);
  if (capped.cut) notes.push(`The staged diff (${capped.originalChars} characters) was cut to fit the gate's input; a partly judged diff is never auto.`);
  const stat = diffStat(parts.diff);
  const evidence = [{ id: 'diff-stat', text: `staged files (from the diff)\n${stat}` }];
  let tests: string | undefined;
  if (parts.evidence) {
    tests = evidenceText(parts.evidence);
    evidence.push({ id: 'evidence-cmd', text: tests });
    if (parts.evidence.timedOut) notes.push(`The evidence command timed out after ${parts.evidence.durationMs} ms; its partial output is the evidence.`);
    else if (parts.evidence.startError) notes.push(`The evidence command could not start (${parts.evidence.startError}).`);
  } else {
    notes.push('No evidence command (setting jevPanel.gate.evidenceCommand): the only evidence is the diff stat, so claims will rarely be verified.');
  }
  return {
    input: { request, diff: capped.diff, claims, evidence, ...(tests !== undefined ? { tests } : {}) },
    notes,
    diffCut: capped.cut,
    diffChars: capped.originalChars,
  };
}
