import { recordSettledCall } from '../../channel/settled-client';
import { sessionsFor } from '../../channel/session-file';
import { stateDir } from '../../gate/state-dir';
import { guardSource } from '../../guard/source';
import type { SettledRecorder } from '../../guard/types';

/**
 * The hook's recorder of calls its grants and rules settled: the editor sessions open on the call's
 * workspace (any judge, the mock included: nothing is judged) record it in their ledger and live feed.
 * With no editor open there, nothing is recorded and nothing is waited for. Never rejects.
 */
export function editorSettledRecorder(env: Record<string, string | undefined>, host: string): SettledRecorder {
  return async ({ input, settled, event, agent, root }) => {
    let sessions;
    try {
      sessions = await sessionsFor(stateDir(env), root);
    } catch {
      return undefined;
    }
    if (sessions.length === 0) return undefined;
    return recordSettledCall(sessions, { root, host, agent, source: guardSource(host, event.sessionId) }, input, settled);
  };
}
