import { randomUUID } from 'node:crypto';
import { judge, type JudgeOptions } from '../judgment/judge';
import { cancelled, JevError, toJevError } from '../judgment/errors';
import { redactSecrets, redactText, usableSecrets } from '../judgment/redact';
import { rejectDeepNesting } from './schemas';
import type { QuestionMap } from '../judgment/types';
import type { DecisionRecord, RecordedExchange } from '../ledger/record';
import type { LedgerSink } from '../ledger/sink';
import type { CallContext, JudgmentProvider } from '../judgment/provider';
import type { ToolContext, ToolDefinition } from './types';
import type { Floors } from '../policy/thresholds';

/** Options of a JudgmentService. */
export interface JudgmentServiceOptions {
  provider: JudgmentProvider;
  tools: ToolDefinition[];
  floors: Floors;
  /** Host-selected default model (`jev-latest`). */
  model: string;
  /** Total deadline per tool call, ms (default 30 000). */
  timeoutMs?: number;
  ledger?: LedgerSink;
  /** Called after every call with its record (the panel's live feed). */
  onRecord?: (record: DecisionRecord) => void;
  /**
   * Secrets (the configured API key) replaced by `[REDACTED]` in the arguments — string values and keys,
   * deep — before parsing, so no upstream request, result or ledger record carries them. Strings shorter
   * than 8 characters are ignored (judgment/redact.ts).
   */
  secrets?: readonly string[];
}

/** Per-call options. */
export interface CallOptions {
  agent?: string;
  signal?: AbortSignal;
  /** Overrides the service floors for this call (ledger replay, what-if). */
  floors?: Floors;
  /** Overrides the provider for this call (replay). */
  provider?: JudgmentProvider;
  /** Where the call came from, in words (e.g. `commit hook, terminal`), kept in the record. */
  source?: string;
}

/** Result of one tool call: the structured result or a classified error, plus its ledger record. */
export type CallOutcome =
  | { ok: true; result: unknown; record: DecisionRecord }
  | { ok: false; error: JevError; record: DecisionRecord };

/**
 * Runs judgment tools: parse (before any upstream request) → execute under ONE shared deadline →
 * output check → ledger. A failure is returned as an error outcome, never as an answer.
 */
export class JudgmentService {
  readonly tools: ReadonlyMap<string, ToolDefinition>;
  private readonly secrets: string[];

  constructor(private readonly options: JudgmentServiceOptions) {
    this.tools = new Map(options.tools.map((t) => [t.name, t]));
    this.secrets = usableSecrets(options.secrets);
  }

  get provider(): JudgmentProvider {
    return this.options.provider;
  }

  get floors(): Floors {
    return this.options.floors;
  }

  /** Calls tool `name` with raw `args`. Throws only for an unknown tool name (JevError INVALID_INPUT). */
  async call(name: string, rawArgs: unknown, opts: CallOptions = {}): Promise<CallOutcome> {
    const tool = this.tools.get(name);
    if (!tool) throw new JevError('INVALID_INPUT', `Unknown tool: ${name}`);
    // Before parse: nothing downstream (pack, provider, result, record) ever sees a secret.
    const args = redactSecrets(rawArgs, this.secrets);
    const provider = opts.provider ?? this.options.provider;
    const floors = opts.floors ?? this.options.floors;
    const started = Date.now();
    const exchanges: RecordedExchange[] = [];
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    if (opts.signal) {
      if (opts.signal.aborted) controller.abort();
      else opts.signal.addEventListener('abort', onAbort, { once: true });
    }
    const callCtx: CallContext = { signal: controller.signal, deadline: started + (this.options.timeoutMs ?? 30_000) };
    const ctx: ToolContext = {
      floors,
      model: this.options.model,
      signal: controller.signal,
      judge: async (state: unknown, questions: QuestionMap, model: string, judgeOptions?: JudgeOptions) => {
        const judged = await judge(provider, callCtx, state, questions, model, judgeOptions);
        exchanges.push({
          questions,
          response: judged.response,
          ...(judged.rawAnswers ? { raw_answers: judged.rawAnswers } : {}),
          coverage: judged.coverage,
          truncated: judged.truncated,
        });
        return judged;
      },
    };

    let outcome: { ok: true; result: unknown } | { ok: false; error: JevError };
    try {
      // Every tool, judgevet's included, refuses deeply nested arguments before any recursive walk.
      rejectDeepNesting(args);
      const input: unknown = tool.parse(args, floors);
      const result: unknown = await tool.execute(input, ctx);
      const checked = tool.outputSchema.safeParse(result);
      if (!checked.success) {
        throw new JevError('INVALID_RESPONSE', `The ${name} result did not match its output schema: ${checked.error.issues[0]?.message ?? 'invalid'}.`);
      }
      outcome = { ok: true, result };
    } catch (err) {
      const error = controller.signal.aborted ? cancelled() : toJevError(err);
      // An upstream error text could echo what it was sent; keep the message free of secrets too.
      if (this.secrets.length > 0) error.message = redactText(error.message, this.secrets);
      outcome = { ok: false, error };
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
    }

    const first = exchanges[0];
    const record: DecisionRecord = {
      v: 1,
      kind: 'decision',
      id: randomUUID(),
      time: new Date().toISOString(),
      agent: opts.agent ?? 'mcp',
      tool: name,
      provider: provider.id,
      input: tool.recordedInput ? tool.recordedInput(args) : args,
      questions: first?.questions ?? null,
      response: first?.response ?? null,
      exchanges,
      coverage: outcome.ok ? ((outcome.result as { coverage?: DecisionRecord['coverage'] }).coverage ?? first?.coverage ?? null) : (first?.coverage ?? null),
      thresholds: floors,
      latency_ms: Date.now() - started,
      ...(outcome.ok ? { result: outcome.result } : { error: outcome.error.toJSON() }),
      ...(opts.source ? { source: opts.source } : {}),
    };
    if (this.options.ledger) {
      try {
        await this.options.ledger.append(record);
      } catch {
        // A ledger failure never changes the judgment; the sink reports its own errors.
      }
    }
    this.options.onRecord?.(record);
    return { ...outcome, record } as CallOutcome;
  }
}
