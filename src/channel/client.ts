import { CHANNEL_PATH, CHANNEL_VERSION, type ChannelRequest, type ChannelResponse } from './protocol';
import type { EditorSession } from './session-file';
import { postToEditor, type AskResult } from './post';

export { CHANNEL_CONNECT_TIMEOUT_MS, postToEditor, type AskResult, type ChannelPost } from './post';

/**
 * The hooks' side of the channel (protocol.ts, permit-protocol.ts): one POST to an editor session found by
 * session-file.ts `sessionsFor`. An editor that does not answer (gone, restarting, an old version) is "unavailable" and
 * the hook falls back to the CLI configuration; only an answer of this protocol counts.
 */

/** Longest wait for the editor's answer, ms: its own deadline (`jevPanel.timeoutMs`) ends the judgment first. */
export const CHANNEL_ANSWER_TIMEOUT_MS = 10 * 60_000;

function isResponse(v: unknown): v is ChannelResponse {
  const r = v as { v?: unknown; status?: unknown } | null;
  return typeof r === 'object' && r !== null && r.v === CHANNEL_VERSION && (r.status === 'judged' || r.status === 'no-backend' || r.status === 'refused');
}

/**
 * Sends `body` to the editor of `session`. Resolves to its answer, or to `unavailable` with the reason
 * (connection refused, timed out, an HTTP error, an answer that is not this protocol). Rejects only with
 * JevError CANCELLED when `signal` fires (the commit was interrupted): then nothing falls back.
 */
export function askEditor(session: EditorSession, body: ChannelRequest, signal?: AbortSignal, answerTimeoutMs = CHANNEL_ANSWER_TIMEOUT_MS): Promise<AskResult<ChannelResponse>> {
  return postToEditor(session, { path: CHANNEL_PATH, body, isAnswer: isResponse, signal, answerTimeoutMs, interrupted: 'The commit was interrupted while the editor judged it.' });
}

