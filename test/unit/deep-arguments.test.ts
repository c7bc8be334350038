/** Deeply nested tool arguments: refused by an iterative check before any recursive walk (INVALID_INPUT, short path). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JevError } from '../../src/judgment/errors';
import { ALL_TOOLS } from '../../src/tools';
import { JudgmentService } from '../../src/tools/judgment-service';
import { findProtoKey, findTooDeep, formatPath, MAX_ARGUMENT_DEPTH, MAX_PRINTED_PATH, parseArgs } from '../../src/tools/schemas';
import { z } from 'zod';
import type { JudgmentProvider } from '../../src/judgment/provider';

/** `{a: {a: … 1}}` with `levels` objects. */
function nestedObjects(levels: number): Record<string, unknown> {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v as Record<string, unknown>;
}
/** `[[…[]…]]` with `levels` arrays. */
function nestedArrays(levels: number): unknown[] {
  let v: unknown[] = [];
  for (let i = 1; i < levels; i++) v = [v];
  return v;
}

const NEVER: JudgmentProvider = {
  id: 'never',
  calibrated: false,
  systemOne: async () => {
    throw new Error('a refused input must not reach the provider');
  },
};

describe('argument depth limit', () => {
  it('findTooDeep measures 10 000 levels without recursion and names the first container past the limit', () => {
    assert.equal(findTooDeep(nestedObjects(MAX_ARGUMENT_DEPTH)), undefined, 'exactly the limit is accepted');
    const path = findTooDeep(nestedObjects(10_000));
    assert.equal(path?.length, MAX_ARGUMENT_DEPTH);
    assert.ok(path?.every((k) => k === 'a'));
    assert.deepEqual(findTooDeep({ ok: [1, { b: 2 }], x: nestedArrays(70) }, 64)?.slice(0, 3), ['x', 0, 0]);
    assert.equal(findTooDeep('text'), undefined);
  });

  it('a cycle (in-process caller) ends as too deep instead of looping', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.ok(findTooDeep(cyclic));
  });

  it('findProtoKey is iterative: deep input → INVALID_INPUT naming the depth limit; proto keys still found in order', () => {
    assert.throws(() => findProtoKey({ x: nestedArrays(10_000) }), (e: unknown) => e instanceof JevError && e.code === 'INVALID_INPUT' && /nested deeper than 64 levels/.test(e.message));
    const withProto = JSON.parse('{"a":[{"b":1},{"c":{"__proto__":{}}}],"d":{"__proto__":1}}');
    assert.deepEqual(findProtoKey(withProto), ['a', 1, 'c', '__proto__']);
    assert.deepEqual(findProtoKey({ a: [1, 2] }), undefined);
  });

  it('parseArgs refuses deep arguments before zod; the printed path is capped', () => {
    const schema = z.object({ extras: z.unknown() }).strict();
    assert.throws(
      () => parseArgs(schema, { extras: nestedArrays(10_000) }),
      (e: unknown) => e instanceof JevError && e.code === 'INVALID_INPUT' && e.message.startsWith('extras[0][0]') && /\[0\]: nested deeper than 64 levels/.test(e.message),
    );
    const longKey = 'k'.repeat(3_000);
    assert.throws(
      () => parseArgs(schema, { extras: { [longKey]: nestedArrays(100) } }),
      (e: unknown) => e instanceof JevError && e.message.length < MAX_PRINTED_PATH + 100 && e.message.startsWith('extras.kkk') && e.message.includes('…'),
    );
  });

  it('formatPath caps a long path at MAX_PRINTED_PATH characters, keeping both ends', () => {
    const long = formatPath(['start', ...Array.from({ length: 500 }, () => 0), 'end']);
    assert.equal(long.length, MAX_PRINTED_PATH);
    assert.ok(long.startsWith('start[0]'));
    assert.ok(long.endsWith('[0].end'));
    assert.equal(formatPath(['a', 1, 'b']), 'a[1].b');
    assert.equal(formatPath(['k'.repeat(5000)]).length, MAX_PRINTED_PATH);
  });

  it('every jev tool (through the service) answers deep arguments with INVALID_INPUT, never API_ERROR, without a provider call', async () => {
    const service = new JudgmentService({ provider: NEVER, tools: ALL_TOOLS, floors: { auto_accept: 0.8, review_at: 0.5, block_at: 0.75 }, model: 'm' });
    for (const tool of ['jev_step', 'jev_coding_loop', 'jev_tool_route', 'jev_review', 'jev_verify', 'jev_gate', 'jev_screen', 'jev_rank', 'jev_evaluate', 'jev_permit']) {
      const out = await service.call(tool, { deep: nestedObjects(10_000) });
      assert.equal(out.ok, false, tool);
      if (out.ok) continue;
      assert.equal(out.error.code, 'INVALID_INPUT', `${tool}: ${out.error.message}`);
      assert.match(out.error.message, /^deep\.a\.a.*: nested deeper than 64 levels/, tool);
    }
  });
});

it('judgevet tools refuse deeply nested arguments too (runner check), with no provider call', async () => {
  const { DEFAULT_FLOORS } = await import('../../src/policy/thresholds');
  let calls = 0;
  const provider = { id: 'stub', calibrated: true, systemOne: async () => { calls++; throw new Error('must not be called'); } };
  const service = new JudgmentService({ provider, tools: ALL_TOOLS, floors: DEFAULT_FLOORS, model: 'm' });
  let state: unknown = 'leaf';
  for (let i = 0; i < 10_000; i++) state = { a: state };
  for (const tool of ['ask_noul', 'evaluate_policy']) {
    const outcome = await service.call(tool, { state, instruction: 'Is it?', questions: { q: { type: 'noul' } }, policy: { rules: [] } });
    assert.equal(outcome.ok, false);
    if (!outcome.ok) {
      assert.equal(outcome.error.code, 'INVALID_INPUT', tool);
      assert.match(outcome.error.message, /nested deeper than 64 levels/);
    }
  }
  assert.equal(calls, 0);
});
