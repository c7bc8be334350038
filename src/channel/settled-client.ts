/**
 * The guard hook's side of recording a call it settled itself (permit-route.ts): the same permit route,
 * with `settled`, to the editor sessions open on the call's workspace, newest first, until one records it.
 * Recording is best effort under a short deadline: it never changes the decision the hook already made.
 * Kept free of zod and the judgment code so the lean guard entry can load it.
 */
import type { PermitInput } from '../guard/types';
import { postToEditor } from './post';
import { isRecordedResponse, PERMIT_PATH, type RecordedResponse, type SettledCall } from './permit-route';
import type { EditorSession } from './session-file';

/** Longest wait for the editors together, ms: a rule-settled call must stay cheap. */
export const RECORD_TIMEOUT_MS = 1_000;

/** Where the call is and who made it (the permit request without input and verdict). */
export interface SettledTarget {
  root: string;
  host: string;
  agent: string;
  source: string;
}

/**
 * Sends the settled call to `sessions` in order; resolves to the record id of the first editor that
 * recorded it, or undefined when none did within `timeoutMs`. Never rejects.
 */
export async function recordSettledCall(sessions: readonly EditorSession[], target: SettledTarget, input: PermitInput, settled: SettledCall, timeoutMs = RECORD_TIMEOUT_MS): Promise<string | undefined> {
  const started = Date.now();
  const body = { v: 1, root: target.root, input, host: target.host, agent: target.agent, source: target.source, settled };
  for (const session of sessions) {
    const left = timeoutMs - (Date.now() - started);
    if (left <= 0) return undefined;
    try {
      const asked = await postToEditor<RecordedResponse>(session, { path: PERMIT_PATH, body, isAnswer: isRecordedResponse, answerTimeoutMs: left, interrupted: 'recording interrupted' });
      if (asked.kind === 'answer') return asked.response.recordId;
    } catch {
      // No signal is passed, so nothing cancels; any other failure is "not recorded".
    }
  }
  return undefined;
}
