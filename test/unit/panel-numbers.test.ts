import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { choiceLine, claimLine, compare, decidingThreshold, fmtAgainst, fmtProb, fmtThreshold, versusNamed } from '../../src/panel/numbers';

describe('numbers: one wording, no rounding that flips a comparison', () => {
  it('a value just below its threshold never prints as equal to it', () => {
    assert.equal(compare(0.9467, 0.95).text, '0.946 < 0.95');
    assert.equal(compare(0.9499, 0.95).text, '0.949 < 0.95');
    assert.equal(compare(0.94999, 0.95).text, '0.949 < 0.95');
    assert.equal(compare(0.7996, 0.8).text, '0.799 < 0.80');
    assert.equal(compare(0.795, 0.8).text, '0.795 < 0.80');
    assert.equal(compare(0.95549, 0.9555).text, '0.955 < 0.9555');
  });

  it('a value at or just above its threshold keeps ≥', () => {
    assert.equal(compare(0.95, 0.95).text, '0.95 ≥ 0.95');
    assert.equal(compare(0.8, 0.8).text, '0.80 ≥ 0.80');
    // 0.8 + 0.15 is 0.9500000000000001 in binary: still ≥ 0.95 and printed so.
    assert.equal(compare(0.8 + 0.15, 0.95).text, '0.95 ≥ 0.95');
    // 0.9451 rounds to 0.95 at two decimals, which would read "≥"; the comparison is < and says so.
    assert.equal(compare(0.9451, 0.95).text, '0.945 < 0.95');
    // A threshold with four decimals: where three would flip the side, the value gets four, rounded down.
    assert.equal(compare(0.95551, 0.9555).text, '0.9555 ≥ 0.9555');
    assert.equal(compare(0.951, 0.95).text, '0.95 ≥ 0.95');
  });

  it('far from the threshold, two decimals as everywhere else', () => {
    assert.equal(compare(0.19, 0.5).text, '0.19 < 0.50');
    assert.equal(compare(0.934, 0.8).text, '0.93 ≥ 0.80');
    assert.equal(compare(0.12345, 0.8).value, '0.12');
  });

  it('printed sides agree with exact ones over a dense sweep', () => {
    for (const t of [0.5, 0.75, 0.8, 0.95, 0.955, 0.9555, 0.99]) {
      for (let i = 0; i <= 10000; i++) {
        const v = i / 10000 + (i % 7) * 1e-6;
        const c = compare(v, t);
        assert.equal(Number(c.value) >= Number(c.threshold), c.holds, `${v} vs ${t} printed ${c.text}`);
      }
    }
  });

  it('a probability is never rounded up, so it agrees with every slider stop (0.01 steps)', () => {
    assert.equal(fmtProb(0.9467), '0.946');
    assert.equal(fmtProb(0.9449), '0.94');
    assert.equal(fmtProb(0.9999), '0.999');
    assert.equal(fmtProb(1), '1.00');
    assert.equal(fmtProb(0), '0.00');
    for (let i = 0; i <= 10000; i++) {
      const v = i / 10000 + 3e-6;
      const shown = Number(fmtProb(v));
      for (let stop = 0; stop <= 100; stop += 1) assert.equal(shown >= stop / 100, v >= stop / 100, `${v} shown ${shown} vs stop ${stop / 100}`);
    }
  });

  it('fmtAgainst keeps the side of thresholds with more decimals too', () => {
    assert.equal(fmtAgainst(0.9467, [0.8, 0.95]), '0.946');
    assert.equal(fmtAgainst(0.95551, [0.9555]), '0.9555');
    assert.equal(fmtAgainst(0.95549, [0.9555]), '0.955');
    assert.equal(fmtAgainst(0.5, []), '0.50');
    assert.equal(fmtAgainst(undefined, [0.5]), 'undefined');
  });

  it('thresholds print as written', () => {
    assert.equal(fmtThreshold(0.8), '0.80');
    assert.equal(fmtThreshold(0.955), '0.955');
    assert.equal(fmtProb(0.5), '0.50');
    assert.equal(fmtProb('x'), 'x');
  });

  it('names the number and the threshold it was compared with', () => {
    assert.equal(versusNamed('confidence', 0.9467, 'dispatch_at', 0.95), 'confidence 0.946 < dispatch_at 0.95');
    assert.deepEqual(decidingThreshold(0.9, { auto_accept: 0.8, review_at: 0.5 }), { name: 'auto_accept', value: 0.8 });
    assert.deepEqual(decidingThreshold(0.6, { auto_accept: 0.8, review_at: 0.5 }), { name: 'auto_accept', value: 0.8 });
    assert.deepEqual(decidingThreshold(0.19, { auto_accept: 0.8, review_at: 0.5 }), { name: 'review_at', value: 0.5 });
    assert.equal(decidingThreshold(0.5, null), undefined);
  });

  it('a claim row reads verdict, named confidence, threshold and action', () => {
    const t = { auto_accept: 0.8, review_at: 0.5 };
    assert.equal(claimLine({ verdict: 'verified', confidence: 0.19, action: 'escalate' }, t), 'verified: confidence 0.19 < review_at 0.50 → escalate');
    assert.equal(claimLine({ verdict: 'verified', confidence: 0.7996, action: 'review' }, t), 'verified: confidence 0.799 < auto_accept 0.80 → review');
    assert.equal(claimLine({ verdict: 'verified', confidence: 0.99, action: 'auto' }, t), 'verified: confidence 0.99 ≥ auto_accept 0.80 → auto');
    assert.equal(claimLine({ verdict: 'unsupported', confidence: 0.4, action: 'review' }, undefined), 'unsupported: confidence 0.40 → review');
  });

  it('a choice names its probability and the confidence apart', () => {
    assert.equal(choiceLine('continue', 0.53, 0.29), 'continue: P 0.53 · confidence 0.29');
    assert.equal(choiceLine('continue', undefined, undefined), 'continue');
  });
});
