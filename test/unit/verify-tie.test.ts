/**
 * A claim whose top verdict probabilities tie never reads as verified, and the CLI's claim summary
 * adds up to the number of claims with "needs review" worded as a subset.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChoiceAnswer, Judged } from '../../src/judgment/types';
import { claimJudgment } from '../../src/policy/verify';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';
import { decideVerify } from '../../src/tools/jev-verify';
import { claimSummaryText } from '../../src/panel/claim-summary';
import { outcomeLines } from '../../src/panel/outcome-diff';

const answer = (choice: string, probabilities: Record<string, number>): ChoiceAnswer => ({ type: 'choice', choice, confidence: probabilities[choice]!, probabilities });

function judged(answers: Record<string, ChoiceAnswer>): Judged {
  return {
    response: { model: 'jev-latest', usage: { input_tokens: 1, output_tokens: 1 }, answers },
    truncated: false,
    coverage: { complete: true, original_chars: 10, evaluated_chars: 10, estimated_tokens: { state: 1, questions: 1, longest_question: 1 }, estimator: 'chars/4' },
  };
}

describe('claim verdict on a tie', () => {
  it('verified tied with contradicted reads as contradicted', () => {
    const c = claimJudgment(answer('verified', { verified: 0.379, contradicted: 0.379, unsupported: 0.242 }));
    assert.equal(c.verdict, 'contradicted');
    assert.equal(c.confidence, 0.379, 'confidence unchanged');
  });
  it('verified tied with unsupported (within display precision) reads as unsupported', () => {
    assert.equal(claimJudgment(answer('verified', { verified: 0.4504, contradicted: 0.1, unsupported: 0.4496 })).verdict, 'unsupported');
  });
  it('a clear top is kept', () => {
    assert.equal(claimJudgment(answer('verified', { verified: 0.5, contradicted: 0.3, unsupported: 0.2 })).verdict, 'verified');
  });
  it('jev_verify counts a tied claim as not verified', () => {
    const r = decideVerify(
      { claims: ['a'], evidence: [{ id: 'e', text: 'x' }] },
      judged({ claim_0: answer('verified', { verified: 0.379, contradicted: 0.379, unsupported: 0.242 }) }),
      DEFAULT_FLOORS,
    );
    assert.equal(r.results[0]!.verdict, 'contradicted');
    assert.equal(r.summary.verified, 0);
    assert.notEqual(r.action, 'auto');
  });
});

describe('claim summary text', () => {
  it('counts add up and needs review is a subset', () => {
    assert.equal(
      claimSummaryText({ verified: 3, contradicted: 0, unsupported: 0, needs_review: 1 }, 'review'),
      '3 claims: 3 verified, 0 contradicted, 0 unsupported; 1 of them needs review (verification review)',
    );
    assert.equal(claimSummaryText({ verified: 0, contradicted: 1, unsupported: 0, needs_review: 1 }), '1 claim: 0 verified, 1 contradicted, 0 unsupported; it needs review');
    assert.equal(claimSummaryText({ verified: 2, contradicted: 0, unsupported: 0, needs_review: 0 }), '2 claims: 2 verified, 0 contradicted, 0 unsupported; 0 of them need review');
  });
});

it('the panel words the claim summary the same way (counts add up; needs review is a subset)', () => {
  const lines = outcomeLines({ result: { action: 'review', summary: { verified: 3, contradicted: 0, unsupported: 0, needs_review: 1 }, results: [] } });
  const summary = lines.find((l) => l.key === 'summary');
  assert.equal(summary?.value, '3 claims: 3 verified, 0 contradicted, 0 unsupported; 1 of them needs review');
});
