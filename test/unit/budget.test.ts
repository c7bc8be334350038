/** Token estimate, truncation and budget fitting. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  MAX_STATE_PLUS_LONGEST_QUESTION_TOKENS,
  MAX_TOTAL_TOKENS,
  TRUNCATION_MARKER,
  estimateTokens,
  fitState,
  localCoverage,
  questionEstimates,
  stringifyState,
  truncateText,
} from '../../src/judgment/budget';
import { JevError } from '../../src/judgment/errors';
import { recordRequestBody, requestBodyJson } from '../../src/judgment/request-body';
import type { QuestionMap } from '../../src/judgment/types';

const SMALL: QuestionMap = {
  ok: { type: 'noul', instructions: 'Is the step safe?' },
  pick: { type: 'choice', instructions: 'Which?', criteria: { a: 'first', b: null } },
};

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;

describe('estimateTokens', () => {
  test('ASCII costs a quarter token per char, rounded up', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('abcd'), 1);
    assert.equal(estimateTokens('abcde'), 2);
    assert.equal(estimateTokens('x'.repeat(400)), 100);
  });

  test('every non-ASCII char costs at least one token', () => {
    const cjk = '漢字テスト中文한국어日本語漢字テスト中文'; // 20 chars
    assert.equal(cjk.length, 20);
    assert.ok(estimateTokens(cjk) >= 20);
    assert.equal(estimateTokens('é'.repeat(7) + 'abcd'), 8);
  });
});

describe('truncateText', () => {
  const long = 'The quick brown fox jumps over the lazy dog. '.repeat(10);
  for (const cap of [0, 1, 5, 13, 50]) {
    test(`cap ${cap}: never longer than the cap`, () => {
      const out = truncateText(long, cap);
      assert.ok(out.length <= cap, `${out.length} > ${cap}`);
      if (cap >= TRUNCATION_MARKER.length) {
        assert.ok(out.endsWith(TRUNCATION_MARKER));
        assert.equal(out, long.slice(0, cap - TRUNCATION_MARKER.length) + TRUNCATION_MARKER);
      } else {
        assert.equal(out, TRUNCATION_MARKER.slice(0, cap));
      }
    });
  }

  test('the marker is newline + "…[truncated]", 13 UTF-16 units', () => {
    assert.equal(TRUNCATION_MARKER, '\n…[truncated]');
    assert.equal(TRUNCATION_MARKER.length, 13);
  });

  test('text within the cap is unchanged', () => {
    assert.equal(truncateText('short', 5), 'short');
    assert.equal(truncateText('short', 50), 'short');
  });

  test('a surrogate pair is never split', () => {
    const text = 'abc😀def'.repeat(100);
    assert.equal(truncateText(text, 17), 'abc' + TRUNCATION_MARKER);
    for (let cap = 13; cap < 60; cap++) {
      const out = truncateText(text, cap);
      const body = out.slice(0, out.length - TRUNCATION_MARKER.length);
      assert.ok(out.length <= cap);
      assert.ok(body.length === 0 || !isHighSurrogate(body.charCodeAt(body.length - 1)), `cap ${cap} ends on a lone high surrogate`);
    }
  });
});

describe('fitState', () => {
  test('a state within budget is sent unchanged (same object) with complete coverage', () => {
    const state = { goal: 'fix the test', diff: '+ a\n- b' };
    const fitted = fitState(state, SMALL);
    const raw = JSON.stringify(state);
    const est = questionEstimates(SMALL);
    assert.equal(fitted.state, state);
    assert.equal(fitted.truncated, false);
    assert.deepEqual(fitted.coverage, {
      complete: true,
      original_chars: raw.length,
      evaluated_chars: raw.length,
      estimated_tokens: { state: estimateTokens(raw), questions: est.questions, longest_question: est.longest },
      estimator: 'chars/4',
    });
    assert.equal(est.questions, estimateTokens(JSON.stringify(SMALL)));
    assert.equal(est.longest, Math.max(...Object.values(SMALL).map((q) => estimateTokens(JSON.stringify(q)))));
  });

  test('string, null and undefined states are measured as text', () => {
    assert.equal(stringifyState('plain'), 'plain');
    assert.equal(stringifyState(null), '');
    assert.equal(stringifyState(undefined), '');
    assert.equal(fitState('plain', SMALL).coverage.original_chars, 5);
    assert.equal(fitState(undefined, SMALL).coverage.original_chars, 0);
  });

  test('an oversized state becomes a cut string that fits the budget, with coverage numbers', () => {
    const state = { log: 'line of build output\n'.repeat(10_000) }; // ~210 000 chars ≈ 52 500 tokens
    const raw = JSON.stringify(state);
    const est = questionEstimates(SMALL);
    const budget = Math.min(MAX_TOTAL_TOKENS - est.questions, MAX_STATE_PLUS_LONGEST_QUESTION_TOKENS - est.longest);
    const fitted = fitState(state, SMALL);
    assert.equal(fitted.truncated, true);
    assert.equal(typeof fitted.state, 'string');
    const text = fitted.state as string;
    assert.ok(text.endsWith(TRUNCATION_MARKER));
    assert.ok(raw.startsWith(text.slice(0, -TRUNCATION_MARKER.length)));
    assert.ok(estimateTokens(text) <= budget);
    // Longest fit: one more char of the original would exceed the budget.
    assert.ok(estimateTokens(truncateText(raw, text.length + 1)) > budget);
    assert.equal(fitted.coverage.complete, false);
    assert.equal(fitted.coverage.original_chars, raw.length);
    assert.equal(fitted.coverage.evaluated_chars, text.length - TRUNCATION_MARKER.length);
    assert.equal(fitted.coverage.estimated_tokens.state, estimateTokens(text));
    assert.ok(fitted.coverage.evaluated_chars < fitted.coverage.original_chars);
  });

  test('non-ASCII state is fitted by its real estimate, not chars/4', () => {
    const state = '検証'.repeat(20_000); // 40 000 chars, ≥ 40 000 tokens
    const fitted = fitState(state, SMALL);
    assert.equal(fitted.truncated, true);
    const est = questionEstimates(SMALL);
    assert.ok(estimateTokens(fitted.state as string) <= MAX_STATE_PLUS_LONGEST_QUESTION_TOKENS - est.longest);
    assert.ok((fitted.state as string).length < 32_000);
  });

  test('a single question over the state+question budget → INPUT_TOO_LARGE before any request', () => {
    const huge: QuestionMap = { q: { type: 'noul', instructions: 'x'.repeat(130_000) } };
    assert.throws(
      () => fitState('s', huge),
      (err: unknown) => err instanceof JevError && err.code === 'INPUT_TOO_LARGE' && !err.retryable && /questions exceed/.test(err.message),
    );
  });

  test('many questions over the total budget → INPUT_TOO_LARGE', () => {
    const many: QuestionMap = {};
    for (let i = 0; i < 3; i++) many[`q${i}`] = { type: 'noul', instructions: 'y'.repeat(90_000) }; // each ≈ 22 500 tokens
    assert.ok(questionEstimates(many).longest < MAX_STATE_PLUS_LONGEST_QUESTION_TOKENS);
    assert.throws(() => fitState('', many), (err: unknown) => err instanceof JevError && err.code === 'INPUT_TOO_LARGE');
  });
});

test('localCoverage describes an empty, complete evaluation', () => {
  assert.deepEqual(localCoverage(), {
    complete: true,
    original_chars: 0,
    evaluated_chars: 0,
    estimated_tokens: { state: 0, questions: 0, longest_question: 0 },
    estimator: 'chars/4',
  });
});

import { judge } from '../../src/judgment/judge';
import { LARGEST_REQUEST_INPUT_TOKENS, type JudgmentProvider } from '../../src/judgment/provider';

test('the 64 000-token context check uses the largest single request when the provider reports it', async () => {
  const questions = { q: { type: 'noul' as const, instructions: 'Is it?' } };
  const body = (largest?: number) => ({
    model: 'm',
    usage: { input_tokens: 90_000, output_tokens: 1 },
    answers: { q: { type: 'noul', noul: 0.9 } },
    ...(largest === undefined ? {} : { [LARGEST_REQUEST_INPUT_TOKENS]: largest }),
  });
  const ctx = { signal: new AbortController().signal, deadline: Date.now() + 10_000 };
  const provider = (b: unknown): JudgmentProvider => ({ id: 'stub', calibrated: true, systemOne: async () => b });
  const summed = await judge(provider(body()), ctx, 'state', questions, 'm');
  assert.equal(summed.truncated, true, 'summed usage over 64 000 marks the request incomplete');
  assert.equal(summed.coverage.complete, false);
  const split = await judge(provider(body(20_000)), ctx, 'state', questions, 'm');
  assert.equal(split.truncated, false, 'per-request figure under the budget keeps coverage complete');
  assert.equal(split.coverage.complete, true);
});

describe('serialized once: the JSON texts fitState hands on for the request body', () => {
  const questions: QuestionMap = { ...SMALL, 'ünï "q"': { type: 'noul', instructions: 'Tab\there, emoji 😀, quote "x"' }, ...JSON.parse('{"__proto__": {"type": "noul", "instructions": "p"}}') };
  const state = { task: 'fix ünïcode 😀', list: [1, 'two', { three: null }], nested: { a: '"quoted"\n' } };

  test('state and question map texts are exactly what JSON.stringify writes, and the body matches too', () => {
    assert.ok(Object.hasOwn(questions, '__proto__'), 'a "__proto__" question id stays an own key');
    const fitted = fitState(state, questions);
    assert.deepEqual(fitted.json, { state: JSON.stringify(state), questions: JSON.stringify(questions) });
    const request = { state: fitted.state, questions, model: 'jev-latest' };
    recordRequestBody(request, fitted.json!);
    assert.equal(requestBodyJson(request), JSON.stringify(request));
    const other = { state: fitted.state, questions, model: 'm2' };
    assert.equal(requestBodyJson(other), JSON.stringify(other), 'an unrecorded request is serialized on demand');
  });

  test('no texts when they could differ from JSON.stringify: a cut state, a string state, a toJSON of its own', () => {
    assert.equal(fitState('plain text', questions).json, undefined);
    assert.equal(fitState({ toJSON: (key: string) => key }, questions).json, undefined);
    assert.equal(fitState({ big: 'x'.repeat(200_000) }, questions).json, undefined);
    const withToJson = { ...SMALL, odd: { type: 'noul', instructions: 'i', toJSON: () => 'odd' } } as unknown as QuestionMap;
    assert.equal(fitState(state, withToJson).json, undefined);
  });

  test('cut: false leaves an over-budget state whole and says so', () => {
    const big = { big: 'x'.repeat(200_000) };
    const fitted = fitState(big, questions, { cut: false });
    assert.equal(fitted.truncated, true);
    assert.equal(fitted.state, big);
    assert.equal(fitted.originalTokens, estimateTokens(JSON.stringify(big)));
    assert.ok(fitted.originalTokens > fitted.budget);
  });
});
