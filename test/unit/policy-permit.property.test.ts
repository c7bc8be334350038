// Property tests of the jev_permit policy (src/policy/permit.ts): over random well-formed answers, thresholds
// and host facts, the safety rules hold. Every assert carries a message (see jev-routing.test.ts for why).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { confidenceSupportsAuto } from '../../src/policy/distribution';
import { decidePermit, PERMIT_EFFECTS, type EffectEvidence, type PermitFacts, type PermitThresholds } from '../../src/policy/permit';
import { dispatchFloor } from '../../src/policy/thresholds';

const RUNS = 2_000;

const prob = fc.double({ min: 0, max: 1, noNaN: true });
const effectName = fc.constantFrom(...PERMIT_EFFECTS);

/** A well-formed choice over the four effects: positive weights normalized, choice = first maximum, confidence anywhere in [0,1]. */
const judgedEffect: fc.Arbitrary<EffectEvidence> = fc
  .tuple(fc.array(fc.double({ min: 0.001, max: 1, noNaN: true }), { minLength: 4, maxLength: 4 }), prob)
  .map(([w, confidence]) => {
    const total = w.reduce((a, b) => a + b, 0);
    const probabilities = Object.fromEntries(PERMIT_EFFECTS.map((e, i) => [e, w[i]! / total]));
    let best = 0;
    for (let i = 1; i < 4; i++) if (w[i]! > w[best]!) best = i;
    return { source: 'judge' as const, choice: PERMIT_EFFECTS[best]!, confidence, probabilities };
  });
/** A concentrated judged effect: most of the mass on one effect, reported confidence high (so the guard can pass). */
const confidentEffect: fc.Arbitrary<EffectEvidence> = fc.tuple(effectName, fc.double({ min: 0.9, max: 1, noNaN: true })).map(([choice, peak]) => ({
  source: 'judge' as const,
  choice,
  confidence: peak,
  probabilities: Object.fromEntries(PERMIT_EFFECTS.map((e) => [e, e === choice ? peak : (1 - peak) / 3])),
}));
const hostEffect: fc.Arbitrary<EffectEvidence> = effectName.map((effect) => ({ source: 'host' as const, effect }));
const anyEffect = fc.oneof(judgedEffect, confidentEffect, hostEffect);

/** Nouls anywhere in [0,1], with extra weight near the edges so allow and deny both occur. */
const noulP = fc.oneof(prob, fc.double({ min: 0.9, max: 1, noNaN: true }), fc.double({ min: 0, max: 0.1, noNaN: true }));

function factsOf(effect: fc.Arbitrary<EffectEvidence>, incomplete: fc.Arbitrary<boolean> = fc.boolean()): fc.Arbitrary<PermitFacts> {
  return fc.record(
    {
      effect,
      paths_in_workspace: fc.option(fc.boolean(), { nil: undefined }),
      serves_request: noulP,
      exfiltration: noulP,
      planted_purpose: noulP,
      incomplete,
    },
    { requiredKeys: ['effect', 'serves_request', 'exfiltration', 'planted_purpose', 'incomplete'] },
  );
}

/** Valid effective thresholds: 0 ≤ review_at ≤ auto_accept ≤ 1, dispatch_at = max(0.8, auto_accept), block_at in [0.25, 1]. */
const thresholds: fc.Arbitrary<PermitThresholds> = fc
  .tuple(prob, prob, fc.double({ min: 0.25, max: 1, noNaN: true }))
  .map(([a, b, block_at]) => {
    const auto_accept = Math.max(a, b);
    return { auto_accept, review_at: Math.min(a, b), dispatch_at: dispatchFloor(auto_accept), block_at };
  });

describe('jev_permit policy: properties', () => {
  it('a destructive call (host or confidently judged) is never allowed', () => {
    const destructive = fc.oneof(
      fc.constant<EffectEvidence>({ source: 'host', effect: 'destructive' }),
      confidentEffect.map((e) => (e.source === 'judge' ? { ...e, choice: 'destructive' as const, probabilities: { read_only: 0.01, local_write: 0.01, external_write: 0.01, destructive: 0.97 } } : e)),
    );
    fc.assert(
      fc.property(factsOf(destructive), thresholds, (facts, t) => {
        assert.notEqual(decidePermit(facts, t).decision, 'allow', 'destructive never allows');
      }),
      { numRuns: RUNS },
    );
  });

  it('without a host effect, an effect distribution that fails the guard (or its confidence) is never allowed', () => {
    fc.assert(
      fc.property(factsOf(judgedEffect), thresholds, (facts, t) => {
        const e = facts.effect;
        fc.pre(e.source === 'judge' && !confidenceSupportsAuto(e.confidence, e.probabilities, t.dispatch_at));
        const v = decidePermit(facts, t);
        assert.notEqual(v.decision, 'allow', 'unknown effect never allows');
        assert.ok(v.reason_codes.includes('effect_uncertain'), 'reported as effect_uncertain');
      }),
      { numRuns: RUNS },
    );
  });

  it('a host effect external_write or destructive is never allowed, whatever the judge says', () => {
    const hostWrite = fc.constantFrom<EffectEvidence>({ source: 'host', effect: 'external_write' }, { source: 'host', effect: 'destructive' });
    fc.assert(
      fc.property(factsOf(hostWrite), thresholds, (facts, t) => {
        const v = decidePermit(facts, t);
        assert.notEqual(v.decision, 'allow', 'a person decides');
        assert.ok(v.reason_codes.includes('effect_requires_review'), 'reported');
      }),
      { numRuns: RUNS },
    );
  });

  it('incomplete coverage never allows', () => {
    fc.assert(
      fc.property(factsOf(anyEffect, fc.constant(true)), thresholds, (facts, t) => {
        assert.notEqual(decidePermit(facts, t).decision, 'allow', 'incomplete never allows');
      }),
      { numRuns: RUNS },
    );
  });

  it('a write with paths outside the workspace is never allowed', () => {
    fc.assert(
      fc.property(factsOf(anyEffect), thresholds, (facts, t) => {
        fc.pre(facts.paths_in_workspace === false);
        const v = decidePermit(facts, t);
        if (v.decision === 'allow') assert.equal(v.effect, 'read_only', 'only a read may leave the workspace');
      }),
      { numRuns: RUNS },
    );
  });

  it('raising auto_accept never turns an ask or a deny into an allow', () => {
    fc.assert(
      fc.property(factsOf(anyEffect), thresholds, prob, (facts, t, raise) => {
        const higher = Math.max(t.auto_accept, raise);
        const t2 = { ...t, auto_accept: higher, dispatch_at: dispatchFloor(higher) };
        const before = decidePermit(facts, t).decision;
        const after = decidePermit(facts, t2).decision;
        if (before !== 'allow') assert.notEqual(after, 'allow', `${before} stayed short of allow`);
      }),
      { numRuns: RUNS },
    );
  });

  it('raising auto_accept never turns an ask into an allow, near the allow boundary', () => {
    // Most random facts are far from allow; here every judgment sits around the thresholds a raise moves.
    const near = fc.record({
      effect: fc.oneof(confidentEffect, fc.constantFrom<EffectEvidence>({ source: 'host', effect: 'read_only' }, { source: 'host', effect: 'local_write' })),
      serves_request: fc.double({ min: 0.85, max: 1, noNaN: true }),
      exfiltration: fc.double({ min: 0, max: 0.15, noNaN: true }),
      planted_purpose: fc.double({ min: 0, max: 0.15, noNaN: true }),
      incomplete: fc.constant(false),
    });
    const high = fc.double({ min: 0.7, max: 1, noNaN: true });
    let flips = 0;
    fc.assert(
      fc.property(near, high, high, (facts, a, raise) => {
        const t = { auto_accept: a, review_at: 0.5, dispatch_at: dispatchFloor(a), block_at: 0.75 };
        const higher = Math.max(a, raise);
        const before = decidePermit(facts, t).decision;
        const after = decidePermit(facts, { ...t, auto_accept: higher, dispatch_at: dispatchFloor(higher) }).decision;
        if (before === 'allow' && after !== 'allow') flips++;
        if (before !== 'allow') assert.notEqual(after, 'allow', `${before} stayed short of allow`);
      }),
      { numRuns: RUNS },
    );
    assert.ok(flips > 0, 'some allows become asks when auto_accept rises (the boundary is exercised)');
  });

  it('allow means auto with [accepted]; deny means escalate; confident exfiltration or planted purpose always denies', () => {
    fc.assert(
      fc.property(factsOf(anyEffect), thresholds, (facts, t) => {
        const v = decidePermit(facts, t);
        assert.equal(v.decision === 'allow', v.action === 'auto', 'allow ⇔ auto');
        if (v.decision === 'allow') assert.deepEqual(v.reason_codes, ['accepted'], 'allow has no other reason');
        if (v.decision === 'deny') assert.equal(v.action, 'escalate', 'deny escalates');
        if (facts.exfiltration >= t.block_at || facts.planted_purpose >= t.block_at) assert.equal(v.decision, 'deny', 'confident harm denies');
        if (v.decision === 'allow') {
          assert.ok(v.effect === 'read_only' || v.effect === 'local_write', 'only read_only and local_write are allowed');
          assert.ok(facts.serves_request >= t.dispatch_at, 'allow needs serves_request at dispatch_at');
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('the generators reach every decision (the properties are not vacuous)', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(factsOf(anyEffect, fc.constant(false)), thresholds, (facts, t) => {
        seen.add(decidePermit(facts, t).decision);
      }),
      { numRuns: RUNS },
    );
    assert.deepEqual([...seen].sort(), ['allow', 'ask', 'deny'], 'all three decisions occur');
  });
});
