import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import draft06 from 'ajv/dist/refs/json-schema-draft-06.json';

/**
 * Validation of tool arguments against a tool's real inputSchema.
 * The dialect follows `$schema`: draft-07 (and draft-06) with Ajv's default class, 2019-09 and 2020-12 with
 * their classes; no `$schema` means 2020-12 (the MCP default). Unknown `format`s are not checked (no
 * format plugin is bundled), unknown keywords are ignored rather than failing the schema.
 */

/** Result of validating one value: valid, or the first problem as `path: rule`. */
export type SchemaCheck = { valid: true } | { valid: false; error: string };

type Dialect = 'draft-07' | '2019-09' | '2020-12';

function dialectOf(schema: Record<string, unknown>): Dialect | { unsupported: string } {
  const id = typeof schema.$schema === 'string' ? schema.$schema : undefined;
  if (id === undefined || id.includes('2020-12')) return '2020-12';
  if (id.includes('draft-07') || id.includes('draft-06')) return 'draft-07';
  if (id.includes('2019-09')) return '2019-09';
  return { unsupported: id };
}

function newAjv(dialect: Dialect) {
  const options = { strict: false, allErrors: false, logger: false as const, validateFormats: true };
  if (dialect === '2020-12') return new Ajv2020(options);
  if (dialect === '2019-09') return new Ajv2019(options);
  const ajv = new Ajv(options);
  ajv.addMetaSchema(draft06);
  return ajv;
}

// One compiled validator per distinct schema text; each gets its own Ajv instance so `$id`s never clash.
const cache = new Map<string, ValidateFunction | { error: string }>();
const MAX_CACHED = 1_000;

// Fast path for repeated checks against the same schema object (one registry tool, many calls).
const byIdentity = new WeakMap<object, ValidateFunction | { error: string }>();

function compile(schema: Record<string, unknown>): ValidateFunction | { error: string } {
  const known = byIdentity.get(schema);
  if (known) return known;
  const out = compileByText(schema);
  byIdentity.set(schema, out);
  return out;
}

function compileByText(schema: Record<string, unknown>): ValidateFunction | { error: string } {
  const key = JSON.stringify(schema);
  const hit = cache.get(key);
  if (hit) return hit;
  let out: ValidateFunction | { error: string };
  const dialect = dialectOf(schema);
  if (typeof dialect === 'object') {
    out = { error: `unsupported JSON Schema dialect ${JSON.stringify(dialect.unsupported)} (supported: draft-07, 2019-09, 2020-12)` };
  } else {
    try {
      out = newAjv(dialect).compile(schema);
    } catch (err) {
      out = { error: `the tool's inputSchema does not compile: ${(err as Error).message}` };
    }
  }
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(key, out);
  return out;
}

function pathOf(base: string, error: ErrorObject): string {
  let out = base;
  for (const part of error.instancePath.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(key) ? `[${key}]` : `.${key}`;
  }
  return out;
}

/**
 * Validates `value` against JSON Schema `schema`. `base` names the value in messages (e.g. `arguments`),
 * giving `arguments.path: must be string`. A schema that cannot be compiled, or an unsupported dialect,
 * is reported as invalid (never as a pass): the host cannot vouch for what it cannot check.
 */
export function checkAgainstSchema(schema: unknown, value: unknown, base = 'arguments'): SchemaCheck {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return { valid: false, error: `${base}: the tool has no usable inputSchema (must be a JSON object)` };
  }
  const validate = compile(schema as Record<string, unknown>);
  if (typeof validate !== 'function') return { valid: false, error: `${base}: ${validate.error}` };
  if (validate(value)) return { valid: true };
  const first = validate.errors?.[0];
  if (!first) return { valid: false, error: `${base}: does not match the inputSchema` };
  const extra = first.keyword === 'additionalProperties' ? ` (${JSON.stringify((first.params as { additionalProperty?: string }).additionalProperty)})` : '';
  return { valid: false, error: `${pathOf(base, first)}: ${first.message ?? 'is invalid'}${extra}` };
}
