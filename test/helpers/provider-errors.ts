/**
 * Provider tests against the fake upstreams (fake-systemone.ts, fake-openai.ts): a call context with a
 * deadline, and the check that a call failed with the expected JevError without leaking the upstream body
 * or the API key.
 */
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { JevError, type JevErrorCode } from '../../src/judgment/errors';
import type { CallContext } from '../../src/judgment/provider';

/** A call context whose deadline is `ms` from now. */
export function callContext(ms = 5_000, signal: AbortSignal = new AbortController().signal): CallContext {
  return { signal, deadline: Date.now() + ms };
}

/**
 * Awaits `p` and requires a JevError with `code` (and `retryable` when given) whose message never echoes
 * the fake's error body (marker `fake-upstream-detail`) and which never shows `key`, even when inspected.
 * Fails when an answer comes back. Resolves with the error for further checks.
 */
export async function expectProviderError(p: Promise<unknown>, code: JevErrorCode, opts: { key: string; retryable?: boolean }): Promise<JevError> {
  let answer: unknown;
  try {
    answer = await p;
  } catch (err) {
    assert.ok(err instanceof JevError, `expected a JevError, got ${inspect(err)}`);
    assert.equal(err.code, code, `code (message: ${err.message})`);
    if (opts.retryable !== undefined) assert.equal(err.retryable, opts.retryable, `retryable (message: ${err.message})`);
    assert.ok(!err.message.includes('fake-upstream-detail'), 'the upstream body must not be echoed');
    assert.ok(!err.message.includes(opts.key) && !inspect(err).includes(opts.key), 'the key must not appear');
    return err;
  }
  assert.fail(`expected ${code}, but an answer was returned: ${JSON.stringify(answer)}`);
}
