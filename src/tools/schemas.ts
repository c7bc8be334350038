import { z } from 'zod';
import { JevError, invalidInput } from '../judgment/errors';

/**
 * Shared input pieces and parsing for the jev tools. Every validation error names the field path and
 * the rule, e.g. `candidates[3].effect: must be one of read_only, local_write, …`.
 */

/** Longest field path printed in a message, characters; a longer one keeps its start and end around `…`. */
export const MAX_PRINTED_PATH = 200;
/** Longest single key printed in a list of unknown fields, characters. */
const MAX_PRINTED_KEY = 64;

/** `text` cut to `max` characters: its start and its end around `…` (the end names the failing field). */
function clipMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const tail = Math.floor(max / 3);
  return `${text.slice(0, max - tail - 1)}…${text.slice(text.length - tail)}`;
}

/** Formats a zod path as `a.b[2].c`, at most MAX_PRINTED_PATH characters (the middle elided with `…`). */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return clipMiddle(out, MAX_PRINTED_PATH) || '(arguments)';
}

/** First issue of a zod error as `path: message` (paths and listed keys capped, see formatPath). */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return '(arguments): invalid input';
  if (issue.code === 'unrecognized_keys') {
    const keys = [...issue.keys].sort();
    const where = issue.path.length ? `${formatPath(issue.path)}: ` : '';
    const listed = clipMiddle(keys.map((k) => clipMiddle(k, MAX_PRINTED_KEY)).join(', '), MAX_PRINTED_PATH);
    return `${where}unknown field${keys.length > 1 ? 's' : ''} ${listed}`;
  }
  return `${formatPath(issue.path)}: ${issue.message}`;
}

/** Deepest nesting of arrays and objects accepted in tool arguments; the arguments object itself is level 1. */
export const MAX_ARGUMENT_DEPTH = 64;

/** A container met by the iterative walks below, with the link back to its parent (for the path). */
interface Frame {
  value: object;
  depth: number;
  key: string | number | undefined;
  parent: Frame | undefined;
}

function pathOf(frame: Frame | undefined, extra?: string | number): (string | number)[] {
  const path: (string | number)[] = extra === undefined ? [] : [extra];
  for (let f = frame; f && f.key !== undefined; f = f.parent) path.push(f.key);
  return path.reverse();
}

/**
 * One iterative depth-first walk of plain JSON-like data (arrays and objects; an explicit stack, so any
 * depth is safe — no recursion). Finds the first array/object nested deeper than `maxDepth` levels (the
 * value itself is level 1) and, with `protoKeys`, the first own `__proto__` key. Returns the path of the
 * first hit in document order and what was found, or undefined.
 */
function walkJson(value: unknown, maxDepth: number, protoKeys: boolean): { path: (string | number)[]; kind: 'too_deep' | 'proto' } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const stack: Frame[] = [{ value, depth: 1, key: undefined, parent: undefined }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth > maxDepth) return { path: pathOf(frame), kind: 'too_deep' };
    const v = frame.value;
    const children: Frame[] = [];
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        if (typeof item === 'object' && item !== null) children.push({ value: item, depth: frame.depth + 1, key: i, parent: frame });
      }
    } else {
      if (protoKeys && Object.hasOwn(v, '__proto__')) return { path: pathOf(frame, '__proto__'), kind: 'proto' };
      for (const key of Object.keys(v)) {
        const item: unknown = (v as Record<string, unknown>)[key];
        if (typeof item === 'object' && item !== null) children.push({ value: item, depth: frame.depth + 1, key, parent: frame });
      }
    }
    // Reversed so the first child is visited first (hits are reported in document order).
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return undefined;
}

/**
 * Path to the first array or object nested deeper than `maxDepth` levels in `value` (which is level 1),
 * or undefined. Iterative, so a value nested 10 000 levels deep is measured without a stack overflow.
 */
export function findTooDeep(value: unknown, maxDepth = MAX_ARGUMENT_DEPTH): (string | number)[] | undefined {
  return walkJson(value, maxDepth, false)?.path;
}

/**
 * Raw arguments nested deeper than MAX_ARGUMENT_DEPTH → JevError INVALID_INPUT
 * `extras.a.a…a.a: nested deeper than 64 levels …` (path capped by formatPath). Runs before any recursive
 * walk of the arguments (zod, findProtoKey's callers, jsonProblem, argumentShape, JSON.stringify).
 */
export function rejectDeepNesting(args: unknown): void {
  const path = findTooDeep(args);
  if (path) throw tooDeep(path);
}

function tooDeep(path: (string | number)[]): JevError {
  return invalidInput(`${formatPath(path)}: nested deeper than ${MAX_ARGUMENT_DEPTH} levels (arrays and objects); flatten the value.`);
}

/**
 * Path of the first own `__proto__` key at any depth (arrays included), or undefined.
 * Checked on the raw arguments before zod (which could drop such a key silently). Iterative; a value
 * nested deeper than MAX_ARGUMENT_DEPTH is refused first (JevError INVALID_INPUT, see rejectDeepNesting).
 */
export function findProtoKey(value: unknown, path: (string | number)[] = []): (string | number)[] | undefined {
  const hit = walkJson(value, MAX_ARGUMENT_DEPTH, true);
  if (hit?.kind === 'too_deep') throw tooDeep([...path, ...hit.path]);
  return hit ? [...path, ...hit.path] : undefined;
}

/**
 * Parses raw arguments with a zod schema. Throws JevError INVALID_INPUT whose message names the field
 * and rule — arguments nested deeper than MAX_ARGUMENT_DEPTH first; `tooLarge` lists array fields whose
 * max-length violation is INPUT_TOO_LARGE instead.
 */
export function parseArgs<T>(schema: z.ZodType<T>, args: unknown, tooLarge: string[] = []): T {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw invalidInput('(arguments): must be a JSON object.');
  }
  rejectDeepNesting(args);
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

/**
 * JSON Schema (2020-12) for a zod schema, without the `$schema` key, with every `oneOf` written as `anyOf`.
 * zod writes `oneOf` only for discriminated unions, whose branches exclude each other by the discriminator,
 * so `anyOf` accepts the same values; Codex keeps `anyOf` but drops `oneOf` (the node would reach its
 * model as a string, see src/mcp/schema-portability.ts rule `untyped`).
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any', io }) as Record<string, unknown>;
  delete out.$schema;
  oneOfToAnyOf(out);
  return out;
}

function oneOfToAnyOf(node: unknown): void {
  if (typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) {
    for (const item of node) oneOfToAnyOf(item);
    return;
  }
  const obj = node as Record<string, unknown>;
  if (Array.isArray(obj.oneOf) && !('anyOf' in obj)) {
    obj.anyOf = obj.oneOf;
    delete obj.oneOf;
  }
  for (const value of Object.values(obj)) oneOfToAnyOf(value);
}
