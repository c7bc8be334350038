/**
 * Backend health from the last call outcomes (src/providers/backend-health.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BackendHealth } from '../../src/providers/backend-health';

const failed = (code: string, message = 'boom') => ({ kind: 'decision' as const, error: { code, message, retryable: false } });
const ok = { kind: 'decision' as const };

describe('BackendHealth', () => {
  test('a backend failure is reported, a later success clears it', () => {
    const h = new BackendHealth();
    assert.equal(h.describe(), undefined);
    assert.equal(h.observe(failed('API_ERROR', 'connect ECONNREFUSED')), true);
    assert.equal(h.describe(), 'Last call failed: API_ERROR — connect ECONNREFUSED');
    assert.equal(h.observe(failed('API_ERROR', 'connect ECONNREFUSED')), false);
    assert.equal(h.observe(ok), true);
    assert.equal(h.failure, undefined);
  });

  test('each backend code counts; input errors and executions leave the health alone', () => {
    for (const code of ['API_ERROR', 'TIMEOUT', 'CONFIG_ERROR', 'INVALID_RESPONSE']) {
      const h = new BackendHealth();
      h.observe(failed(code));
      assert.equal(h.failure?.code, code);
      assert.equal(h.observe(failed('INVALID_INPUT')), false);
      assert.equal(h.observe({ kind: 'execution' }), false);
      assert.equal(h.failure?.code, code);
    }
    const h = new BackendHealth();
    h.observe(failed('INVALID_INPUT'));
    assert.equal(h.failure, undefined);
  });

  test('reset forgets a failure', () => {
    const h = new BackendHealth();
    h.observe(failed('TIMEOUT'));
    assert.equal(h.reset(), true);
    assert.equal(h.describe(), undefined);
    assert.equal(h.reset(), false);
  });
});
