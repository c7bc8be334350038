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
import type { JudgeInfo } from './protocol';
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
    for (const session of sessions) {
      const left = opts.deadlineMs - (Date.now() - started);
      if (left <= 0) break;
      const asked = await postToEditor<PermitChannelResponse>(session, {
        path: PERMIT_PATH,
        body,
        isAnswer: isPermitResponse,
        signal: opts.signal,
        answerTimeoutMs: left,
        interrupted: 'The guard hook ran out of time while the editor judged the call.',
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
        note(`the editor ${session.editor} recorded the call instead of judging it`);
        continue;
      }
      if (r.status === 'no-backend') {
        note(`the editor ${session.editor} has only the mock judge (${r.judge.reason}), which never decides a permission`);
        continue;
      }
      if (r.judge.mock) {
        note(`the editor ${session.editor} answered with the mock judge, which never decides a permission`);
        continue;
      }
      const label = editorJudgeLabel(r.judge);
      if (!r.outcome.ok) throw fromDetails(r.outcome.error);
      if (!isPermitResult(r.outcome.result)) throw new JevError('INVALID_RESPONSE', `${label} answered without a jev_permit result`);
      note(`judged by ${label}`);
      return { ...(r.outcome.result as PermitResult), record_id: r.outcome.recordId };
    }
    return fallback(input, { signal: opts.signal, deadlineMs: Math.max(0, opts.deadlineMs - (Date.now() - started)) });
  };
}
