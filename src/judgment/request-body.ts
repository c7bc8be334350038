import type { SystemOneRequest } from './types';

/**
 * The JSON body of a System One request, serialized once. judge() already holds the JSON text of the
 * state and of every question (the token estimate needs them), so it records the composed body here,
 * keyed by the request object it hands to the provider; an HTTP provider then sends those bytes instead
 * of serializing the same state and questions again. A WeakMap, so nothing extra travels on the request
 * object and a body lives exactly as long as its request.
 */
const bodies = new WeakMap<SystemOneRequest, string>();

/**
 * Records `{"state":…,"questions":…,"model":…}` for `request` from the JSON texts of its state and
 * question map, which must be what JSON.stringify writes for `request.state` and `request.questions`.
 */
export function recordRequestBody(request: SystemOneRequest, json: { state: string; questions: string }): void {
  bodies.set(request, `{"state":${json.state},"questions":${json.questions},"model":${JSON.stringify(request.model)}}`);
}

/**
 * The body text of `request`: the recorded one, else `JSON.stringify({state, questions, model})`.
 * Throws what JSON.stringify throws (TypeError for a BigInt or a cycle).
 */
export function requestBodyJson(request: SystemOneRequest): string {
  return bodies.get(request) ?? JSON.stringify({ state: request.state, questions: request.questions, model: request.model });
}
