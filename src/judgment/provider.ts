import type { SystemOneRequest } from './types';

/**
 * Per-tool-call context shared by every upstream request of that call (one deadline for the whole call).
 * `deadline` is an absolute epoch time in ms; all attempts and retry waits must end before it.
 */
export interface CallContext {
  signal: AbortSignal;
  /** Absolute deadline, `Date.now()` epoch ms. */
  deadline: number;
}

/**
 * The one port every judgment backend implements: answer a System One request.
 * Implementations return the provider's body as parsed; the caller validates it against the questions
 * (so a provider cannot smuggle an unvalidated answer into policy).
 * Errors: JevError with TIMEOUT when the deadline passes, CANCELLED when `signal` aborts,
 * API_ERROR / INVALID_RESPONSE / CONFIG_ERROR otherwise.
 */
export interface JudgmentProvider {
  /** Stable provider id: 'systemone' | 'mock' | 'replay' | 'openai' | 'vscode-lm'. */
  readonly id: string;
  /** False for judges whose probabilities are not calibrated (shown in UI). */
  readonly calibrated: boolean;
  systemOne(request: SystemOneRequest, ctx: CallContext): Promise<unknown>;
}

/**
 * Optional symbol-keyed field of a provider body: input tokens of the largest single upstream request.
 * Providers that split one System One request into several (openai: one per question, each repeating the
 * state) set it so the 64 000-token context check applies per request rather than to the summed usage.
 * A symbol, so an upstream JSON body can never carry it and switch the check off.
 */
export const LARGEST_REQUEST_INPUT_TOKENS: unique symbol = Symbol('largestRequestInputTokens');
