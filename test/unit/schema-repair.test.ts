/** Arrays without items in an external tool's input schema are repaired before the gateway lists it. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkSchemaPortability } from '../../src/mcp/schema-portability';
import { withArrayItems } from '../../src/mcp/schema-repair';
import { gatewayTools } from '../../src/mcp/gateway-tools';
import type { ToolRegistry } from '../../src/registry/registry';
import type { JudgmentService } from '../../src/tools/judgment-service';

const broken = {
  type: 'object',
  properties: {
    tags: { type: 'array' },
    nested: { type: 'object', properties: { ids: { type: ['array', 'null'] } } },
    either: { anyOf: [{ type: 'array' }, { type: 'string' }] },
    fine: { type: 'array', items: { type: 'string' } },
  },
};

describe('external input schemas: arrays without items', () => {
  it('get items: {} (any item) in a copy, naming each node; the original is unchanged', () => {
    const { schema, repaired } = withArrayItems(broken);
    assert.deepEqual(repaired, ['/properties/tags', '/properties/nested/properties/ids', '/properties/either/anyOf/0']);
    assert.deepEqual(schema.properties.tags, { type: 'array', items: {} });
    assert.deepEqual(schema.properties.fine, broken.properties.fine);
    assert.equal('items' in broken.properties.tags, false, 'the server’s own schema is not changed');
    assert.deepEqual(checkSchemaPortability(schema, 'inputSchema').filter((f) => f.rule === 'array-items'), []);
    const sound = { type: 'object', properties: { a: { type: 'string' } } };
    assert.equal(withArrayItems(sound).schema, sound, 'a sound schema is returned as it is');
  });

  it('the gateway lists an external tool with the repaired schema', () => {
    const tool = { id: 'files/tag', name: 'tag', server: 'files', transport: 'mcp', description: 'Tag files', inputSchema: broken };
    const registry = { list: () => [tool] } as unknown as ToolRegistry;
    const service = { tools: new Map() } as unknown as JudgmentService;
    const [listed] = gatewayTools({ service, registry: () => registry, manifest: () => ({ name: 'editor', tools: ['files/*'] }) });
    assert.equal(listed?.name, 'files__tag');
    assert.deepEqual(checkSchemaPortability(listed!.listing.inputSchema, 'inputSchema').filter((f) => f.severity === 'error'), []);
  });
});
