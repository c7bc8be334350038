/**
 * Host-derived trusted facts: schema_valid from Ajv against the tool's real inputSchema
 * (2020-12 and draft-07), authorized from grants, effect from annotations; the host's false beats a
 * caller's true. Uses in-process tools so the schemas are exactly the ones written here.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { candidateListSchema, eligibilityReasons } from '../../src/tools/candidates';
import { effectFromAnnotations, prepare, type CandidateRequest } from '../../src/registry/prepare';
import { ToolRegistry } from '../../src/registry/registry';
import { checkAgainstSchema } from '../../src/registry/schema';

// 2020-12 only features: prefixItems, dependentRequired, $defs with $ref, unevaluatedProperties.
const schema2020 = {
  type: 'object',
  $defs: { path: { type: 'string', minLength: 1 } },
  properties: {
    path: { $ref: '#/$defs/path' },
    range: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'integer' }], items: false },
    encoding: { enum: ['utf8', 'latin1'] },
    mode: { type: 'string' },
  },
  required: ['path'],
  dependentRequired: { mode: ['encoding'] },
  unevaluatedProperties: false,
};

// draft-07 only features: tuple `items` array + additionalItems, `dependencies`, `definitions`.
const schemaDraft07 = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  definitions: { url: { type: 'string', pattern: '^https://' } },
  properties: {
    url: { $ref: '#/definitions/url' },
    pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false },
    token: { type: 'string' },
    scope: { type: 'string' },
  },
  required: ['url'],
  dependencies: { token: ['scope'] },
  additionalProperties: false,
};

function registry(): ToolRegistry {
  const reg = new ToolRegistry();
  reg.register({ name: 'read_file', description: 'Read a file.', inputSchema: schema2020, annotations: { readOnlyHint: true }, run: () => ({}) });
  reg.register({ name: 'fetch', description: 'Fetch a URL.', inputSchema: schemaDraft07, annotations: { readOnlyHint: false, openWorldHint: true }, run: () => ({}) });
  reg.register({ name: 'delete_file', description: 'Delete a file.', inputSchema: { type: 'object' }, annotations: { destructiveHint: true, readOnlyHint: false }, run: () => ({}) });
  reg.register({ name: 'touch', description: 'Touch a file.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false }, run: () => ({}) });
  reg.register({ name: 'mystery', description: 'No hints.', inputSchema: { type: 'object' }, run: () => ({}) });
  return reg;
}

const coder = { name: 'coder', tools: ['*', '!delete_file'] };
const cand = (over: Partial<CandidateRequest> & { name: string; arguments: Record<string, unknown> }): CandidateRequest => ({
  id: over.name,
  preconditions_met: true,
  ...over,
});

describe('schema checks (Ajv 2020-12 and draft-07)', () => {
  it('validates 2020-12 schemas with their own keywords', () => {
    assert.deepEqual(checkAgainstSchema(schema2020, { path: 'a.ts', range: [1, 2] }), { valid: true });
    assert.deepEqual(checkAgainstSchema(schema2020, { path: 'a.ts', mode: 'r', encoding: 'utf8' }), { valid: true });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /^arguments: must have required property 'path'$/],
      [{ path: '' }, /^arguments\.path: must NOT have fewer than 1 characters$/],
      [{ path: 'a', range: [1, 'x'] }, /^arguments\.range\[1\]: must be integer$/],
      [{ path: 'a', range: [1, 2, 3] }, /^arguments\.range: must NOT have more than 2 items$/],
      [{ path: 'a', mode: 'r' }, /^arguments: must have property encoding when property mode is present$/],
      [{ path: 'a', extra: 1 }, /^arguments: must NOT have unevaluated properties$/],
    ];
    for (const [args, message] of cases) {
      const r = checkAgainstSchema(schema2020, args);
      assert.equal(r.valid, false, JSON.stringify(args));
      assert.match((r as { error: string }).error, message);
    }
  });

  it('validates draft-07 schemas with their own keywords', () => {
    assert.deepEqual(checkAgainstSchema(schemaDraft07, { url: 'https://x', pair: ['a', 1] }), { valid: true });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ url: 'http://x' }, /^arguments\.url: must match pattern "\^https:\/\/"$/],
      [{ url: 'https://x', pair: ['a', 1, 2] }, /^arguments\.pair: must NOT have more than 2 items$/],
      [{ url: 'https://x', pair: [1, 1] }, /^arguments\.pair\[0\]: must be string$/],
      [{ url: 'https://x', token: 't' }, /^arguments: must have property scope when property token is present$/],
      [{ url: 'https://x', other: 1 }, /^arguments: must NOT have additional properties \("other"\)$/],
    ];
    for (const [args, message] of cases) {
      const r = checkAgainstSchema(schemaDraft07, args);
      assert.equal(r.valid, false, JSON.stringify(args));
      assert.match((r as { error: string }).error, message);
    }
  });

  it('never passes what it cannot check', () => {
    assert.match((checkAgainstSchema({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' }, {}) as { error: string }).error, /unsupported JSON Schema dialect/);
    assert.match((checkAgainstSchema({ type: 'object', properties: { a: { $ref: '#/nowhere' } } }, {}) as { error: string }).error, /does not compile/);
    assert.match((checkAgainstSchema(undefined, {}) as { error: string }).error, /no usable inputSchema/);
  });
});

describe('effect from annotations', () => {
  it('maps hints in the issue order', () => {
    assert.equal(effectFromAnnotations(undefined), 'unknown');
    assert.equal(effectFromAnnotations({}), 'unknown');
    assert.equal(effectFromAnnotations({ title: 'only a title' }), 'unknown');
    assert.equal(effectFromAnnotations({ readOnlyHint: true, destructiveHint: true }), 'read_only');
    assert.equal(effectFromAnnotations({ readOnlyHint: false, destructiveHint: true, openWorldHint: true }), 'destructive');
    assert.equal(effectFromAnnotations({ openWorldHint: true }), 'external_write');
    assert.equal(effectFromAnnotations({ readOnlyHint: false }), 'local_write');
    assert.equal(effectFromAnnotations({ idempotentHint: true }), 'local_write');
  });
});

describe('prepare', () => {
  it('derives schema_valid, authorized and effect; host false beats caller true', () => {
    const reg = registry();
    const { candidates, facts } = prepare(reg, coder, [
      cand({ name: 'read_file', arguments: { path: 'src/a.ts' } }),
      cand({ name: 'read_file', id: 'bad-args', arguments: { path: 42 }, schema_valid: true, authorized: true, effect: 'read_only' }),
      cand({ name: 'delete_file', arguments: { path: 'x' }, authorized: true, schema_valid: true }),
      cand({ name: 'fetch', arguments: { url: 'https://example.com' } }),
      cand({ name: 'touch', arguments: {} }),
      cand({ name: 'mystery', arguments: {} }),
      cand({ name: 'fetch', id: 'caller-false', arguments: { url: 'https://example.com' }, schema_valid: false, authorized: false }),
      cand({ name: 'nope', arguments: {}, schema_valid: true, authorized: true, effect: 'read_only', description: 'Made up.' }),
    ]);
    const pick = (i: number) => ({ schema_valid: candidates[i].schema_valid, authorized: candidates[i].authorized, effect: candidates[i].effect });
    assert.deepEqual(pick(0), { schema_valid: true, authorized: true, effect: 'read_only' });
    assert.deepEqual(pick(1), { schema_valid: false, authorized: true, effect: 'read_only' });
    assert.match(facts[1].schema_valid.detail, /^arguments\.path: must be string$/);
    assert.equal(facts[1].schema_valid.caller, true);
    assert.deepEqual(pick(2), { schema_valid: true, authorized: false, effect: 'destructive' });
    assert.match(facts[2].authorized.detail, /denied by "!delete_file"/);
    assert.deepEqual(pick(3), { schema_valid: true, authorized: true, effect: 'external_write' });
    assert.deepEqual(pick(4), { schema_valid: true, authorized: true, effect: 'local_write' });
    assert.deepEqual(pick(5), { schema_valid: true, authorized: true, effect: 'unknown' });
    assert.deepEqual(pick(6), { schema_valid: false, authorized: false, effect: 'external_write' });
    assert.deepEqual(pick(7), { schema_valid: false, authorized: true, effect: 'read_only' });
    assert.equal(facts[7].tool, null);
    // Descriptions come from the tool when the caller gives none; preconditions stay the caller's.
    assert.equal(candidates[0].description, 'Read a file.');
    assert.equal(candidates[7].description, 'Made up.');
    assert.ok(candidates.every((c) => c.preconditions_met === true));
    // The prepared list is a valid jev_step/jev_tool_route candidate list, and eligibility follows the facts.
    assert.equal(candidateListSchema.safeParse(candidates).success, true);
    assert.deepEqual(candidates.map(eligibilityReasons), [
      [],
      ['arguments_not_validated'],
      ['not_authorized'],
      [],
      [],
      ['unknown_effect'],
      ['not_authorized', 'arguments_not_validated'],
      ['arguments_not_validated'],
    ]);
  });

  it('keeps the caller effect unless the annotations are stricter', () => {
    const reg = registry();
    const { candidates, facts } = prepare(reg, coder, [
      cand({ name: 'read_file', arguments: { path: 'a' }, effect: 'local_write' }),
      cand({ name: 'delete_file', arguments: {}, effect: 'read_only' }),
      cand({ name: 'mystery', arguments: {}, effect: 'local_write' }),
      cand({ name: 'touch', arguments: {}, effect: 'unknown' }),
    ]);
    assert.deepEqual(candidates.map((c) => c.effect), ['local_write', 'destructive', 'local_write', 'local_write']);
    assert.match(facts[1].effect.detail, /stricter than the caller's read_only/);
  });
});
