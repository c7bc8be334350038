/**
 * The openai provider's JSON POST: the shared request loop (../http-post: deadline, retries, spend cap,
 * cancellation, redirects refused, bounded reads) with this provider's wording. 400s are scanned (not
 * echoed) for two markers: a context-window overflow → INPUT_TOO_LARGE; a refused `logprobs` parameter →
 * CONFIG_ERROR.
 */
import { JevError } from '../../judgment/errors';
import { postJsonWithRetry, type PostJsonOptions, type PostWording, type UnreachableKind } from '../http-post';
import type { CallContext } from '../../judgment/provider';

/** What one POST needs; `headers` already carry the key (never logged). */
export type OpenAiPostOptions = Omit<PostJsonOptions, 'maxResponseBytes' | 'wording'>;

/** Largest 2xx body read, bytes (a one-token completion with 20 logprobs is a few KiB). */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** Setting names quoted in messages. */
export const SETTINGS_HINT = 'JEV_BASE_URL (jevPanel.baseUrl)';

/**
 * POSTs `options.payload` and returns the parsed JSON body of a 2xx answer (unvalidated).
 * Throws JevError: TIMEOUT, CANCELLED (or the signal's JevError reason), API_ERROR (status, network,
 * redirect, spend cap), INPUT_TOO_LARGE, CONFIG_ERROR (logprobs refused), INVALID_RESPONSE (2xx body
 * not JSON or too large).
 */
export function postJson(options: OpenAiPostOptions, scope: CallContext): Promise<unknown> {
  return postJsonWithRetry({ ...options, maxResponseBytes: MAX_RESPONSE_BYTES, wording: WORDING }, scope);
}

const WORDING: PostWording = {
  cancelled: 'The request to the OpenAI-compatible endpoint was cancelled.',
  timeout: 'The OpenAI-compatible endpoint did not answer before the call deadline (JEV_TIMEOUT_MS).',
  exhausted: (what, tries, status) =>
    status === undefined
      ? `Could not reach the OpenAI-compatible endpoint (${what}) ${tries}; check ${SETTINGS_HINT} and that the server is running.`
      : `OpenAI-compatible endpoint request failed (${what}) ${tries}.`,
  unreachable: (kind) => UNREACHABLE[kind],
  redirect: (status) =>
    `The OpenAI-compatible endpoint answered with a redirect (HTTP ${status}), which was refused; set ${SETTINGS_HINT} to the final address.`,
  invalidBody: (status, problem) => `The OpenAI-compatible endpoint answered HTTP ${status} ${problem}.`,
  rejected,
};

const UNREACHABLE: Record<UnreachableKind, string> = {
  dns: `The OpenAI-compatible endpoint's host was not found (DNS); check ${SETTINGS_HINT}.`,
  tls: `The OpenAI-compatible endpoint's TLS certificate was rejected; check ${SETTINGS_HINT}.`,
  port: `fetch refuses the port in ${SETTINGS_HINT} (a blocked port); use another port.`,
  network: 'The request to the OpenAI-compatible endpoint failed before any response (network error).',
};

/** 401/403 credentials, 404 endpoint or model, 413 and context-window markers → INPUT_TOO_LARGE, logprobs refused. */
async function rejected(status: number, errorText: () => Promise<string | undefined>): Promise<JevError> {
  const fail = (message: string, code: 'API_ERROR' | 'INPUT_TOO_LARGE' | 'CONFIG_ERROR' = 'API_ERROR') =>
    new JevError(code, message, { retryable: false, status });
  if (status === 401 || status === 403) return fail(`The OpenAI-compatible endpoint refused the credentials (HTTP ${status}); check JEV_API_KEY.`);
  if (status === 404) {
    return fail(`The OpenAI-compatible endpoint or model was not found (HTTP 404); check ${SETTINGS_HINT} and JEV_MODEL (the served model name).`);
  }
  if (status === 413) return fail('The OpenAI-compatible endpoint refused the request as too large (HTTP 413); shorten the state.', 'INPUT_TOO_LARGE');
  if (status >= 400 && status <= 499) {
    // Only markers are looked for; the body is never echoed.
    const text = (await errorText()) ?? '';
    if (/context[ _-]?(length|size|window)|maximum context|too many tokens|exceeds? the (available )?context/i.test(text)) {
      return fail(`The prompt exceeds the model's context window (HTTP ${status}); shorten the state or serve the model with a larger context.`, 'INPUT_TOO_LARGE');
    }
    if (/logprob/i.test(text)) {
      return fail(
        `The endpoint rejected the logprobs parameters (HTTP ${status}); the openai provider needs an endpoint that returns top_logprobs — change ${SETTINGS_HINT} or JEV_PROVIDER.`,
        'CONFIG_ERROR',
      );
    }
    return fail(`The OpenAI-compatible endpoint rejected the request (HTTP ${status}).`);
  }
  return fail(`The OpenAI-compatible endpoint answered with unexpected HTTP status ${status}.`);
}
