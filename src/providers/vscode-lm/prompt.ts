/**
 * Prompt and reply handling of the `vscode-lm` provider (the editor's chat model asked for a JSON
 * distribution over the closed options). Pure: unit-testable.
 *
 * One prompt per question. Options are labelled (`yes`/`no` for noul questions, `1`..`n` otherwise) so the
 * model never has to repeat long option keys. The reply must be exactly one JSON object, optionally in one
 * fenced code block, whose keys are exactly the option labels: a span picked out of prose could be a quoted
 * or planted answer rather than the model's own. Its numbers are renormalized (percentages accepted) and
 * turned into a System One answer — which `validateResponse` still checks like any provider's answer.
 * Anything else is INVALID_RESPONSE naming the question: never a guess.
 */
import { invalidResponse, quoted } from '../../judgment/errors';
import { parseStrictJson } from '../../policy/strict-json';
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

/** One fenced code block and nothing around it: ```` ```json\n{…}\n``` ```` (any info string, or none). */
const FENCED = /^```[^\n`]*\n([\s\S]*?)\n?```$/;

/**
 * The JSON object a reply consists of: the whole trimmed reply, or the content of the one fenced block
 * that is the whole reply. Duplicate keys and non-finite literals are refused. Throws INVALID_RESPONSE.
 */
function replyObject(reply: string, fail: (what: string) => Error): Record<string, unknown> {
  if (reply.length > MAX_REPLY_CHARS) throw fail('has more text than a distribution needs');
  const trimmed = reply.trim();
  const body = (FENCED.exec(trimmed)?.[1] ?? trimmed).trim();
  if (!body.startsWith('{')) throw fail('is not a JSON object (only one JSON object, optionally in one code block, is accepted)');
  let value: unknown;
  try {
    value = parseStrictJson(body, { allowNonFiniteConstants: false });
  } catch {
    throw fail('is not one valid JSON object (text around it, a second object or a duplicate key is not accepted)');
  }
  if (!isObject(value)) throw fail('is not a JSON object');
  return value;
}

/**
 * Reads the model's distribution over `options` from `reply` to question `questionId`, aligned with
 * `options` and summing to 1. The reply must be one JSON object (optionally in one fenced code block)
 * whose keys are exactly the option labels (case and surrounding spaces ignored), each mapped to a finite
 * non-negative number: probabilities, or percentages when a value is above 1 and none above 100.
 * Throws INVALID_RESPONSE naming the question for anything else: prose around the object, a missing,
 * repeated or unknown label, a value that is not such a number, or no probability mass at all.
 */
export function parseDistribution(reply: string, options: readonly LmOption[], questionId: string): number[] {
  const fail = (what: string) => invalidResponse(`The editor chat model's reply to question ${quoted(questionId)} ${what}.`);
  const object = replyObject(reply, fail);
  const index = new Map(options.map((o, i) => [o.label.toLowerCase(), i]));
  const values: number[] = options.map(() => Number.NaN);
  for (const [rawKey, raw] of Object.entries(object)) {
    const i = index.get(rawKey.trim().toLowerCase());
    const shown = quoted(rawKey.length > 40 ? `${rawKey.slice(0, 40)}…` : rawKey);
    if (i === undefined) throw fail(`gives a probability for ${shown}, which is not one of the option labels (${options.map((o) => o.label).join(', ')})`);
    if (!Number.isNaN(values[i]!)) throw fail(`gives two probabilities for option ${options[i]!.label}`);
    if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < 0) throw fail(`gives ${shown} a value that is not a non-negative number`);
    values[i] = raw;
  }
  const missing = options.filter((_, i) => Number.isNaN(values[i]!)).map((o) => o.label);
  if (missing.length) throw fail(`leaves out option ${missing.join(', ')}; every option label needs a probability`);
  const max = Math.max(...values);
  if (max > 100) throw fail('gives values that are neither probabilities nor percentages');
  const total = values.reduce((a, b) => a + b, 0);
  if (!(total > 0)) throw fail('gives every option probability 0');
  return values.map((v) => v / total);
}

/** The System One answer for `question` from a distribution aligned with `questionOptions(question)`. */
export function answerFrom(question: Question, options: readonly LmOption[], probabilities: readonly number[]): Answer {
  if (question.type === 'noul') return noulAnswer(probabilities[0]!);
  if (question.type === 'choice') return choiceAnswer(options.map((o) => o.key), probabilities);
  return scoreAnswer(question.criteria, probabilities);
}
