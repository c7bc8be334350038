/**
 * The systemone provider against a real HTTP fake (127.0.0.1), through `judge()` where answers matter:
 * status mapping, retries and their waits, the shared deadline, cancellation, the spend cap, redirects,
 * and that no failure ever yields an answer or leaks the key or the upstream body.
 */
import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import { inspect } from 'node:util';
import { after, before, beforeEach, describe, test } from 'node:test';
import { JevError, type JevErrorCode } from '../../src/judgment/errors';
import { judge } from '../../src/judgment/judge';
import type { Judged, QuestionMap } from '../../src/judgment/types';
import type { CallContext } from '../../src/judgment/provider';
import { SpendCap } from '../../src/providers/spend-cap';
import { SystemOneProvider, type SystemOneProviderOptions } from '../../src/providers/systemone';
import { OMIT, answerAll, choice, startFakeSystemOne, type FakeSystemOne } from '../helpers/fake-systemone';
import { closedPort } from '../helpers/raw-http';
import { callContext, expectProviderError } from '../helpers/provider-errors';

const KEY = 'sk-test-9f8e7d6c5b4a-SECRET';
const QUESTIONS: QuestionMap = {
  proceed: { type: 'noul', instructions: 'Is it safe to continue?', criteria: { true: 'safe', false: 'unsafe' } },
  route: { type: 'choice', instructions: 'Which tool fits?', criteria: { read: 'read a file', write: null, none: 'no tool' } },
  quality: { type: 'score', instructions: 'How good is the diff?', criteria: ['poor', 'fair', 'good'] },
};
/** Tiny backoff so retry tests stay fast; Retry-After tests set their own hints. */
const FAST = { baseDelayMs: 5, maxDelayMs: 20 };

let fake: FakeSystemOne;
before(async () => {
  fake = await startFakeSystemOne();
});
after(async () => {
  await fake.close();
});
beforeEach(async () => {
  // Fresh server per test: no queued steps, no recorded requests, no pooled sockets.
  await fake.close();
  fake = await startFakeSystemOne();
});

function provider(overrides: Partial<SystemOneProviderOptions> = {}): SystemOneProvider {
  return new SystemOneProvider({ baseUrl: fake.url, apiKey: KEY, spendCap: new SpendCap(), retry: FAST, ...overrides });
}

const ctx = callContext;

/** A JevError with `code`/`retryable`, leaking neither the upstream body nor KEY. */
const expectError = (p: Promise<unknown>, code: JevErrorCode, retryable: boolean): Promise<JevError> => expectProviderError(p, code, { key: KEY, retryable });

const ask = (p: SystemOneProvider, c: CallContext = ctx()): Promise<Judged> => judge(p, c, { diff: '+ x' }, QUESTIONS, 'jev-latest');

async function until(predicate: () => boolean, timeoutMs = 2_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('request shape', () => {
  test('POSTs {state, questions, model} to /v1/systemone with Bearer and JSON headers; answers validated', async () => {
    const judged = await ask(provider());
    assert.equal(fake.count(), 1);
    const req = fake.requests[0]!;
    assert.equal(req.method, 'POST');
    assert.equal(req.path, '/v1/systemone');
    assert.equal(req.headers.authorization, `Bearer ${KEY}`);
    assert.match(String(req.headers['content-type']), /^application\/json/);
    assert.deepEqual(req.body, { state: { diff: '+ x' }, questions: QUESTIONS, model: 'jev-latest' });
    assert.deepEqual(Object.keys(judged.response.answers), ['proceed', 'route', 'quality']);
    assert.equal(judged.response.model, 'jev-latest');
    assert.equal(judged.response.answers.route!.type === 'choice' && judged.response.answers.route!.choice, 'read');
  });

  test('the body is exactly the JSON of {state, questions, model}, and requests reuse kept-alive connections', async () => {
    const p = provider();
    for (let i = 0; i < 6; i++) await ask(p);
    assert.equal(fake.count(), 6);
    for (const req of fake.requests) assert.equal(req.rawBody, JSON.stringify({ state: { diff: '+ x' }, questions: QUESTIONS, model: 'jev-latest' }));
    // Sequential requests: fetch's pool may open a second connection while the first is being released, never one per request.
    assert.ok(new Set(fake.requests.map((r) => r.remotePort)).size <= 2, 'connections are reused');
  });

  test('a base URL path prefix is kept and a trailing slash dropped', async () => {
    await ask(provider({ baseUrl: `${fake.url}/gateway/` }));
    assert.equal(fake.requests[0]!.path, '/gateway/v1/systemone');
  });

  test('no key → no Authorization header (Ollama, Kev)', async () => {
    await ask(provider({ apiKey: undefined }));
    assert.equal(fake.requests[0]!.headers.authorization, undefined);
    await ask(provider({ apiKey: '   ' }));
    assert.equal(fake.requests[1]!.headers.authorization, undefined);
  });

  test('a key a header cannot carry is refused at construction without echoing it', () => {
    assert.throws(
      () => provider({ apiKey: 'sk-bad\nkey-SECRET' }),
      (err: unknown) => err instanceof JevError && err.code === 'CONFIG_ERROR' && !err.message.includes('SECRET'),
    );
  });

  test('plain http to a non-loopback base URL is refused at construction', () => {
    assert.throws(() => provider({ baseUrl: 'http://example.com' }), (err: unknown) => err instanceof JevError && err.code === 'CONFIG_ERROR');
  });
});

describe('non-retryable statuses', () => {
  const cases: Array<{ status: number; code: JevErrorCode; says: RegExp }> = [
    { status: 401, code: 'API_ERROR', says: /authentication failed \(HTTP 401\); check JEV_API_KEY/ },
    { status: 403, code: 'API_ERROR', says: /authentication failed \(HTTP 403\); check JEV_API_KEY/ },
    { status: 404, code: 'API_ERROR', says: /endpoint was not found \(HTTP 404\); check JEV_BASE_URL/ },
    { status: 413, code: 'INPUT_TOO_LARGE', says: /too large \(HTTP 413\)/ },
    { status: 422, code: 'API_ERROR', says: /rejected the request \(HTTP 422\)/ },
    { status: 400, code: 'API_ERROR', says: /rejected the request \(HTTP 400\)/ },
  ];
  for (const { status, code, says } of cases) {
    test(`${status} → ${code}, not retryable, one request`, async () => {
      fake.script({ status });
      const err = await expectError(ask(provider()), code, false);
      assert.match(err.message, says);
      assert.equal(err.status, status);
      assert.equal(fake.count(), 1);
    });
  }

  for (const status of [400, 422]) {
    test(`${status} with detail.error_type max_tokens_exceeded → INPUT_TOO_LARGE`, async () => {
      fake.script({ status, body: { detail: { error_type: 'max_tokens_exceeded', message: 'fake-upstream-detail' } } });
      const err = await expectError(ask(provider()), 'INPUT_TOO_LARGE', false);
      assert.match(err.message, new RegExp(`HTTP ${status}`));
      assert.equal(fake.count(), 1);
    });
  }
});

describe('retries', () => {
  test('429 then success → exactly 2 requests, answers returned', async () => {
    fake.script({ status: 429 });
    const judged = await ask(provider());
    assert.equal(fake.count(), 2);
    assert.equal(judged.response.answers.proceed!.type, 'noul');
  });

  test('500 then 503 then success → exactly 3 requests', async () => {
    fake.script({ status: 500 }, { status: 503 });
    await ask(provider());
    assert.equal(fake.count(), 3);
  });

  for (const status of [529, 408, 502]) {
    test(`${status} on every attempt → API_ERROR retryable after maxAttempts requests`, async () => {
      fake.script({ status }, { status }, { status }, { status });
      const err = await expectError(ask(provider()), 'API_ERROR', true);
      assert.match(err.message, new RegExp(`HTTP ${status}.* after 3 attempts`));
      assert.equal(err.status, status);
      assert.equal(fake.count(), 3);
    });
  }

  test('maxAttempts is honoured (1 = no retry)', async () => {
    fake.script({ status: 503 }, { status: 503 });
    await expectError(ask(provider({ retry: { ...FAST, maxAttempts: 1 } })), 'API_ERROR', true);
    assert.equal(fake.count(), 1);
  });

  test('connection reset on every attempt → API_ERROR retryable after 3 requests', async () => {
    fake.script({ reset: true }, { reset: true }, { reset: true });
    const err = await expectError(ask(provider()), 'API_ERROR', true);
    assert.match(err.message, /Could not reach System One .* after 3 attempts/);
    assert.equal(fake.count(), 3);
  });

  test('connection reset then success → 2 requests, answers returned', async () => {
    fake.script({ reset: true });
    const judged = await ask(provider());
    assert.equal(fake.count(), 2);
    assert.ok(judged.response.answers.quality);
  });

  test('connection refused → API_ERROR retryable naming the refusal', async () => {
    const port = await closedPort();
    const err = await expectError(ask(provider({ baseUrl: `http://127.0.0.1:${port}` })), 'API_ERROR', true);
    assert.match(err.message, /connection refused.* after 3 attempts/);
  });
});

describe('Retry-After', () => {
  test('Retry-After: 1 (seconds) is waited before the retry', async () => {
    fake.script({ status: 429, headers: { 'retry-after': '1' } });
    const started = Date.now();
    await ask(provider());
    const between = fake.requests.length;
    assert.equal(between, 2);
    assert.ok(Date.now() - started >= 950, `waited only ${Date.now() - started} ms`);
  });

  test('retry-after-ms is preferred and waited', async () => {
    fake.script({ status: 503, headers: { 'retry-after-ms': '300', 'retry-after': '20' } });
    const started = Date.now();
    await ask(provider());
    const elapsed = Date.now() - started;
    assert.equal(fake.count(), 2);
    assert.ok(elapsed >= 290 && elapsed < 3_000, `elapsed ${elapsed} ms`);
  });

  test('a hint past the deadline fails now with the upstream error, without sleeping', async () => {
    fake.script({ status: 429, headers: { 'retry-after': '30' } });
    const started = Date.now();
    const err = await expectError(ask(provider(), ctx(2_000)), 'API_ERROR', true);
    assert.ok(Date.now() - started < 1_000, 'must not sleep toward the deadline');
    assert.match(err.message, /HTTP 429.*after 1 attempt; not retried: the server asked to wait 30 s, past the call deadline/);
    assert.equal(fake.count(), 1);
  });

  test('a backoff past the deadline also fails now', async () => {
    fake.script({ status: 503 }, { status: 503 });
    const started = Date.now();
    const err = await expectError(ask(provider({ retry: { baseDelayMs: 5_000 } }), ctx(1_000)), 'API_ERROR', true);
    assert.ok(Date.now() - started < 800);
    assert.match(err.message, /would start after the call deadline/);
    assert.equal(fake.count(), 1);
  });
});

describe('deadline and cancellation', () => {
  test('a hang past a short deadline → TIMEOUT (retryable), bounded wall time, socket closed', async () => {
    fake.script({ hang: true });
    const started = Date.now();
    await expectError(ask(provider(), ctx(400)), 'TIMEOUT', true);
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 350 && elapsed < 1_500, `elapsed ${elapsed} ms`);
    assert.equal(fake.count(), 1);
    await fake.waitForClosedSockets(1);
  });

  test('a slow answer past the deadline → TIMEOUT, not retried', async () => {
    fake.script({ delayMs: 2_000, then: { status: 200 } });
    await expectError(ask(provider(), ctx(300)), 'TIMEOUT', true);
    assert.equal(fake.count(), 1);
  });

  test('retries share one deadline: 503s with waits cannot outlive it', async () => {
    fake.script({ delayMs: 150, then: { status: 503 } }, { delayMs: 150, then: { status: 503 } }, { hang: true });
    const started = Date.now();
    await expectError(ask(provider({ retry: { maxAttempts: 5, baseDelayMs: 5, maxDelayMs: 5 } }), ctx(600)), 'TIMEOUT', true);
    assert.ok(Date.now() - started < 1_500);
    assert.equal(fake.count(), 3);
  });

  test('a deadline already passed → TIMEOUT with no request and no spend', async () => {
    const cap = new SpendCap(5);
    const p = provider({ spendCap: cap });
    await expectError(p.systemOne({ state: '', questions: QUESTIONS, model: 'm' }, { signal: new AbortController().signal, deadline: Date.now() - 1 }), 'TIMEOUT', true);
    assert.equal(fake.count(), 0);
    assert.equal(cap.used, 0);
  });

  test('cancellation during the request → CANCELLED and the server sees the socket close', async () => {
    fake.script({ hang: true });
    const controller = new AbortController();
    const pending = ask(provider(), ctx(10_000, controller.signal));
    await until(() => fake.count() === 1);
    const closedBefore = fake.closedSockets();
    const abortedAt = Date.now();
    controller.abort();
    await expectError(pending, 'CANCELLED', false);
    assert.ok(Date.now() - abortedAt < 1_000, 'the in-flight request must end at the abort, not at the deadline');
    await fake.waitForClosedSockets(closedBefore + 1, 2_000);
    assert.equal(fake.count(), 1);
  });

  test('the provider itself maps cancellation to CANCELLED (not only judge())', async () => {
    fake.script({ hang: true });
    const controller = new AbortController();
    const pending = provider().systemOne({ state: 's', questions: QUESTIONS, model: 'm' }, ctx(10_000, controller.signal));
    await until(() => fake.count() === 1);
    const abortedAt = Date.now();
    controller.abort();
    await expectError(pending, 'CANCELLED', false);
    assert.ok(Date.now() - abortedAt < 1_000);
  });

  test('cancellation during a Retry-After wait → CANCELLED after exactly 1 request', async () => {
    fake.script({ status: 429, headers: { 'retry-after': '5' } });
    const controller = new AbortController();
    const started = Date.now();
    const pending = ask(provider(), ctx(10_000, controller.signal));
    await until(() => fake.count() === 1);
    setTimeout(() => controller.abort(), 100);
    await expectError(pending, 'CANCELLED', false);
    assert.ok(Date.now() - started < 2_000, 'the wait must end at the abort');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(fake.count(), 1);
  });
});

describe('spend cap', () => {
  test('a call cancelled before its request left counts against neither the cap nor the spend counter', async () => {
    fake.script({ status: 200 });
    const cap = new SpendCap(1);
    const controller = new AbortController();
    // Cancel the moment Node's fetch builds the request, before a socket carries it.
    const onCreate = () => queueMicrotask(() => controller.abort());
    diagnostics.subscribe('undici:request:create', onCreate);
    try {
      await expectError(ask(provider({ spendCap: cap }), ctx(10_000, controller.signal)), 'CANCELLED', false);
    } finally {
      diagnostics.unsubscribe('undici:request:create', onCreate);
    }
    assert.equal(fake.count(), 0, 'no request reached the server');
    assert.equal(cap.used, 0, 'nothing was spent');
    // The one attempt the cap allows is still there.
    await ask(provider({ spendCap: cap }));
    assert.equal(cap.used, 1);
  });

  test('a call cancelled after its request left still counts', async () => {
    fake.script({ hang: true });
    const cap = new SpendCap(5);
    const controller = new AbortController();
    const pending = ask(provider({ spendCap: cap }), ctx(10_000, controller.signal));
    await until(() => fake.count() === 1);
    controller.abort();
    await expectError(pending, 'CANCELLED', false);
    assert.equal(cap.used, 1);
  });

  test('SpendCap(2) with a server always answering 429 → cap error after exactly 2 requests; never resets', async () => {
    fake.script(...Array.from({ length: 10 }, () => ({ status: 429 })));
    const cap = new SpendCap(2);
    const p = provider({ spendCap: cap });
    const err = await expectError(ask(p), 'API_ERROR', false);
    assert.ok(err.message.startsWith('Spend cap reached: attempts spent 2 of 2; '), err.message);
    assert.equal(fake.count(), 2);
    // The next call is refused before sending anything, also from another provider sharing the cap.
    await expectError(ask(p), 'API_ERROR', false);
    await expectError(ask(provider({ spendCap: cap })), 'API_ERROR', false);
    assert.equal(fake.count(), 2);
    assert.equal(cap.used, 2);
  });

  test('every retry attempt is counted', async () => {
    fake.script({ status: 500 }, { status: 500 });
    const cap = new SpendCap(10);
    await ask(provider({ spendCap: cap }));
    assert.equal(cap.used, 3);
  });
});

describe('malformed answers (via judge → INVALID_RESPONSE, never retried)', () => {
  test('a non-JSON 200 body', async () => {
    fake.script({ raw: '<html>fake-upstream-detail</html>' });
    const err = await expectError(ask(provider()), 'INVALID_RESPONSE', false);
    assert.match(err.message, /HTTP 200 .*not JSON/);
    assert.equal(fake.count(), 1);
  });

  test('an empty 200 body', async () => {
    fake.script({ raw: '' });
    await expectError(ask(provider()), 'INVALID_RESPONSE', false);
    assert.equal(fake.count(), 1);
  });

  test('an off-list choice', async () => {
    fake.setAnswerer((req) => answerAll(req.body.questions, { route: choice('delete', 0.9, { read: 0.05, write: 0.05, none: 0.9 }) }));
    const err = await expectError(ask(provider()), 'INVALID_RESPONSE', false);
    assert.match(err.message, /"delete".*not one of the offered options/);
    assert.equal(fake.count(), 1);
  });

  test('probabilities summing to 1.3', async () => {
    fake.setAnswerer((req) => answerAll(req.body.questions, { route: choice('read', 0.8, { read: 0.8, write: 0.3, none: 0.2 }) }));
    const err = await expectError(ask(provider()), 'INVALID_RESPONSE', false);
    assert.match(err.message, /summing to 1\.3/);
    assert.equal(fake.count(), 1);
  });

  test('a missing answer', async () => {
    fake.setAnswerer((req) => answerAll(req.body.questions, { quality: OMIT }));
    const err = await expectError(ask(provider()), 'INVALID_RESPONSE', false);
    assert.match(err.message, /missing the answer to "quality"/);
    assert.equal(fake.count(), 1);
  });
});

describe('redirects are refused', () => {
  for (const status of [301, 302, 307, 308]) {
    test(`${status} with Location → API_ERROR not retryable, redirect not followed`, async () => {
      fake.script({ status, headers: { location: '/v1/elsewhere' } });
      const err = await expectError(ask(provider()), 'API_ERROR', false);
      assert.match(err.message, /redirect.*refused/);
      assert.equal(fake.count(), 1, 'the Location target must not be requested');
    });
  }

  test('a 3xx without Location → API_ERROR naming the redirect', async () => {
    fake.script({ status: 300 });
    const err = await expectError(ask(provider()), 'API_ERROR', false);
    assert.match(err.message, /redirect \(HTTP 300\), which was refused/);
  });
});

describe('the key never leaks', () => {
  test('no failure message or inspected error contains the key', async () => {
    const scenarios: Array<[() => void, JevErrorCode, boolean, number]> = [
      [() => fake.script({ status: 401 }), 'API_ERROR', false, 5_000],
      [() => fake.script({ status: 500 }, { status: 500 }, { status: 500 }), 'API_ERROR', true, 5_000],
      [() => fake.script({ reset: true }, { reset: true }, { reset: true }), 'API_ERROR', true, 5_000],
      [() => fake.script({ hang: true }), 'TIMEOUT', true, 200],
      [() => fake.script({ raw: 'nope' }), 'INVALID_RESPONSE', false, 5_000],
      [() => fake.script({ status: 302, headers: { location: '/x' } }), 'API_ERROR', false, 5_000],
    ];
    for (const [arrange, code, retryable, ms] of scenarios) {
      arrange();
      const err = await expectError(ask(provider(), ctx(ms)), code, retryable);
      assert.ok(!JSON.stringify(err.toJSON()).includes(KEY));
    }
    assert.ok(fake.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`));
    assert.ok(!inspect(provider()).includes(KEY), 'the provider object must not show the key');
  });
});
