import type { JudgmentService } from '../tools/judgment-service';
import type { ScreenResult } from '../tools/jev-screen';
import type { ScreenJudge } from './types';

/** Options of serviceJudge: who asks (the record's agent) and per-call thresholds in [0,1] (block_at may only be lowered). */
export interface ServiceJudgeOptions {
  agent?: string;
  block_at?: number;
  review_at?: number;
}

/**
 * A ScreenJudge running jev_screen in-process on `service` (the one judgment path: redaction, budget,
 * provider, validation, ledger record). `{ok: true, result, decisionId}` with the record's id, or the
 * service's classified error (INVALID_INPUT, TIMEOUT, CANCELLED, API_ERROR, …) with the record's id.
 */
export function serviceJudge(service: Pick<JudgmentService, 'call'>, options: ServiceJudgeOptions = {}): ScreenJudge {
  const thresholds = {
    ...(options.block_at !== undefined ? { block_at: options.block_at } : {}),
    ...(options.review_at !== undefined ? { review_at: options.review_at } : {}),
  };
  return async (text, purpose, signal, source) => {
    const input = { text, ...(purpose !== undefined ? { purpose } : {}), ...thresholds };
    const out = await service.call('jev_screen', input, { agent: options.agent, signal, ...(source !== undefined ? { source } : {}) });
    if (!out.ok) return { ok: false, error: { code: out.error.code, message: out.error.message }, decisionId: out.record.id };
    return { ok: true, result: out.result as ScreenResult, decisionId: out.record.id };
  };
}
