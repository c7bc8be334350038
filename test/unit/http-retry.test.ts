/** Retry arithmetic of the systemone provider. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DEFAULT_RETRY,
  backoffDelay,
  isRetryableStatus,
  resolveRetryOptions,
  retryHintMs,
  sleep,
} from '../../src/providers/http-retry';

const headers = (h: Record<string, string>) => new Headers(h);

describe('isRetryableStatus', () => {
  test('408, 429 and every 5xx (incl. 529) only', () => {
    for (const s of [408, 429, 500, 502, 503, 504, 529, 599]) assert.equal(isRetryableStatus(s), true, String(s));
    for (const s of [200, 301, 400, 401, 403, 404, 409, 413, 422, 600]) assert.equal(isRetryableStatus(s), false, String(s));
  });
});

describe('backoffDelay', () => {
  test('doubles from the base and is capped at the max; jitter subtracts at most 25 %', () => {
    const top = () => 0; // no jitter
    const bottom = () => 0.999999; // nearly full jitter
    assert.equal(backoffDelay(1, DEFAULT_RETRY, top), 500);
    assert.equal(backoffDelay(2, DEFAULT_RETRY, top), 1_000);
    assert.equal(backoffDelay(4, DEFAULT_RETRY, top), 4_000);
    assert.equal(backoffDelay(5, DEFAULT_RETRY, top), 5_000);
    assert.equal(backoffDelay(9, DEFAULT_RETRY, top), 5_000);
    assert.ok(Math.abs(backoffDelay(1, DEFAULT_RETRY, bottom) - 375) < 0.01);
    for (let i = 0; i < 200; i++) {
      const d = backoffDelay(3, DEFAULT_RETRY);
      assert.ok(d > 1_500 && d <= 2_000, String(d));
    }
  });

  test('zero base or zero max means no wait', () => {
    assert.equal(backoffDelay(3, { maxAttempts: 3, baseDelayMs: 0, maxDelayMs: 5_000 }), 0);
    assert.equal(backoffDelay(3, { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 0 }), 0);
  });
});

describe('retryHintMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  test('Retry-After in seconds, integer or decimal', () => {
    assert.equal(retryHintMs(headers({ 'retry-after': '2' }), now), 2_000);
    assert.equal(retryHintMs(headers({ 'retry-after': ' 1.5 ' }), now), 1_500);
    assert.equal(retryHintMs(headers({ 'retry-after': '0' }), now), 0);
  });
  test('Retry-After as an HTTP date, past dates mean 0', () => {
    assert.equal(retryHintMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }), now), 7_000);
    assert.equal(retryHintMs(headers({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }), now), 0);
  });
  test('retry-after-ms wins over Retry-After', () => {
    assert.equal(retryHintMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now), 250);
    assert.equal(retryHintMs(headers({ 'retry-after-ms': '12.5' }), now), 12.5);
  });
  test('absent, negative or junk hints are ignored (undefined), not read as 0', () => {
    assert.equal(retryHintMs(headers({}), now), undefined);
    assert.equal(retryHintMs(headers({ 'retry-after': '-3' }), now), undefined);
    assert.equal(retryHintMs(headers({ 'retry-after': 'soon' }), now), undefined);
    assert.equal(retryHintMs(headers({ 'retry-after': '1e3' }), now), undefined);
    assert.equal(retryHintMs(headers({ 'retry-after-ms': 'abc', 'retry-after': '3' }), now), 3_000);
  });
});

describe('resolveRetryOptions', () => {
  test('defaults 3 attempts, 500 ms base, 5 000 ms max; partial overrides', () => {
    assert.deepEqual(resolveRetryOptions(), { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 5_000 });
    assert.deepEqual(resolveRetryOptions({ baseDelayMs: 5 }), { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 5_000 });
  });
  test('bad values name the field', () => {
    assert.throws(() => resolveRetryOptions({ maxAttempts: 0 }), /retry\.maxAttempts must be a positive integer/);
    assert.throws(() => resolveRetryOptions({ maxAttempts: 1.5 }), /retry\.maxAttempts/);
    assert.throws(() => resolveRetryOptions({ baseDelayMs: -1 }), /retry\.baseDelayMs must be a finite number >= 0/);
    assert.throws(() => resolveRetryOptions({ maxDelayMs: Number.POSITIVE_INFINITY }), /retry\.maxDelayMs/);
  });
});

describe('sleep', () => {
  test('waits about the given time', async () => {
    const t = Date.now();
    await sleep(60);
    assert.ok(Date.now() - t >= 55);
  });
  test('an abort ends the wait at once; an aborted signal rejects immediately', async () => {
    const c = new AbortController();
    const t = Date.now();
    setTimeout(() => c.abort(), 30);
    await assert.rejects(sleep(10_000, c.signal), { name: 'AbortError' });
    assert.ok(Date.now() - t < 1_000);
    await assert.rejects(sleep(10_000, c.signal), { name: 'AbortError' });
  });
});
