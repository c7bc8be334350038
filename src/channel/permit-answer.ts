/**
 * The editor's answer to the guard hook (permit-protocol.ts): jev_permit (or jev_screen, for a result the
 * hook screens) judged by the editor's own JudgmentService (its provider, key, thresholds, ledger; the decision appears in the feed with the hook's
 * source), for a workspace the editor has open. The mock judge never decides a permission or a screen: with
 * only the mock the answer is `no-backend` and nothing is judged. A call the guard settled itself (a rule or a grant)
 * is only recorded, with any judge, the mock included: provider `local-policy`, no request, no usage.
 * Used by src/extension/gate/hook-channel.ts.
 */
import { PERMIT_TOOL } from '../guard/judge';
import type { JudgmentService } from '../tools/judgment-service';
import { judgeInfo, type HookJudgeDeps } from './gate-answer';
import type { PermitChannelRequest, PermitChannelResponse } from './permit-protocol';
import { coversRepository } from './session-file';
import { settledRecord } from './settled-record';

/** What answering a guard hook needs from the runtime (the gate's deps without the override record). */
export type PermitJudgeDeps = Pick<HookJudgeDeps, 'choice' | 'model' | 'roots' | 'editor' | 'record'> & { service: Pick<JudgmentService, 'call' | 'tools' | 'floors'> };

/** Answers one permit request. Never throws: a judge failure is an error outcome in the answer. */
export async function answerPermit(deps: PermitJudgeDeps, request: PermitChannelRequest, signal: AbortSignal): Promise<PermitChannelResponse> {
  if (!coversRepository(deps.roots(), request.root)) {
    return { v: 1, status: 'refused', message: `this editor does not have ${request.root} open` };
  }
  if (request.settled && request.tool === undefined) {
    const record = settledRecord(request, request.settled, deps.service.floors);
    await deps.record(record);
    return { v: 1, status: 'recorded', recordId: record.id };
  }
  const tool = request.tool ?? PERMIT_TOOL;
  const judge = judgeInfo(deps);
  if (judge.mock) return { v: 1, status: 'no-backend', judge };
  if (!deps.service.tools.has(tool)) return { v: 1, status: 'refused', message: `${tool} is not available in this editor's Jev` };
  const outcome = await deps.service.call(tool, request.input, { agent: request.agent, signal, source: request.source });
  const base = { v: 1 as const, status: 'judged' as const, judge };
  if (!outcome.ok) return { ...base, outcome: { ok: false, error: outcome.error.toJSON(), recordId: outcome.record.id } };
  return { ...base, outcome: { ok: true, result: outcome.result, recordId: outcome.record.id } };
}
