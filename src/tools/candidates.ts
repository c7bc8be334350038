import { z } from 'zod';
import { truncateText } from '../judgment/budget';
import { JevError, invalidInput } from '../judgment/errors';
import { findProtoKey, formatPath, text } from './schemas';

/**
 * Host-prepared tool calls ("candidates") shared by jev_tool_route and jev_step: the
 * candidate envelope, local eligibility, and the redacted projection that is
 * the only form of a candidate ever sent upstream. Raw argument values stay host-local.
 */

/** At most this many candidates per call. */
export const MAX_CANDIDATES = 32;
/** Description cap in UTF-16 units, truncation marker included. */
export const MAX_DESCRIPTION_CHARS = 2_000;
/** Object keys listed in an argument shape, and the cut applied to each key (UTF-16 units). */
export const SHAPE_MAX_KEYS = 32;
export const SHAPE_MAX_KEY_CHARS = 128;
/** Array items inspected, and distinct item shapes kept, in an argument shape. */
export const SHAPE_ITEMS_INSPECTED = 16;
export const SHAPE_MAX_ITEM_TYPES = 8;
/** Nesting below which an argument shape stops describing arrays (depth counted from the arguments object). */
export const SHAPE_MAX_DEPTH = 3;
/** Deepest JSON nesting accepted in candidate arguments and extras. */
export const MAX_JSON_DEPTH = 100;

export const EFFECTS = ['read_only', 'local_write', 'external_write', 'destructive', 'unknown'] as const;
/** What running a call may change, as declared by the host. */
export type Effect = (typeof EFFECTS)[number];

/** Why a candidate is not eligible, in the fixed reporting order. */
export const BLOCK_REASONS = [
  'not_authorized',
  'arguments_not_validated',
  'preconditions_not_met',
  'retry_budget_exhausted',
  'unknown_effect',
] as const;
export type BlockReason = (typeof BLOCK_REASONS)[number];

/** Consecutive failures of one unchanged call at which it is excluded. */
export const RETRY_LIMIT = 2;

/**
 * First reason `value` is not plain JSON, as `{path, rule}` relative to `value`, or undefined.
 * Rejects non-finite numbers, undefined, functions, symbols, bigints, array holes and class instances,
 * so an in-process caller cannot pass something that JSON.stringify would silently change.
 */
export function jsonProblem(value: unknown, path: (string | number)[] = [], depth = 0): { path: (string | number)[]; rule: string } | undefined {
  if (depth > MAX_JSON_DEPTH) return { path, rule: `nested deeper than ${MAX_JSON_DEPTH} levels` };
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : { path, rule: 'numbers must be finite (no NaN or Infinity)' };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) return { path: [...path, i], rule: 'array holes are not JSON values' };
      const hit = jsonProblem(value[i], [...path, i], depth + 1);
      if (hit) return hit;
    }
    return undefined;
  }
  if (typeof value === 'object') {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return { path, rule: 'must be a plain JSON object' };
    for (const key of Object.keys(value)) {
      const hit = jsonProblem((value as Record<string, unknown>)[key], [...path, key], depth + 1);
      if (hit) return hit;
    }
    return undefined;
  }
  return { path, rule: `${typeof value} is not a JSON value` };
}

/** A JSON object (not an array, not null) whose values are all plain JSON. */
export const jsonObjectSchema = z
  .record(z.string(), z.unknown(), { error: 'must be a JSON object (not an array or null)' })
  .superRefine((value, ctx) => {
    const hit = jsonProblem(value);
    if (hit) ctx.addIssue({ code: 'custom', path: hit.path, message: hit.rule });
  });

/** One host-prepared call. The three trusted booleans must each be explicitly true for eligibility. */
export const candidateSchema = z
  .object({
    id: text.min(1, 'must be a non-empty string'),
    name: text.min(1, 'must be a non-empty string').refine((s) => s.trim() !== '', 'must not be blank'),
    arguments: jsonObjectSchema,
    description: text.min(1, 'must be a non-empty string'),
    effect: z.enum(EFFECTS, { error: `must be one of ${EFFECTS.join(', ')}` }),
    authorized: z.boolean().optional(),
    schema_valid: z.boolean().optional(),
    preconditions_met: z.boolean().optional(),
    failed_attempts: z.number().int('must be an integer').min(0, 'must be >= 0').optional(),
  })
  .strict();

/** A parsed candidate. `arguments` holds the exact values the host prepared. */
export type Candidate = z.infer<typeof candidateSchema>;

/** Up to 32 candidates with unique ids; a duplicate is reported at its own index. */
export const candidateListSchema = z
  .array(candidateSchema)
  .max(MAX_CANDIDATES, `at most ${MAX_CANDIDATES} candidates per call`)
  .superRefine((list, ctx) => {
    const seen = new Map<string, number>();
    list.forEach((c, i) => {
      const first = seen.get(c.id);
      if (first !== undefined) {
        ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `duplicate candidate id ${JSON.stringify(c.id)} (already used by candidates[${first}]); ids must be unique` });
      } else seen.set(c.id, i);
    });
  });

/** Own `__proto__` keys anywhere in raw arguments → INVALID_INPUT naming the path (checked before zod). */
export function rejectProtoKeys(args: unknown): void {
  const proto = findProtoKey(args);
  if (proto) throw invalidInput(`${formatPath(proto)}: own "__proto__" keys are rejected`);
}

/**
 * Checks on raw arguments that must run before zod: own `__proto__` keys anywhere (zod could drop them
 * silently from an authorized call) → INVALID_INPUT naming the path; more than 32 candidates →
 * INPUT_TOO_LARGE naming `candidates` and the limit, whatever else is wrong with the list.
 */
export function precheckRawArgs(args: unknown): void {
  rejectProtoKeys(args);
  if (typeof args === 'object' && args !== null && !Array.isArray(args)) {
    const list = (args as Record<string, unknown>).candidates;
    if (Array.isArray(list) && list.length > MAX_CANDIDATES) {
      throw new JevError(
        'INPUT_TOO_LARGE',
        `candidates: at most ${MAX_CANDIDATES} candidates per call (got ${list.length}); filter the list first, e.g. with jev_rank`,
      );
    }
  }
}

/** Eligibility reasons of one candidate in the fixed order; empty means eligible. */
export function eligibilityReasons(c: Candidate): BlockReason[] {
  const reasons: BlockReason[] = [];
  if (c.authorized !== true) reasons.push('not_authorized');
  if (c.schema_valid !== true) reasons.push('arguments_not_validated');
  if (c.preconditions_met !== true) reasons.push('preconditions_not_met');
  if ((c.failed_attempts ?? 0) >= RETRY_LIMIT) reasons.push('retry_budget_exhausted');
  if (c.effect === 'unknown') reasons.push('unknown_effect');
  return reasons;
}

/** A candidate excluded locally, with its reasons (input order preserved). */
export interface BlockedCandidate {
  id: string;
  reason_codes: BlockReason[];
}

/** Splits candidates into eligible (input order) and blocked ones. */
export function partitionCandidates(list: readonly Candidate[]): { eligible: Candidate[]; blocked: BlockedCandidate[] } {
  const eligible: Candidate[] = [];
  const blocked: BlockedCandidate[] = [];
  for (const c of list) {
    const reasons = eligibilityReasons(c);
    if (reasons.length) blocked.push({ id: c.id, reason_codes: reasons });
    else eligible.push(c);
  }
  return { eligible, blocked };
}

// Control characters C0 and DEL; they could hide text from a reader or break a prompt's structure.
const CONTROL = /[\u0000-\u001f\u007f]/g;

/**
 * Description as sent upstream: control characters → space, whitespace runs → one space, trimmed, then
 * capped at 2 000 UTF-16 units including the truncation marker. `clipped` is true when the normalized
 * text was longer than the cap (the caller must then treat the context as incomplete).
 */
export function sanitizeDescription(description: string): { text: string; clipped: boolean } {
  const normalized = description.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  return { text: truncateText(normalized, MAX_DESCRIPTION_CHARS), clipped: normalized.length > MAX_DESCRIPTION_CHARS };
}

/** Structure of an argument value with no values in it. */
export type ArgumentShape =
  | 'null'
  | { type: 'object'; keys: string[]; extra_keys: number }
  | { type: 'array'; length: number; item_types: ArgumentShape[] }
  | { type: string };

/**
 * Shape of `value`: null → "null"; at depth ≥ 3 only `{type}`; arrays → length plus the distinct shapes
 * of their first 16 items (first 8 distinct kept); objects → first 32 keys (control characters
 * blanked, each cut to 128 units) and the count of the rest — values are not described; other → `{type}`.
 * Item shapes are deduplicated structurally, not by identity.
 */
export function argumentShape(value: unknown, depth = 0): ArgumentShape {
  if (value === null) return 'null';
  const kind = Array.isArray(value) ? 'array' : typeof value;
  if (depth >= SHAPE_MAX_DEPTH) return { type: kind };
  if (Array.isArray(value)) {
    const seen = new Set<string>();
    const item_types: ArgumentShape[] = [];
    for (const item of value.slice(0, SHAPE_ITEMS_INSPECTED)) {
      const shape = argumentShape(item, depth + 1);
      const key = JSON.stringify(shape); // shapes are built in a fixed key order, so equal shapes stringify equally
      if (seen.has(key)) continue;
      seen.add(key);
      if (item_types.length < SHAPE_MAX_ITEM_TYPES) item_types.push(shape);
    }
    return { type: 'array', length: value.length, item_types };
  }
  if (kind === 'object') {
    const all = Object.keys(value as object);
    const keys = all.slice(0, SHAPE_MAX_KEYS).map((k) => k.replace(CONTROL, ' ').slice(0, SHAPE_MAX_KEY_CHARS));
    return { type: 'object', keys, extra_keys: Math.max(0, all.length - SHAPE_MAX_KEYS) };
  }
  return { type: kind };
}

/** The only form of a candidate sent to the provider. */
export interface CandidateProjection {
  id: string;
  name: string;
  description: string;
  effect: Effect;
  argument_shape: ArgumentShape;
}

/**
 * Redacted projection `{id, name, description (sanitized), effect, argument_shape}` of eligible candidates,
 * plus whether any description was clipped (which makes the evaluated context incomplete).
 */
export function projectCandidates(eligible: readonly Candidate[]): { projections: CandidateProjection[]; clipped: boolean } {
  let clipped = false;
  const projections = eligible.map((c) => {
    const d = sanitizeDescription(c.description);
    clipped ||= d.clipped;
    return { id: c.id, name: c.name, description: d.text, effect: c.effect, argument_shape: argumentShape(c.arguments) };
  });
  return { projections, clipped };
}
