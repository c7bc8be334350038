/**
 * One tools/call on a live session (connection.ts), with the timing rules of long calls: a progress token
 * is always sent; each progress notification restarts the per-call timeout (SDK `resetTimeoutOnProgress`),
 * up to the server's total cap; the call is abandoned at the timeout, at the cap or when the caller
 * aborts, and the server then gets `notifications/cancelled` (the SDK sends it when the request's signal
 * aborts or its timeout fires; the cap is enforced here through that same signal, so it sends it too).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CallOptions } from './connection-types';
import { ToolCallError } from './errors';

/** Default total cap of one call that keeps reporting progress, ms (10 minutes). */
export const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 600_000;

/** Timing of one call, ms. */
export interface CallTiming {
  /** Per-call timeout: longest wait without an answer or a progress notification. */
  timeoutMs: number;
  /** Longest the call may take in all, progress or not. */
  maxTotalTimeoutMs: number;
}

/** Why a call was abandoned before its answer, if it was. */
export type Abandoned = 'cap' | 'caller' | undefined;

/**
 * Sends tools/call `tool` with `args` on `client` under `timing`. Resolves to the raw result; rejects with
 * the SDK's error, except that a call stopped by the total cap rejects with ToolCallError `timeout`
 * (`id` names the tool, `server` the server) and one the caller aborted with ToolCallError `cancelled`.
 */
export async function callWithProgress(
  client: Client,
  tool: string,
  args: Record<string, unknown>,
  timing: CallTiming,
  opts: CallOptions,
  names: { id: string; server: string },
): Promise<CallToolResult> {
  const cap = new AbortController();
  const capTimer = setTimeout(() => cap.abort(new Error('total cap reached')), timing.maxTotalTimeoutMs);
  capTimer.unref();
  const signal = opts.signal ? AbortSignal.any([opts.signal, cap.signal]) : cap.signal;
  const started = Date.now();
  try {
    return (await client.callTool({ name: tool, arguments: args }, undefined, {
      timeout: Math.min(timing.timeoutMs, timing.maxTotalTimeoutMs),
      resetTimeoutOnProgress: true,
      signal,
      onprogress: (p) => opts.onProgress?.({ progress: p.progress, ...(p.total === undefined ? {} : { total: p.total }), ...(p.message === undefined ? {} : { message: p.message }) }),
    })) as CallToolResult;
  } catch (err) {
    if (opts.signal?.aborted) throw new ToolCallError('cancelled', names.id, `The call to ${names.id} was cancelled.`, names.server, { cause: err });
    if (cap.signal.aborted) {
      throw new ToolCallError(
        'timeout',
        names.id,
        `${names.id} was still running after ${Date.now() - started} ms, beyond the total cap of ${timing.maxTotalTimeoutMs} ms of server ${JSON.stringify(names.server)} (maxTotalTimeoutMs); it was cancelled.`,
        names.server,
        { cause: err },
      );
    }
    if (err instanceof McpError && err.code === (ErrorCode.RequestTimeout as number)) {
      throw new ToolCallError(
        'timeout',
        names.id,
        `${names.id} did not answer within ${timing.timeoutMs} ms (per-call timeout of server ${JSON.stringify(names.server)}, restarted by each progress notification); it was cancelled.`,
        names.server,
        { cause: err },
      );
    }
    throw err;
  } finally {
    clearTimeout(capTimer);
  }
}
