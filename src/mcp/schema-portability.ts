import Ajv, { type ValidateFunction } from 'ajv';

/**
 * Tool-schema portability: the checks real MCP clients apply to a tool's `inputSchema` / `outputSchema`,
 * as one rule set. Our own listings must pass every `error` rule (test/unit/tool-schema-portability.test.ts);
 * the gateway (gateway-tools.ts) can run the same checks on an external server's tools, since one bad
 * schema listed to VS Code's agent fails every agent request, not just calls of that tool.
 * Each rule names the client that enforces it and what that client does; docs/decisions.md lists the
 * sources ("Tool schemas that every client accepts").
 */

/** `error`: a client refuses the schema, drops the tool or silently rewrites its contract; `warning`: a client may. */
export type PortabilitySeverity = 'error' | 'warning';

/** Which half of a tool listing a schema is. */
export type SchemaKind = 'inputSchema' | 'outputSchema';

/** One rule: its id, severity, the schemas it applies to, and the clients that enforce it (what they do). */
export interface PortabilityRule {
  id: string;
  severity: PortabilitySeverity;
  appliesTo: readonly SchemaKind[];
  /** The rule in one sentence. */
  rule: string;
  /** Which client enforces it, and what it does with a schema that breaks it. */
  clients: string;
}

const BOTH: readonly SchemaKind[] = ['inputSchema', 'outputSchema'];

/** The rule set, in check order. */
export const PORTABILITY_RULES: readonly PortabilityRule[] = Object.freeze([
  {
    id: 'root-object',
    severity: 'error',
    appliesTo: BOTH,
    rule: 'The root is an object schema: `type: "object"` (one type, not a union) with a `properties` object.',
    clients:
      'MCP spec (inputSchema and outputSchema are object schemas); VS Code Copilot Chat replaces a non-object ' +
      'root with an empty object schema (every parameter lost) and adds a missing `properties`; Codex adds a missing `properties`.',
  },
  {
    id: 'root-combinator',
    severity: 'error',
    appliesTo: ['inputSchema'],
    rule: 'No `oneOf`, `anyOf`, `allOf`, `not`, `if`, `then` or `else` at the root of an input schema.',
    clients: 'VS Code Copilot Chat deletes these root keywords before every request (their constraints are lost).',
  },
  {
    id: 'draft-07',
    severity: 'error',
    appliesTo: BOTH,
    rule: 'The schema is valid against the JSON Schema draft-07 meta-schema.',
    clients:
      'VS Code Copilot Chat validates every enabled tool\'s input schema against draft-07 before each agent request and ' +
      'throws "tool parameters do not match JSON schema", which fails the whole request. Checked on output schemas too, to keep one dialect.',
  },
  {
    id: 'array-items',
    severity: 'error',
    appliesTo: BOTH,
    rule: 'A node whose `type` is or includes "array" has an `items` schema.',
    clients:
      'VS Code Copilot Chat throws "tool parameters array type must have items" (for `type: "array"`), failing every ' +
      'agent request; Codex fills in `items: {"type": "string"}` (also for type unions), so the model is told the ' +
      'array holds strings; OpenAI function calling refuses "array schema missing items".',
  },
  {
    id: 'items-tuple',
    severity: 'error',
    appliesTo: BOTH,
    rule: '`items` is one schema object, never an array of schemas (use `prefixItems`).',
    clients:
      'Codex cannot parse an `items` array into its schema subset and leaves the tool out; VS Code Copilot Chat rewrites ' +
      'it to `anyOf` for GPT-4, o4 and Claude models; draft 2020-12 (the MCP default dialect) has no array form.',
  },
  {
    id: 'boolean-schema',
    severity: 'error',
    appliesTo: BOTH,
    rule:
      'No bare `true`/`false` where a schema is expected; booleans only as the value of `additionalProperties`, ' +
      '`unevaluatedProperties`, `additionalItems` or `unevaluatedItems`.',
    clients:
      'MCP Inspector `--strict` reports it as an error (exit 6); Codex turns a boolean subschema into `{"type": "string"}`; ' +
      'Claude Code refuses a listing with one (modelcontextprotocol/inspector issue 1005).',
  },
  {
    id: 'no-ref',
    severity: 'error',
    appliesTo: BOTH,
    rule: 'No `$ref`, `$dynamicRef`, `$defs` or `definitions`: every subschema is written inline.',
    clients:
      'Codex keeps only type, description, enum, items, properties, required, additionalProperties and anyOf, so a ' +
      '`$ref` node becomes `{"type": "string"}`; VS Code Copilot Chat\'s checks do not enter `$defs`, so a broken node ' +
      'there reaches the model unchecked; MCP Inspector `--strict` warns about remote refs.',
  },
  {
    id: 'required-defined',
    severity: 'error',
    appliesTo: BOTH,
    rule: 'Every name in an object\'s `required` is one of its `properties`.',
    clients: 'VS Code Copilot Chat removes undefined names from `required` before each request.',
  },
  {
    id: 'type-union',
    severity: 'warning',
    appliesTo: BOTH,
    rule: '`type` is a single name, not an array of names.',
    clients:
      'MCP Inspector `--strict` warns (single-type dialects such as the OpenAPI subset of Gemini function declarations); ' +
      'VS Code Copilot Chat rewrites `[T, "null"]` to `nullable` for Gemini models. Codex and VS Code accept unions.',
  },
  {
    id: 'untyped',
    severity: 'warning',
    appliesTo: BOTH,
    rule: 'A node has `type`, `anyOf`, `enum` or `const` (`oneOf` or `allOf` alone do not count); a node that accepts any value has no portable spelling.',
    clients:
      'Codex drops `oneOf`, `allOf`, `not` and `if`/`then`/`else` and gives a node without `type` or `anyOf` a guessed type, "string" when nothing hints otherwise; ' +
      'MCP Inspector `--strict` warns "untyped-schema".',
  },
  {
    id: 'walk-depth',
    severity: 'error',
    appliesTo: BOTH,
    rule: 'Subschemas nest at most 64 levels deep (MAX_SCHEMA_WALK_DEPTH).',
    clients: 'None: this checker\'s own bound, so a deeper (external) schema is reported instead of walked without end.',
  },
  {
    id: 'long-description',
    severity: 'warning',
    appliesTo: ['inputSchema'],
    rule: 'A node\'s `description` is at most 1 024 characters.',
    clients: 'VS Code Copilot Chat cuts longer descriptions to 1 024 characters for GPT-4 family models.',
  },
] satisfies PortabilityRule[]);

/** One broken rule: rule id, severity, where (RFC 6901 JSON pointer into the schema, "" = root) and what. */
export interface PortabilityFinding {
  rule: string;
  severity: PortabilitySeverity;
  pointer: string;
  message: string;
}

/** Longest description VS Code Copilot Chat sends unchanged to GPT-4 family models, characters. */
export const MAX_PORTABLE_DESCRIPTION = 1_024;
/** Deepest subschema nesting walked (root = 0); deeper nodes are reported once, not walked. */
export const MAX_SCHEMA_WALK_DEPTH = 64;

const ROOT_COMBINATORS = ['oneOf', 'anyOf', 'allOf', 'not', 'if', 'then', 'else'];
/** Keywords whose value is one subschema. */
const ONE_SCHEMA = ['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'contentSchema'];
/** Of those, the ones where `true`/`false` is an ordinary value. */
const BOOLEAN_OK = new Set(['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems']);
/** Keywords whose value is an array of subschemas. */
const SCHEMA_LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAP = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'];
/** Positions whose nodes a client turns into model-visible types (Codex walks these; the rest it drops). */
const TYPED_POSITIONS = new Set(['properties', 'items', 'additionalProperties', 'anyOf', 'prefixItems']);

let draft07: ValidateFunction | undefined;
function draft07MetaSchema(): ValidateFunction {
  if (!draft07) {
    const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
    const meta = ajv.getSchema('http://json-schema.org/draft-07/schema');
    if (!meta) throw new Error('Ajv has no draft-07 meta-schema');
    draft07 = meta;
  }
  return draft07;
}

/** RFC 6901 pointer segment. */
function seg(key: string | number): string {
  return `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function typeNames(node: Record<string, unknown>): string[] {
  const t = node.type;
  if (typeof t === 'string') return [t];
  return Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * Checks one tool schema against PORTABILITY_RULES (those that apply to `kind`). Returns the findings in
 * document order, each with a JSON pointer into `schema`; [] when every rule holds. Never throws: a
 * schema that is not an object is one `root-object` finding.
 */
export function checkSchemaPortability(schema: unknown, kind: SchemaKind): PortabilityFinding[] {
  const out: PortabilityFinding[] = [];
  const applies = new Set(PORTABILITY_RULES.filter((r) => r.appliesTo.includes(kind)).map((r) => r.id));
  const severity = new Map(PORTABILITY_RULES.map((r) => [r.id, r.severity]));
  const add = (rule: string, pointer: string, message: string) => {
    if (applies.has(rule)) out.push({ rule, severity: severity.get(rule)!, pointer, message });
  };

  if (!isObject(schema)) {
    add('root-object', '', 'the schema is not a JSON object');
    return out;
  }
  if (schema.type !== 'object') add('root-object', '', `root type must be "object" (got ${JSON.stringify(schema.type)})`);
  if (!isObject(schema.properties)) add('root-object', '', 'root has no properties object');
  for (const key of ROOT_COMBINATORS) if (key in schema) add('root-combinator', '', `root has "${key}"`);

  const meta = draft07MetaSchema();
  if (!meta(schema)) {
    for (const e of meta.errors ?? []) add('draft-07', e.instancePath, `draft-07 meta-schema: ${e.message ?? e.keyword}`);
  }

  const visit = (node: unknown, pointer: string, keyword: string | undefined, depth: number): void => {
    if (typeof node === 'boolean') {
      if (!keyword || !BOOLEAN_OK.has(keyword)) add('boolean-schema', pointer, `bare ${String(node)} where a schema object is expected`);
      return;
    }
    if (!isObject(node)) return;
    if (depth > MAX_SCHEMA_WALK_DEPTH) {
      add('walk-depth', pointer, `nested deeper than ${MAX_SCHEMA_WALK_DEPTH} subschemas; not walked further`);
      return;
    }
    const types = typeNames(node);
    if (types.includes('array') && !('items' in node)) add('array-items', pointer, 'array type without items');
    if (Array.isArray(node.items)) add('items-tuple', `${pointer}/items`, 'items is an array of schemas');
    if (Array.isArray(node.type)) add('type-union', `${pointer}/type`, `type is a union ${JSON.stringify(node.type)}`);
    for (const key of ['$ref', '$dynamicRef', '$defs', 'definitions']) if (key in node) add('no-ref', `${pointer}/${key}`, `"${key}" is not portable; write the subschema inline`);
    if (Array.isArray(node.required) && isObject(node.properties)) {
      const props = node.properties;
      for (const name of node.required) {
        if (typeof name === 'string' && !Object.hasOwn(props, name)) add('required-defined', `${pointer}/required`, `required "${name}" is not in properties`);
      }
    }
    const typed = 'type' in node || 'anyOf' in node || 'enum' in node || 'const' in node;
    if (!typed && depth > 0 && keyword && TYPED_POSITIONS.has(keyword)) add('untyped', pointer, 'no type, anyOf, enum or const');
    if (typeof node.description === 'string' && node.description.length > MAX_PORTABLE_DESCRIPTION) {
      add('long-description', `${pointer}/description`, `description is ${node.description.length} characters (over ${MAX_PORTABLE_DESCRIPTION})`);
    }

    for (const key of SCHEMA_MAP) {
      const map = node[key];
      if (isObject(map)) for (const [name, sub] of Object.entries(map)) visit(sub, `${pointer}${seg(key)}${seg(name)}`, key, depth + 1);
    }
    if ('items' in node) {
      if (Array.isArray(node.items)) node.items.forEach((sub, i) => visit(sub, `${pointer}/items${seg(i)}`, 'items', depth + 1));
      else visit(node.items, `${pointer}/items`, 'items', depth + 1);
    }
    for (const key of SCHEMA_LIST) {
      const list = node[key];
      if (Array.isArray(list)) list.forEach((sub, i) => visit(sub, `${pointer}${seg(key)}${seg(i)}`, key, depth + 1));
    }
    for (const key of ONE_SCHEMA) if (key in node) visit(node[key], `${pointer}${seg(key)}`, key, depth + 1);
  };
  visit(schema, '', undefined, 0);
  return out;
}
