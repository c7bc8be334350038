/**
 * The guard hook's judge through the running editor (permit-protocol.ts): a PermitJudge (src/guard/types.ts)
 * that asks the editor sessions open on the call's workspace (session-file.ts `sessionsFor`, newest first)
 * to judge with jev_permit on their own judge, under the hook's remaining deadline. An editor that does not
 * answer, refuses, or has only the mock is "no judge here": the next session is asked, then `fallback`
 * (the CLI configuration). An editor that judged and failed is final: its error is thrown, never an allow.
 */
import { JevError, type JevErrorDetails } from '../judgment/errors';
import { isPermitResult } from '../guard/judge';
import type { PermitInput, PermitJudge, PermitResult } from '../guard/types';
import { postToEditor } from './client';
import { isPermitResponse, PERMIT_PATH, type PermitChannelRequest, type PermitChannelResponse } from './permit-protocol';
import type { ChannelOutcome, JudgeInfo } from './protocol';
import type { ScreenJudge } from '../screen/types';
import type { ScreenResult } from '../tools/jev-screen';
import { sessionsFor, type EditorSession } from './session-file';

/** Where the call is and who makes it: the permit request without its input. */
export interface PermitTarget {
  /** Workspace of the call (absolute). */
  root: string;
  host: string;
  agent: string;
  /** Recorded with the decision, e.g. `guard hook, claude-code`. */
  source: string;
}

/** What the editor judge tells its caller as it goes (one line each, for stderr). */
export type PermitNote = (line: string) => void;

/** The editor's judge in words: `the editor (Visual Studio Code, systemone jev-latest: API key set)`. */
export function editorJudgeLabel(j: JudgeInfo): string {
  return `the editor (${j.editor}, ${j.provider} ${j.model}: ${j.reason})`;
}

/**
 * The editor sessions that may judge a call in `root`: running, open on it, and not known to have only the
 * mock (the session file's `judge`). Never throws (an unreadable state directory is none).
 */
export async function permitSessions(state: string, root: string): Promise<EditorSession[]> {
  return (await sessionsFor(state, root)).filter((s) => s.judge?.mock !== true);
}

function fromDetails(d: JevErrorDetails): JevError {
  return new JevError(d.code, d.message, { retryable: d.retryable });
}

/** What asking the editor sessions gave: a judged outcome with the judge's label, or no editor judged. */
type EditorsAnswer = { kind: 'judged'; outcome: ChannelOutcome; label: string } | { kind: 'none' };

/**
 * Asks `sessions` in order with `body` until one judges, under `deadlineMs` in all. An editor that does not
 * answer, refuses, records instead, or has only the mock is skipped (with a note). Rejects only with
 * JevError CANCELLED when `signal` fires.
 */
async function askEditors(sessions: readonly EditorSession[], body: PermitChannelRequest, signal: AbortSignal, deadlineMs: number, note: PermitNote, what: string): Promise<EditorsAnswer> {
  const started = Date.now();
  for (const session of sessions) {
    const left = deadlineMs - (Date.now() - started);
    if (left <= 0) break;
    const asked = await postToEditor<PermitChannelResponse>(session, {
      path: PERMIT_PATH,
      body,
      isAnswer: isPermitResponse,
      signal,
      answerTimeoutMs: left,
      interrupted: `The guard hook ran out of time while the editor judged the ${what}.`,
    });
    if (asked.kind === 'unavailable') {
      note(`the editor session of ${session.editor} did not answer (${asked.reason})`);
      continue;
    }
    const r = asked.response;
    if (r.status === 'refused') {
      note(`the editor ${session.editor} refused: ${r.message}`);
      continue;
    }
    if (r.status === 'recorded') {
      note(`the editor ${session.editor} recorded the ${what} instead of judging it`);
      continue;
    }
    if (r.status === 'no-backend' || r.judge.mock) {
      note(`the editor ${session.editor} has only the mock judge (${r.judge.reason}), which never decides a ${what === 'call' ? 'permission' : 'screen'}`);
      continue;
    }
    return { kind: 'judged', outcome: r.outcome, label: editorJudgeLabel(r.judge) };
  }
  return { kind: 'none' };
}

/**
 * A PermitJudge that asks `sessions` in order, then `fallback` (which gets the time left, ms). Resolves to
 * the editor's jev_permit result with its ledger record id; rejects with the editor's JevError when it
 * judged and failed, INVALID_RESPONSE when its result is not a permit result, CANCELLED when the signal
 * fires, or whatever `fallback` rejects with. `note` hears which judge decided and why an editor did not.
 */
export function editorPermitJudge(sessions: readonly EditorSession[], target: PermitTarget, fallback: PermitJudge, note: PermitNote = () => undefined): PermitJudge {
  return async (input: PermitInput, opts) => {
    const started = Date.now();
    const body: PermitChannelRequest = { v: 1, root: target.root, input, host: target.host, agent: target.agent, source: target.source };
    const answer = await askEditors(sessions, body, opts.signal, opts.deadlineMs, note, 'call');
    if (answer.kind === 'judged') {
      const { outcome, label } = answer;
      if (!outcome.ok) throw fromDetails(outcome.error);
      if (!isPermitResult(outcome.result)) throw new JevError('INVALID_RESPONSE', `${label} answered without a jev_permit result`);
      note(`judged by ${label}`);
      return { ...(outcome.result as PermitResult), record_id: outcome.recordId };
    }
    return fallback(input, { signal: opts.signal, deadlineMs: Math.max(0, opts.deadlineMs - (Date.now() - started)) });
  };
}

/**
 * A ScreenJudge (src/screen/types.ts) that asks `sessions` in order to run jev_screen on one chunk with the
 * editor's judge (recorded in its ledger and feed), then `fallback` when no editor judged. An editor that
 * judged and failed is final: its error is the judgment's error (the screener makes it `unscreened`, never a
 * pass). `deadlineMs` bounds the editors' turn in all; the screener's signal bounds the whole.
 */
export function editorScreenJudge(sessions: readonly EditorSession[], target: PermitTarget, deadlineMs: number, fallback: ScreenJudge, note: PermitNote = () => undefined): ScreenJudge {
  return async (text, purpose, signal, source) => {
    const input = { text, ...(purpose !== undefined ? { purpose } : {}) };
    const body: PermitChannelRequest = { v: 1, tool: 'jev_screen', root: target.root, input, host: target.host, agent: target.agent, source: source ?? target.source };
    let answer: EditorsAnswer;
    try {
      answer = await askEditors(sessions, body, signal, deadlineMs, note, 'result');
    } catch (err) {
      const e = err instanceof JevError ? err : new JevError('CANCELLED', (err as Error).message);
      return { ok: false, error: { code: e.code, message: e.message } };
    }
    if (answer.kind === 'none') return fallback(text, purpose, signal, source);
    const { outcome, label } = answer;
    if (!outcome.ok) return { ok: false, error: { code: outcome.error.code, message: `${label}: ${outcome.error.message}` }, decisionId: outcome.recordId };
    if (!isScreenResult(outcome.result)) return { ok: false, error: { code: 'INVALID_RESPONSE', message: `${label} answered without a jev_screen result` }, decisionId: outcome.recordId };
    note(`screened by ${label}`);
    return { ok: true, result: outcome.result, decisionId: outcome.recordId };
  };
}

/** Shape check of a jev_screen result from another process (the screener reads its recommendation and probabilities). */
function isScreenResult(v: unknown): v is ScreenResult {
  const r = v as { recommendation?: { action?: unknown }; probabilities?: { injection?: unknown } } | null;
  return typeof r === 'object' && r !== null && typeof r.recommendation?.action === 'string' && typeof r.probabilities?.injection === 'number';
}
