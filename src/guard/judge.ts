import { JevError } from '../judgment/errors';
import type { JudgmentService } from '../tools/judgment-service';
import type { PermitInput, PermitJudge, PermitResult } from './types';

/**
 * The guard's judge is jev_permit, called through the one judgment path (`JudgmentService.call`), so
 * redaction, budget, provider deadline, validation and the ledger record all apply. A service without
 * jev_permit reports "jev_permit is not available", and the guard never allows.
 */

/** The jev_permit tool name. */
export const PERMIT_TOOL = 'jev_permit';

/** Whether `service` offers jev_permit. */
export function hasPermitTool(service: Pick<JudgmentService, 'tools'>): boolean {
  return service.tools.has(PERMIT_TOOL);
}

/** Whether `v` has the shape of a jev_permit result (decision, action, reason_codes). */
export function isPermitResult(v: unknown): v is PermitResult {
  const r = v as Partial<PermitResult> | null;
  return (
    typeof r === 'object' && r !== null && ['allow', 'ask', 'deny'].includes(r.decision as string) && ['auto', 'review', 'escalate'].includes(r.action as string) &&
    Array.isArray(r.reason_codes)
  );
}

/**
 * A PermitJudge calling jev_permit on `service` as `agent`, with `source` recorded in the ledger.
 * Rejects with the tool's JevError (the record is in the ledger), with CONFIG_ERROR when the service has
 * no jev_permit, or with INVALID_RESPONSE when the result is not a permit result.
 */
export function servicePermitJudge(service: JudgmentService, agent: string, source: string): PermitJudge {
  return async (input: PermitInput, { signal }) => {
    if (!hasPermitTool(service)) throw new JevError('CONFIG_ERROR', `${PERMIT_TOOL} is not available in this build`);
    const outcome = await service.call(PERMIT_TOOL, input, { agent, signal, source });
    if (!outcome.ok) throw outcome.error;
    if (!isPermitResult(outcome.result)) throw new JevError('INVALID_RESPONSE', `${PERMIT_TOOL} returned a result without decision, action and reason_codes`);
    return { ...outcome.result, record_id: outcome.record.id };
  };
}
