import { invalidResponse } from './errors';
import type { Answer, QuestionMap, SystemOneResponse, Usage } from './types';

/** Allowed |Σp − 1| per option: 0.005 × k for k options. */
export const SUM_TOLERANCE_PER_OPTION = 0.005;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isProbability = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;
/** Assigns an own enumerable property, even for the key "__proto__" (plain assignment would set the prototype). */
function setOwn<T>(obj: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

const short = (s: string) => JSON.stringify(s.length > 80 ? s.slice(0, 80) + '…' : s);

function usageOf(body: Record<string, unknown>): Usage {
  const usage = body.usage;
  if (!isObject(usage)) throw invalidResponse('Provider response has no usage object.');
  const out: Usage = { input_tokens: 0, output_tokens: 0 };
  for (const key of ['input_tokens', 'output_tokens'] as const) {
    const n = usage[key];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
      throw invalidResponse(`Provider usage.${key} must be a non-negative integer.`);
    }
    out[key] = n;
  }
  return out;
}

function checkDistribution(id: string, probs: unknown, keys: string[]): Record<string, number> {
  if (!isObject(probs)) throw invalidResponse(`Answer ${short(id)} has no probabilities object.`);
  const out: Record<string, number> = {};
  let sum = 0;
  for (const key of Object.keys(probs)) {
    if (!keys.includes(key)) throw invalidResponse(`Answer ${short(id)} gives a probability for ${short(key)}, which was not offered.`);
  }
  for (const key of keys) {
    const p = probs[key];
    if (!isProbability(p)) throw invalidResponse(`Answer ${short(id)} lacks a probability in [0,1] for ${short(key)}.`);
    setOwn(out, key, p);
    sum += p;
  }
  if (Math.abs(sum - 1) > SUM_TOLERANCE_PER_OPTION * keys.length) {
    throw invalidResponse(`Answer ${short(id)} has probabilities summing to ${Number(sum.toFixed(4))}, not 1.`);
  }
  return out;
}

function validateAnswer(id: string, question: QuestionMap[string], raw: unknown): Answer {
  if (!isObject(raw)) throw invalidResponse(`Provider response is missing the answer to ${short(id)}.`);
  if (raw.type !== question.type) throw invalidResponse(`Answer ${short(id)} has type ${short(String(raw.type))}; expected ${question.type}.`);
  if (question.type === 'noul') {
    if (!isProbability(raw.noul)) throw invalidResponse(`Answer ${short(id)} must carry noul in [0,1].`);
    return { type: 'noul', noul: raw.noul };
  }
  if (!isProbability(raw.confidence)) throw invalidResponse(`Answer ${short(id)} must carry confidence in [0,1].`);
  if (question.type === 'choice') {
    const options = Object.keys(question.criteria);
    if (typeof raw.choice !== 'string' || !options.includes(raw.choice)) {
      throw invalidResponse(`Answer ${short(id)} chose ${short(String(raw.choice))}, which is not one of the offered options.`);
    }
    const probabilities = checkDistribution(id, raw.probabilities, options);
    const peak = Math.max(...Object.values(probabilities));
    if (probabilities[raw.choice]! < peak - SUM_TOLERANCE_PER_OPTION * options.length) {
      throw invalidResponse(`Answer ${short(id)} chose an option its own distribution does not favour.`);
    }
    return { type: 'choice', choice: raw.choice, confidence: raw.confidence, probabilities };
  }
  const levels = question.criteria.map((_, i) => String(i));
  const probabilities = checkDistribution(id, raw.probabilities, levels);
  if (!isObject(raw.legend) || Object.keys(raw.legend).length !== levels.length || !levels.every((k) => typeof (raw.legend as Record<string, unknown>)[k] === 'string')) {
    throw invalidResponse(`Answer ${short(id)} must carry a legend with one text per level 0..${levels.length - 1}.`);
  }
  const score = raw.score;
  if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > levels.length - 1) {
    throw invalidResponse(`Answer ${short(id)} must carry a score within 0..${levels.length - 1}.`);
  }
  const expected = levels.reduce((acc, k, i) => acc + i * probabilities[k]!, 0);
  if (Math.abs(expected - score) > 0.05 * (levels.length - 1) + 1e-9) {
    throw invalidResponse(`Answer ${short(id)} has a score inconsistent with its own distribution.`);
  }
  const legend: Record<string, string> = {};
  for (const k of levels) setOwn(legend, k, (raw.legend as Record<string, string>)[k]!);
  return { type: 'score', score, confidence: raw.confidence, probabilities, legend };
}

/**
 * Validates a provider body against the questions asked:
 * every asked id answered with its type; noul/probabilities/confidence in [0,1]; choices on the list;
 * distributions complete and summing to 1 within 0.005 per option; scores within and consistent with
 * their distribution; usage non-negative integers. Unasked answers are dropped.
 * Returns a clean copy in question order. Throws JevError INVALID_RESPONSE (never echoes the body).
 */
export function validateResponse(questions: QuestionMap, body: unknown): SystemOneResponse {
  if (!isObject(body)) throw invalidResponse('Provider response is not a JSON object.');
  if (typeof body.model !== 'string' || body.model.trim() === '') throw invalidResponse('Provider response has no model name.');
  const usage = usageOf(body);
  if (!isObject(body.answers)) throw invalidResponse('Provider response has no answers object.');
  const answers: Record<string, Answer> = {};
  for (const [id, question] of Object.entries(questions)) {
    if (!Object.hasOwn(body.answers, id)) throw invalidResponse(`Provider response is missing the answer to ${short(id)}.`);
    setOwn(answers, id, validateAnswer(id, question, body.answers[id]));
  }
  return { model: body.model, usage, answers };
}
