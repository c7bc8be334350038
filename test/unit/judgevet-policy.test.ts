import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  evaluatePolicy,
  parsePolicy,
  PolicyAnswerError,
  PolicyDefinitionError,
  reportToJson,
  validatePolicyValue,
  type PolicyQuestion,
} from '../../src/policy/judgevet-policy';
import { compareCodePoints, pyFloat, pyStr } from '../../src/policy/python-repr';
import { parseStrictJson, StrictJsonError } from '../../src/policy/strict-json';

const QUESTIONS: Record<string, PolicyQuestion> = {
  clear: { type: 'noul' },
  route: { type: 'choice', criteria: { billing: 'Billing issue', tech: 'Technical issue' } },
  sev: { type: 'score', criteria: ['low', 'mid', 'high'] },
};

const rules = (...r: unknown[]) => JSON.stringify({ rules: r });
const rule = (question: unknown, pass: unknown) => ({ question, pass });

function definitionError(source: string | object, questions = QUESTIONS): string {
  try {
    parsePolicy(source, questions);
  } catch (err) {
    assert.ok(err instanceof PolicyDefinitionError, `expected PolicyDefinitionError, got ${String(err)}`);
    return err.message;
  }
  assert.fail('policy was accepted');
}

describe('python repr', () => {
  test('floats print like Python repr', () => {
    const cases: [number, string][] = [
      [1, '1.0'],
      [0.1, '0.1'],
      [1e-5, '1e-05'],
      [1e16, '1e+16'],
      [1e15, '1000000000000000.0'],
      [0.0001, '0.0001'],
      [0.00012, '0.00012'],
      [2.5e-7, '2.5e-07'],
      [1.5e16, '1.5e+16'],
      [1e22, '1e+22'],
      [5e-324, '5e-324'],
      [1.7976931348623157e308, '1.7976931348623157e+308'],
      [123456789012345680, '1.2345678901234568e+17'],
      [0.1 + 0.2, '0.30000000000000004'],
      [-3, '-3.0'],
      [-0, '-0.0'],
      [0, '0.0'],
      [100, '100.0'],
      [0.79, '0.79'],
      [Infinity, 'inf'],
      [-Infinity, '-inf'],
      [NaN, 'nan'],
    ];
    for (const [n, want] of cases) assert.equal(pyFloat(n), want, `pyFloat(${n})`);
  });

  test('strings print like Python repr', () => {
    assert.equal(pyStr('abc'), "'abc'");
    assert.equal(pyStr("it's"), '"it\'s"');
    assert.equal(pyStr('a"b\'c'), "'a\"b\\'c'");
    assert.equal(pyStr('t\tn\nr\r\\'), "'t\\tn\\nr\\r\\\\'");
    assert.equal(pyStr('\u0001\u007f'), "'\\x01\\x7f'");
    assert.equal(pyStr('é😀'), "'é😀'");
    assert.equal(pyStr('\u200b\u00a0\u2028'), "'\\u200b\\xa0\\u2028'");
    assert.equal(pyStr('\ud800'), "'\\ud800'");
  });

  test('code-point order differs from UTF-16 order above the surrogates', () => {
    const astral = '\u{1F600}';
    const bmpHigh = '\uFF01';
    assert.ok(compareCodePoints(bmpHigh, astral) < 0);
    assert.ok(bmpHigh > astral, 'JS default order puts the astral char first');
    assert.deepEqual(['b', 'a', 'B'].sort(compareCodePoints), ['B', 'a', 'b']);
  });
});

describe('strict JSON reader', () => {
  const syntax = (text: string) => {
    try {
      parseStrictJson(text);
    } catch (err) {
      assert.ok(err instanceof StrictJsonError);
      return `${err.kind}: ${err.message}`;
    }
    assert.fail('accepted');
  };

  test('Python decoder messages and positions', () => {
    assert.equal(syntax(''), 'syntax: Expecting value: line 1 column 1 (char 0)');
    assert.equal(syntax('{"a" 1}'), "syntax: Expecting ':' delimiter: line 1 column 6 (char 5)");
    assert.equal(syntax('[1 2]'), "syntax: Expecting ',' delimiter: line 1 column 4 (char 3)");
    assert.equal(syntax("{'a':1}"), 'syntax: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)');
    assert.equal(syntax('"abc'), 'syntax: Unterminated string starting at: line 1 column 1 (char 0)');
    assert.equal(syntax('"a\\qb"'), 'syntax: Invalid \\escape: line 1 column 3 (char 2)');
    assert.equal(syntax('"a\nb"'), 'syntax: Invalid control character at: line 1 column 3 (char 2)');
    assert.equal(syntax('{"a":1}x'), 'syntax: Extra data: line 1 column 8 (char 7)');
    assert.equal(syntax('[\n1,\n  x]'), 'syntax: Expecting value: line 3 column 3 (char 7)');
    // Positions count code points, not UTF-16 units.
    assert.equal(syntax('{"é😀": tru}'), 'syntax: Expecting value: line 1 column 8 (char 7)');
    assert.equal(syntax('[1,]'), 'syntax: Illegal trailing comma before end of array: line 1 column 3 (char 2)');
  });

  test('duplicate keys are rejected, nested too; __proto__ stays an own key', () => {
    assert.equal(syntax('{"a":1,"a":2}'), 'duplicate-key: duplicate key in JSON object');
    assert.equal(syntax('{"x":{"b":1,"b":1}}'), 'duplicate-key: duplicate key in JSON object');
    const v = parseStrictJson('{"__proto__":{"polluted":1}}') as Record<string, unknown>;
    assert.ok(Object.hasOwn(v, '__proto__'));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
  });

  test('values decode like JSON.parse for valid text', () => {
    const text = '{"a":[1,-2.5e3,true,false,null,"\\u00e9\\n\\ud83d\\ude00"],"b":{}}';
    assert.deepEqual(parseStrictJson(text), JSON.parse(text));
  });

  test('Python constants are accepted by default and refused on request', () => {
    assert.ok(Number.isNaN((parseStrictJson('{"a":NaN}') as { a: number }).a));
    assert.equal((parseStrictJson('[-Infinity]') as number[])[0], -Infinity);
    assert.throws(() => parseStrictJson('[NaN]', { allowNonFiniteConstants: false }), StrictJsonError);
  });

  test('deep nesting is refused instead of overflowing the stack', () => {
    assert.throws(() => parseStrictJson('['.repeat(10_000)), /nesting deeper than 512 levels/);
  });
});

describe('policy grammar diagnostics', () => {
  const okNoul = rule('clear', { noul: { min: 0.5 } });

  test('step 1: JSON text', () => {
    assert.equal(definitionError('{"rules":[],"rules":[]}'), 'duplicate key in JSON object');
    assert.equal(definitionError('{'), 'invalid JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1))');
    assert.equal(definitionError(''), 'invalid JSON (Expecting value: line 1 column 1 (char 0))');
  });

  test('step 2: root and rules array', () => {
    assert.equal(definitionError('[]'), 'root must be a JSON object');
    assert.equal(definitionError('"text"'), 'root must be a JSON object');
    assert.equal(definitionError('{}'), "root must have exactly 'rules' field");
    assert.equal(definitionError(JSON.stringify({ rules: [okNoul], extra: 1 })), "root must have exactly 'rules' field");
    assert.equal(definitionError('{"rules":{}}'), 'rules must be an array');
    assert.equal(definitionError('{"rules":[]}'), 'rules array must not be empty');
    assert.equal(definitionError(rules(okNoul, 3)), 'rules[1] must be a JSON object');
    assert.equal(definitionError(rules([okNoul])), 'rules[0] must be a JSON object');
  });

  test('step 3: rule fields, first unknown in sorted order, cut to 64 and Python-quoted', () => {
    assert.equal(
      definitionError(rules({ ...okNoul, zeta: 1, alpha: 2 })),
      "rule has unknown field 'alpha'; expected 'question' and 'pass'",
    );
    assert.equal(definitionError(rules({ ...okNoul, Zed: 1, alpha: 2 })), "rule has unknown field 'Zed'; expected 'question' and 'pass'");
    const long = 'k'.repeat(100);
    assert.equal(definitionError(rules({ ...okNoul, [long]: 1 })), `rule has unknown field '${'k'.repeat(64)}'; expected 'question' and 'pass'`);
    assert.equal(definitionError(rules({ ...okNoul, "it's": 1 })), `rule has unknown field "it's"; expected 'question' and 'pass'`);
    assert.equal(definitionError(rules({ ...okNoul, 'a\nb': 1 })), "rule has unknown field 'a\\nb'; expected 'question' and 'pass'");
    // Unknown field wins over a missing one.
    assert.equal(definitionError(rules({ pass: {}, x: 1 })), "rule has unknown field 'x'; expected 'question' and 'pass'");
    assert.equal(definitionError(rules({ pass: { noul: { min: 0.5 } } })), "rule requires 'question' field");
    assert.equal(definitionError(rules({ question: 'clear' })), "rule requires 'pass' field");
  });

  test('step 4: question name', () => {
    assert.equal(definitionError(rules(rule('', { noul: { min: 0.5 } }))), 'question name must be a non-empty string');
    assert.equal(definitionError(rules(rule(5, { noul: { min: 0.5 } }))), 'question name must be a non-empty string');
    assert.equal(definitionError(rules(okNoul, okNoul)), 'duplicate rule for question');
    assert.equal(definitionError(rules(rule('nope', { noul: { min: 0.5 } }))), 'unknown question in rule');
  });

  test('step 5: pass object', () => {
    assert.equal(definitionError(rules(rule('clear', []))), 'pass must be an object');
    assert.equal(definitionError(rules(rule('clear', null))), 'pass must be an object');
    assert.equal(definitionError(rules(rule('clear', {}))), 'pass must have exactly one predicate type');
    assert.equal(definitionError(rules(rule('clear', { noul: {}, score: {} }))), 'pass must have exactly one predicate type');
    assert.equal(definitionError(rules(rule('clear', { noul: { min: 0.5 }, confidence: { min: 0.5 } }))), 'pass has unknown or misplaced fields');
    assert.equal(definitionError(rules(rule('route', { choice: 'billing', extra: 1 }))), 'pass has unknown or misplaced fields');
  });

  test('step 6: predicate kind must match the question type', () => {
    assert.equal(definitionError(rules(rule('route', { noul: { min: 0.5 } }))), 'predicate does not match question type');
    assert.equal(definitionError(rules(rule('clear', { score: { min: 1 } }))), 'predicate does not match question type');
  });

  test('step 7: ranges', () => {
    assert.equal(definitionError(rules(rule('clear', { noul: 0.5 }))), 'noul range must be an object');
    assert.equal(definitionError(rules(rule('sev', { score: [] }))), 'score range must be an object');
    assert.equal(
      definitionError(rules(rule('clear', { noul: { min: 0.5, foo: 1, bar: 2 } }))),
      "noul predicate has unknown field 'bar'; expected 'min' and 'max'",
    );
    assert.equal(definitionError(rules(rule('clear', { noul: {} }))), 'noul predicate requires at least one bound');
    assert.equal(definitionError(rules(rule('sev', { score: {} }))), 'score predicate requires at least one bound');
    assert.equal(definitionError(rules(rule('clear', { noul: { min: true } }))), 'noul min must be a finite number');
    assert.equal(definitionError(rules(rule('clear', { noul: { max: null } }))), 'noul max must be a finite number');
    assert.equal(definitionError(rules(rule('clear', { noul: { max: '0.5' } }))), 'noul max must be a finite number');
    assert.equal(definitionError('{"rules":[{"question":"clear","pass":{"noul":{"min":NaN}}}]}'), 'noul min must be a finite number');
    assert.equal(definitionError(rules(rule('clear', { noul: { min: 1.5 } }))), 'noul min must be in [0.0, 1.0]');
    assert.equal(definitionError(rules(rule('clear', { noul: { max: -0.1 } }))), 'noul max must be in [0.0, 1.0]');
    assert.equal(definitionError(rules(rule('sev', { score: { max: 3 } }))), 'score max must be in [0.0, 2.0]');
    assert.equal(definitionError(rules(rule('sev', { score: { min: -1 } }))), 'score min must be in [0.0, 2.0]');
    assert.equal(definitionError(rules(rule('clear', { noul: { min: 0.9, max: 0.8 } }))), 'noul min cannot exceed max');
    assert.equal(definitionError(rules(rule('sev', { score: { min: 2, max: 1 } }))), 'score min cannot exceed max');
    // Type of min is checked before max's range.
    assert.equal(definitionError(rules(rule('clear', { noul: { min: 'x', max: 7 } }))), 'noul min must be a finite number');
  });

  test('step 8: choice value', () => {
    assert.equal(definitionError(rules(rule('route', { choice: 5 }))), 'choice value must be a string');
    assert.equal(definitionError(rules(rule('route', { choice: 'sales' }))), 'choice value not found in question criteria');
  });

  test('step 9: confidence', () => {
    assert.equal(definitionError(rules(rule('route', { choice: 'billing', confidence: 0.5 }))), 'confidence must be an object');
    assert.equal(definitionError(rules(rule('sev', { score: { min: 1 }, confidence: {} }))), "confidence object must have exactly 'min' field");
    assert.equal(
      definitionError(rules(rule('sev', { score: { min: 1 }, confidence: { min: 0.5, max: 1 } }))),
      "confidence object must have exactly 'min' field",
    );
    assert.equal(
      definitionError(rules(rule('route', { choice: 'billing', confidence: { min: false } }))),
      'confidence min must be a finite number, not bool or nonfinite',
    );
    assert.equal(definitionError(rules(rule('route', { choice: 'billing', confidence: { min: 2 } }))), 'confidence min must be in [0.0, 1.0]');
    // The range of a score rule is checked before its confidence.
    assert.equal(definitionError(rules(rule('sev', { score: { min: 5 }, confidence: 3 }))), 'score min must be in [0.0, 2.0]');
  });

  test('question snapshots', () => {
    assert.equal(definitionError(rules(rule('s', { score: { min: 0 } })), { s: { type: 'score', criteria: [] } }), 'score criteria must be a non-empty sequence');
    assert.equal(definitionError(rules(rule('c', { choice: 'a' })), { c: { type: 'choice', criteria: ['a'] } }), 'choice criteria must be a mapping');
  });

  test('a decoded value is never read as policy text', () => {
    const text = rules(okNoul);
    assert.throws(() => validatePolicyValue(text, QUESTIONS), (e: Error) => e instanceof PolicyDefinitionError && e.message === 'root must be a JSON object');
    assert.equal(validatePolicyValue(JSON.parse(text), QUESTIONS).rules.length, 1);
  });

  test('rules may cover a subset of questions; bounds normalized; grammar accepted', () => {
    const v = parsePolicy(rules(rule('sev', { score: { min: 1, max: 2 }, confidence: { min: 0.5 } }), rule('route', { choice: 'tech' })), QUESTIONS);
    assert.deepEqual(v.rules, [
      { kind: 'score', question: 'sev', min: 1, max: 2, minConfidence: 0.5 },
      { kind: 'choice', question: 'route', choice: 'tech' },
    ]);
    assert.ok(Object.isFrozen(v.rules));
  });
});

describe('strict evaluation', () => {
  const policy = (...r: unknown[]) => parsePolicy({ rules: r }, QUESTIONS);
  const noul = (v: unknown) => ({ type: 'noul', noul: v });
  const choice = (c: string, confidence: unknown = 0.9) => ({ type: 'choice', choice: c, confidence, probabilities: {} });
  const score = (s: unknown, confidence: unknown = 0.9) => ({ type: 'score', score: s, confidence, legend: {}, probabilities: {} });
  const detail = (p: ReturnType<typeof policy>, answers: Record<string, unknown>) => evaluatePolicy(p, answers).rules.map((r) => r.detail);
  const answerError = (p: ReturnType<typeof policy>, answers: Record<string, unknown>) => {
    try {
      evaluatePolicy(p, answers);
    } catch (err) {
      assert.ok(err instanceof PolicyAnswerError, String(err));
      return err.message;
    }
    assert.fail('evaluated');
  };

  test('reference detail strings', () => {
    assert.deepEqual(detail(policy(rule('clear', { noul: { min: 0.8 } })), { clear: noul(0.9) }), ['noul 0.9 >= 0.8 -> pass']);
    assert.deepEqual(detail(policy(rule('clear', { noul: { min: 0.8 } })), { clear: noul(0.79) }), ['noul 0.79 >= 0.8 -> fail']);
    assert.deepEqual(detail(policy(rule('clear', { noul: { max: 1 } })), { clear: noul(1) }), ['noul 1.0 <= 1.0 -> pass']);
    assert.deepEqual(detail(policy(rule('sev', { score: { min: 1, max: 2 }, confidence: { min: 0.5 } })), { sev: score(1.2, 0.4) }), [
      'score 1.2 >= 1.0 and score 1.2 <= 2.0 and confidence 0.4 >= 0.5 -> fail',
    ]);
    assert.deepEqual(detail(policy(rule('route', { choice: 'billing' })), { route: choice('billing') }), ["choice 'billing' == 'billing' -> pass"]);
    assert.deepEqual(detail(policy(rule('route', { choice: 'billing', confidence: { min: 0.95 } })), { route: choice('tech', 0.9) }), [
      "choice 'tech' == 'billing' and confidence 0.9 >= 0.95 -> fail",
    ]);
    assert.deepEqual(detail(policy(rule('clear', { noul: { min: 0 } })), { clear: noul(1e-5) }), ['noul 1e-05 >= 0.0 -> pass']);
  });

  test('comparisons are inclusive at every bound', () => {
    const p = policy(rule('clear', { noul: { min: 0.8, max: 0.8 } }), rule('sev', { score: { min: 2, max: 2 }, confidence: { min: 0.5 } }));
    const r = evaluatePolicy(p, { clear: noul(0.8), sev: score(2, 0.5) });
    assert.equal(r.result, 'pass');
    assert.deepEqual(r.rules.map((x) => x.passed), [true, true]);
    const below = evaluatePolicy(p, { clear: noul(0.8 - 1e-12), sev: score(2, 0.5 - 1e-12) });
    assert.deepEqual(below.rules.map((x) => x.passed), [false, false]);
  });

  test('every rule is reported after an unmet one; structured fields kept', () => {
    const p = policy(rule('clear', { noul: { min: 0.8 } }), rule('route', { choice: 'billing' }), rule('sev', { score: { max: 1 } }));
    const r = evaluatePolicy(p, { sev: score(0.5, 0.7), clear: noul(0.3), route: choice('billing', 0.6), extra: noul(2) });
    assert.equal(r.result, 'fail');
    assert.deepEqual(r.rules, [
      { question: 'clear', kind: 'noul', passed: false, detail: 'noul 0.3 >= 0.8 -> fail', observed: 0.3, min: 0.8 },
      { question: 'route', kind: 'choice', passed: true, detail: "choice 'billing' == 'billing' -> pass", observed: 'billing', expected: 'billing', confidence: 0.6 },
      { question: 'sev', kind: 'score', passed: true, detail: 'score 0.5 <= 1.0 -> pass', observed: 0.5, max: 1, confidence: 0.7 },
    ]);
    assert.deepEqual(reportToJson(r), {
      result: 'fail',
      rules: [
        { question: 'clear', pass: false, detail: 'noul 0.3 >= 0.8 -> fail' },
        { question: 'route', pass: true, detail: "choice 'billing' == 'billing' -> pass" },
        { question: 'sev', pass: true, detail: 'score 0.5 <= 1.0 -> pass' },
      ],
    });
    assert.deepEqual(Object.keys(reportToJson(r).rules[0]!), ['question', 'pass', 'detail']);
  });

  test('malformed answers raise instead of a partial report', () => {
    const pn = policy(rule('clear', { noul: { min: 0.5 } }));
    assert.equal(answerError(pn, {}), 'missing answer for policy question');
    assert.equal(answerError(pn, { clear: choice('billing') }), 'answer type mismatch for policy question');
    assert.equal(answerError(pn, { clear: noul(NaN) }), 'noul value is nonfinite or not numeric');
    assert.equal(answerError(pn, { clear: noul(true) }), 'noul value is nonfinite or not numeric');
    assert.equal(answerError(pn, { clear: noul(1.01) }), 'noul value is outside the allowed range');
    const pc = policy(rule('route', { choice: 'billing' }));
    // Confidence is checked even without a confidence predicate.
    assert.equal(answerError(pc, { route: choice('billing', 1.5) }), 'choice confidence is outside the allowed range');
    assert.equal(answerError(pc, { route: choice('billing', 'high') }), 'choice confidence is nonfinite or not numeric');
    assert.equal(answerError(pc, { route: choice('sales') }), 'choice value not found in question criteria');
    const ps = policy(rule('sev', { score: { min: 1 } }));
    assert.equal(answerError(ps, { sev: score(1, -0.1) }), 'score confidence is outside the allowed range');
    assert.equal(answerError(ps, { sev: score(2.5) }), 'score is outside the allowed range');
    assert.equal(answerError(ps, { sev: score(Infinity) }), 'score is nonfinite or not numeric');
    // A later malformed answer still aborts the whole report.
    const both = policy(rule('clear', { noul: { min: 0.5 } }), rule('sev', { score: { min: 1 } }));
    assert.equal(answerError(both, { clear: noul(0.9) }), 'missing answer for policy question');
  });

  test('the validated policy keeps a snapshot of the question criteria', () => {
    const questions: Record<string, PolicyQuestion> = {
      route: { type: 'choice', criteria: { billing: 'b', tech: 't' } },
      sev: { type: 'score', criteria: ['a', 'b', 'c'] },
    };
    const p = parsePolicy({ rules: [rule('route', { choice: 'billing' }), rule('sev', { score: { min: 0 } })] }, questions);
    (questions.route!.criteria as Record<string, string>).sales = 's';
    (questions.sev!.criteria as string[]).push('d');
    assert.equal(answerError(p, { route: choice('sales'), sev: score(1) }), 'choice value not found in question criteria');
    assert.equal(answerError(p, { route: choice('tech'), sev: score(3) }), 'score is outside the allowed range');
  });
});

describe('score level predicate {"level": n}', () => {
  const policy = (pass: unknown) => parsePolicy({ rules: [rule('sev', pass)] }, QUESTIONS);
  const score = (probabilities: Record<string, unknown>, s = 1, confidence = 0.6) => ({ type: 'score', score: s, confidence, legend: {}, probabilities });
  const answerError = (pass: unknown, answer: unknown) => {
    try {
      evaluatePolicy(policy(pass), { sev: answer });
    } catch (err) {
      assert.ok(err instanceof PolicyAnswerError, String(err));
      assert.equal(err.question, 'sev');
      return err.message;
    }
    assert.fail('evaluated');
  };

  test('grammar: an integer level index, alone or with a confidence minimum', () => {
    assert.deepEqual(policy({ score: { level: 1 } }).rules, [{ kind: 'score', question: 'sev', level: 1 }]);
    assert.deepEqual(policy({ score: { level: 0 }, confidence: { min: 0.5 } }).rules, [{ kind: 'score', question: 'sev', level: 0, minConfidence: 0.5 }]);
    assert.deepEqual(parsePolicy('{"rules":[{"question":"sev","pass":{"score":{"level":2}}}]}', QUESTIONS).rules, [{ kind: 'score', question: 'sev', level: 2 }]);
  });

  test('diagnostics: out of range, not an integer, combined with a bound, unknown keys, duplicate keys', () => {
    assert.equal(definitionError(rules(rule('sev', { score: { level: 3 } }))), 'score level must be in [0, 2]');
    assert.equal(definitionError(rules(rule('sev', { score: { level: -1 } }))), 'score level must be in [0, 2]');
    for (const level of [1.5, '1', true, null, [1], { n: 1 }]) {
      assert.equal(definitionError(rules(rule('sev', { score: { level } }))), 'score level must be an integer', JSON.stringify(level));
    }
    assert.equal(definitionError(rules(rule('sev', { score: { level: 1, min: 0 } }))), 'score level cannot be combined with min or max');
    assert.equal(definitionError(rules(rule('sev', { score: { max: 2, level: 1 } }))), 'score level cannot be combined with min or max');
    assert.equal(definitionError(rules(rule('sev', { score: { level: 1, exact: true } }))), "score predicate has unknown field 'exact'; expected 'min', 'max' or 'level'");
    assert.equal(definitionError(rules(rule('sev', { score: { lvl: 1 } }))), "score predicate has unknown field 'lvl'; expected 'min', 'max' or 'level'");
    assert.equal(definitionError('{"rules":[{"question":"sev","pass":{"score":{"level":1,"level":2}}}]}'), 'duplicate key in JSON object');
    assert.equal(definitionError(rules(rule('clear', { noul: { level: 1 } }))), "noul predicate has unknown field 'level'; expected 'min' and 'max'");
    assert.equal(definitionError(rules(rule('route', { choice: 'billing', level: 1 }))), 'pass has unknown or misplaced fields');
  });

  test('evaluation: exact match on the highest-probability level; the lowest level wins a tie; detail and fields', () => {
    const r = evaluatePolicy(policy({ score: { level: 1 } }), { sev: score({ '0': 0.1, '1': 0.6, '2': 0.3 }, 1.2) });
    assert.deepEqual(r.rules, [{ question: 'sev', kind: 'score', passed: true, detail: 'score level 1 == 1 -> pass', observed: 1, level: 1, confidence: 0.6 }]);
    // The expected score (1.7) rounds to 2, but the peak is level 1: the predicate reads the peak.
    const peak = evaluatePolicy(policy({ score: { level: 2 } }), { sev: score({ '0': 0, '1': 0.55, '2': 0.45 }, 1.45) });
    assert.equal(peak.rules[0]!.detail, 'score level 1 == 2 -> fail');
    assert.equal(peak.result, 'fail');
    const tie = evaluatePolicy(policy({ score: { level: 0 } }), { sev: score({ '2': 0.5, '0': 0.5 }, 1) });
    assert.equal(tie.rules[0]!.detail, 'score level 0 == 0 -> pass');
    const withConfidence = evaluatePolicy(policy({ score: { level: 1 }, confidence: { min: 0.7 } }), { sev: score({ '0': 0.1, '1': 0.6, '2': 0.3 }, 1.2, 0.6) });
    assert.equal(withConfidence.rules[0]!.detail, 'score level 1 == 1 and confidence 0.6 >= 0.7 -> fail');
  });

  test('malformed answers raise, naming the question', () => {
    const pass = { score: { level: 1 } };
    assert.equal(answerError(pass, score({})), 'score probabilities are missing or empty');
    assert.equal(answerError(pass, { type: 'score', score: 1, confidence: 0.5, legend: {} }), 'score probabilities are missing or empty');
    assert.equal(answerError(pass, score({ '0': 0.5, '3': 0.5 })), 'score probabilities name a level outside the question scale');
    assert.equal(answerError(pass, score({ '0': 0.5, one: 0.5 })), 'score probabilities name a level outside the question scale');
    assert.equal(answerError(pass, score({ '0': 0.5, '1': 1.5 })), 'score probability is outside the allowed range');
    assert.equal(answerError(pass, score({ '0': 0.5, '1': 'high' })), 'score probability is nonfinite or not numeric');
    assert.equal(answerError(pass, score({ '1': 1 }, 2.5)), 'score is outside the allowed range');
  });
});
