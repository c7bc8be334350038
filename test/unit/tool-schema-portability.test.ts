/**
 * Every tool schema we list passes the portability rules of the clients people use
 * (src/mcp/schema-portability.ts): read the way clients read them, from `tools/list` of in-process SDK
 * clients: the judgment server (`jevcp serve`), the agent gateway (the editor's endpoint and
 * `serve --agent`) and the oracle server. A failure names the tool, the schema, the JSON pointer and the rule.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { createGatewaySession } from '../../src/mcp/gateway';
import { checkSchemaPortability, PORTABILITY_RULES, type PortabilityFinding, type SchemaKind } from '../../src/mcp/schema-portability';
import { createMcpServer } from '../../src/mcp/server';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';
import { MockProvider } from '../../src/providers/mock/provider';
import { createOracleServer } from '../../src/registry/oracle-server';
import { ALL_TOOLS } from '../../src/tools';
import { JudgmentService } from '../../src/tools/judgment-service';

interface Listed {
  source: string;
  tools: Tool[];
}

const clients: Client[] = [];

async function listVia(connect: (transport: InMemoryTransport) => Promise<void>): Promise<Tool[]> {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await connect(serverSide);
  const client = new Client({ name: 'portability-test', version: '0.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return (await client.listTools()).tools;
}

/** `tool schema pointer rule: message`, one line per finding. */
function lines(tool: string, kind: SchemaKind, findings: PortabilityFinding[]): string[] {
  return findings.map((f) => `${tool} ${kind}#${f.pointer} ${f.rule}: ${f.message}`);
}

function findingsOf(listed: Listed[], severity: 'error' | 'warning'): string[] {
  const out: string[] = [];
  for (const { source, tools } of listed) {
    for (const tool of tools) {
      for (const kind of ['inputSchema', 'outputSchema'] as const) {
        if (tool[kind] === undefined) continue;
        const found = checkSchemaPortability(tool[kind], kind).filter((f) => f.severity === severity);
        out.push(...lines(`${source}:${tool.name}`, kind, found));
      }
    }
  }
  return out;
}

describe('tool schema portability: every listed schema', () => {
  const listed: Listed[] = [];

  before(async () => {
    const service = new JudgmentService({ provider: new MockProvider(), tools: ALL_TOOLS, floors: DEFAULT_FLOORS, model: 'jev-latest' });
    const server: Server = createMcpServer(service, { card: null });
    listed.push({ source: 'serve', tools: await listVia((t) => server.connect(t)) });
    const session = createGatewaySession({
      agent: 'editor',
      service,
      registry: () => undefined,
      manifest: () => ({ name: 'editor', tools: ['*'] }),
      floors: () => DEFAULT_FLOORS,
      record: () => undefined,
      card: null,
    });
    listed.push({
      source: 'gateway',
      tools: await listVia(async (t) => {
        await session.server.connect(t);
        session.connected(t);
      }),
    });
    const oracle = createOracleServer();
    listed.push({ source: 'oracle', tools: await listVia((t) => oracle.connect(t)) });
  });

  after(async () => {
    for (const c of clients) await c.close();
  });

  it('lists what the product serves: the 13 judgment tools (serve and gateway) and the oracle', () => {
    const names = ALL_TOOLS.map((t) => t.name);
    assert.deepEqual(listed.find((l) => l.source === 'serve')!.tools.map((t) => t.name), names);
    assert.deepEqual(listed.find((l) => l.source === 'gateway')!.tools.map((t) => t.name), names);
    assert.deepEqual(listed.find((l) => l.source === 'oracle')!.tools.map((t) => t.name), ['oracle']);
    for (const l of listed.filter((x) => x.source !== 'oracle')) {
      for (const t of l.tools) assert.ok(t.outputSchema, `${l.source}:${t.name} lists an outputSchema`);
    }
  });

  for (const rule of PORTABILITY_RULES.filter((r) => r.severity === 'error')) {
    it(`no schema breaks "${rule.id}" (${rule.rule})`, () => {
      const broken = findingsOf(listed, 'error').filter((l) => l.includes(` ${rule.id}: `));
      assert.deepEqual(broken, [], `schemas that break ${rule.id}; ${rule.clients}\n${broken.join('\n')}`);
    });
  }

  it('warnings are exactly the known ones (a new one must be fixed or added here with its reason)', () => {
    // type-union: `state` is text or JSON ("string"/"object"), usage token counts and selection ids are nullable; Codex and
    // VS Code accept unions. untyped: values that are any JSON by contract (free-form arguments, extras,
    // array states, evaluate_policy's pass-through instructions and criteria); no portable spelling exists.
    const known = new Set(
      [
        ...['ask_noul', 'ask_choice', 'ask_score', 'evaluate_policy'].flatMap((t) => [
          `${t} inputSchema#/properties/state/type type-union`,
          `${t} outputSchema#/properties/usage/properties/input_tokens/type type-union`,
          `${t} outputSchema#/properties/usage/properties/output_tokens/type type-union`,
        ]),
        'ask_choice inputSchema#/properties/criteria/additionalProperties/type type-union',
        'evaluate_policy inputSchema#/properties/state/items untyped',
        'evaluate_policy inputSchema#/properties/questions/additionalProperties/allOf/1/then/properties/criteria/items untyped',
        'evaluate_policy inputSchema#/properties/questions/additionalProperties/properties/instructions untyped',
        'evaluate_policy inputSchema#/properties/questions/additionalProperties/properties/criteria untyped',
        'jev_step inputSchema#/properties/extras/additionalProperties untyped',
        'jev_step inputSchema#/properties/candidates/items/properties/arguments/additionalProperties untyped',
        'jev_step outputSchema#/properties/call/anyOf/0/properties/arguments/additionalProperties untyped',
        'jev_step outputSchema#/properties/selection/anyOf/0/properties/id/type type-union',
        'jev_tool_route inputSchema#/properties/candidates/items/properties/arguments/additionalProperties untyped',
        'jev_tool_route outputSchema#/properties/call/anyOf/0/properties/arguments/additionalProperties untyped',
        'jev_tool_route outputSchema#/properties/selection/anyOf/0/properties/id/type type-union',
        'jev_coding_loop inputSchema#/properties/extras/additionalProperties untyped',
        'jev_permit inputSchema#/properties/call/properties/input untyped',
        'jev_evaluate inputSchema#/properties/state/anyOf/1/items untyped',
        'jev_evaluate inputSchema#/properties/state/anyOf/2/additionalProperties untyped',
      ],
    );
    const seen = new Set(findingsOf(listed, 'warning').map((l) => l.replace(/^(serve|gateway|oracle):/, '').replace(/: .*$/, '')));
    assert.deepEqual([...seen].filter((w) => !known.has(w)).sort(), [], 'new portability warnings');
    assert.deepEqual([...known].filter((w) => !seen.has(w)).sort(), [], 'known warnings that are gone: remove them from the list');
  });
});

describe('tool schema portability: each rule fires', () => {
  const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });
  const rulesOf = (schema: unknown, kind: SchemaKind = 'inputSchema') => checkSchemaPortability(schema, kind).map((f) => `${f.rule} ${f.pointer}`);

  it('a clean schema has no findings', () => {
    assert.deepEqual(rulesOf(obj({ a: { type: 'array', items: { type: 'string' } }, b: { anyOf: [{ type: 'string' }, { type: 'null' }] } }, { required: ['a'], additionalProperties: false })), []);
  });

  it('array-items: VS Code\'s "array type must have items", also inside if/then and type unions', () => {
    assert.deepEqual(rulesOf(obj({ a: { type: 'array' } })), ['array-items /properties/a']);
    const nested = obj({ q: { type: 'object', properties: {}, allOf: [{ if: { properties: { t: { const: 's' } } }, then: { properties: { c: { type: 'array', minItems: 1 } } } }] } });
    assert.deepEqual(rulesOf(nested), ['array-items /properties/q/allOf/0/then/properties/c']);
    assert.ok(rulesOf(obj({ s: { type: ['string', 'array'] } })).includes('array-items /properties/s'));
    assert.deepEqual(rulesOf({ type: 'object', properties: { a: { type: 'array' } } }, 'outputSchema'), ['array-items /properties/a']);
  });

  it('root-object and root-combinator', () => {
    assert.deepEqual(rulesOf({ type: 'string' }), ['root-object ', 'root-object ']);
    assert.deepEqual(rulesOf({ type: 'object' }), ['root-object ']);
    assert.deepEqual(rulesOf(null), ['root-object ']);
    assert.deepEqual(rulesOf(obj({}, { anyOf: [{ type: 'object', required: [] }] })), ['root-combinator ']);
    assert.deepEqual(rulesOf(obj({}, { anyOf: [{ type: 'object', required: [] }] }), 'outputSchema'), [], 'VS Code only rewrites input schemas');
  });

  it('draft-07: a schema the meta-schema refuses (VS Code: "tool parameters do not match JSON schema")', () => {
    assert.deepEqual(rulesOf(obj({ a: { type: 'text' } })).filter((r) => r.startsWith('draft-07')).slice(0, 1), ['draft-07 /properties/a/type']);
    assert.ok(rulesOf(obj({ a: { type: 'string', minLength: -1 } })).includes('draft-07 /properties/a/minLength'));
  });

  it('items-tuple, boolean-schema, no-ref, required-defined', () => {
    assert.deepEqual(rulesOf(obj({ a: { type: 'array', items: [{ type: 'string' }] } })), ['items-tuple /properties/a/items']);
    assert.deepEqual(rulesOf(obj({ a: true }, { additionalProperties: false })), ['boolean-schema /properties/a']);
    assert.deepEqual(rulesOf(obj({ a: { $ref: '#/$defs/x' } }, { $defs: { x: { type: 'string' } } })), ['no-ref /$defs', 'no-ref /properties/a/$ref', 'untyped /properties/a']);
    assert.deepEqual(rulesOf(obj({ a: { type: 'string' } }, { required: ['a', 'b'] })), ['required-defined /required']);
  });

  it('warnings: type-union, untyped, long-description', () => {
    assert.deepEqual(rulesOf(obj({ a: { type: ['string', 'null'] } })), ['type-union /properties/a/type']);
    assert.deepEqual(rulesOf(obj({ a: { description: 'anything' } })), ['untyped /properties/a']);
    // Codex drops oneOf (and allOf), so a node with only oneOf reaches its model as a string.
    assert.deepEqual(rulesOf(obj({ a: { oneOf: [{ type: 'string' }, { type: 'number' }] } })), ['untyped /properties/a']);
    assert.deepEqual(rulesOf(obj({ a: { type: 'string', description: 'x'.repeat(1_025) } })), ['long-description /properties/a/description']);
    const severity = new Map(checkSchemaPortability(obj({ a: { description: 'x' } }), 'inputSchema').map((f) => [f.rule, f.severity]));
    assert.equal(severity.get('untyped'), 'warning');
  });

  it('walk-depth: a schema nested past the bound is reported, not walked', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 70; i++) deep = { type: 'object', properties: { n: deep } };
    const found = checkSchemaPortability(deep, 'inputSchema').filter((f) => f.rule === 'walk-depth');
    assert.equal(found.length, 1);
  });
});
