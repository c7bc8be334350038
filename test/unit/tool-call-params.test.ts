/**
 * toolCallParamsProblem (src/mcp/tool-call-errors.ts): its schema-free fast path must agree with the SDK's
 * own CallToolRequestParamsSchema on every shape, well-formed or not.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { CallToolRequestParamsSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { toolCallParamsProblem } from '../../src/mcp/tool-call-errors';

const call = (params: unknown) => ({ jsonrpc: '2.0', id: 7, method: 'tools/call', params }) as unknown as JSONRPCMessage;

const CASES: unknown[] = [
  { name: 'jev_step', arguments: { task: 't', candidates: [{ id: 'a' }] } },
  { name: 'jev_step' },
  { name: '', arguments: { nested: [1, { deep: null }] } },
  { name: 'x', arguments: Object.create(null) },
  { name: 'x', arguments: new Map([['a', 1]]) },
  { name: 'x', arguments: new Date(0) },
  { name: 'x', arguments: {}, _meta: { progressToken: 'p-1' } },
  { name: 'x', _meta: { progressToken: 3 } },
  { name: 'x', _meta: {} },
  { name: 'x', _meta: { progressToken: 1.5 } },
  { name: 'x', _meta: { progressToken: null } },
  { name: 'x', _meta: { other: 1 } },
  { name: 'x', _meta: [] },
  { name: 'x', task: { ttl: 1000 } },
  { name: 'x', extra: true },
  { name: 42 },
  { arguments: {} },
  { name: 'x', arguments: [] },
  { name: 'x', arguments: null },
  { name: 'x', arguments: 'a' },
  null,
  [],
  'x',
  undefined,
];

test('answers exactly where the SDK schema refuses, with one line naming the field', () => {
  for (const params of CASES) {
    const schemaOk = CallToolRequestParamsSchema.safeParse(params).success;
    const problem = toolCallParamsProblem(call(params));
    assert.equal(problem === undefined, schemaOk, `params ${JSON.stringify(params)}: schema ${schemaOk ? 'accepts' : 'refuses'}, guard said ${problem ?? 'ok'}`);
    if (problem) assert.match(problem, /^Invalid tools\/call params(: params[.\w]*: .+)?$/);
  }
});

test('names the field: a numeric name and an array of arguments', () => {
  assert.match(toolCallParamsProblem(call({ name: 42 }))!, /^Invalid tools\/call params: params\.name: /);
  assert.match(toolCallParamsProblem(call({ name: 'x', arguments: [] }))!, /^Invalid tools\/call params: params\.arguments: /);
});

test('leaves other methods and notifications alone', () => {
  assert.equal(toolCallParamsProblem({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { name: 3 } } as unknown as JSONRPCMessage), undefined);
  assert.equal(toolCallParamsProblem({ jsonrpc: '2.0', method: 'tools/call', params: { name: 3 } } as unknown as JSONRPCMessage), undefined);
});
