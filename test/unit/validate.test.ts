/**
 * Answer validation: what a System One answer may carry (a subset of the options, a sum within 0.005 per
 * probability given), what is refused with INVALID_RESPONSE naming the question, and normalisation.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { JevError } from '../../src/judgment/errors';
import type { QuestionMap } from '../../src/judgment/types';
import { validateResponse, validateResponseWithRaw } from '../../src/judgment/validate';

const QUESTIONS: QuestionMap = {
  safe: { type: 'noul', instructions: 'Safe?' },
  pick: { type: 'choice', instructions: 'Which?', criteria: { a: 'first', b: null } },
  grade: { type: 'score', instructions: 'How good?', criteria: ['low', 'mid', 'high'] },
};

const near = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} ≉ ${expected}`);

/** A valid body; `patch` edits a deep copy. */
function body(patch: (b: any) => void = () => undefined): any {
  const b = {
    model: 'jev-1.13.0',
    usage: { input_tokens: 120, output_tokens: 3 },
    answers: {
      safe: { type: 'noul', noul: 0.8 },
      pick: { type: 'choice', choice: 'a', confidence: 0.7, probabilities: { a: 0.7, b: 0.3 } },
      grade: { type: 'score', score: 1.5, confidence: 0.5, probabilities: { '0': 0, '1': 0.5, '2': 0.5 }, legend: { '0': 'low', '1': 'mid', '2': 'high' } },
    },
  };
  patch(b);
  return b;
}

function rejects(b: unknown, why: RegExp, questions: QuestionMap = QUESTIONS): void {
  assert.throws(
    () => validateResponse(questions, b),
    (err: unknown) => {
      assert.ok(err instanceof JevError, 'a JevError');
      assert.equal(err.code, 'INVALID_RESPONSE');
      assert.equal(err.retryable, false);
      assert.match(err.message, why);
      return true;
    },
  );
}

describe('accepted bodies', () => {
  test('a valid body comes back as a clean copy in question order', () => {
    const raw = body((b) => {
      b.answers = { grade: { ...b.answers.grade, extra: 'x' }, pick: b.answers.pick, safe: b.answers.safe, unasked: { type: 'noul', noul: 2 } };
    });
    const out = validateResponse(QUESTIONS, raw);
    assert.deepEqual(Object.keys(out.answers), ['safe', 'pick', 'grade']);
    assert.equal(out.model, 'jev-1.13.0');
    assert.deepEqual(out.usage, { input_tokens: 120, output_tokens: 3 });
    assert.deepEqual(out.answers.grade, {
      type: 'score', score: 1.5, confidence: 0.5, probabilities: { '0': 0, '1': 0.5, '2': 0.5 }, legend: { '0': 'low', '1': 'mid', '2': 'high' },
    });
    assert.ok(!('unasked' in out.answers), 'unasked answers are dropped');
    assert.notEqual(out.answers.pick, raw.answers.pick, 'a copy, not the raw object');
  });

  test('tolerance: a distribution summing to 0.995 passes, normalised; the numbers as sent are kept apart', () => {
    const { response, rawAnswers } = validateResponseWithRaw(QUESTIONS, body((b) => (b.answers.pick.probabilities = { a: 0.695, b: 0.3 })));
    const pick = response.answers.pick!;
    assert.ok(pick.type === 'choice');
    near(pick.probabilities.a!, 0.695 / 0.995);
    near(pick.probabilities.b!, 0.3 / 0.995);
    assert.equal(pick.confidence, 0.7, 'confidence is the provider\'s own');
    assert.deepEqual(rawAnswers, { pick: { type: 'choice', choice: 'a', confidence: 0.7, probabilities: { a: 0.695, b: 0.3 } } });
  });

  test('a distribution that already sums to 1 over every option is kept as sent, with no raw copy', () => {
    const { response, rawAnswers } = validateResponseWithRaw(QUESTIONS, body());
    assert.equal(rawAnswers, undefined);
    assert.deepEqual(response.answers.pick, { type: 'choice', choice: 'a', confidence: 0.7, probabilities: { a: 0.7, b: 0.3 } });
  });

  test('a choice may give a subset of the options: the rest count as 0', () => {
    const four: QuestionMap = { route: { type: 'choice', instructions: 'Which?', criteria: { read: null, write: null, run: null, none: null } } };
    const raw = { type: 'choice', choice: 'run', confidence: 0.8, probabilities: { run: 0.9, read: 0.1 } };
    const { response, rawAnswers } = validateResponseWithRaw(four, { model: 'm', usage: { input_tokens: 1, output_tokens: 1 }, answers: { route: raw } });
    assert.deepEqual(response.answers.route, { type: 'choice', choice: 'run', confidence: 0.8, probabilities: { read: 0.1, write: 0, run: 0.9, none: 0 } });
    assert.deepEqual(Object.keys((response.answers.route as { probabilities: object }).probabilities), ['read', 'write', 'run', 'none'], 'offered order');
    assert.deepEqual(rawAnswers?.route, { ...raw, probabilities: { read: 0.1, run: 0.9 } });
    // the tolerance counts the probabilities given: 0.995 over 2 given passes, 0.985 does not
    const sent = (probabilities: object) => ({ model: 'm', usage: { input_tokens: 1, output_tokens: 1 }, answers: { route: { ...raw, probabilities } } });
    validateResponse(four, sent({ run: 0.895, read: 0.1 }));
    rejects(sent({ run: 0.885, read: 0.1 }), /"route" has probabilities summing to 0\.985, not 1/, four);
  });

  test('a sum within tolerance but far from 1 over many options is rescaled before anyone reads it', () => {
    const options = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`o${i}`, null]));
    const q: QuestionMap = { many: { type: 'choice', instructions: 'Which?', criteria: options } };
    const probabilities = Object.fromEntries(Object.keys(options).map((k, i) => [k, i === 0 ? 0.79 : 0.01]));
    const out = validateResponse(q, { model: 'm', usage: { input_tokens: 1, output_tokens: 1 }, answers: { many: { type: 'choice', choice: 'o0', confidence: 0.7, probabilities } } });
    const p = (out.answers.many as { probabilities: Record<string, number> }).probabilities;
    near(p.o0!, 0.79 / 1.18);
    assert.ok(Math.abs(Object.values(p).reduce((a, b) => a + b, 0) - 1) < 1e-12);
  });

  test('tolerance scales with the option count (0.005 per option) and no further', () => {
    rejects(body((b) => (b.answers.pick.probabilities = { a: 0.68, b: 0.3 })), /summing to 0\.98/); // 2 options: |Δ| 0.02 > 0.01
    const three: QuestionMap = { g: QUESTIONS.grade! };
    validateResponse(three, { model: 'm', usage: { input_tokens: 0, output_tokens: 0 }, answers: { g: { type: 'score', score: 1.5, confidence: 0.5, probabilities: { '0': 0, '1': 0.49, '2': 0.5 }, legend: { '0': 'l', '1': 'm', '2': 'h' } } } });
  });

  test('a tie: the chosen option may share the peak', () => {
    validateResponse(QUESTIONS, body((b) => (b.answers.pick.probabilities = { a: 0.5, b: 0.5 })));
  });

  test('probabilities at the bounds 0 and 1 pass', () => {
    validateResponse(QUESTIONS, body((b) => {
      b.answers.safe.noul = 0;
      b.answers.pick = { type: 'choice', choice: 'b', confidence: 1, probabilities: { a: 0, b: 1 } };
    }));
  });
});

describe('body shape', () => {
  test('not a JSON object', () => {
    for (const b of [null, undefined, 'text', 42, [], true]) rejects(b, /not a JSON object/);
  });
  test('model missing or blank', () => {
    rejects(body((b) => delete b.model), /no model name/);
    rejects(body((b) => (b.model = '  ')), /no model name/);
    rejects(body((b) => (b.model = 7)), /no model name/);
  });
  test('usage missing, negative, fractional or non-numeric', () => {
    rejects(body((b) => delete b.usage), /no usage object/);
    rejects(body((b) => (b.usage.input_tokens = -1)), /usage\.input_tokens must be a non-negative integer/);
    rejects(body((b) => (b.usage.output_tokens = 1.5)), /usage\.output_tokens/);
    rejects(body((b) => (b.usage.input_tokens = '10')), /usage\.input_tokens/);
    rejects(body((b) => (b.usage.output_tokens = null)), /usage\.output_tokens/);
  });
  test('answers missing or not an object', () => {
    rejects(body((b) => delete b.answers), /no answers object/);
    rejects(body((b) => (b.answers = [])), /no answers object/);
  });
  test('a requested answer missing', () => {
    rejects(body((b) => delete b.answers.grade), /missing the answer to "grade"/);
    rejects(body((b) => (b.answers.safe = null)), /missing the answer to "safe"/);
  });
  test('a wrong answer type', () => {
    rejects(body((b) => (b.answers.safe = { type: 'choice', choice: 'a' })), /"safe" has type "choice"; expected noul/);
  });
});

describe('noul', () => {
  test('outside [0,1] or not a number', () => {
    for (const v of [1.2, -0.1, Number.NaN, Number.POSITIVE_INFINITY, '0.5', null]) {
      rejects(body((b) => (b.answers.safe.noul = v)), /"safe" must carry noul in \[0,1\]/);
    }
  });
});

describe('choice', () => {
  test('confidence outside [0,1]', () => {
    rejects(body((b) => (b.answers.pick.confidence = 1.5)), /"pick" must carry confidence/);
    rejects(body((b) => delete b.answers.pick.confidence), /confidence/);
  });
  test('an option that was not offered', () => {
    for (const v of ['invented-tool-id', 'other', '', 3]) rejects(body((b) => (b.answers.pick.choice = v)), /not one of the offered options/);
  });
  test('a probability for an option that was not offered', () => {
    rejects(body((b) => (b.answers.pick.probabilities = { a: 0.7, b: 0.2, other: 0.1 })), /"other", which was not offered/);
  });
  test('the chosen option without a probability', () => {
    rejects(body((b) => (b.answers.pick.probabilities = { b: 1 })), /"pick" chose "a" but gives it no probability/);
  });
  test('a probability outside [0,1] or not finite', () => {
    rejects(body((b) => (b.answers.pick.probabilities = { a: 1.2, b: -0.2 })), /"pick" gives "a" a probability that is not a number in \[0,1\]/);
    for (const v of [Number.POSITIVE_INFINITY, Number.NaN, '0.3', null, true]) {
      rejects(body((b) => (b.answers.pick.probabilities = { a: 0.7, b: v })), /"pick" gives "b" a probability that is not a number in \[0,1\]/);
    }
  });
  test('no probability mass at all, even where the tolerance would allow it', () => {
    const options = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`o${i}`, null]));
    const q: QuestionMap = { many: { type: 'choice', instructions: 'Which?', criteria: options } };
    const zeros = Object.fromEntries(Object.keys(options).map((k) => [k, 0]));
    rejects({ model: 'm', usage: { input_tokens: 1, output_tokens: 1 }, answers: { many: { type: 'choice', choice: 'o0', confidence: 0, probabilities: zeros } } }, /"many" has probabilities summing to 0, not 1/, q);
    rejects(body((b) => (b.answers.pick.probabilities = {})), /"pick" has probabilities summing to 0, not 1/);
  });
  test('no probabilities object', () => {
    rejects(body((b) => delete b.answers.pick.probabilities), /no probabilities object/);
  });
  test('mass far from 1', () => {
    rejects(body((b) => (b.answers.pick.probabilities = { a: 1, b: 1 })), /summing to 2, not 1/);
    rejects(body((b) => (b.answers.pick.probabilities = { a: 0.8, b: 0.5 })), /summing to 1\.3, not 1/);
  });
  test('a choice its own distribution does not favour', () => {
    rejects(body((b) => (b.answers.pick.probabilities = { a: 0, b: 1 })), /does not favour/);
  });
});

describe('score', () => {
  test('a score inconsistent with its distribution', () => {
    rejects(body((b) => {
      b.answers.grade.score = 0;
      b.answers.grade.probabilities = { '0': 0, '1': 1, '2': 0 };
    }), /inconsistent with its own distribution/);
  });
  test('a score outside the level range', () => {
    rejects(body((b) => (b.answers.grade.score = 2.5)), /score within 0\.\.2/);
    rejects(body((b) => (b.answers.grade.score = -1)), /score within 0\.\.2/);
  });
  test('a legend missing, without a level that has a probability, off the scale or non-text', () => {
    rejects(body((b) => delete b.answers.grade.legend), /"grade" has no legend object: a score answer carries a legend with the same levels as its probabilities/);
    rejects(body((b) => (b.answers.grade.legend = { '0': 'low', '1': 'mid' })), /legend/);
    rejects(body((b) => (b.answers.grade.legend = { '0': 'low', '1': 'mid', '2': 3 })), /"grade" gives legend level "2" a value that is not text/);
    rejects(body((b) => (b.answers.grade.legend = { '0': 'low', '1': 'mid', '2': 'high', '3': 'x' })), /legend/);
    rejects(body((b) => (b.answers.grade.legend = { '0': 'low', '1': 'mid', '02': 'high' })), /legend/);
  });
  test('a score\'s legend and probabilities name the same levels: a legend level with no probability is refused, naming the question and the rule', () => {
    rejects(
      body((b) => {
        b.answers.grade = { type: 'score', score: 1.5, confidence: 0.5, probabilities: { '1': 0.5, '2': 0.5 }, legend: { '0': 'low', '1': 'mid', '2': 'high' } };
      }),
      /"grade" gives no probability for level 0: a score answer gives every level 0\.\.2 a probability \(only a choice may give a subset\)/,
    );
    rejects(
      body((b) => (b.answers.grade.legend = { '0': 'low', '2': 'high' })),
      /"grade" has legend levels "0", "2" but probabilities for "0", "1", "2": a score answer's legend and probabilities name the same levels/,
    );
  });
  test('a score may not give a subset of the levels (subset coverage is for choices only)', () => {
    rejects(
      body((b) => {
        b.answers.grade = { type: 'score', score: 1.5, confidence: 0.5, probabilities: { '1': 0.5, '2': 0.5 }, legend: { '1': 'mid', '2': 'high' } };
      }),
      /"grade" gives no probability for level 0/,
    );
  });
  test('a score consistent with its distribution as sent or as normalised passes; the score stays as sent', () => {
    const levels = Array.from({ length: 26 }, (_, i) => `level ${i}`);
    const q: QuestionMap = { s: { type: 'score', instructions: 'How much?', criteria: levels } };
    const answer = (score: number) => ({
      model: 'm',
      usage: { input_tokens: 1, output_tokens: 1 },
      answers: { s: { type: 'score', score, confidence: 0.5, probabilities, legend: Object.fromEntries(levels.map((t, i) => [String(i), t])) } },
    });
    // Σp = 1.12 over 26 levels (tolerance 0.13): as sent the expected level is 25.14, normalised 22.45
    const probabilities = Object.fromEntries(levels.map((_, i) => [String(i), i === 25 ? 0.9 : 0.0088]));
    const out = validateResponse(q, answer(22.45));
    assert.equal((out.answers.s as { score: number }).score, 22.45);
    validateResponse(q, answer(25));
    rejects(answer(15), /"s" has a score inconsistent with its own distribution/, q);
  });
  test('probabilities keyed other than 0..n-1, or summing far from 1', () => {
    rejects(body((b) => (b.answers.grade.probabilities = { '1': 0.5, '2': 0.5, '3': 0 })), /"3", which was not offered/);
    rejects(body((b) => (b.answers.grade.probabilities = { '0': 0.5, '1': 0.5, '2': 0.5 })), /summing to 1\.5/);
  });
  test('confidence outside [0,1]', () => {
    rejects(body((b) => (b.answers.grade.confidence = -0.1)), /"grade" must carry confidence/);
  });
});

test('messages never echo long upstream text', () => {
  const long = 'Z'.repeat(5_000);
  rejects(body((b) => (b.answers.pick.choice = long)), /not one of the offered options/);
  try {
    validateResponse(QUESTIONS, body((b) => (b.answers.pick.choice = long)));
  } catch (err) {
    assert.ok((err as Error).message.length < 300);
  }
});

describe('keys that look like the prototype', () => {
  test('a "__proto__" question id and option stay own keys of the validated answers, and nothing is polluted', () => {
    const questions = JSON.parse(
      '{"__proto__": {"type": "choice", "instructions": "Which?", "criteria": {"__proto__": "odd", "plain": "even"}}}',
    ) as QuestionMap;
    const sent = JSON.parse(
      '{"model": "m", "usage": {"input_tokens": 1, "output_tokens": 1}, "answers": {"__proto__": {"type": "choice", "choice": "__proto__", "confidence": 0.2, "probabilities": {"__proto__": 0.5, "plain": 0.495}}}}',
    );
    const { response, rawAnswers } = validateResponseWithRaw(questions, sent);
    assert.ok(Object.hasOwn(response.answers, '__proto__'), 'the answer id is an own key');
    const answer = response.answers['__proto__'] as { probabilities: Record<string, number> };
    assert.deepEqual(Object.keys(answer.probabilities), ['__proto__', 'plain']);
    near(answer.probabilities['__proto__']!, 0.5 / 0.995);
    assert.ok(Object.hasOwn(rawAnswers!, '__proto__'));
    assert.equal(Object.getPrototypeOf(answer.probabilities), Object.prototype);
    assert.equal(({} as Record<string, unknown>).plain, undefined);
  });
});
