/**
 * The gate verdict in one line (src/gate/verdict-line.ts: the hook's first line, the editor notification)
 * and in CI forms (src/gate/ci-report.ts: GitHub Actions annotations with their escaping, the step
 * summary); and the override rules (src/gate/override.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { annotation, gateAnnotations, gateSummaryMarkdown } from '../../src/gate/ci-report';
import { overrideRecord, readOverrideReason } from '../../src/gate/override';
import { gateVerdictLine, summarizeGate } from '../../src/gate/verdict-line';
import { JevError } from '../../src/judgment/errors';
import type { DecisionRecord } from '../../src/ledger/record';

const claim = (text: string, verdict: string, confidence: number, action: string) => ({ claim: text, verdict, confidence, probabilities: {}, action });
const result = (action: string, reasons: string[], claims: ReturnType<typeof claim>[], review = { action: 'auto', composite: 0.9, safe_to_apply: 0.93 }) => ({
  action,
  reason_codes: reasons,
  review,
  verification: { action, results: claims, thresholds: { auto_accept: 0.8, review_at: 0.5 } },
});

describe('the verdict line', () => {
  it('puts the most serious reason first and counts the claims', () => {
    const r = result('escalate', ['review_required', 'claims_contradicted'], [claim('sub subtracts b from a', 'contradicted', 0.95, 'escalate'), claim('tests pass', 'verified', 0.9, 'auto')], {
      action: 'review',
      composite: 0.61,
      safe_to_apply: 0.7,
    });
    assert.equal(
      gateVerdictLine(r),
      'jev gate: NOT passed (escalate) — the evidence contradicts "sub subtracts b from a" (confidence 0.95); the diff review wants a person to look (composite 0.61, safe to apply 0.70) · claims 1/2 verified',
    );
    assert.deepEqual(summarizeGate(result('auto', ['accepted'], [claim('x', 'verified', 0.97, 'auto')])).reasons, ['every claim verified and the diff review accepted']);
    assert.match(summarizeGate(result('review', ['incomplete_context'], [claim('x', 'verified', 0.97, 'review')])).reasons[0]!, /not judged \(cut to fit the budget\)/);
    assert.match(summarizeGate(result('review', ['claim_confidence_below_auto_accept'], [claim('x', 'verified', 0.72, 'review')])).reasons[0]!, /"x" is verified only at confidence 0\.72 < auto_accept 0\.80/);
  });

  it('shortens a long claim to one line', () => {
    const long = `first line\nsecond ${'y'.repeat(100)}`;
    const s = summarizeGate(result('review', ['claims_unsupported'], [claim(long, 'unsupported', 0.9, 'review')]));
    assert.match(s.reasons[0]!, /^"first line second y+…" is not backed by the evidence \(confidence 0\.90\)$/);
    assert.ok(s.reasons[0]!.length <= 100, s.reasons[0]);
  });
});

describe('CI reports', () => {
  it('GitHub annotations: error for escalate and failures, warning for review and advisory mock verdicts, notice for a pass; escaped', () => {
    assert.equal(annotation('warning', 'a:b,c', '50% done\r\nnext'), '::warning title=a%3Ab%2Cc::50%25 done%0D%0Anext');
    const esc = gateAnnotations({ ok: true, result: result('escalate', ['claims_contradicted'], [claim('c', 'contradicted', 0.9, 'escalate')]) }, ['no evidence command'], 'systemone');
    assert.match(esc[0]!, /^::error title=Jev gate::NOT passed \(escalate\) — the evidence contradicts "c"/);
    assert.equal(esc[1], '::warning title=Jev gate note::no evidence command');
    const mock = gateAnnotations({ ok: true, result: result('escalate', ['claims_contradicted'], [claim('c', 'contradicted', 0.9, 'escalate')]) }, [], 'mock', true);
    assert.match(mock[0]!, /^::warning title=Jev gate::advisory only \(mock judge, not a real judgment\): it says escalate/);
    assert.match(gateAnnotations({ ok: true, result: result('auto', ['accepted'], [claim('c', 'verified', 0.9, 'auto')]) }, [], 'x')[0]!, /^::notice /);
    assert.match(gateAnnotations({ ok: false, error: new JevError('TIMEOUT', 'slow').toJSON() }, [], 'x')[0]!, /^::error title=Jev gate::failed closed: TIMEOUT: slow/);
  });

  it('the step summary: verdict, reasons, a claims table with Markdown neutralised, the judge', () => {
    const md = gateSummaryMarkdown({
      range: 'main..HEAD',
      outcome: { ok: true, result: result('review', ['claims_unsupported'], [claim('a | b `x`', 'unsupported', 0.8, 'review')]), recordId: 'rec-9' },
      judge: 'systemone',
      notes: ['n1'],
      commits: 2,
    });
    assert.match(md, /^## Jev gate: NOT passed \(review\)\n/);
    assert.match(md, /\| ❔ \| a \\\| b \\`x\\` \| unsupported \| 0\.80 \| review \|/);
    assert.match(md, /\*\*Diff review:\*\* auto \(composite 0\.90, safe to apply 0\.93\)/);
    assert.match(md, /- n1/);
    assert.match(md, /main\.\.HEAD · 2 commits · judged by systemone · decision rec-9/);
  });
});

describe('overrides', () => {
  it('need a one-line reason; the record links the decision and keeps its verdict', () => {
    assert.equal(readOverrideReason({}), undefined);
    assert.equal(readOverrideReason({ JEV_GATE_OVERRIDE: '  hotfix  ' }), 'hotfix');
    for (const bad of ['', '   ', 'a\nb', 'x'.repeat(501)]) {
      assert.throws(() => readOverrideReason({ JEV_GATE_OVERRIDE: bad }), (e: unknown) => e instanceof JevError && e.code === 'INVALID_INPUT' && /^JEV_GATE_OVERRIDE /.test(e.message), JSON.stringify(bad));
    }
    const decision = { id: 'd1', tool: 'jev_gate', thresholds: { auto_accept: 0.8, review_at: 0.5, block_at: 0.75 }, result: { action: 'escalate' } } as unknown as DecisionRecord;
    const r = overrideRecord({ decision, reason: 'hotfix', agent: 'cli', source: 'commit hook, terminal' });
    assert.deepEqual([r.kind, r.decision_id, r.provider, r.source], ['override', 'd1', 'person', 'commit hook, terminal']);
    assert.deepEqual(r.result, { action: 'override', overridden_action: 'escalate', reason: 'hotfix' });
  });
});
