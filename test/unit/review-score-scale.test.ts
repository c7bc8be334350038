/**
 * jev_review's rubric scores are 0–2: the CLI and the panel print them with their scale ("1.04 / 2"), so a
 * reader never takes 1.04 for "more than 1" on a 0–1 scale.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatDecision } from '../../src/cli/format';
import { fmtScore, reviewScoresText } from '../../src/panel/numbers';
import { outcomeLines } from '../../src/panel/outcome-diff';

const scores = {
  correctness: { score: 1.04, confidence: 0.9 },
  spec_match: { score: 2, confidence: 0.9 },
  test_gap: { score: 0.5, confidence: 0.9 },
  blast_radius: { score: 0, confidence: 0.9 },
};
const SCALED = 'correctness 1.04 / 2, spec_match 2.00 / 2, test_gap 0.50 / 2, blast_radius 0.00 / 2';
const review = { model: 'jev-latest', usage: { input_tokens: 1, output_tokens: 1 }, action: 'review', composite: 0.71, safe_to_apply: 0.9, scores, weights: {}, thresholds: { auto_accept: 0.8, review_at: 0.5 } };

describe('review scores carry their 0–2 scale', () => {
  it('fmtScore and reviewScoresText', () => {
    assert.equal(fmtScore(1.04, 2), '1.04 / 2');
    assert.equal(reviewScoresText(scores), SCALED);
    assert.equal(reviewScoresText(undefined), '');
  });
  it('the CLI prints jev_review and jev_gate scores with their scale', () => {
    assert.ok(formatDecision('jev_review', review).includes(`— ${SCALED}`), formatDecision('jev_review', review));
    const gate = { ...review, reason_codes: ['review_required'], review: { ...review }, verification: { action: 'auto', summary: { verified: 1, contradicted: 0, unsupported: 0, needs_review: 0 }, results: [], thresholds: {} } };
    assert.ok(formatDecision('jev_gate', gate).includes(SCALED));
  });
  it('the panel shows a "Review scores" line with the scale, for jev_review and jev_gate', () => {
    assert.equal(outcomeLines({ result: review }).find((l) => l.key === 'scores')?.value, SCALED);
    assert.equal(outcomeLines({ result: { action: 'review', review: { action: 'review', scores } } }).find((l) => l.key === 'scores')?.value, SCALED);
  });
});
