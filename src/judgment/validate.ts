import { invalidResponse, quoted } from './errors';
import type { Answer, QuestionMap, SystemOneResponse, Usage } from './types';

/** Allowed |Σp − 1| per option: 0.005 × k for k options. */
export const SUM_TOLERANCE_PER_OPTION = 0.005;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isProbability = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;
/**
 * Assigns an own enumerable property, even for the key "__proto__" (plain assignment would set the
 * prototype). `obj` is a plain object this file made, so for every other key plain assignment makes the
 * same property, and it is several times faster than defineProperty (one call per probability).
 */
function setOwn<T>(obj: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

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

/** A distribution as sent (offered keys only, in offered order) and normalised over every offered key. */
interface CheckedDistribution {
  sent: Record<string, number>;
  normalised: Record<string, number>;
  /** The sent numbers already were the normalised ones (every key present, Σ = 1 to float precision). */
  exact: boolean;
  /** Keys sent, for the sum tolerance (0.005 × k). */
  count: number;
  /** Σ of the probabilities as sent (> 0). */
  sum: number;
}

/** |Σp − 1| up to this counts as a sum of exactly 1 (float rounding), so nothing is rescaled. */
const EXACT_SUM = 1e-9;

/**
 * A distribution over `keys`, as the judgevet client accepts one: a subset of the offered keys may be given (the rest
 * count as 0), each a finite number in [0,1], summing to 1 within 0.005 × (keys given) and above 0.
 * Off-list keys are refused. Throws INVALID_RESPONSE naming the question `id`.
 */
function checkDistribution(id: string, probs: unknown, keys: readonly string[]): CheckedDistribution {
  if (!isObject(probs)) throw invalidResponse(`Answer ${quoted(id)} has no probabilities object.`);
  const offered = new Set(keys);
  for (const key of Object.keys(probs)) {
    if (!offered.has(key)) throw invalidResponse(`Answer ${quoted(id)} gives a probability for ${quoted(key)}, which was not offered.`);
  }
  const sent: Record<string, number> = {};
  let sum = 0;
  let count = 0;
  for (const key of keys) {
    if (!Object.hasOwn(probs, key)) continue;
    const p = probs[key];
    if (!isProbability(p)) throw invalidResponse(`Answer ${quoted(id)} gives ${quoted(key)} a probability that is not a number in [0,1].`);
    setOwn(sent, key, p);
    sum += p;
    count++;
  }
  if (!(sum > 0) || Math.abs(sum - 1) > SUM_TOLERANCE_PER_OPTION * count) {
    throw invalidResponse(`Answer ${quoted(id)} has probabilities summing to ${Number(sum.toFixed(4))}, not 1.`);
  }
  const exact = count === keys.length && Math.abs(sum - 1) <= EXACT_SUM;
  if (exact) return { sent, normalised: sent, exact, count, sum };
  const normalised: Record<string, number> = {};
  for (const key of keys) setOwn(normalised, key, (Object.hasOwn(sent, key) ? sent[key]! : 0) / sum);
  return { sent, normalised, exact, count, sum };
}

/**
 * The confidence read with a rescaled distribution: a mass over 1 shrinks the confidence by the same
 * factor as the probabilities (0.79 within a sum of 1.18 reads 0.669), so a policy never compares a
 * number larger than the share it was stated against; a mass under 1 never inflates it.
 */
function normalisedConfidence(confidence: number, d: CheckedDistribution): number {
  return d.sum > 1 ? confidence / d.sum : confidence;
}

/** One validated answer: `answer` with normalised probabilities; `raw` the same answer as sent, when it differs. */
interface CheckedAnswer {
  answer: Answer;
  raw?: Answer;
}

function validateAnswer(id: string, question: QuestionMap[string], raw: unknown): CheckedAnswer {
  if (!isObject(raw)) throw invalidResponse(`Provider response is missing the answer to ${quoted(id)}.`);
  if (raw.type !== question.type) throw invalidResponse(`Answer ${quoted(id)} has type ${quoted(String(raw.type))}; expected ${question.type}.`);
  if (question.type === 'noul') {
    if (!isProbability(raw.noul)) throw invalidResponse(`Answer ${quoted(id)} must carry noul in [0,1].`);
    return { answer: { type: 'noul', noul: raw.noul } };
  }
  if (!isProbability(raw.confidence)) throw invalidResponse(`Answer ${quoted(id)} must carry confidence in [0,1].`);
  if (question.type === 'choice') {
    const options = Object.keys(question.criteria);
    if (typeof raw.choice !== 'string' || !options.includes(raw.choice)) {
      throw invalidResponse(`Answer ${quoted(id)} chose ${quoted(String(raw.choice))}, which is not one of the offered options.`);
    }
    const d = checkDistribution(id, raw.probabilities, options);
    if (!Object.hasOwn(d.sent, raw.choice)) throw invalidResponse(`Answer ${quoted(id)} chose ${quoted(raw.choice)} but gives it no probability.`);
    const peak = Math.max(...Object.values(d.sent));
    if (d.sent[raw.choice]! < peak - SUM_TOLERANCE_PER_OPTION * d.count) {
      throw invalidResponse(`Answer ${quoted(id)} chose an option its own distribution does not favour.`);
    }
    const answer = (probabilities: Record<string, number>, confidence: number): Answer => ({ type: 'choice', choice: raw.choice as string, confidence, probabilities });
    return d.exact
      ? { answer: answer(d.sent, raw.confidence) }
      : { answer: answer(d.normalised, normalisedConfidence(raw.confidence, d)), raw: answer(d.sent, raw.confidence) };
  }
  const levels = question.criteria.map((_, i) => String(i));
  const d = checkDistribution(id, raw.probabilities, levels);
  const legend = legendOf(id, raw.legend, levels, d.sent);
  const score = raw.score;
  const top = levels.length - 1;
  if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > top) {
    throw invalidResponse(`Answer ${quoted(id)} must carry a score within 0..${top}.`);
  }
  // A provider may compute the score before or after rescaling its distribution; either is consistent.
  const expected = (p: Record<string, number>) => levels.reduce((acc, k, i) => acc + i * (p[k] ?? 0), 0);
  const near = (e: number) => Math.abs(e - score) <= 0.05 * top + 1e-9;
  if (!near(expected(d.sent)) && !near(expected(d.normalised))) {
    throw invalidResponse(`Answer ${quoted(id)} has a score inconsistent with its own distribution.`);
  }
  const confidence = raw.confidence;
  const answer = (probabilities: Record<string, number>, c: number): Answer => ({ type: 'score', score, confidence: c, probabilities, legend });
  return d.exact ? { answer: answer(d.sent, confidence) } : { answer: answer(d.normalised, normalisedConfidence(confidence, d)), raw: answer(d.sent, confidence) };
}

/**
 * The legend of a score answer, as the contract has it: its key set equals the probabilities' key set, and
 * a score gives every level of the question a probability (subset coverage is for choices only), so the
 * legend names every level 0..n−1, each with a text. Throws INVALID_RESPONSE naming the question and the rule.
 */
function legendOf(id: string, raw: unknown, levels: readonly string[], sent: Record<string, number>): Record<string, string> {
  const missing = levels.filter((k) => !Object.hasOwn(sent, k));
  if (missing.length > 0) {
    throw invalidResponse(
      `Answer ${quoted(id)} gives no probability for level ${missing.join(', ')}: a score answer gives every level 0..${levels.length - 1} a probability (only a choice may give a subset).`,
    );
  }
  if (!isObject(raw)) throw invalidResponse(`Answer ${quoted(id)} has no legend object: a score answer carries a legend with the same levels as its probabilities.`);
  const keys = Object.keys(raw);
  const same = keys.length === levels.length && levels.every((k) => Object.hasOwn(raw, k));
  if (!same) {
    const list = (ks: readonly string[]) => (ks.length === 0 ? 'none' : ks.map((k) => quoted(k)).join(', '));
    throw invalidResponse(
      `Answer ${quoted(id)} has legend levels ${list(keys)} but probabilities for ${list(levels)}: a score answer's legend and probabilities name the same levels.`,
    );
  }
  const legend: Record<string, string> = {};
  for (const k of levels) {
    const text = raw[k];
    if (typeof text !== 'string') throw invalidResponse(`Answer ${quoted(id)} gives legend level ${quoted(k)} a value that is not text.`);
    setOwn(legend, k, text);
  }
  return legend;
}

/** A validated response plus the answers whose numbers were rescaled, exactly as the provider sent them. */
export interface ValidatedResponse {
  /** Answers with probabilities normalised over every offered option (what policy and results use). */
  response: SystemOneResponse;
  /** Question id → the answer as sent (validated, unnormalised, omitted options absent); only answers that differ. */
  rawAnswers?: Record<string, Answer>;
}

/**
 * Validates a provider body against the questions asked:
 * every asked id answered with its type; noul, confidence and probabilities finite and in [0,1]; choices
 * and probability keys on the offered list (a choice may give a subset, the rest count as 0; a score gives
 * every level, with a legend of the same levels); distributions
 * summing to 1 within 0.005 per probability given; scores within and consistent with their distribution;
 * usage non-negative integers. Unasked answers are dropped. Probabilities that do not sum to exactly 1 or
 * leave options out are normalised over every offered option, and a confidence stated within a mass over 1 is
 * scaled with them; the answer as sent is kept in `rawAnswers`.
 * Returns clean copies in question order. Throws JevError INVALID_RESPONSE naming the question (never
 * echoes the body).
 */
export function validateResponseWithRaw(questions: QuestionMap, body: unknown): ValidatedResponse {
  if (!isObject(body)) throw invalidResponse('Provider response is not a JSON object.');
  if (typeof body.model !== 'string' || body.model.trim() === '') throw invalidResponse('Provider response has no model name.');
  const usage = usageOf(body);
  if (!isObject(body.answers)) throw invalidResponse('Provider response has no answers object.');
  const answers: Record<string, Answer> = {};
  let rawAnswers: Record<string, Answer> | undefined;
  for (const [id, question] of Object.entries(questions)) {
    if (!Object.hasOwn(body.answers, id)) throw invalidResponse(`Provider response is missing the answer to ${quoted(id)}.`);
    const checked = validateAnswer(id, question, body.answers[id]);
    setOwn(answers, id, checked.answer);
    if (checked.raw) setOwn((rawAnswers ??= {}), id, checked.raw);
  }
  return { response: { model: body.model, usage, answers }, ...(rawAnswers ? { rawAnswers } : {}) };
}

/** {@link validateResponseWithRaw} without the answers as sent: the normalised response only. */
export function validateResponse(questions: QuestionMap, body: unknown): SystemOneResponse {
  return validateResponseWithRaw(questions, body).response;
}
