/**
 * The ledger record of a tool call the guard hook settled without judgment (a permission rule or the agent's
 * grants; src/guard/run.ts): a `decision` record of jev_permit whose provider is `local-policy`, with no
 * questions, no exchanges and zero latency upstream, so the feed shows it beside judged calls and replay
 * knows there is nothing to re-judge. Its result names the rule or grant, never probabilities.
 */
import { randomUUID } from 'node:crypto';
import { PERMIT_TOOL } from '../guard/judge';
import type { DecisionRecord } from '../ledger/record';
import type { Floors } from '../policy/thresholds';
import type { PermitChannelRequest } from './permit-protocol';
import type { SettledCall } from './permit-route';

/** Provider id of records settled by the guard's own rules and grants. */
export const LOCAL_POLICY_PROVIDER = 'local-policy';

const ACTION = { allow: 'auto', ask: 'review', deny: 'escalate' } as const;

/** The record of one settled call; `floors` are the editor's thresholds in force (recorded, not used). */
export function settledRecord(request: Pick<PermitChannelRequest, 'input' | 'agent' | 'source'>, settled: SettledCall, floors: Floors): DecisionRecord {
  return {
    v: 1,
    kind: 'decision',
    id: randomUUID(),
    time: new Date().toISOString(),
    agent: request.agent,
    tool: PERMIT_TOOL,
    provider: LOCAL_POLICY_PROVIDER,
    input: request.input,
    questions: null,
    response: null,
    exchanges: [],
    coverage: null,
    thresholds: floors,
    result: {
      action: ACTION[settled.decision],
      decision: settled.decision,
      reason_codes: settled.reason_codes,
      settled_by: settled.settled_by,
      ...(settled.rule !== undefined ? { rule: settled.rule } : {}),
      reason: settled.reason,
      model: LOCAL_POLICY_PROVIDER,
    },
    latency_ms: 0,
    source: request.source,
  };
}
