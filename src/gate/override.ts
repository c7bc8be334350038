import { randomUUID } from 'node:crypto';
import { invalidInput } from '../judgment/errors';
import type { DecisionRecord } from '../ledger/record';

/**
 * A person letting a commit through that the gate did not pass: always deliberate (a reason is required:
 * `JEV_GATE_OVERRIDE="why"` for the hook, the editor's Override button), and recorded in the ledger as
 * its own record of kind `override` linked to the decision — never as an approval, and the decision
 * itself keeps its review or escalate.
 */

/** Environment variable carrying the reason of an override at commit time. */
export const OVERRIDE_ENV = 'JEV_GATE_OVERRIDE';
/** Longest override reason, characters. */
export const MAX_OVERRIDE_REASON = 500;

/**
 * Why `reason` cannot be an override reason, or undefined when it can: one line of visible text, not
 * blank, at most MAX_OVERRIDE_REASON characters. Faces name their own field before the rule.
 */
export function overrideReasonProblem(reason: string): string | undefined {
  if (reason.trim() === '') return 'must give the reason (why this commit goes in despite the verdict)';
  if (/[\u0000-\u001f\u007f-\u009f]/.test(reason)) return 'must be one line of text (no line breaks or control characters)';
  if (reason.trim().length > MAX_OVERRIDE_REASON) return `must be at most ${MAX_OVERRIDE_REASON} characters`;
  return undefined;
}

/**
 * The override reason given in `env` (trimmed), or undefined when JEV_GATE_OVERRIDE is unset. Throws
 * JevError INVALID_INPUT naming the variable when it is set but not a valid reason (an empty value is
 * refused too: an override must say why).
 */
export function readOverrideReason(env: Record<string, string | undefined>): string | undefined {
  const raw = env[OVERRIDE_ENV];
  if (raw === undefined) return undefined;
  const problem = overrideReasonProblem(raw);
  if (problem) throw invalidInput(`${OVERRIDE_ENV} ${problem}; e.g. ${OVERRIDE_ENV}="hotfix, reviewed by Ana" git commit …`);
  return raw.trim();
}

/** What was overridden, as the override record's result. */
export interface OverrideResult {
  action: 'override';
  /** The verdict the person went past: review or escalate. */
  overridden_action: string;
  reason: string;
}

/**
 * The ledger record of an override of `decision` (a jev_gate decision record): kind `override`, provider
 * `person`, the reason as input and result, the decision's thresholds, `decision_id` linking the two.
 */
export function overrideRecord(fields: { decision: DecisionRecord; reason: string; agent: string; source?: string }): DecisionRecord {
  const { decision } = fields;
  const overridden = (decision.result as { action?: unknown } | undefined)?.action;
  const result: OverrideResult = { action: 'override', overridden_action: typeof overridden === 'string' ? overridden : 'unknown', reason: fields.reason };
  return {
    v: 1,
    kind: 'override',
    id: randomUUID(),
    time: new Date().toISOString(),
    agent: fields.agent,
    tool: decision.tool,
    provider: 'person',
    input: { reason: fields.reason },
    questions: null,
    response: null,
    exchanges: [],
    coverage: null,
    thresholds: decision.thresholds,
    result,
    latency_ms: 0,
    decision_id: decision.id,
    ...(fields.source ? { source: fields.source } : {}),
  };
}
