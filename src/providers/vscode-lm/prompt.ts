/**
 * Prompt and reply handling of the `vscode-lm` provider (the editor's chat model asked for a JSON
 * distribution over the closed options). Pure: unit-testable.
 *
 * One prompt per question. Options are labelled (`yes`/`no` for noul questions, `1`..`n` otherwise) so the
 * model never has to repeat long option keys. The reply is read defensively (code fences, a wrapper
 * object, percentages, labels written as `1)` or `Option 1`, omitted options as 0), renormalized, and turned
 * into a System One answer — which `validateResponse` still checks like any provider's answer.
 * Anything that cannot be read as a distribution over the offered options is INVALID_RESPONSE: never a guess.
 */
import { invalidResponse } from '../../judgment/errors';
import type { Answer, Question } from '../../judgment/types';
import { choiceAnswer, noulAnswer, scoreAnswer } from '../openai/answers';
import { renderQuestionText, stateBlock } from '../openai/prompt';

/** One offered option: the label the model sees and answers with, and the key or level it stands for. */
export interface LmOption {
  label: string;
  /** Option key (choice), `"true"`/`"false"` (noul) or level index (score). */
  key: string;
  /** Description shown next to the label. */
  text?: string;
}

/** Largest reply read, characters; a distribution over even hundreds of options is far smaller. */
export const MAX_REPLY_CHARS = 64 * 1024;

const oneLine = (text: string) => text.replace(/\s*[\r\n]+\s*/g, ' ').trim();

/** The options of `question` with their labels, in question order. Throws INVALID_RESPONSE for none. */
export function questionOptions(question: Question): LmOption[] {
  if (question.type === 'noul') {
    return [
      { label: 'yes', key: 'true', text: question.criteria?.true?.trim() || undefined },
      { label: 'no', key: 'false', text: question.criteria?.false?.trim() || undefined },
    ];
  }
  if (question.type === 'choice') {
    return Object.entries(question.criteria).map(([key, text], i) => ({ label: String(i + 1), key, text: text?.trim() || undefined }));
  }
  return question.criteria.map((text, i) => ({ label: String(i + 1), key: String(i), text }));
}

/**
 * The single User message for one question (there is no system role in the LM API, so the rules lead).
 * `stateText` is the already budget-fitted state.
 */
export function lmPrompt(stateText: string, question: Question, options: readonly LmOption[]): string {
  const lines = options.map((o) => {
    if (question.type === 'score') return `${o.label}) ${oneLine(o.text ?? '')}`;
    if (question.type === 'choice') return `${o.label}) ${oneLine(o.key)}${o.text ? ` — ${oneLine(o.text)}` : ''}`;
    return `${o.label}${o.text ? ` — ${oneLine(o.text)}` : ''}`;
  });
  const example =
    question.type === 'noul' ? '{"yes": 0.8, "no": 0.2}' : `{${options.slice(0, 2).map((o, i) => `"${o.label}": ${i === 0 ? 0.7 : 0.3}`).join(', ')}}`;
  return [
    'You are a judge. You answer one closed question about the state below.',
    ...stateBlock(stateText),
    '',
    `Question: ${renderQuestionText(question.instructions).trim()}`,
    '',
    question.type === 'score' ? 'Levels, lowest first:' : 'Options:',
    ...lines,
    '',
    'Reply with only a JSON object that maps every option label to the probability that it is the right answer,',
    `for example ${example}. The probabilities sum to 1. No other text.`,
  ].join('\n');
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Normalizes a label as a model may write it: `1)`, ` Option 1 `, `"YES."` → `1`, `yes`. */
function normalizeLabel(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .replace(/^(option|level|choice)\s+/, '')
    .replace(/[).:\s]+$/, '')
    .trim();
}

const NOUL_ALIASES: Record<string, string> = { yes: 'yes', y: 'yes', true: 'yes', no: 'no', n: 'no', false: 'no' };

function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const m = /^\s*(-?\d+(?:\.\d+)?)\s*(%)?\s*$/.exec(value);
    if (m) return m[2] ? Number(m[1]) / 100 : Number(m[1]);
  }
  return undefined;
}

/** The JSON object in a reply: code fences and text around it are ignored. Throws INVALID_RESPONSE. */
function replyObject(reply: string): Record<string, unknown> {
  if (reply.length > MAX_REPLY_CHARS) throw invalidResponse('The editor chat model replied with more text than a distribution needs.');
  const start = reply.indexOf('{');
  const end = reply.lastIndexOf('}');
  if (start < 0 || end < start) throw invalidResponse('The editor chat model did not reply with a JSON object.');
  let value: unknown;
  try {
    value = JSON.parse(reply.slice(start, end + 1));
  } catch {
    throw invalidResponse('The editor chat model did not reply with valid JSON.');
  }
  if (!isObject(value)) throw invalidResponse('The editor chat model did not reply with a JSON object.');
  // A wrapper such as {"probabilities": {...}} around the distribution.
  const keys = Object.keys(value);
  if (keys.length === 1 && isObject(value[keys[0]!]) && /^(probabilities|distribution|answer|answers)$/i.test(keys[0]!)) {
    return value[keys[0]!] as Record<string, unknown>;
  }
  return value;
}

/**
 * Reads the model's distribution over `options` from `reply`, aligned with `options` and summing to 1.
 * Accepted: labels (any case, `1)`, `Option 1`), the option keys themselves, yes/no/true/false for noul;
 * numbers in [0,1] or percentages (numbers above 1 when all are at most 100, or "70%" strings); options
 * left out count as 0. Throws INVALID_RESPONSE for: no JSON object, a label that was not offered (or
 * offered twice), a value that is not a finite non-negative number, or no probability mass at all.
 */
export function parseDistribution(reply: string, options: readonly LmOption[]): number[] {
  const object = replyObject(reply);
  const index = new Map<string, number>();
  options.forEach((o, i) => {
    index.set(normalizeLabel(o.label), i);
    if (!index.has(normalizeLabel(o.key)) && !/^\d+$/.test(o.key)) index.set(normalizeLabel(o.key), i);
  });
  const noul = options.length === 2 && options[0]!.label === 'yes' && options[1]!.label === 'no';
  const values: number[] = options.map(() => 0);
  const seen = new Set<number>();
  for (const [rawKey, rawValue] of Object.entries(object)) {
    const norm = normalizeLabel(rawKey);
    const i = noul ? (NOUL_ALIASES[norm] === 'yes' ? 0 : NOUL_ALIASES[norm] === 'no' ? 1 : undefined) : index.get(norm);
    const shown = JSON.stringify(rawKey.length > 40 ? `${rawKey.slice(0, 40)}…` : rawKey);
    if (i === undefined) throw invalidResponse(`The editor chat model gave a probability for ${shown}, which is not one of the offered options.`);
    if (seen.has(i)) throw invalidResponse(`The editor chat model gave two probabilities for option ${options[i]!.label}.`);
    seen.add(i);
    const n = numberOf(rawValue);
    if (n === undefined || !Number.isFinite(n) || n < 0) {
      throw invalidResponse(`The editor chat model gave ${shown} a value that is not a non-negative number.`);
    }
    values[i] = n;
  }
  if (seen.size === 0) throw invalidResponse('The editor chat model replied without any option probability.');
  const max = Math.max(...values);
  if (max > 1 && max > 100) throw invalidResponse('The editor chat model gave values that are neither probabilities nor percentages.');
  const total = values.reduce((a, b) => a + b, 0);
  if (!(total > 0)) throw invalidResponse('The editor chat model gave every option probability 0.');
  return values.map((v) => v / total);
}

/** The System One answer for `question` from a distribution aligned with `questionOptions(question)`. */
export function answerFrom(question: Question, options: readonly LmOption[], probabilities: readonly number[]): Answer {
  if (question.type === 'noul') return noulAnswer(probabilities[0]!);
  if (question.type === 'choice') return choiceAnswer(options.map((o) => o.key), probabilities);
  return scoreAnswer(question.criteria, probabilities);
}
