/**
 * Shared argument checks and schema pieces of the four judgevet tools (ask_noul, ask_choice, ask_score,
 * evaluate_policy).
 *
 * Every failure is a JevError whose message is the exact text the MCP layer prints, e.g.
 * `Missing required argument: state`. Where judgevet has a text we keep it; where judgevet leaves a
 * gap (it checks neither the state's type, nor the instruction's, nor criteria value types) we add checks that
 * run after judgevet's own, so a case judgevet covers still gets judgevet's text.
 */
import { z } from 'zod';
import { JevError } from '../judgment/errors';
import type { Answer, SystemOneResponse, Usage } from '../judgment/types';
import { compareCodePoints, pySlice, pyStr } from '../policy/python-repr';
import { parseStrictJson } from '../policy/strict-json';

const invalid = (message: string): never => {
  throw new JevError('INVALID_INPUT', message);
};

export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Quotes a caller-supplied name for a diagnostic: first 64 code points, Python repr quoting. */
export const quoteName = (name: string): string => pyStr(pySlice(name, 64));

/** Which ask tool is being checked. */
export type AskKind = 'noul' | 'choice' | 'score';

/** Checked arguments of an ask tool. `criteria` is undefined when omitted or JSON null. */
export interface AskArgs {
  state: string | Record<string, unknown>;
  instruction: string;
  criteria?: Record<string, string | null> | string[];
}

const DECLARED: Record<AskKind, readonly string[]> = {
  noul: ['state', 'instruction'],
  choice: ['state', 'instruction', 'criteria'],
  score: ['state', 'instruction', 'criteria'],
};

/**
 * Checks ask-tool arguments in judgevet's order, before any provider call:
 * 1. `state`, then `instruction`, missing or null → `Missing required argument: <name>`;
 * 2. undeclared names → `Unknown arguments: <a>, <b>` (all of them, code-point order; `model` is one);
 * 3. non-null criteria: `choice criteria must be a non-empty object` / `score criteria must be a non-empty array`.
 * Then the checks judgevet lacks: `state must be a string or object`, `instruction must be a string`,
 * `instruction must not be blank`, choice labels non-empty and not `__proto__`, descriptions string or
 * null, score levels non-empty strings. Throws JevError INVALID_INPUT.
 */
export function checkAskArgs(kind: AskKind, args: unknown): AskArgs {
  // An MCP call without `arguments` arrives as undefined: treat it as an empty argument object.
  const a = isPlainObject(args) ? args : {};
  for (const name of ['state', 'instruction']) {
    if (!Object.hasOwn(a, name) || a[name] === null) invalid(`Missing required argument: ${name}`);
  }
  const unknown = Object.keys(a)
    .filter((k) => !DECLARED[kind].includes(k))
    .sort(compareCodePoints);
  if (unknown.length) invalid(`Unknown arguments: ${unknown.join(', ')}`);
  const criteria = a.criteria ?? undefined;
  if (criteria !== undefined) {
    if (kind === 'choice' && !(isPlainObject(criteria) && Object.keys(criteria).length > 0)) {
      invalid('choice criteria must be a non-empty object');
    }
    if (kind === 'score' && !(Array.isArray(criteria) && criteria.length > 0)) invalid('score criteria must be a non-empty array');
  }

  const state = a.state;
  if (typeof state !== 'string' && !isPlainObject(state)) invalid('state must be a string or object');
  const instruction = a.instruction;
  if (typeof instruction !== 'string') invalid('instruction must be a string');
  if ((instruction as string).trim() === '') invalid('instruction must not be blank');
  if (criteria !== undefined) {
    if (kind === 'choice') checkChoiceCriteriaValues(criteria as Record<string, unknown>);
    else checkScoreCriteriaValues(criteria as unknown[]);
  }
  return {
    state: state as AskArgs['state'],
    instruction: instruction as string,
    ...(criteria === undefined ? {} : { criteria: criteria as AskArgs['criteria'] }),
  };
}

/** Choice labels must be non-empty and not `__proto__` (a prototype key would vanish from plain objects); descriptions text or null. */
export function checkChoiceCriteriaValues(criteria: Record<string, unknown>): void {
  for (const [label, description] of Object.entries(criteria)) {
    if (label === '') invalid('choice criteria labels must be non-empty strings');
    if (label === '__proto__') invalid("choice criteria label '__proto__' is reserved");
    if (description !== null && typeof description !== 'string') {
      invalid(`choice criteria description for label ${quoteName(label)} must be a string or null`);
    }
  }
}

/** Score levels must be non-empty strings, lowest first. */
export function checkScoreCriteriaValues(criteria: unknown[]): void {
  criteria.forEach((level, i) => {
    if (typeof level !== 'string' || level.trim() === '') invalid(`score criteria[${i}] must be a non-empty string`);
  });
}

// ---------------------------------------------------------------------------------------------------
// evaluate_policy arguments

/** A checked evaluate_policy question: wire shape, instructions/criteria passed through unchanged. */
export interface PolicyToolQuestion {
  type: 'noul' | 'choice' | 'score';
  instructions?: unknown;
  criteria?: unknown;
}

/** Checked evaluate_policy arguments (policy still unparsed). */
export interface PolicyToolArgs {
  state: string | Record<string, unknown> | unknown[];
  questions: Record<string, PolicyToolQuestion>;
  policy: unknown;
  hasEvidence: boolean;
  evidence?: unknown;
}

const QUESTION_FIELDS = ['type', 'instructions', 'criteria'];

/**
 * evaluate_policy's argument checks, in order: exactly state, questions, policy (+ optional evidence) → else
 * `Expected exactly state, questions and policy`; `state must be a string, object or array`;
 * `questions must be a non-empty object`; per question: `questions require non-empty names and object
 * definitions`, `Unsupported question field`, `Unknown question type`, `choice criteria must be a
 * non-empty object`, `score criteria must be a non-empty array`. Noul criteria and instructions pass
 * through unchanged; ask-tool defaults never apply. A question named `__proto__` is refused
 * (`question name '__proto__' is reserved`). Throws JevError INVALID_INPUT.
 */
export function checkPolicyToolArgs(args: unknown): PolicyToolArgs {
  const a = isPlainObject(args) ? args : {};
  const keys = Object.keys(a);
  const required = ['state', 'questions', 'policy'];
  if (!required.every((k) => keys.includes(k)) || keys.some((k) => !required.includes(k) && k !== 'evidence')) {
    invalid('Expected exactly state, questions and policy');
  }
  const state = a.state;
  if (typeof state !== 'string' && !isPlainObject(state) && !Array.isArray(state)) invalid('state must be a string, object or array');
  const rawQuestions = a.questions;
  if (!isPlainObject(rawQuestions) || Object.keys(rawQuestions).length === 0) invalid('questions must be a non-empty object');
  const questions: Record<string, PolicyToolQuestion> = {};
  for (const [name, raw] of Object.entries(rawQuestions as Record<string, unknown>)) {
    if (name === '' || !isPlainObject(raw)) invalid('questions require non-empty names and object definitions');
    const q = raw as Record<string, unknown>;
    if (Object.keys(q).some((k) => !QUESTION_FIELDS.includes(k))) invalid('Unsupported question field');
    if (q.type !== 'noul' && q.type !== 'choice' && q.type !== 'score') invalid('Unknown question type');
    if (q.type === 'choice' && !(isPlainObject(q.criteria) && Object.keys(q.criteria).length > 0)) {
      invalid('choice criteria must be a non-empty object');
    }
    if (q.type === 'score' && !(Array.isArray(q.criteria) && q.criteria.length > 0)) invalid('score criteria must be a non-empty array');
    if (name === '__proto__') invalid("question name '__proto__' is reserved");
    if (q.type === 'choice' && Object.hasOwn(q.criteria as object, '__proto__')) invalid("choice criteria label '__proto__' is reserved");
    questions[name] = {
      type: q.type as PolicyToolQuestion['type'],
      ...(Object.hasOwn(q, 'instructions') ? { instructions: q.instructions } : {}),
      ...(Object.hasOwn(q, 'criteria') ? { criteria: q.criteria } : {}),
    };
  }
  return {
    state: state as PolicyToolArgs['state'],
    questions,
    policy: a.policy,
    hasEvidence: Object.hasOwn(a, 'evidence'),
    ...(Object.hasOwn(a, 'evidence') ? { evidence: a.evidence } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------
// Image evidence. Our providers have no image support, so valid non-empty evidence is refused as
// a capability failure; only the neutral `<Type>: media evaluation failed` text is ever shown.

/** Image evidence limits: JSON text 48 MiB, 16 images, 8 MiB per image, 32 MiB in total (decoded bytes). */
export const EVIDENCE_LIMITS = Object.freeze({
  textChars: 50_331_648,
  images: 16,
  encodedChars: 11_184_812,
  imageBytes: 8 * 1024 * 1024,
  totalBytes: 32 * 1024 * 1024,
});
const MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const mediaFailure = (type: 'ProviderRequestError' | 'MissingEvidenceError' | 'ProviderCapabilityError'): never => {
  throw new JevError(type === 'ProviderCapabilityError' ? 'CONFIG_ERROR' : 'INVALID_INPUT', `${type}: media evaluation failed`);
};

/** True when `raw` is a well-formed evidence manifest within the limits (no payload diagnostics kept). */
function parseEvidence(raw: unknown): { images: string[]; byQuestion: Record<string, string[]>; required: string[] } | undefined {
  if (typeof raw !== 'string' || raw.length > EVIDENCE_LIMITS.textChars) return undefined;
  if (Buffer.byteLength(raw, 'utf8') > EVIDENCE_LIMITS.textChars) return undefined;
  let doc: unknown;
  try {
    doc = parseStrictJson(raw, { allowNonFiniteConstants: false });
  } catch {
    return undefined;
  }
  if (!isPlainObject(doc)) return undefined;
  const keys = Object.keys(doc);
  if (!keys.includes('images') || !keys.includes('by_question') || keys.some((k) => !['images', 'by_question', 'required'].includes(k))) return undefined;
  const { images, by_question: byQuestion, required = [] } = doc as Record<string, unknown>;
  if (!Array.isArray(images) || images.length > EVIDENCE_LIMITS.images) return undefined;
  const ids: string[] = [];
  let total = 0;
  for (const image of images) {
    if (!isPlainObject(image)) return undefined;
    const fields = Object.keys(image).sort();
    if (fields.join(',') !== 'data_base64,id,media_type') return undefined;
    const { id, data_base64: data, media_type: mediaType } = image;
    if (typeof id !== 'string' || id === '' || ids.includes(id)) return undefined;
    if (typeof mediaType !== 'string' || !MEDIA_TYPES.includes(mediaType)) return undefined;
    if (typeof data !== 'string' || data === '' || data.length > EVIDENCE_LIMITS.encodedChars || !BASE64.test(data)) return undefined;
    const bytes = (data.length / 4) * 3 - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
    if (bytes > EVIDENCE_LIMITS.imageBytes) return undefined;
    total += bytes;
    ids.push(id);
  }
  if (total > EVIDENCE_LIMITS.totalBytes) return undefined;
  if (!isPlainObject(byQuestion)) return undefined;
  const referenced = new Set<string>();
  const map: Record<string, string[]> = {};
  for (const [question, list] of Object.entries(byQuestion)) {
    if (!Array.isArray(list) || new Set(list).size !== list.length) return undefined;
    if (!list.every((id) => typeof id === 'string' && ids.includes(id))) return undefined;
    const names = list as string[];
    names.forEach((id) => referenced.add(id));
    map[question] = names;
  }
  if (ids.some((id) => !referenced.has(id))) return undefined;
  if (!Array.isArray(required) || !required.every((q) => typeof q === 'string')) return undefined;
  return { images: ids, byQuestion: map, required };
}

/**
 * Routes evaluate_policy `evidence` for providers without image support. Returns normally when
 * the call may take the text route (valid evidence with no images). Throws JevError with the neutral
 * texts: malformed, oversized or referencing unknown question ids → `ProviderRequestError: media
 * evaluation failed` (INVALID_INPUT); a required question without images → `MissingEvidenceError: media
 * evaluation failed` (INVALID_INPUT); valid non-empty evidence → `ProviderCapabilityError: media
 * evaluation failed` (CONFIG_ERROR).
 */
export function routeEvidence(raw: unknown, questionIds: readonly string[]): void {
  const evidence = parseEvidence(raw);
  if (!evidence) return mediaFailure('ProviderRequestError');
  const named = [...Object.keys(evidence.byQuestion), ...evidence.required];
  if (named.some((q) => !questionIds.includes(q))) return mediaFailure('ProviderRequestError');
  if (evidence.required.some((q) => !(evidence.byQuestion[q]?.length))) return mediaFailure('MissingEvidenceError');
  if (evidence.images.length === 0) return;
  mediaFailure('ProviderCapabilityError');
}

// ---------------------------------------------------------------------------------------------------
// Schema pieces. JSON Schema 2020-12 objects written by hand; zod twins check our own output.

/**
 * Shared annotations of the four tools: read-only, closed world (typed answers to the caller's own
 * questions, no fetched content; docs/decisions.md "Judgment tools are read-only and closed-world");
 * destructive/idempotent omitted.
 */
export const JUDGEVET_ANNOTATIONS = Object.freeze({ readOnlyHint: true, openWorldHint: false });

export const PROBABILITY_JSON = { type: 'number', minimum: 0, maximum: 1 } as const;

const tokenJson = (what: string) => ({ type: ['integer', 'null'], minimum: 0, description: `${what} tokens reported by the provider; null when unknown.` });

export const USAGE_JSON = {
  type: 'object',
  description: 'Token usage of the judgment call.',
  properties: { input_tokens: tokenJson('Input'), output_tokens: tokenJson('Output') },
  required: ['input_tokens', 'output_tokens'],
  additionalProperties: false,
} as const;

export const MODEL_JSON = { type: 'string', description: 'Model that answered, as resolved by the provider (e.g. a version for an alias).' } as const;

export const STATE_JSON_ASK = {
  type: ['string', 'object'],
  description: 'What to judge: text or a JSON object. It is sent to the configured judgment provider; send no secrets. A state over the request budget (32 000 estimated tokens with the longest question, 64 000 with all questions) is refused, never cut.',
} as const;

export const INSTRUCTION_JSON = {
  type: 'string',
  minLength: 1,
  description: 'The question to ask about the state, in plain words.',
} as const;

export const LEGEND_JSON = {
  type: 'object',
  description: 'Level index (string, 0 = lowest) → level description.',
  propertyNames: { pattern: '^(0|[1-9][0-9]*)$' },
  additionalProperties: { type: 'string' },
} as const;

export const LEVEL_PROBABILITIES_JSON = {
  type: 'object',
  description: 'Level index (string, 0 = lowest) → probability in [0,1].',
  propertyNames: { pattern: '^(0|[1-9][0-9]*)$' },
  additionalProperties: PROBABILITY_JSON,
} as const;

export const LABEL_PROBABILITIES_JSON = {
  type: 'object',
  description: 'Label → probability in [0,1]; the values sum to 1 within rounding.',
  additionalProperties: PROBABILITY_JSON,
} as const;

const probability = z.number().finite().min(0).max(1);
const token = z.number().int().min(0).nullable();
export const usageZ = z.object({ input_tokens: token, output_tokens: token }).strict();
export const levelKeyZ = z.string().regex(/^(0|[1-9][0-9]*)$/);
export const noulFieldsZ = { noul: probability };
export const choiceFieldsZ = { choice: z.string(), confidence: probability, probabilities: z.record(z.string(), probability) };
export const scoreFieldsZ = {
  score: z.number().finite(),
  confidence: probability,
  legend: z.record(levelKeyZ, z.string()),
  probabilities: z.record(levelKeyZ, probability),
};

/**
 * The validated answer `name` of `type` from a response (validateResponse already guarantees it; this
 * keeps a broken provider path from turning into a fabricated result). Throws JevError INVALID_RESPONSE.
 */
export function answerOf<T extends Answer['type']>(response: SystemOneResponse, name: string, type: T): Extract<Answer, { type: T }> {
  const answer = response.answers[name];
  if (!answer || answer.type !== type) throw new JevError('INVALID_RESPONSE', `No ${type} answer returned for ${name}`);
  return answer as Extract<Answer, { type: T }>;
}

/** Usage copied in the output's key order (tokens). */
export const usageOut = (usage: Usage): { input_tokens: number | null; output_tokens: number | null } => ({
  input_tokens: usage.input_tokens,
  output_tokens: usage.output_tokens,
});
