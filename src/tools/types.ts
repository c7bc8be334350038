import type { z } from 'zod';
import type { JudgeOptions } from '../judgment/judge';
import type { Judged, QuestionMap } from '../judgment/types';
import type { Floors } from '../policy/thresholds';

/** Which contract a tool follows: judgevet tools fail with plain text, jev tools with `{"error":…}` JSON. */
export type ToolFamily = 'jev' | 'judgevet';

/** MCP tool annotations (hints only). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** What a tool may do while executing: ask System One (fit, call, validate) under the call's deadline. */
export interface ToolContext {
  floors: Floors;
  /** Host-selected default model (JEV_MODEL, default `jev-latest`). */
  model: string;
  /**
   * Fits `state` to the budget, asks the provider, validates the answers against `questions`.
   * `options.truncate`: 'cut' (default) cuts an oversized state and reports it in `truncated`/`coverage`;
   * 'refuse' fails instead (see JudgeOptions).
   * Throws JevError (INPUT_TOO_LARGE before any request; provider codes after).
   */
  judge(state: unknown, questions: QuestionMap, model: string, options?: JudgeOptions): Promise<Judged>;
  signal: AbortSignal;
}

/**
 * One judgment tool. `parse` validates raw MCP arguments (throws JevError INVALID_INPUT / INPUT_TOO_LARGE
 * whose message names the field and the rule) and must run before any upstream request; `execute`
 * packs questions, judges and decides. The `any` defaults let one list hold tools of different input
 * types (`execute` takes `I`, so `unknown` would not accept them).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ToolDefinition<I = any, O = any> {
  name: string;
  title: string;
  description: string;
  family: ToolFamily;
  annotations: ToolAnnotations;
  /** JSON Schema (2020-12) advertised as the tool's inputSchema. */
  inputJsonSchema: Record<string, unknown>;
  /** JSON Schema (2020-12) advertised as the tool's outputSchema. */
  outputJsonSchema: Record<string, unknown>;
  /** zod schema of a successful result (used to check our own output before returning it). */
  outputSchema: z.ZodType<O>;
  parse(args: unknown, floors: Floors): I;
  execute(input: I, ctx: ToolContext): Promise<O>;
  /**
   * The arguments as the ledger keeps them, when they may hold more than the configured secrets (a proposed
   * call's password or token: jev_permit). Gets the raw arguments, valid or not; must not throw.
   */
  recordedInput?(args: unknown): unknown;
}
