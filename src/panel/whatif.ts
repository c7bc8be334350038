import type { DecisionRecord } from '../ledger/record';
import { ReplayProvider, replayRecord } from '../ledger/replay';
import { JudgmentService } from '../tools/judgment-service';
import type { ToolDefinition } from '../tools/types';
import { type Floors, DEFAULT_FLOORS } from '../policy/thresholds';
import { jevStepTool } from '../tools/jev-step';
import { jevCodingLoopTool } from '../tools/jev-coding-loop';
import { jevToolRouteTool } from '../tools/jev-tool-route';
import { jevReviewTool } from '../tools/jev-review';
import { jevVerifyTool } from '../tools/jev-verify';
import { jevGateTool } from '../tools/jev-gate';
import { jevScreenTool } from '../tools/jev-screen';
import { jevRankTool } from '../tools/jev-rank';
import { jevEvaluateTool } from '../tools/jev-evaluate';
import { jevPermitTool } from '../tools/jev-permit';
import type { Outcome } from './outcome-diff';

/**
 * What-if recomputation inside the webview: a recorded decision is run again through the SAME tool code
 * as the live path and `jevcp ledger replay` (JudgmentService → parse → pack → fitState → validate →
 * decide) with other environment floors, answered by a ReplayProvider from the record's own exchanges.
 * No upstream request is ever made; a question that differs from the recorded one is refused
 * (INVALID_RESPONSE), so a what-if never invents an answer. Per-call thresholds in the recorded input
 * still apply (they may only tighten the floors), exactly as live.
 */

/** The jev tools whose decision depends on the floors; judgevet tools (ask_*, evaluate_policy) do not. */
const TOOLS: ToolDefinition[] = [
  jevStepTool,
  jevCodingLoopTool,
  jevToolRouteTool,
  jevReviewTool,
  jevVerifyTool,
  jevGateTool,
  jevScreenTool,
  jevRankTool,
  jevEvaluateTool,
  jevPermitTool,
];

let service: JudgmentService | undefined;
function getService(): JudgmentService {
  // A throwaway provider: every call passes its own ReplayProvider; no ledger, so nothing is recorded.
  service ??= new JudgmentService({ provider: new ReplayProvider([]), tools: TOOLS, floors: DEFAULT_FLOORS, model: 'replay' });
  return service;
}

/** Result of one recomputation. */
export interface WhatIfOutcome extends Outcome {
  /** Recorded exchanges answered (upstream requests made: always 0). */
  replayed: number;
}

/** Tools `recompute` supports. */
export function supportsWhatIf(tool: string): boolean {
  return TOOLS.some((t) => t.name === tool);
}

/**
 * Recomputes `record` under `floors` (probabilities in [0,1]; for jev_screen, `review_at` is the call's own). Resolves with the new result or the
 * classified error (e.g. INVALID_INPUT when review_at > auto_accept, naming the rule). Rejects only for
 * a tool this panel cannot recompute.
 */
export async function recompute(record: DecisionRecord, floors: Floors): Promise<WhatIfOutcome> {
  if (!supportsWhatIf(record.tool)) throw new Error(`${record.tool} decisions do not depend on thresholds`);
  // jev_screen's review_at is the call's own (no floor): the what-if sets it on the recorded input.
  const judged = record.tool === 'jev_screen' ? { ...record, input: { ...(record.input as Record<string, unknown>), review_at: floors.review_at } } : record;
  const r = await replayRecord(judged, { ...floors }, getService());
  const o = r.outcome;
  return o.ok
    ? { result: o.result, replayed: r.exchangesReplayed }
    : { error: { code: o.error.code, message: o.error.message }, replayed: r.exchangesReplayed };
}
