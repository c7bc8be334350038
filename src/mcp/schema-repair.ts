/**
 * Repairs an external MCP server's input schema before the gateway lists it to an agent's client
 * (gateway-tools.ts). One node `{"type": "array"}` without `items` makes VS Code's agent refuse every request
 * while the tool is enabled (schema-portability.ts, rule array-items), so such nodes get `items: {}` (any item:
 * exactly what the server accepts). Everything else is left as the server wrote it.
 */
import { MAX_SCHEMA_WALK_DEPTH } from './schema-portability';

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Keywords whose value is one subschema, an array of them, or a map of them. */
const ONE = ['items', 'additionalProperties', 'contains', 'not', 'if', 'then', 'else', 'propertyNames'];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

/**
 * `schema` with `items: {}` added to every array node that has none (a copy; `schema` is not changed), and the
 * JSON pointers of the nodes repaired ([] and the same object when none needed it). Walks at most
 * MAX_SCHEMA_WALK_DEPTH levels.
 */
export function withArrayItems<T>(schema: T): { schema: T; repaired: string[] } {
  const repaired: string[] = [];
  const copy = structuredClone(schema);
  const visit = (node: unknown, pointer: string, depth: number): void => {
    if (!isNode(node) || depth > MAX_SCHEMA_WALK_DEPTH) return;
    const types = typeof node.type === 'string' ? [node.type] : Array.isArray(node.type) ? node.type : [];
    if (types.includes('array') && !('items' in node)) {
      node.items = {};
      repaired.push(pointer);
    }
    for (const key of ONE) {
      const sub = node[key];
      if (Array.isArray(sub)) sub.forEach((s, i) => visit(s, `${pointer}/${key}/${i}`, depth + 1));
      else visit(sub, `${pointer}/${key}`, depth + 1);
    }
    for (const key of LIST) if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((s, i) => visit(s, `${pointer}/${key}/${i}`, depth + 1));
    for (const key of MAP) if (isNode(node[key])) for (const [name, s] of Object.entries(node[key] as Node)) visit(s, `${pointer}/${key}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1);
  };
  visit(copy, '', 0);
  return repaired.length ? { schema: copy, repaired } : { schema, repaired };
}
