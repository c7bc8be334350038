/**
 * The decision card's model (webview/card/card-model.ts) from real decisions of the tools (mock judge):
 * the verdict line, candidates, claims, bars, the replayable record, and failures that never read as a
 * decision. Plus the VS Code link of the card (webview/card/links.ts).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { withDecisionMeta, DECISION_META_KEY } from '../../src/mcp/app-card';
import { toCallToolResult } from '../../src/mcp/results';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';
import { MockProvider } from '../../src/providers/mock/provider';
import { ALL_TOOLS } from '../../src/tools';
import { JudgmentService } from '../../src/tools/judgment-service';
import { cardModel, parseErrorText } from '../../webview/card/card-model';
import { VALID_INPUTS } from '../integration/mcp-fixtures';

const service = new JudgmentService({ provider: new MockProvider(), tools: ALL_TOOLS, floors: DEFAULT_FLOORS, model: 'jev-latest' });

async function delivered(tool: string, input: Record<string, unknown>) {
  const outcome = await service.call(tool, input);
  const result = withDecisionMeta(toCallToolResult(outcome, service.tools.get(tool)!.family), outcome.record);
  const errorText = result.isError ? (result.content[0] as { text: string }).text : undefined;
  return { tool, input, result: result.structuredContent, ...(errorText !== undefined ? { errorText } : {}), decision: result._meta?.[DECISION_META_KEY] };
}

describe('decision card model', () => {
  it('jev_step: verdict with the one call, selected / eligible / blocked candidates, bars, a replayable record, the mock named', async () => {
    const { tool: _t, ...input } = JSON.parse(readFileSync(join(__dirname, '../../examples/parser-fix.jev.json'), 'utf8')) as Record<string, unknown>;
    const m = cardModel(await delivered('jev_step', input));
    assert.equal(m.verdict, 'execute_tool · auto → run read_file (read-parser)');
    assert.equal(m.call, 'read_file({"path":"src/parser.ts"})');
    assert.equal(m.tone, 'good');
    assert.deepEqual(m.candidates.map((c) => [c.id, c.status]), [['read-parser', 'selected'], ['run-parser-tests', 'eligible'], ['reset-branch', 'blocked']]);
    assert.match(m.candidates[2]!.text, /not_authorized/);
    assert.ok(m.questions.some((q) => q.id === 'next' && q.bars.some((b) => b.chosen)));
    assert.ok(m.record && m.record.exchanges.length === 1, 'replayable');
    assert.equal(m.mock, true);
    assert.match(m.decisionId ?? '', /^[0-9a-f-]{36}$/);
  });

  it('jev_verify and jev_gate: claims with verdicts', async () => {
    for (const tool of ['jev_verify', 'jev_gate']) {
      const m = cardModel(await delivered(tool, VALID_INPUTS[tool]!));
      assert.ok(m.claims.length >= 1, tool);
      assert.match(m.claims[0]!.verdict, /^(verified|contradicted|unsupported)$/);
      assert.ok(m.claims[0]!.claim.length > 0);
      for (const c of m.claims) if (/→ escalate$/.test(c.text)) assert.equal(c.tone, 'bad', `${tool}: an escalating claim is never shown as good`);
    }
  });

  it('the gate example: an escalating claim is toned bad even when its verdict is "verified"', async () => {
    const { tool: _t, ...input } = JSON.parse(readFileSync(join(__dirname, '../../examples/gate-commit.jev.json'), 'utf8')) as Record<string, unknown>;
    const m = cardModel(await delivered('jev_gate', input));
    const escalating = m.claims.filter((c) => c.text.endsWith('→ escalate'));
    assert.ok(escalating.length >= 1, 'the mock escalates one claim of this example');
    assert.ok(escalating.every((c) => c.tone === 'bad'));
    assert.equal(m.tone, 'bad');
  });

  it('ask_choice and ask_noul: the answer as bars, no what-if record needed to render', async () => {
    const choice = cardModel(await delivered('ask_choice', VALID_INPUTS.ask_choice!));
    assert.ok(choice.questions[0]!.bars.length >= 2);
    const noul = cardModel({ tool: 'ask_noul', result: { noul: 0.7, model: 'm' } });
    assert.equal(noul.verdict, 'yes with probability 0.70');
    assert.equal(noul.record, undefined);
  });

  it('without the recorded answers the card says why there is no what-if', () => {
    const result = { handoff: 'execute_tool', action: 'auto', model: 'm' };
    assert.match(cardModel({ tool: 'jev_step', result }).facts.find((f) => f.label === 'What-if')?.value ?? '', /announce MCP Apps/);
    const big = cardModel({ tool: 'jev_step', result, decision: { id: 'x', tool: 'jev_step', omitted: 'too_large' } });
    assert.match(big.facts.find((f) => f.label === 'What-if')?.value ?? '', /too large/);
    assert.equal(cardModel({ tool: 'ask_noul', result: { noul: 0.5 } }).facts.find((f) => f.label === 'What-if'), undefined, 'ask_* do not depend on thresholds');
  });

  it('a failure is "no decision (fails closed)", never an approval', async () => {
    const m = cardModel(await delivered('jev_step', { task: '' }));
    assert.equal(m.failed, true);
    assert.equal(m.tone, 'bad');
    assert.match(m.verdict, /^INVALID_INPUT · no decision \(fails closed\)$/);
    assert.equal(m.record, undefined);
    assert.deepEqual(parseErrorText('plain words'), { code: 'TOOL_ERROR', message: 'plain words' });
  });

  it('"Open in Jev panel": the app-only tool the session named, and no button target without one', async () => {
    const { tool: _t, ...input } = JSON.parse(readFileSync(join(__dirname, '../../examples/parser-fix.jev.json'), 'utf8')) as Record<string, unknown>;
    const outcome = await service.call('jev_step', input);
    const plain = toCallToolResult(outcome, 'jev');
    const withTool = cardModel({ tool: 'jev_step', input, result: plain.structuredContent, decision: withDecisionMeta(plain, outcome.record, 'jev_open_decision')._meta?.[DECISION_META_KEY] });
    assert.equal(withTool.openTool, 'jev_open_decision');
    assert.equal(withTool.decisionId, outcome.record.id);
    const without = cardModel({ tool: 'jev_step', input, result: plain.structuredContent, decision: withDecisionMeta(plain, outcome.record)._meta?.[DECISION_META_KEY] });
    assert.equal(without.openTool, undefined);
  });
});
