import { JevError, type JevErrorDetails } from '../judgment/errors';

/**
 * Errors of the tool registry: every transport failure is mapped to one of these classes with a message naming the qualified tool id, the server and the cause).
 */

/** Which rule decided a grant check (manifest.ts). `rule` is the grant text, null when none matched. */
export interface GrantDecision {
  allowed: boolean;
  /** Tool id the decision is about (qualified for external tools). */
  tool: string;
  /** The grant that decided: the deny rule when denied by one, the allow rule when allowed, else null. */
  rule: string | null;
  /** Plain-language explanation, e.g. `denied by "!files/write_file"`. */
  reason: string;
}

/**
 * Raised when an agent calls a tool its manifest does not grant. Thrown before any transport is touched
 * (tool-contract "Capability enforcement").
 */
export class CapabilityViolation extends Error {
  constructor(
    readonly agent: string,
    readonly tool: string,
    readonly decision: GrantDecision,
  ) {
    super(`Agent ${JSON.stringify(agent)} may not call ${JSON.stringify(tool)}: ${decision.reason}.`);
    this.name = 'CapabilityViolation';
  }
}

/** Raised when a granted tool is not registered in-process and no configured server has it. */
export class ToolNotFoundError extends Error {
  constructor(
    readonly tool: string,
    detail: string,
  ) {
    super(`Unknown tool ${JSON.stringify(tool)}: ${detail}.`);
    this.name = 'ToolNotFoundError';
  }
}

/**
 * Why a dispatched call failed:
 * - `invalid_params`: params break the tool's inputSchema (checked by the host, same on every transport);
 * - `tool_error`: the tool ran and reported an error (`isError`, or an in-process throw);
 * - `timeout`: no answer within the per-call timeout;
 * - `unavailable`: the server is not ready (failed to start, crashed, restarting, closed);
 * - `transport`: the connection failed during the call (process exit, broken stream, HTTP failure);
 * - `invalid_result`: the result is not a plain JSON object;
 * - `cancelled`: the caller's signal aborted the call.
 */
export type ToolCallErrorKind = 'invalid_params' | 'tool_error' | 'timeout' | 'unavailable' | 'transport' | 'invalid_result' | 'cancelled';

const RETRYABLE: Record<ToolCallErrorKind, boolean> = {
  invalid_params: false,
  tool_error: false,
  timeout: true,
  unavailable: true,
  transport: true,
  invalid_result: false,
  cancelled: false,
};

/** A dispatched tool call that failed; `tool` is the qualified id, `server` the owning server if external. */
export class ToolCallError extends Error {
  readonly retryable: boolean;

  constructor(
    readonly kind: ToolCallErrorKind,
    readonly tool: string,
    message: string,
    readonly server?: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ToolCallError';
    this.retryable = RETRYABLE[kind];
  }
}

/**
 * Ledger form of any registry failure (`{code, message, retryable}`): violations and unknown tools are
 * INVALID_INPUT, timeouts TIMEOUT, cancellations CANCELLED, bad results INVALID_RESPONSE, the rest API_ERROR.
 * The message always names the class so a reader can tell a denial from a crash.
 */
export function registryErrorDetails(err: unknown): JevErrorDetails {
  if (err instanceof CapabilityViolation || err instanceof ToolNotFoundError) {
    return { code: 'INVALID_INPUT', message: `${err.name}: ${err.message}`, retryable: false };
  }
  if (err instanceof ToolCallError && err.cause instanceof JevError) {
    // A judgment tool run in-process: keep its classified code.
    return { ...err.cause.toJSON(), message: `${err.name} (${err.kind}): ${err.message}` };
  }
  if (err instanceof ToolCallError) {
    const code =
      err.kind === 'timeout' ? 'TIMEOUT'
      : err.kind === 'cancelled' ? 'CANCELLED'
      : err.kind === 'invalid_params' ? 'INVALID_INPUT'
      : err.kind === 'invalid_result' ? 'INVALID_RESPONSE'
      : 'API_ERROR';
    return { code, message: `${err.name} (${err.kind}): ${err.message}`, retryable: err.retryable };
  }
  if (err instanceof JevError) return err.toJSON();
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'API_ERROR', message: `Unexpected failure: ${message}`, retryable: false };
}
