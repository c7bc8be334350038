import { z } from 'zod';
import { JevError, invalidInput } from '../judgment/errors';

/**
 * Shared input pieces and parsing for the jev tools. Every validation error names the field path and
 * the rule, e.g. `candidates[3].effect: must be one of read_only, local_write, …`.
 */

/** Formats a zod path as `a.b[2].c`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out || '(arguments)';
}

/** First issue of a zod error as `path: message`. */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return '(arguments): invalid input';
  if (issue.code === 'unrecognized_keys') {
    const keys = [...issue.keys].sort();
    const where = issue.path.length ? `${formatPath(issue.path)}: ` : '';
    return `${where}unknown field${keys.length > 1 ? 's' : ''} ${keys.join(', ')}`;
  }
  return `${formatPath(issue.path)}: ${issue.message}`;
}

/**
 * Path of the first own `__proto__` key at any depth (arrays included), or undefined.
 * Checked on the raw arguments before zod (which could drop such a key silently).
 */
export function findProtoKey(value: unknown, path: (string | number)[] = []): (string | number)[] | undefined {
  const trail = [...path];
  return protoKeyIn(value, trail) ? trail : undefined;
}

/** Depth-first search for findProtoKey; `trail` is extended in place and holds the hit's path on true. */
function protoKeyIn(value: unknown, trail: (string | number)[]): boolean {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      trail.push(i);
      if (protoKeyIn(value[i], trail)) return true;
      trail.pop();
    }
    return false;
  }
  if (typeof value === 'object' && value !== null) {
    if (Object.hasOwn(value, '__proto__')) {
      trail.push('__proto__');
      return true;
    }
    for (const key of Object.keys(value)) {
      trail.push(key);
      if (protoKeyIn((value as Record<string, unknown>)[key], trail)) return true;
      trail.pop();
    }
  }
  return false;
}

/**
 * Parses raw arguments with a zod schema. Throws JevError INVALID_INPUT whose message names the field
 * and rule; `tooLarge` lists array fields whose max-length violation is INPUT_TOO_LARGE instead.
 */
export function parseArgs<T>(schema: z.ZodType<T>, args: unknown, tooLarge: string[] = []): T {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw invalidInput('(arguments): must be a JSON object.');
  }
  const result = schema.safeParse(args);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue ? formatPath(issue.path) : '';
  if (issue && issue.code === 'too_big' && tooLarge.includes(field)) {
    throw new JevError('INPUT_TOO_LARGE', describeZodError(result.error));
  }
  throw invalidInput(describeZodError(result.error));
}

/** A finite probability in [0,1]. */
export const probability = z.number().finite().min(0).max(1);

/** Optional per-call model override (trimmed; blank means the host default). */
export const modelField = z.string().max(200).optional();

/** Resolves the model for a request: per-call (trimmed, non-blank) else the host default. */
export function resolveModel(perCall: string | undefined, hostDefault: string): string {
  const m = perCall?.trim();
  return m ? m : hostDefault;
}

/** Text fields are capped to keep a single field from blowing the budget before fitting: 1 MB. */
export const MAX_TEXT_CHARS = 1_000_000;
export const text = z.string().max(MAX_TEXT_CHARS);

/** Shared zod output pieces. */
export const usageSchema = z.object({ input_tokens: z.number().int().min(0), output_tokens: z.number().int().min(0) }).strict();
export const coverageSchema = z
  .object({
    complete: z.boolean(),
    original_chars: z.number().int().min(0),
    evaluated_chars: z.number().int().min(0),
    estimated_tokens: z.object({ state: z.number(), questions: z.number(), longest_question: z.number() }).strict(),
    estimator: z.literal('chars/4'),
  })
  .strict();
export const actionSchema = z.enum(['auto', 'review', 'escalate']);

/** JSON Schema (2020-12) for a zod schema, without the `$schema` key. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any', io }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}
