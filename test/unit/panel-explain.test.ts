/**
 * What the inline surfaces say about real decisions (src/panel/explain.ts): the CodeLens headline,
 * the marks on candidates (selected / blocked / eligible) and claims, and the hover explanations of
 * handoffs and reason codes with thresholds. Decisions are made by the real tools and the mock judge.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { claimLine, fmtProb } from '../../src/panel/numbers';
import { coverageNote, escapeMarkdown, explainResultPath, headline, inputMarks, summaryMarkdown, versus } from '../../src/panel/explain';
import { JevError } from '../../src/judgment/errors';
import type { DecisionRecord } from '../../src/ledger/record';
import { MockProvider } from '../../src/providers/mock/provider';
import { ALL_TOOLS } from '../../src/tools';
import { JudgmentService } from '../../src/tools/judgment-service';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';
import { explainReason } from '../../src/panel/reason-codes';

const root = join(__dirname, '..', '..');
const service = new JudgmentService({ provider: new MockProvider(), tools: ALL_TOOLS, floors: DEFAULT_FLOORS, model: 'jev-latest' });

function example(file: string): { tool: string; input: Record<string, unknown> } {
  const { tool, ...input } = JSON.parse(readFileSync(join(root, 'examples', file), 'utf8'));
  return { tool, input };
}

async function judge(tool: string, input: unknown): Promise<DecisionRecord> {
  return (await service.call(tool, input, { agent: 'coder' })).record;
}

describe('headline', () => {
  it('reads handoff, action and the selection confidence against dispatch_at for a dispatched call', async () => {
    const { tool, input } = example('parser-fix.jev.json');
    const record = await judge(tool, input);
    const r = record.result as { handoff: string; action: string; selection: { id: string; confidence: number }; thresholds: { dispatch_at: number } };
    assert.equal(r.handoff, 'execute_tool');
    const h = headline(record);
    assert.equal(h.text, `execute_tool · auto · selected ${r.selection.id}: confidence ${fmtProb(r.selection.confidence)} ≥ dispatch_at ${fmtProb(r.thresholds.dispatch_at)}`);
    assert.equal(h.tone, 'good');
  });

  it('shows "<" and a warning tone when the selection is under the threshold', async () => {
    const { tool, input } = example('parser-fix.jev.json');
    // A per-call auto_accept of 0.95 raises dispatch_at above the mock's 0.92 selection confidence.
    const record = await judge(tool, { ...input, auto_accept: 0.95 });
    const r = record.result as { action: string; handoff: string; selection: { confidence: number } };
    assert.notEqual(r.handoff, 'execute_tool');
    const h = headline(record);
    assert.match(h.text, new RegExp(`confidence ${fmtProb(r.selection.confidence)} < dispatch_at 0\\.95`));
    assert.equal(h.tone, r.action === 'review' ? 'warn' : 'bad');
  });

  it('shows an error as "no decision", never as an action', () => {
    const record = { id: 'x', tool: 'jev_step', agent: 'a', input: {}, error: new JevError('TIMEOUT', 'deadline passed').toJSON() };
    const h = headline(record);
    assert.equal(h.text, 'TIMEOUT · no decision (fails closed)');
    assert.equal(h.tone, 'bad');
    const md = summaryMarkdown(record);
    assert.match(md, /never approves/);
    assert.ok(!/\bauto\b/.test(md), md);
  });

  it('counts verified claims for jev_verify and names partial coverage', async () => {
    const { tool, input } = example('verify-release-notes.jev.json');
    const record = await judge(tool, input);
    const r = record.result as { results: { verdict: string }[] };
    const verified = r.results.filter((c) => c.verdict === 'verified').length;
    assert.match(headline(record).text, new RegExp(`claims ${verified}/${r.results.length} verified`));
    assert.equal(coverageNote({ truncated: true, coverage: { complete: false, original_chars: 4000, evaluated_chars: 1000 } }), 'partial input (25% judged)');
    assert.equal(coverageNote({ truncated: false, coverage: { complete: true } }), undefined);
  });
});

describe('marks on candidates and claims', () => {
  it('marks the returned candidate selected, the unauthorized one blocked with its reason, the rest eligible', async () => {
    const { tool, input } = example('parser-fix.jev.json');
    const record = await judge(tool, input);
    const marks = inputMarks(record);
    assert.deepEqual(
      marks.map((m) => [m.path.join('.'), m.tone]),
      [
        ['candidates.0', 'good'],
        ['candidates.1', 'neutral'],
        ['candidates.2', 'bad'],
      ],
    );
    assert.match(marks[0]!.text, /^✓ selected · confidence 0\.\d\d\d? ≥ dispatch_at 0\.80 · suitability 0\.\d\d\d? ≥ dispatch_at 0\.80 → execute_tool \(auto\)$/);
    assert.match(marks[1]!.text, /^○ eligible, not chosen · P\(selected\) (<0\.01|0\.\d\d\d?) · suitability 0\.\d\d\d?$/);
    assert.equal(marks[2]!.text, '✕ blocked: not_authorized');
    assert.ok(marks[2]!.hover.includes(explainReason('not_authorized').text));
    assert.match(marks[0]!.hover, /\*\*Thresholds\*\* auto_accept 0\.80 · review_at 0\.50 · dispatch_at 0\.80/);
  });

  it('marks a selected call that is not dispatched with the reasons', async () => {
    const { tool, input } = example('parser-fix.jev.json');
    const record = await judge(tool, { ...input, auto_accept: 0.95 });
    const chosen = inputMarks(record).find((m) => m.text.startsWith('◆'));
    assert.ok(chosen, JSON.stringify(inputMarks(record)));
    assert.equal(chosen.tone, 'warn');
    assert.match(chosen.text, /selection_uncertain/);
    assert.ok(chosen.hover.includes(explainReason('selection_uncertain').text));
  });

  it('marks each claim of jev_verify with its verdict, confidence and action', async () => {
    const { tool, input } = example('verify-release-notes.jev.json');
    const record = await judge(tool, input);
    const results = (record.result as { results: { verdict: string; confidence: number; action: string }[] }).results;
    const marks = inputMarks(record);
    assert.equal(marks.length, results.length);
    marks.forEach((m, i) => {
      assert.deepEqual(m.path, ['claims', i]);
      const t = (record.result as { thresholds: unknown }).thresholds;
      assert.ok(m.text.endsWith(claimLine(results[i]!, t)), m.text);
      assert.match(m.text, new RegExp(`^. ${results[i]!.verdict}: confidence 0\\.\\d{2,3} [≥<] (auto_accept|review_at) 0\\.\\d\\d → ${results[i]!.action}$`));
      assert.equal(m.tone, results[i]!.verdict === 'verified' ? 'good' : results[i]!.verdict === 'contradicted' ? 'bad' : 'warn');
    });
  });

  it('has no marks for a failed call', async () => {
    const record = await judge('jev_step', { task: 'x', observation: 'y', candidates: [{ id: 'a' }] });
    assert.ok(record.error);
    assert.deepEqual(inputMarks(record), []);
  });
});

describe('hover explanations', () => {
  it('explains the handoff, each reason code and the thresholds inside a recorded result', async () => {
    const { tool, input } = example('parser-fix.jev.json');
    const record = await judge(tool, input);
    assert.match(explainResultPath(record, ['handoff'])!, /\*\*Handoff\*\* `execute_tool` — Run the returned call exactly as prepared/);
    assert.match(explainResultPath(record, ['reason_codes', 0])!, new RegExp(`\`accepted\` — ${explainReason('accepted').text}`));
    assert.match(explainResultPath(record, ['blocked_candidates', 0, 'reason_codes', 0])!, /`not_authorized` — The host marked this call as not authorized/);
    assert.match(explainResultPath(record, ['partner_model', 'reason_codes'])!, /`prepared_tool_call`/);
    assert.match(explainResultPath(record, ['thresholds', 'dispatch_at'])!, /dispatch_at 0\.80/);
    assert.equal(explainResultPath(record, ['usage']), undefined);
    const summary = summaryMarkdown(record);
    for (const part of ['**Handoff** `execute_tool`', '**Action** auto', '**Reasons**', '`accepted`', '**Call** `read_file` (candidate `read-parser`)', '**Thresholds**', 'as agent `coder`']) {
      assert.ok(summary.includes(part), `${part} missing from:\n${summary}`);
    }
  });

  it('keeps user text literal in Markdown', () => {
    assert.equal(escapeMarkdown('[x](command:evil) *b*'), '\\[x\\]\\(command:evil\\) \\*b\\*');
    assert.equal(versus(0.8, 0.8), '0.80 ≥ 0.80');
    assert.equal(versus(0.79, 0.8), '0.79 < 0.80');
  });
});
