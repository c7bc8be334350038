/**
 * The editor's answer to a commit hook (protocol.ts): jev_gate judged by the editor's
 * own service (its provider, key, thresholds, ledger; the decision appears in the feed with the hook's
 * source), for a repository the editor has open. The editor's mock judge answers only when the request
 * allows it (the hook then treats the verdict as advisory). An override reason on a verdict that did not
 * pass is recorded as an override record, never as an approval. Used by src/extension/gate/hook-channel.ts.
 */
import type { ChannelRequest, ChannelResponse, JudgeInfo } from './protocol';
import { coversRepository } from './session-file';
import { overrideRecord } from '../gate/override';
import type { DecisionRecord } from '../ledger/record';
import type { JudgmentService } from '../tools/judgment-service';
import type { ProviderChoice } from '../providers/choice';

/** Agent the hook's judgments run as. */
export const HOOK_AGENT = 'hook';

/** What answering a hook needs from the runtime. */
export interface HookJudgeDeps {
  service: JudgmentService;
  /** The editor's provider choice now. */
  choice: () => ProviderChoice;
  /** The model id the panel shows (e.g. `jev-latest`, `vscode-lm:copilot/gpt-4o`). */
  model: () => string;
  /** Folders and repositories the editor has open. */
  roots: () => readonly string[];
  /** The editor's name, e.g. `Visual Studio Code`. */
  editor: string;
  /** Appends a record made outside the service (the override) to the ledger and the feed. */
  record: (record: DecisionRecord) => Promise<void>;
}

/** The editor's judge as the hook names it. */
export function judgeInfo(deps: Pick<HookJudgeDeps, 'choice' | 'model' | 'editor'>): JudgeInfo {
  const choice = deps.choice();
  return {
    editor: deps.editor,
    provider: choice.kind,
    model: deps.model(),
    reason: choice.error ? `misconfigured: ${choice.error}` : choice.reason,
    mock: choice.kind === 'mock',
    explicitMock: choice.kind === 'mock' && choice.reason !== 'no backend configured',
  };
}

/** Answers one hook request. Never throws: a judge failure is an error outcome in the answer. */
export async function answerHook(deps: HookJudgeDeps, request: ChannelRequest, signal: AbortSignal): Promise<ChannelResponse> {
  if (!coversRepository(deps.roots(), request.root)) {
    return { v: 1, status: 'refused', message: `this editor does not have ${request.root} open` };
  }
  const judge = judgeInfo(deps);
  if (judge.mock && !request.allowMock) return { v: 1, status: 'no-backend', judge };
  const outcome = await deps.service.call('jev_gate', request.input, { agent: HOOK_AGENT, signal, source: request.source });
  const base = { v: 1 as const, status: 'judged' as const, judge };
  if (!outcome.ok) return { ...base, outcome: { ok: false, error: outcome.error.toJSON(), recordId: outcome.record.id } };
  const action = (outcome.result as { action?: unknown }).action;
  if (request.override && action !== 'auto' && !judge.mock) {
    const record = overrideRecord({ decision: outcome.record, reason: request.override, agent: HOOK_AGENT, source: request.source });
    await deps.record(record);
    return { ...base, outcome: { ok: true, result: outcome.result, recordId: outcome.record.id }, override: { recordId: record.id } };
  }
  return { ...base, outcome: { ok: true, result: outcome.result, recordId: outcome.record.id } };
}
