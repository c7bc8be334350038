/**
 * In-process side of the registry: MCP result mapping with both field spellings, the SDK major pin, the 14 judgment tools registered in-process (grants, results, failures
 * never turned into results), and execute() refusing anything but an accepted call.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { JevError } from '../../src/judgment/errors';
import type { DecisionRecord } from '../../src/ledger/record';
import { MockProvider } from '../../src/providers/mock/provider';
import { ToolCallError, registryErrorDetails } from '../../src/registry/errors';
import { acceptedCall, execute } from '../../src/registry/execute';
import { registerJudgmentTools } from '../../src/registry/judgment-tools';
import { ToolRegistry, CapabilityViolation } from '../../src/registry/registry';
import { mapCallResult } from '../../src/registry/result';
import { ALL_TOOLS } from '../../src/tools';
import { JudgmentService } from '../../src/tools/judgment-service';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';

const root = join(__dirname, '..', '..');

function toolError(fn: () => unknown): ToolCallError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ToolCallError, String(err));
    return err;
  }
  assert.fail('expected a ToolCallError');
}

describe('MCP result mapping', () => {
  it('raises tool errors under either spelling and prefers structured content under either spelling', () => {
    for (const key of ['isError', 'is_error']) {
      const err = toolError(() => mapCallResult('s/t', { [key]: true, content: [{ type: 'text', text: '' }, { type: 'text', text: 'disk full' }] }, 's'));
      assert.equal(err.kind, 'tool_error');
      assert.equal(err.message, 's/t reported an error: disk full');
      assert.equal(err.server, 's');
    }
    assert.equal(toolError(() => mapCallResult('s/t', { isError: true, content: [] })).message, 's/t reported an error: no details given');
    for (const key of ['structuredContent', 'structured_content']) {
      assert.deepEqual(mapCallResult('s/t', { [key]: { omen: 'x' }, content: [{ type: 'text', text: 'ignored' }] }), { omen: 'x' });
    }
  });

  it('maps text content: JSON object as is, other JSON wrapped, plain text as {text}', () => {
    const text = (t: string) => ({ content: [{ type: 'text', text: t }] });
    assert.deepEqual(mapCallResult('s/t', text('{"a":1}')), { a: 1 });
    assert.deepEqual(mapCallResult('s/t', text(' [1,2]')), { result: [1, 2] });
    assert.deepEqual(mapCallResult('s/t', text('42')), { result: 42 });
    assert.deepEqual(mapCallResult('s/t', text('true')), { result: true });
    assert.deepEqual(mapCallResult('s/t', text('Echo: hi')), { text: 'Echo: hi' });
    assert.deepEqual(mapCallResult('s/t', text('{not json')), { text: '{not json' });
    assert.deepEqual(mapCallResult('s/t', { content: [] }), {});
    const image = { type: 'image', data: 'AAAA', mimeType: 'image/png' };
    assert.deepEqual(mapCallResult('s/t', { content: [image] }), { content: [image] });
    assert.equal(toolError(() => mapCallResult('s/t', null)).kind, 'invalid_result');
  });

  it('pins the MCP SDK to major 1', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    assert.match(pkg.dependencies['@modelcontextprotocol/sdk'], /^[~^]?1\./);
    const installed = JSON.parse(readFileSync(join(root, 'node_modules/@modelcontextprotocol/sdk/package.json'), 'utf8'));
    assert.equal(installed.version.split('.')[0], '1');
  });
});

describe('judgment tools in the registry', () => {
  const service = new JudgmentService({ provider: new MockProvider(), tools: ALL_TOOLS, floors: DEFAULT_FLOORS, model: 'jev-latest' });
  const registry = new ToolRegistry();
  registerJudgmentTools(registry, service);

  it('registers all 14 in-process with their schemas and annotations', () => {
    const tools = registry.list();
    assert.equal(tools.length, 14);
    assert.deepEqual(tools.map((t) => t.id), ALL_TOOLS.map((t) => t.name));
    assert.ok(tools.every((t) => t.transport === 'in-process' && t.inputSchema && t.description.length > 0));
    assert.equal(registry.describe(['jev_step']), `- jev_step: ${ALL_TOOLS.find((t) => t.name === 'jev_step')!.description}`);
  });

  it('runs a granted judgment tool and enforces grants', async () => {
    const coder = { name: 'coder', tools: ['jev_*', '!jev_gate'] };
    const result = await registry.call('coder', coder, 'jev_step', { task: 'Fix the parser', observation: 'Tests fail.' });
    assert.ok(['auto', 'review', 'escalate'].includes(result.action as string));
    assert.match(String(result.model), /\+mock$/);
    await assert.rejects(registry.call('coder', coder, 'jev_gate', {}), CapabilityViolation);
    await assert.rejects(registry.call('coder', coder, 'ask_noul', {}), CapabilityViolation);
  });

  it('throws a failed judgment (never returns it), keeping its code', async () => {
    const coder = { name: 'coder', tools: ['jev_step'] };
    await assert.rejects(registry.call('coder', coder, 'jev_step', { task: '' }), (err: unknown) => {
      assert.ok(err instanceof ToolCallError);
      assert.equal(err.kind, 'tool_error');
      assert.ok(err.cause instanceof JevError);
      assert.equal(registryErrorDetails(err).code, 'INVALID_INPUT');
      assert.match(err.message, /^jev_step failed: task: /);
      return true;
    });
  });
});

describe('execute', () => {
  const decision = (result: unknown, over: Partial<DecisionRecord> = {}): DecisionRecord => ({
    v: 1,
    kind: 'decision',
    id: 'd-1',
    time: new Date().toISOString(),
    agent: 'coder',
    tool: 'jev_step',
    provider: 'mock',
    input: {},
    questions: null,
    response: null,
    exchanges: [],
    coverage: null,
    thresholds: DEFAULT_FLOORS,
    latency_ms: 1,
    result,
    ...over,
  });
  const call = { candidate_id: 'c', name: 'touch', arguments: { path: 'x' } };

  it('runs only handoff execute_tool + action auto, through the grant check, and records the outcome', async () => {
    const ran: unknown[] = [];
    const registry = new ToolRegistry();
    registry.register({ name: 'touch', description: 'Touch.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } }, run: (p) => (ran.push(p), { touched: p.path }) });
    const records: DecisionRecord[] = [];
    const ledger = { append: async (r: DecisionRecord) => void records.push(r) };
    const coder = { name: 'coder', tools: ['touch'] };

    const refused = [
      [decision({ handoff: 'review', action: 'review', call: null }), /handoff is "review"/],
      [decision({ handoff: 'execute_tool', action: 'review', call }), /action is "review"/],
      [decision({ handoff: 'execute_tool', action: 'auto', call: null }), /no complete call/],
      [decision(undefined, { error: { code: 'TIMEOUT', message: 'late', retryable: true } }), /the decision failed \(TIMEOUT\)/],
      [decision({ handoff: 'execute_tool', action: 'auto', call }, { tool: 'jev_review' }), /jev_review decisions do not select tool calls/],
      [decision({ handoff: 'execute_tool', action: 'auto', call }, { agent: 'someone-else' }), /judged for agent "someone-else"/],
      [decision({ handoff: 'execute_tool', action: 'auto', call }, { kind: 'execution' }), /execution record, not a decision/],
    ] as const;
    for (const [d, why] of refused) {
      const out = await execute({ registry, ledger }, coder, d);
      assert.equal(out.executed, false);
      assert.match((out as { reason: string }).reason, why);
    }
    assert.deepEqual(ran, []);
    assert.equal(records.length, 0);

    const ok = await execute({ registry, ledger }, coder, decision({ handoff: 'execute_tool', action: 'auto', call }));
    assert.ok(ok.executed && ok.ok);
    assert.deepEqual(ok.result, { touched: 'x' });
    assert.deepEqual(ran, [{ path: 'x' }]);
    assert.equal(records.length, 1);
    assert.deepEqual([records[0].kind, records[0].tool, records[0].decision_id, records[0].agent], ['execution', 'touch', 'd-1', 'coder']);
    assert.deepEqual(records[0].result, { touched: 'x' });

    // Through the capability check: an agent whose grants changed since the decision is refused and recorded.
    const revoked = { name: 'coder', tools: ['!touch'] };
    const denied = await execute({ registry, ledger }, revoked, decision({ handoff: 'execute_tool', action: 'auto', call }));
    assert.ok(denied.executed && !denied.ok);
    assert.equal(denied.error.code, 'INVALID_INPUT');
    assert.match(denied.error.message, /^CapabilityViolation: Agent "coder" may not call "touch": denied by "!touch"/);
    assert.equal(records.at(-1)!.error!.code, 'INVALID_INPUT');
    assert.equal(ran.length, 1);
    assert.deepEqual(acceptedCall(decision({ handoff: 'execute_tool', action: 'auto', call })), { call });
  });
});
