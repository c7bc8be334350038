/**
 * Every error code reaching every tool's result over real HTTP: JudgmentService →
 * SystemOneProvider → the fake System One server on 127.0.0.1. Each failure carries its code and
 * `retryable`, no result, no answer, a ledger record with the same error, and no
 * upstream body in its message. Local failures (bad input, oversized input, bad configuration) make no
 * request at all.
 */
// Every assert.ok carries a message: without one node's assert re-reads the source to describe a failure.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config/env';
import { JevError } from '../../src/judgment/errors';
import type { QuestionMap } from '../../src/judgment/types';
import { createProvider } from '../../src/providers/factory';
import { SpendCap } from '../../src/providers/spend-cap';
import { ALL_TOOLS } from '../../src/tools/index';
import { JudgmentService } from '../../src/tools/judgment-service';
import { OMIT, noul } from '../helpers/fake-systemone';
import { failed, okResult, startDecisionHarness, type AnswerPlan, type Answers, type DecisionHarness } from '../helpers/decision-harness';

let h: DecisionHarness;
before(async () => {
  h = await startDecisionHarness();
});
after(async () => {
  await h.close();
});

const CANDIDATE = {
  id: 'read-parser',
  name: 'read_file',
  arguments: { path: 'src/parser.ts' },
  description: 'Read the parser',
  effect: 'read_only',
  authorized: true,
  schema_valid: true,
  preconditions_met: true,
};
const LOOP = { task: 'Fix the parser', observation: 'test fails' };
const NOUL_Q = { ok: { type: 'noul', instructions: 'Is it fine?' } };

/** Valid arguments of every tool, each making at least one request. */
const VALID: Record<string, Record<string, unknown>> = {
  ask_noul: { state: 's', instruction: 'Is it fine?' },
  ask_choice: { state: 's', instruction: 'Which?' },
  ask_score: { state: 's', instruction: 'How good?' },
  evaluate_policy: { state: 's', questions: NOUL_Q, policy: { rules: [{ question: 'ok', pass: { noul: { min: 0.5 } } }] } },
  jev_step: { ...LOOP, candidates: [CANDIDATE] },
  jev_coding_loop: LOOP,
  jev_tool_route: { ...LOOP, candidates: [CANDIDATE] },
  jev_review: { request: 'r', diff: 'd' },
  jev_verify: { claims: ['c'], evidence: 'e' },
  jev_gate: { request: 'r', diff: 'd', claims: ['c'], evidence: 'e' },
  jev_screen: { text: 't' },
  jev_rank: { query: 'q', candidates: [{ id: 'a', text: 'a' }, { id: 'b', text: 'b' }] },
  jev_evaluate: { state: 's', questions: NOUL_Q },
  jev_permit: { request: 'r', call: { tool: 'Bash', input: { command: 'ls' } }, host: { name: 'claude-code', agent: 'editor' } },
};
const TOOLS = ALL_TOOLS.map((t) => t.name);

test('the table covers all 14 tools', () => {
  assert.deepEqual(Object.keys(VALID).sort(), [...TOOLS].sort());
  assert.equal(TOOLS.length, 14);
});

/** Answers the first question of each request badly for its type: off-list choice, noul 1.2, score mass 1.3. */
const malformed = (questions: QuestionMap): Answers => {
  const [id, q] = Object.entries(questions)[0]!;
  if (q.type === 'choice') {
    const options = Object.keys(q.criteria);
    return { [id]: { type: 'choice', choice: 'invented-option', confidence: 0.9, probabilities: Object.fromEntries(options.map((o, i) => [o, i === 0 ? 1 : 0])) } };
  }
  if (q.type === 'noul') return { [id]: noul(1.2) };
  const probabilities = Object.fromEntries(q.criteria.map((_, i) => [String(i), i === 0 ? 1.3 : 0]));
  const legend = Object.fromEntries(q.criteria.map((c, i) => [String(i), String(c)]));
  return { [id]: { type: 'score', score: 0, confidence: 0.9, probabilities, legend } };
};
/** Leaves the first asked question unanswered. */
const missingFirst: AnswerPlan = (questions: QuestionMap): Answers => ({ [Object.keys(questions)[0]!]: OMIT });
/** A choice answer whose probabilities sum to 1.3 (only for tools whose first choice question we can find). */
const massTooHigh: AnswerPlan = (questions: QuestionMap) => {
  const entry = Object.entries(questions).find(([, q]) => q.type === 'choice');
  if (!entry) return malformed(questions);
  const [id, q] = entry as [string, { criteria: Record<string, unknown> }];
  const options = Object.keys(q.criteria);
  return { [id]: { type: 'choice', choice: options[0], confidence: 0.9, probabilities: Object.fromEntries(options.map((o, i) => [o, i === 0 ? 1 : 0.3 / (options.length - 1)])) } };
};

async function until(predicate: () => boolean, timeoutMs = 2_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 2));
  }
}

for (const tool of TOOLS) {
  describe(`${tool}: error codes over HTTP`, () => {
    const args = VALID[tool]!;

    test('well-formed answers succeed (baseline: one request or more)', async () => {
      const run = await h.run(tool, args);
      okResult(run);
      assert.ok(run.requests.length >= 1, 'the call reached the fake upstream');
    });

    test('INVALID_INPUT: an unknown argument, no request', async () => {
      const run = await h.run(tool, { ...args, bogus_field: 1 });
      failed(run, 'INVALID_INPUT', false);
      assert.equal(run.requests.length, 0, 'no upstream request');
    });

    test('INPUT_TOO_LARGE: upstream 413', async () => {
      h.fake.script({ status: 413 });
      const run = await h.run(tool, args);
      failed(run, 'INPUT_TOO_LARGE', false);
      assert.equal(run.requests.length, 1, 'not retried');
    });

    test('INPUT_TOO_LARGE: upstream 400 max_tokens_exceeded', async () => {
      h.fake.script({ status: 400, body: { detail: { error_type: 'max_tokens_exceeded', message: 'fake-upstream-detail: too long' } } });
      const run = await h.run(tool, args);
      failed(run, 'INPUT_TOO_LARGE', false);
    });

    test('INVALID_RESPONSE: a 200 body that is not JSON', async () => {
      h.fake.script({ raw: 'fake-upstream-detail: <html>oops</html>' });
      failed(await h.run(tool, args), 'INVALID_RESPONSE', false);
    });

    test('INVALID_RESPONSE: a missing answer', async () => {
      failed(await h.run(tool, args, missingFirst), 'INVALID_RESPONSE', false);
    });

    test('INVALID_RESPONSE: an off-list choice / noul 1.2 / score mass 1.3', async () => {
      failed(await h.run(tool, args, malformed), 'INVALID_RESPONSE', false);
    });

    test('INVALID_RESPONSE: probabilities summing to 1.3', async () => {
      failed(await h.run(tool, args, massTooHigh), 'INVALID_RESPONSE', false);
    });

    test('TIMEOUT: the upstream hangs past the call deadline', async () => {
      h.fake.script({ hang: true });
      const started = Date.now();
      const run = await h.run(tool, args, {}, { timeoutMs: 200 });
      failed(run, 'TIMEOUT', true);
      assert.ok(Date.now() - started < 2_000, 'fails near the deadline');
    });

    test('CANCELLED: the caller aborts while the request is in flight; the socket closes', async () => {
      h.fake.script({ hang: true });
      const controller = new AbortController();
      const start = h.fake.count();
      const closedBefore = h.fake.closedSockets();
      const pending = h.run(tool, args, {}, { signal: controller.signal });
      await until(() => h.fake.count() > start);
      controller.abort();
      failed(await pending, 'CANCELLED', false);
      await h.fake.waitForClosedSockets(closedBefore + 1);
    });

    test('API_ERROR: 401 is final (not retryable, one attempt)', async () => {
      h.fake.script({ status: 401 });
      const run = await h.run(tool, args);
      failed(run, 'API_ERROR', false);
      assert.equal(run.requests.length, 1, 'not retried');
    });

    test('API_ERROR: 503 on every attempt → retryable after 3 attempts', async () => {
      h.fake.script({ status: 503 }, { status: 503 }, { status: 503 });
      const run = await h.run(tool, args);
      failed(run, 'API_ERROR', true);
      assert.equal(run.requests.length, 3, 'three attempts');
    });

    test('429 then success: the retry reaches the result', async () => {
      h.fake.script({ status: 429 });
      const run = await h.run(tool, args);
      okResult(run);
      assert.ok(run.requests.length >= 2, 'retried after 429');
    });

    test('API_ERROR: the spend cap stops the call before anything is sent; the message names the limit', async () => {
      const cap = new SpendCap(1);
      const service = h.service({ spendCap: cap });
      okResult(await h.run(tool, args, {}, { service }));
      const run = await h.run(tool, args, {}, { service });
      const message = failed(run, 'API_ERROR', false);
      assert.ok(message.includes('1'), `the message names the limit: ${message}`);
      assert.equal(run.requests.length, 0, 'nothing sent once the cap is reached');
    });
  });
}

describe('deadline and cancellation across local branches and tournament rounds', () => {
  const tournament = { query: 'q', candidates: Array.from({ length: 300 }, (_, i) => ({ id: `c${i}`, text: `text ${i}` })) };

  test('jev_tool_route with no eligible candidate still honours a cancelled call (no request)', async () => {
    const controller = new AbortController();
    controller.abort();
    const run = await h.run('jev_tool_route', { ...LOOP, candidates: [{ ...CANDIDATE, authorized: false }] }, {}, { signal: controller.signal });
    failed(run, 'CANCELLED', false);
    assert.equal(run.requests.length, 0, 'no upstream request');
  });

  test('jev_rank: cancelled during the first round → CANCELLED, no further request', async () => {
    const controller = new AbortController();
    const run = await h.run('jev_rank', tournament, () => {
      controller.abort();
      return {};
    }, { signal: controller.signal });
    failed(run, 'CANCELLED', false);
    assert.equal(run.requests.length, 1, 'the tournament stopped after the first request');
  });

  test('jev_rank: one deadline covers every round — the second request hangs → TIMEOUT', async () => {
    h.fake.script({ status: 200 }, { hang: true });
    const run = await h.run('jev_rank', tournament, {}, { timeoutMs: 400 });
    failed(run, 'TIMEOUT', true);
    assert.equal(run.requests.length, 2, 'two sequential requests under one deadline');
  });
});

describe('local limits and thresholds: no request', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => ({ ...CANDIDATE, id: `c${i}` }));
  const rows: Array<[string, string, Record<string, unknown>, 'INVALID_INPUT' | 'INPUT_TOO_LARGE']> = [
    ['jev_tool_route', '33 candidates', { ...LOOP, candidates: many(33) }, 'INPUT_TOO_LARGE'],
    ['jev_step', '33 candidates', { ...LOOP, candidates: many(33) }, 'INPUT_TOO_LARGE'],
    ['jev_verify', '1 001 claims', { claims: Array.from({ length: 1_001 }, (_, i) => `claim ${i}`), evidence: 'e' }, 'INPUT_TOO_LARGE'],
    ['jev_gate', '1 001 claims', { request: 'r', diff: 'd', claims: Array.from({ length: 1_001 }, (_, i) => `claim ${i}`), evidence: 'e' }, 'INPUT_TOO_LARGE'],
    ['jev_rank', '5 001 candidates', { query: 'q', candidates: Array.from({ length: 5_001 }, (_, i) => ({ id: `c${i}`, text: 't' })) }, 'INPUT_TOO_LARGE'],
    ['jev_evaluate', 'a choice with 251 options', { state: 's', questions: { pick: { type: 'choice', instructions: 'Which?', criteria: Object.fromEntries(Array.from({ length: 251 }, (_, i) => [`o${i}`, null])) } } }, 'INPUT_TOO_LARGE'],
    ['ask_noul', 'a question over the token budget', { state: 's', instruction: 'x'.repeat(300_000) }, 'INPUT_TOO_LARGE'],
    ['jev_coding_loop', 'inverted thresholds', { ...LOOP, auto_accept: 0.6, review_at: 0.7 }, 'INVALID_INPUT'],
    ['jev_step', 'inverted thresholds', { ...LOOP, auto_accept: 0.6, review_at: 0.7 }, 'INVALID_INPUT'],
    ['jev_tool_route', 'inverted thresholds', { ...LOOP, candidates: [CANDIDATE], auto_accept: 0.6, review_at: 0.7 }, 'INVALID_INPUT'],
    ['jev_review', 'inverted thresholds', { request: 'r', diff: 'd', auto_accept: 0.6, review_at: 0.7 }, 'INVALID_INPUT'],
    ['jev_gate', 'inverted thresholds', { request: 'r', diff: 'd', claims: ['c'], evidence: 'e', auto_accept: 0.6, review_at: 0.7 }, 'INVALID_INPUT'],
    ['jev_gate', 'review_at 0.9 above the auto_accept floor', { request: 'r', diff: 'd', claims: ['c'], evidence: 'e', review_at: 0.9 }, 'INVALID_INPUT'],
    ['jev_verify', 'auto_accept 1.5', { claims: ['c'], evidence: 'e', auto_accept: 1.5 }, 'INVALID_INPUT'],
    ['jev_screen', 'review_at above block_at', { text: 't', review_at: 0.8 }, 'INVALID_INPUT'],
    ['jev_tool_route', '__proto__ inside arguments', { ...LOOP, candidates: [{ ...CANDIDATE, arguments: JSON.parse('{"a":{"__proto__":{"x":1}}}') }] }, 'INVALID_INPUT'],
    ['jev_rank', 'duplicate candidate ids', { query: 'q', candidates: [{ id: 'a', text: 'x' }, { id: 'a', text: 'y' }] }, 'INVALID_INPUT'],
  ];
  for (const [tool, what, args, code] of rows) {
    test(`${tool}: ${what} → ${code}`, async () => {
      const run = await h.run(tool, args);
      failed(run, code, false);
      assert.equal(run.requests.length, 0, 'no upstream request');
    });
  }
});

describe('CONFIG_ERROR', () => {
  test('evaluate_policy with image evidence: no image-capable provider → CONFIG_ERROR, no request', async () => {
    const evidence = JSON.stringify({ images: [{ id: 'img1', data_base64: 'iVBORw0K', media_type: 'image/png' }], by_question: { ok: ['img1'] } });
    const run = await h.run('evaluate_policy', { ...VALID.evaluate_policy, evidence });
    failed(run, 'CONFIG_ERROR', false);
    assert.equal(run.requests.length, 0, 'no upstream request');
  });

  test('configuration from the environment reaches the fake over HTTP (floors, model, spend cap)', async () => {
    const config = loadConfig({ JEV_BASE_URL: h.fake.url, JEV_AUTO_ACCEPT: '0.9', JEV_MODEL: 'jev-env-model', JEV_SPEND_CAP: '1' });
    assert.equal(config.provider, 'systemone');
    const service = new JudgmentService({ provider: createProvider(config), tools: ALL_TOOLS, floors: config.floors, model: config.model, timeoutMs: config.timeoutMs });
    const run = await h.run('jev_review', VALID.jev_review, {}, { service });
    assert.equal(run.requests[0]!.body.model, 'jev-env-model');
    assert.deepEqual(okResult(run).thresholds, { auto_accept: 0.9, review_at: 0.5 });
    const capped = await h.run('jev_review', VALID.jev_review, {}, { service });
    failed(capped, 'API_ERROR', false);
    assert.equal(capped.requests.length, 0, 'JEV_SPEND_CAP=1 allows one attempt in all');
  });

  const bad: Array<[string, Record<string, string>]> = [
    ['JEV_REVIEW_AT above JEV_AUTO_ACCEPT', { JEV_REVIEW_AT: '0.9' }],
    ['JEV_AUTO_ACCEPT outside [0, 1]', { JEV_AUTO_ACCEPT: '1.5' }],
    ['JEV_BLOCK_AT below the screen review threshold', { JEV_BLOCK_AT: '0.2' }],
    ['JEV_TIMEOUT_MS not a positive integer', { JEV_TIMEOUT_MS: '0' }],
    ['JEV_SPEND_CAP 0', { JEV_SPEND_CAP: '0' }],
    ['plain http to a non-loopback host', { JEV_BASE_URL: 'http://example.com' }],
    ['an unknown JEV_PROVIDER', { JEV_PROVIDER: 'nope' }],
    ['an API key an HTTP header cannot carry', { JEV_API_KEY: 'sk bad key' }],
  ];
  for (const [name, env] of bad) {
    test(`${name} → CONFIG_ERROR before any request`, () => {
      const before = h.fake.count();
      let err: unknown;
      try {
        createProvider(loadConfig({ JEV_BASE_URL: h.fake.url, ...env }));
      } catch (e) {
        err = e;
      }
      assert.ok(err instanceof JevError, `expected a JevError, got ${String(err)}`);
      assert.deepEqual([err.code, err.retryable], ['CONFIG_ERROR', false]);
      assert.ok(!err.message.includes('sk bad key'), 'the key is never echoed');
      assert.equal(h.fake.count(), before, 'no upstream request');
    });
  }
});
