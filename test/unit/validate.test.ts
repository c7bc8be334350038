/** Answer validation rules: every rule rejects with INVALID_RESPONSE. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { JevError } from '../../src/judgment/errors';
import type { QuestionMap } from '../../src/judgment/types';
import { validateResponse } from '../../src/judgment/validate';

const QUESTIONS: QuestionMap = {
  safe: { type: 'noul', instructions: 'Safe?' },
  pick: { type: 'choice', instructions: 'Which?', criteria: { a: 'first', b: null } },
  grade: { type: 'score', instructions: 'How good?', criteria: ['low', 'mid', 'high'] },
};

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

  test('tolerance: a distribution summing to 0.995 passes', () => {
    const out = validateResponse(QUESTIONS, body((b) => (b.answers.pick.probabilities = { a: 0.695, b: 0.3 })));
    assert.equal(out.answers.pick!.type === 'choice' && out.answers.pick!.probabilities.a, 0.695);
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
  test('a missing option in the distribution', () => {
    rejects(body((b) => (b.answers.pick.probabilities = { a: 1 })), /lacks a probability in \[0,1\] for "b"/);
  });
  test('a probability outside [0,1]', () => {
    rejects(body((b) => (b.answers.pick.probabilities = { a: 1.2, b: -0.2 })), /lacks a probability in \[0,1\]/);
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
  test('a legend missing, short or non-text', () => {
    rejects(body((b) => delete b.answers.grade.legend), /legend with one text per level 0\.\.2/);
    rejects(body((b) => (b.answers.grade.legend = { '0': 'low', '1': 'mid' })), /legend/);
    rejects(body((b) => (b.answers.grade.legend = { '0': 'low', '1': 'mid', '2': 3 })), /legend/);
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
