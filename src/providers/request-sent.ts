/**
 * Whether an attempt's request reached the network, so a cancelled attempt that never left is not
 * counted against the spend cap (src/providers/http-post.ts). Node's fetch (undici) publishes
 * `undici:request:create` when it builds the request and `undici:client:sendHeaders` when the headers
 * are written to a socket; an AsyncLocalStorage ties both to the attempt that called fetch.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';

/** What is known of one attempt's request. */
export interface RequestTrace {
  /** undici built a request for this attempt. */
  created: boolean;
  /** Its headers were written to a socket: the server may have it. */
  sent: boolean;
}

const current = new AsyncLocalStorage<RequestTrace>();
const traces = new WeakMap<object, RequestTrace>();
let subscribed = false;

function subscribe(): void {
  if (subscribed) return;
  subscribed = true;
  diagnostics.subscribe('undici:request:create', (message) => {
    const trace = current.getStore();
    const request = (message as { request?: unknown }).request;
    if (!trace || typeof request !== 'object' || request === null) return;
    trace.created = true;
    traces.set(request, trace);
  });
  diagnostics.subscribe('undici:client:sendHeaders', (message) => {
    const request = (message as { request?: unknown }).request;
    if (typeof request !== 'object' || request === null) return;
    const trace = traces.get(request);
    if (trace) trace.sent = true;
  });
}

/** Runs `fn` (one fetch) with a fresh RequestTrace that the undici channels fill in; returns both. */
export function traceRequest<T>(fn: () => Promise<T>): { trace: RequestTrace; result: Promise<T> } {
  subscribe();
  const trace: RequestTrace = { created: false, sent: false };
  return { trace, result: current.run(trace, fn) };
}

/**
 * True only when the request is known not to have left: Node's own fetch built it and wrote no headers.
 * Another fetch implementation (or one that never got that far) tells us nothing: false, so it counts.
 */
export function knownUnsent(trace: RequestTrace): boolean {
  return trace.created && !trace.sent;
}
