/**
 * Fixed questions (src/judgment/fixed-questions.ts): the packs' own questions are frozen, serialized once,
 * and give the same estimates and request body as freshly built ones.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fitState, questionEstimates } from '../../src/judgment/budget';
import { fixedQuestion, questionJson } from '../../src/judgment/fixed-questions';
import type { QuestionMap } from '../../src/judgment/types';
import { codingLoopQuestions } from '../../src/tools/jev-coding-loop';
import { stepQuestions } from '../../src/tools/jev-step';
import { toolRouteQuestions } from '../../src/tools/jev-tool-route';

const countNonAscii = (text: string) => [...text].reduce((n, ch) => n + (ch.charCodeAt(0) >= 0x80 ? ch.length : 0), 0);
/** A deep copy that is not frozen and not registered. */
const fresh = (q: QuestionMap): QuestionMap => JSON.parse(JSON.stringify(q)) as QuestionMap;

describe('fixed questions', () => {
  test('are frozen deeply: changing one throws instead of drifting from its recorded JSON', () => {
    const q = fixedQuestion({ type: 'choice', instructions: 'Which?', criteria: { a: 'first', b: 'second' } });
    assert.ok(Object.isFrozen(q) && Object.isFrozen(q.criteria));
    assert.throws(() => {
      (q.criteria as Record<string, string>).a = 'changed';
    }, TypeError);
    assert.equal(questionJson(q, countNonAscii).json, JSON.stringify(q));
  });

  test('are serialized once: the same text object comes back for a fixed question, a new one for any other', () => {
    const fixed = fixedQuestion({ type: 'noul', instructions: 'Ünïcode?' });
    const first = questionJson(fixed, countNonAscii);
    assert.equal(questionJson(fixed, countNonAscii), first, 'remembered');
    assert.equal(first.nonAscii, 2);
    const other = { type: 'noul', instructions: 'Ünïcode?' };
    const a = questionJson(other, countNonAscii);
    other.instructions = 'changed';
    assert.equal(questionJson(other, countNonAscii).json, JSON.stringify(other), 'a caller-built question is read anew every time');
    assert.notEqual(a.json, JSON.stringify(other));
  });

  test('the packs hand out frozen questions in fresh maps, the same on every call', () => {
    const a = stepQuestions(32);
    const b = stepQuestions(32);
    assert.notEqual(a, b, 'a fresh map per call');
    assert.equal(a.suitable_31, b.suitable_31, 'the same question objects');
    assert.ok(Object.isFrozen(a.selected) && Object.isFrozen(a.next));
    assert.deepEqual(Object.keys(toolRouteQuestions(3)), ['selected', 'suitable_0', 'suitable_1', 'suitable_2']);
    assert.deepEqual(Object.keys((toolRouteQuestions(3).selected as { criteria: object }).criteria), ['none', 'call_0', 'call_1', 'call_2']);
    assert.deepEqual(Object.keys(codingLoopQuestions()), ['next', 'model_tier', 'risk', 'done_enough', 'needs_more_context', 'needs_generation', 'tests_likely_fail', 'focus']);
  });

  test('estimates and the recorded body are the same as for the same questions built afresh', () => {
    for (const n of [0, 1, 32]) {
      const packed = stepQuestions(n);
      const copy = fresh(packed);
      assert.deepEqual(questionEstimates(packed), questionEstimates(copy));
      const state = { task: 'täsk', observation: 'x'.repeat(100) };
      const a = fitState(state, packed);
      const b = fitState(state, copy);
      assert.deepEqual(a, b);
      assert.equal(a.json!.questions, JSON.stringify(packed));
    }
  });
});
