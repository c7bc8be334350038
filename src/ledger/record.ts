import type { JevErrorDetails } from '../judgment/errors';
import type { Answer, Coverage, QuestionMap, Usage } from '../judgment/types';
import type { Floors } from '../policy/thresholds';

/**
 * One upstream request of a tool call: the questions asked and the validated provider answer, its
 * probabilities normalised over every offered option (the numbers the decision used and readers see).
 */
export interface RecordedExchange {
  questions: QuestionMap;
  response: { model: string; usage: Usage; answers: Record<string, Answer> };
  /**
   * Question id → the answer exactly as the provider sent it (a subset of the options, or a sum within
   * tolerance but not 1), only for answers normalisation changed; absent when none did. Replay answers
   * from these, so it validates and normalises the same numbers again.
   */
  raw_answers?: Record<string, Answer>;
  coverage: Coverage;
  truncated: boolean;
}

/** The kinds of ledger record. */
export type RecordKind = 'decision' | 'execution' | 'override';
export const RECORD_KINDS: readonly RecordKind[] = ['decision', 'execution', 'override'];

/**
 * One line of the decision ledger (JSONL): everything needed to show, explain and replay one tool call.
 * Never contains the API key or request headers.
 */
export interface DecisionRecord {
  /** Schema version of this record shape. */
  v: 1;
  /**
   * 'decision' for a judgment tool call; 'execution' for a registry call run on an accepted decision;
   * 'override' for a person letting a commit through that the gate did not pass (never an approval).
   */
  kind: RecordKind;
  /** Unique id (UUID). */
  id: string;
  /** ISO 8601 UTC time the call ended. */
  time: string;
  /** Agent the call ran as ('cli', 'mcp', 'editor', or a manifest name). */
  agent: string;
  tool: string;
  /** Provider id that answered ('systemone', 'mock', 'openai', 'vscode-lm', 'replay'). */
  provider: string;
  /** The tool arguments as received. */
  input: unknown;
  /** Questions of the first upstream request; null when no request was made. */
  questions: QuestionMap | null;
  /** Validated provider response of the first request; null when none. */
  response: RecordedExchange['response'] | null;
  /** All upstream requests in order (more than one only for jev_rank). */
  exchanges: RecordedExchange[];
  coverage: Coverage | null;
  /** Environment floors in force for the call. */
  thresholds: Floors;
  /** Successful structured result; absent on error. */
  result?: unknown;
  /** Failure; absent on success. */
  error?: JevErrorDetails;
  /** Wall time of the call, ms. */
  latency_ms: number;
  /** For an execution or override record: the decision it executed or overrode. */
  decision_id?: string;
  /** Where the call came from, in words (e.g. `commit hook, terminal`); absent when it is the agent itself. */
  source?: string;
  /**
   * Only on a record that would have exceeded the ledger line bound (bound.ts): questions, response and
   * exchanges, cut (a CutValue); the record cannot be replayed.
   */
  cut_exchanges?: unknown;
}
