/**
 * A claim's verdict is the judge's stated choice (never another), and numbers that do not back it are
 * confidence_incoherent (review); the CLI's claim summary adds up to the number of claims with "needs
 * review" worded as a subset.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Answer, ChoiceAnswer, Judged, ScoreAnswer } from '../../src/judgment/types';
import { claimIncoherent, claimJudgment, verdictIsTop } from '../../src/policy/verify';
import { decideGate, type GateInput } from '../../src/tools/jev-gate';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';
import { decideVerify } from '../../src/tools/jev-verify';
import { claimSummaryText } from '../../src/panel/claim-summary';
import { outcomeLines } from '../../src/panel/outcome-diff';

const answer = (choice: string, probabilities: Record<string, number>): ChoiceAnswer => ({ type: 'choice', choice, confidence: probabilities[choice]!, probabilities });

function judgedWith(answers: Record<string, Answer>): Judged {
  return {
    response: { model: 'jev-latest', usage: { input_tokens: 1, output_tokens: 1 }, answers },
    truncated: false,
    coverage: { complete: true, original_chars: 10, evaluated_chars: 10, estimated_tokens: { state: 1, questions: 1, longest_question: 1 }, estimator: 'chars/4' },
  };
}

const level = (l: 0 | 1 | 2): ScoreAnswer => {
  const probabilities = { '0': l === 0 ? 0.96 : 0.02, '1': l === 1 ? 0.96 : 0.02, '2': l === 2 ? 0.96 : 0.02 };
  return { type: 'score', score: 0.02 * 1 + 0.02 * 2 + 0.96 * l - 0.02 * l, confidence: 0.95, probabilities, legend: { '0': 'a', '1': 'b', '2': 'c' } };
};
/** A review every dimension of which is clear, so the claims decide the gate. */
const clearReview: Record<string, Answer> = {
  correctness: level(2),
  spec_match: level(2),
  test_gap: level(0),
  blast_radius: level(0),
  safe_to_apply: { type: 'noul', noul: 0.99 },
};
const gateInput: GateInput = { request: 'r', diff: 'd', claims: ['a'], evidence: [{ id: 'e', text: 'x' }] };

describe('claim verdict: the judge\'s stated choice, never another', () => {
  it('verified at 0.99 over three equal probabilities is shown as verified and reviewed as incoherent (jev_gate)', () => {
    const flat = { verified: 1 / 3, contradicted: 1 / 3, unsupported: 1 / 3 };
    const stated: ChoiceAnswer = { type: 'choice', choice: 'verified', confidence: 0.99, probabilities: flat };
    const r = decideGate(gateInput, judgedWith({ ...clearReview, claim_0: stated }), DEFAULT_FLOORS);
    const item = r.verification.results[0]!;
    assert.equal(item.verdict, 'verified', 'the verdict the judge gave');
    assert.equal(item.confidence, 0.99);
    assert.equal(item.action, 'review');
    assert.equal(r.action, 'review', 'incoherent numbers are reviewed, not escalated');
    assert.ok(r.reason_codes.includes('confidence_incoherent'), r.reason_codes.join());
    assert.ok(!r.reason_codes.includes('claims_contradicted'), r.reason_codes.join());
  });
  it('jev_verify shows the stated verdict over a flat distribution and never auto-accepts it', () => {
    const flat = { verified: 1 / 3, contradicted: 1 / 3, unsupported: 1 / 3 };
    const r = decideVerify(
      { claims: ['a'], evidence: [{ id: 'e', text: 'x' }] },
      judgedWith({ claim_0: { type: 'choice', choice: 'verified', confidence: 0.99, probabilities: flat } }),
      DEFAULT_FLOORS,
    );
    assert.equal(r.results[0]!.verdict, 'verified');
    assert.equal(r.results[0]!.action, 'review');
    assert.equal(r.action, 'review');
  });
  it('a tie keeps the stated verdict and its confidence', () => {
    const c = claimJudgment(answer('verified', { verified: 0.379, contradicted: 0.379, unsupported: 0.242 }));
    assert.equal(c.verdict, 'verified');
    assert.equal(c.confidence, 0.379, 'confidence unchanged');
    assert.equal(verdictIsTop(c), true);
  });
  it('a stated choice below the top (within the validator\'s tolerance) is incoherent: review, confidence_incoherent', () => {
    const probabilities = { verified: 0.49, contradicted: 0.02, unsupported: 0.49 + 0.004 };
    const stated: ChoiceAnswer = { type: 'choice', choice: 'verified', confidence: 0.95, probabilities };
    const c = claimJudgment(stated);
    assert.equal(verdictIsTop(c), false);
    assert.equal(claimIncoherent(c, 0.8), true);
    const r = decideGate(gateInput, judgedWith({ ...clearReview, claim_0: stated }), DEFAULT_FLOORS);
    assert.equal(r.verification.results[0]!.verdict, 'verified');
    assert.equal(r.action, 'review');
    assert.ok(r.reason_codes.includes('confidence_incoherent'));
  });
  it('a clear top is kept and coherent', () => {
    const c = claimJudgment(answer('verified', { verified: 0.5, contradicted: 0.3, unsupported: 0.2 }));
    assert.equal(c.verdict, 'verified');
    assert.equal(claimIncoherent(c, 0.8), false, 'confidence 0.5 is below auto_accept: not a coherence question');
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
