import { cancelled, JevError } from '../judgment/errors';
import type { CallContext, JudgmentProvider } from '../judgment/provider';
import type { QuestionMap, SystemOneRequest } from '../judgment/types';
import type { CallOutcome, JudgmentService } from '../tools/judgment-service';
import type { Floors } from '../policy/thresholds';
import type { DecisionRecord, RecordedExchange } from './record';

/**
 * A provider that answers from a DecisionRecord's recorded exchanges, in order, and never touches the
 * network. Each request must ask exactly the recorded questions (compared as JSON, key order ignored);
 * anything else — a different question, or more requests than were recorded — is refused with
 * JevError INVALID_RESPONSE, so a replay can never invent an answer.
 */
export class ReplayProvider implements JudgmentProvider {
  readonly id = 'replay';
  readonly calibrated = false;
  private next = 0;

  constructor(private readonly exchanges: readonly RecordedExchange[]) {}

  /** Builds a provider for `record` (all its exchanges). */
  static fromRecord(record: DecisionRecord): ReplayProvider {
    return new ReplayProvider(record.exchanges ?? []);
  }

  /** Number of recorded exchanges answered so far. */
  get used(): number {
    return this.next;
  }

  /** Number of recorded exchanges not (yet) asked for. */
  get remaining(): number {
    return this.exchanges.length - this.next;
  }

  async systemOne(request: SystemOneRequest, ctx: CallContext): Promise<unknown> {
    if (ctx.signal.aborted) throw cancelled();
    const index = this.next;
    const exchange = this.exchanges[index];
    if (!exchange) {
      throw new JevError('INVALID_RESPONSE', `Replay has no recorded exchange #${index + 1} (the record holds ${this.exchanges.length}).`);
    }
    const mismatch = firstDifference(exchange.questions, request.questions);
    if (mismatch) {
      throw new JevError('INVALID_RESPONSE', `Replay request #${index + 1} asks different questions than were recorded (${mismatch}).`);
    }
    this.next++;
    // The answers as they were sent, so validation normalises them exactly as it did live.
    const answers = exchange.raw_answers ? { ...exchange.response.answers, ...exchange.raw_answers } : exchange.response.answers;
    // A deep copy: policy code must not be able to alter the record being replayed.
    return JSON.parse(JSON.stringify({ ...exchange.response, answers }));
  }
}

/** First difference between two question maps as a short description, or undefined when equal. */
function firstDifference(recorded: QuestionMap, asked: QuestionMap): string | undefined {
  const a = Object.keys(recorded).sort();
  const b = Object.keys(asked).sort();
  if (a.length !== b.length || a.some((k, i) => k !== b[i])) {
    const missing = a.filter((k) => !Object.hasOwn(asked, k));
    const extra = b.filter((k) => !Object.hasOwn(recorded, k));
    return [missing.length ? `not asked: ${missing.slice(0, 3).join(', ')}` : '', extra.length ? `new: ${extra.slice(0, 3).join(', ')}` : '']
      .filter(Boolean)
      .join('; ');
  }
  for (const key of a) {
    if (canonical(recorded[key]) !== canonical(asked[key])) return `question ${key} changed`;
  }
  return undefined;
}

/** JSON text with object keys sorted (arrays keep their order). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]]));
  });
}

/** Headline of a decision for before/after comparison (fields absent from a tool's result are omitted). */
export interface DecisionSummary {
  ok: boolean;
  /** jev_permit's allow / ask / deny. */
  decision?: string;
  action?: string;
  handoff?: string;
  reason_codes?: string[];
  thresholds?: Record<string, number>;
  error?: { code: string; message: string };
}

/** Result of replaying one record. */
export interface ReplayResult {
  record: DecisionRecord;
  /** Floors used for the recomputation. */
  floors: Floors;
  before: DecisionSummary;
  after: DecisionSummary;
  /** The full recomputed outcome (its record is not written anywhere by replayRecord). */
  outcome: CallOutcome;
  /** Recorded exchanges answered; upstream requests made are always 0. */
  exchangesReplayed: number;
  exchangesUnused: number;
}

/** Extracts the comparison headline from a result object or error. */
export function summarize(result: unknown, error?: { code: string; message: string }): DecisionSummary {
  if (error) return { ok: false, error: { code: error.code, message: error.message } };
  const r = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
  const out: DecisionSummary = { ok: true };
  if (typeof r.decision === 'string') out.decision = r.decision;
  if (typeof r.action === 'string') out.action = r.action;
  else if (typeof (r.policy as { result?: unknown })?.result === 'string') out.action = `policy ${(r.policy as { result: string }).result}`;
  if (typeof r.handoff === 'string') out.handoff = r.handoff;
  if (Array.isArray(r.reason_codes)) out.reason_codes = r.reason_codes.filter((c): c is string => typeof c === 'string');
  if (typeof r.thresholds === 'object' && r.thresholds !== null) out.thresholds = r.thresholds as Record<string, number>;
  return out;
}

/**
 * Recomputes `record` with environment floors `floors` through the same tool code (`service.call` with a
 * ReplayProvider), so parse, fitting, answer validation and `decide` all run again, with no upstream
 * request. Per-call thresholds inside the recorded input still apply (they may only tighten the floors).
 * The `service` should have no ledger if the replay must not be recorded. Never throws for a tool
 * failure: a refused replay (questions changed) comes back as an error outcome in `after`.
 * Throws JevError INVALID_INPUT when the record's tool is unknown to `service`.
 */
export async function replayRecord(record: DecisionRecord, floors: Floors, service: JudgmentService): Promise<ReplayResult> {
  const provider = ReplayProvider.fromRecord(record);
  const outcome = await service.call(record.tool, record.input, { provider, floors, agent: 'replay' });
  return {
    record,
    floors,
    before: summarize(record.result, record.error),
    after: outcome.ok ? summarize(outcome.result) : summarize(undefined, outcome.error),
    outcome,
    exchangesReplayed: provider.used,
    exchangesUnused: provider.remaining,
  };
}
