import { randomUUID } from 'node:crypto';
import type { JevErrorDetails } from '../judgment/errors';
import type { DecisionRecord } from '../ledger/record';
import type { LedgerSink } from '../ledger/sink';
import { registryErrorDetails } from './errors';
import type { CallProgress } from './connection-types';
import type { AgentManifest } from './manifest';
import type { ToolRegistry } from './registry';

/** Result of one registry call as recorded: the tool's result, or its error details. */
export type RegistryCallOutcome = { ok: true; result: Record<string, unknown> } | { ok: false; error: JevErrorDetails };

/**
 * The ledger record of one registry call (kind 'execution', provider 'registry', no questions or answers).
 * `started` is the epoch ms the call began; `decisionId` links it to the decision it executed, when there is one.
 */
export function executionRecord(fields: {
  agent: string;
  tool: string;
  input: unknown;
  thresholds: DecisionRecord['thresholds'];
  started: number;
  outcome: RegistryCallOutcome;
  decisionId?: string;
}): DecisionRecord {
  const { outcome } = fields;
  return {
    v: 1,
    kind: 'execution',
    id: randomUUID(),
    time: new Date().toISOString(),
    agent: fields.agent,
    tool: fields.tool,
    provider: 'registry',
    input: fields.input,
    questions: null,
    response: null,
    exchanges: [],
    coverage: null,
    thresholds: fields.thresholds,
    latency_ms: Date.now() - fields.started,
    ...(fields.decisionId === undefined ? {} : { decision_id: fields.decisionId }),
    ...(outcome.ok ? { result: outcome.result } : { error: outcome.error }),
  };
}

/**
 * Runs the call a judgment accepted: only when the decision's
 * handoff is `execute_tool` AND its action is `auto`, only the exact `call` the tool returned, and always
 * through the registry's capability check. The execution (result or error) is written to the ledger as a
 * DecisionRecord of kind `execution` whose `decision_id` is the decision's id.
 */

/** The exact call a jev_step / jev_tool_route result hands over. */
export interface AcceptedCall {
  candidate_id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** Dependencies of `execute`. */
export interface ExecuteDeps {
  registry: ToolRegistry;
  ledger?: LedgerSink;
  signal?: AbortSignal;
  /** Called with the execution record (the panel's feed). */
  onRecord?: (record: DecisionRecord) => void;
  /** Called with each progress notification of the executed call (the CLI prints them on stderr). */
  onProgress?: (progress: CallProgress) => void;
}

/** What `execute` did. Nothing runs (and nothing is recorded) unless the decision accepted a call. */
export type ExecutionOutcome =
  | { executed: false; reason: string }
  | { executed: true; ok: true; tool: string; result: Record<string, unknown>; record: DecisionRecord }
  | { executed: true; ok: false; tool: string; error: JevErrorDetails; record: DecisionRecord };

const ROUTING_TOOLS = new Set(['jev_step', 'jev_tool_route']);

/**
 * The accepted call of `decision`, or the reason there is none: the record must be a successful
 * jev_step/jev_tool_route decision with handoff `execute_tool`, action `auto` and a complete `call`.
 */
export function acceptedCall(decision: DecisionRecord): { call: AcceptedCall } | { reason: string } {
  if (decision.kind !== 'decision') return { reason: `record ${decision.id} is an ${decision.kind} record, not a decision` };
  if (!ROUTING_TOOLS.has(decision.tool)) return { reason: `${decision.tool} decisions do not select tool calls` };
  if (decision.error || decision.result === undefined) return { reason: `the decision failed (${decision.error?.code ?? 'no result'}); nothing is executed` };
  const result = decision.result as { handoff?: unknown; action?: unknown; call?: unknown };
  if (result.handoff !== 'execute_tool') return { reason: `handoff is ${JSON.stringify(result.handoff)}, not "execute_tool"` };
  if (result.action !== 'auto') return { reason: `action is ${JSON.stringify(result.action)}, not "auto"` };
  const call = result.call as Partial<AcceptedCall> | null | undefined;
  if (!call || typeof call.name !== 'string' || typeof call.arguments !== 'object' || call.arguments === null || Array.isArray(call.arguments)) {
    return { reason: 'the decision has no complete call' };
  }
  return { call: { candidate_id: String(call.candidate_id ?? ''), name: call.name, arguments: call.arguments as Record<string, unknown> } };
}

/**
 * Executes the call accepted by `decision` as `agent`. The decision must have been judged for this agent
 * (`decision.agent === agent.name`). Registry errors (CapabilityViolation included) are recorded and
 * returned as `ok: false`, never thrown; the ledger append never changes the outcome.
 */
export async function execute(deps: ExecuteDeps, agent: AgentManifest, decision: DecisionRecord): Promise<ExecutionOutcome> {
  const accepted = acceptedCall(decision);
  if ('reason' in accepted) return { executed: false, reason: accepted.reason };
  if (decision.agent !== agent.name) {
    return { executed: false, reason: `the decision was judged for agent ${JSON.stringify(decision.agent)}, not ${JSON.stringify(agent.name)}` };
  }
  const { call } = accepted;
  const started = Date.now();
  let outcome: RegistryCallOutcome;
  try {
    outcome = { ok: true, result: await deps.registry.call(agent.name, agent, call.name, call.arguments, { signal: deps.signal, onProgress: deps.onProgress }) };
  } catch (err) {
    outcome = { ok: false, error: registryErrorDetails(err) };
  }
  // Resolved after the call: a server started on demand by it lists its tools only then.
  const tool = deps.registry.resolve(call.name)?.id ?? call.name;
  const record = executionRecord({
    agent: agent.name,
    tool,
    input: call.arguments,
    thresholds: decision.thresholds,
    started,
    outcome,
    decisionId: decision.id,
  });

  if (deps.ledger) {
    try {
      await deps.ledger.append(record);
    } catch {
      // The sink reports its own failures; the execution already happened.
    }
  }
  deps.onRecord?.(record);
  return outcome.ok ? { executed: true, ok: true, tool, result: outcome.result, record } : { executed: true, ok: false, tool, error: outcome.error, record };
}
