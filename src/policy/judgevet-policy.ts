/**
 * The judgevet acceptance-policy grammar and its strict evaluator.
 *
 * Grammar: `{"rules":[{"question":ID,"pass":P}, …]}` with P one of
 * `{"noul":{"min"?,"max"?}}`, `{"choice":LABEL,"confidence"?:{"min":x}}`,
 * `{"score":{"min"?,"max"?} | {"level":n},"confidence"?:{"min":x}}`. Every diagnostic text and its check
 * order follow judgevet's exactly, so a caller sees the same message judgevet prints; the `level` form
 * (an exact match on the highest-probability level) has diagnostics in the same style. Comparisons are
 * inclusive.
 *
 * Duplicate keys can only be seen in raw text: {@link parsePolicy} given a string reads it with a
 * duplicate-rejecting reader; given an already-decoded value (the MCP path, where arguments arrive as
 * decoded JSON) duplicates have already been merged by the decoder and cannot be reported.
 *
 * Pure: no I/O, no clock. The webview's what-if view can run the same code.
 */
import { compareCodePoints, pyFloat, pySlice, pyStr } from './python-repr';
import { parseStrictJson, StrictJsonError } from './strict-json';

/** A policy that cannot be built from its definition. `message` is the exact diagnostic. */
export class PolicyDefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PolicyDefinitionError';
  }
}

/** An answer that cannot be evaluated against a validated policy. `message` is the exact diagnostic. */
export class PolicyAnswerError extends Error {
  /** Id of the question whose answer failed. */
  readonly question: string;

  constructor(message: string, question: string) {
    super(message);
    this.name = 'PolicyAnswerError';
    this.question = question;
  }
}

/** The part of a question a policy is checked against: its type and criteria (choice labels / score levels). */
export interface PolicyQuestion {
  type: string;
  criteria?: unknown;
}

/** Noul rule: P(true) within the inclusive bounds [min, max] (probabilities in [0,1]). */
export interface NoulRule {
  kind: 'noul';
  question: string;
  min?: number;
  max?: number;
}

/** Choice rule: the chosen label equals `choice`, and confidence ≥ `minConfidence` when given. */
export interface ChoiceRule {
  kind: 'choice';
  question: string;
  choice: string;
  minConfidence?: number;
}

/**
 * Score rule: the expected level within [min, max] (level units, 0 = lowest), or — with `level` instead of
 * bounds — the highest-probability level equal to `level` (an integer level index); confidence ≥
 * `minConfidence` when given.
 */
export interface ScoreRule {
  kind: 'score';
  question: string;
  min?: number;
  max?: number;
  level?: number;
  minConfidence?: number;
}

export type PolicyRule = NoulRule | ChoiceRule | ScoreRule;

/**
 * A policy checked against its questions, with a frozen snapshot of what evaluation needs
 * (choice labels; score maximum level), so later edits to the question objects change nothing.
 */
export interface ValidatedPolicy {
  readonly rules: readonly PolicyRule[];
  /** Question id → allowed choice labels (choice rules only). */
  readonly choiceLabels: ReadonlyMap<string, ReadonlySet<string>>;
  /** Question id → highest level index, = number of levels − 1 (score rules only). */
  readonly scoreMaxLevel: ReadonlyMap<string, number>;
}

/** One evaluated rule with its structured values (observed, bounds) besides the reference detail string. */
export interface RuleReport {
  question: string;
  kind: PolicyRule['kind'];
  passed: boolean;
  /** Reference detail, e.g. `noul 0.9 >= 0.8 -> pass` (Python float repr). */
  detail: string;
  /** Observed P(true), expected score, highest-probability level (score `level` rules), or chosen label. */
  observed: number | string;
  /** Inclusive lower bound (noul/score), when set. */
  min?: number;
  /** Inclusive upper bound (noul/score), when set. */
  max?: number;
  /** Required level (score `level` rules). */
  level?: number;
  /** Expected label (choice rules). */
  expected?: string;
  /** Observed confidence (choice/score answers). */
  confidence?: number;
  /** Inclusive minimum confidence, when set. */
  minConfidence?: number;
}

/** Result of a policy: `pass` iff every rule passed; rules in policy order, all reported. */
export interface PolicyReport {
  result: 'pass' | 'fail';
  rules: RuleReport[];
}

/** Wire shape of a report in MCP/CLI JSON: `{result, rules:[{question, pass, detail}]}`. */
export interface PolicyReportJson {
  result: 'pass' | 'fail';
  rules: { question: string; pass: boolean; detail: string }[];
}

const fail = (message: string): never => {
  throw new PolicyDefinitionError(message);
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** First key of `keys` not in `allowed`, in code-point order, cut to 64 code points and Python-quoted. */
function firstUnknownKey(keys: string[], allowed: readonly string[]): string | undefined {
  const unknown = keys.filter((k) => !allowed.includes(k)).sort(compareCodePoints);
  return unknown.length ? pyStr(pySlice(unknown[0]!, 64)) : undefined;
}

/**
 * Builds a validated policy from JSON text (string) or an already-decoded value, checking every grammar rule
 * in judgevet's order against `questions` (id → {type, criteria}). Rules may cover a subset of the questions.
 * Throws PolicyDefinitionError with judgevet's exact text, e.g. `duplicate key in JSON object`,
 * `invalid JSON (Expecting value: line 1 column 1 (char 0))`, `rules[1] must be a JSON object`,
 * `score max must be in [0.0, 2.0]`, `score level must be in [0, 2]`.
 */
export function parsePolicy(source: string | object, questions: Readonly<Record<string, PolicyQuestion>>): ValidatedPolicy {
  let root: unknown = source;
  if (typeof source === 'string') {
    try {
      root = parseStrictJson(source);
    } catch (err) {
      if (err instanceof StrictJsonError) {
        fail(err.kind === 'duplicate-key' ? err.message : `invalid JSON (${err.message})`);
      }
      throw err;
    }
  }
  return validatePolicyValue(root, questions);
}

/**
 * Same as {@link parsePolicy} for a decoded JSON value only: a string here is a JSON string value (so
 * `root must be a JSON object`), never policy text. This is the MCP path.
 */
export function validatePolicyValue(root: unknown, questions: Readonly<Record<string, PolicyQuestion>>): ValidatedPolicy {
  if (!isObject(root)) fail('root must be a JSON object');
  const rootObj = root as Record<string, unknown>;
  const rootKeys = Object.keys(rootObj);
  if (rootKeys.length !== 1 || rootKeys[0] !== 'rules') fail("root must have exactly 'rules' field");
  const rawRules = rootObj.rules;
  if (!Array.isArray(rawRules)) fail('rules must be an array');
  const list = rawRules as unknown[];
  if (list.length === 0) fail('rules array must not be empty');

  const rules: PolicyRule[] = [];
  const seen = new Set<string>();
  const choiceLabels = new Map<string, ReadonlySet<string>>();
  const scoreMaxLevel = new Map<string, number>();
  list.forEach((raw, index) => {
    if (!isObject(raw)) fail(`rules[${index}] must be a JSON object`);
    const rule = raw as Record<string, unknown>;
    const unknownKey = firstUnknownKey(Object.keys(rule), ['question', 'pass']);
    if (unknownKey) fail(`rule has unknown field ${unknownKey}; expected 'question' and 'pass'`);
    if (!Object.hasOwn(rule, 'question')) fail("rule requires 'question' field");
    if (!Object.hasOwn(rule, 'pass')) fail("rule requires 'pass' field");

    const name = rule.question;
    if (typeof name !== 'string' || name === '') fail('question name must be a non-empty string');
    const id = name as string;
    if (seen.has(id)) fail('duplicate rule for question');
    if (!Object.hasOwn(questions, id)) fail('unknown question in rule');
    seen.add(id);
    const question = questions[id]!;

    const pass = rule.pass;
    if (!isObject(pass)) fail('pass must be an object');
    const passObj = pass as Record<string, unknown>;
    const passKeys = Object.keys(passObj);
    const kinds = passKeys.filter((k) => k === 'noul' || k === 'choice' || k === 'score') as PolicyRule['kind'][];
    if (kinds.length !== 1) fail('pass must have exactly one predicate type');
    const kind = kinds[0]!;
    const allowed = kind === 'noul' ? ['noul'] : [kind, 'confidence'];
    if (passKeys.some((k) => !allowed.includes(k))) fail('pass has unknown or misplaced fields');
    if (question.type !== kind) fail('predicate does not match question type');

    if (kind === 'noul') {
      rules.push({ kind, question: id, ...rangeOf('noul', passObj.noul, 1) });
      return;
    }
    if (kind === 'score') {
      const maxLevel = scoreMaxLevelOf(question.criteria);
      const range = scorePredicateOf(passObj.score, maxLevel);
      const minConfidence = confidenceOf(passObj);
      scoreMaxLevel.set(id, maxLevel);
      rules.push({ kind, question: id, ...range, ...(minConfidence === undefined ? {} : { minConfidence }) });
      return;
    }
    const labels = choiceLabelsOf(question.criteria);
    const choice = passObj.choice;
    if (typeof choice !== 'string') fail('choice value must be a string');
    if (!labels.has(choice as string)) fail('choice value not found in question criteria');
    const minConfidence = confidenceOf(passObj);
    choiceLabels.set(id, labels);
    rules.push({ kind, question: id, choice: choice as string, ...(minConfidence === undefined ? {} : { minConfidence }) });
  });
  return Object.freeze({ rules: Object.freeze(rules.map((r) => Object.freeze(r))), choiceLabels, scoreMaxLevel });
}

/** Question snapshot: score criteria must be a non-empty list; the top level is its length − 1. */
function scoreMaxLevelOf(criteria: unknown): number {
  if (!Array.isArray(criteria) || criteria.length === 0) fail('score criteria must be a non-empty sequence');
  return (criteria as unknown[]).length - 1;
}

/** Question snapshot: choice criteria must be a mapping; its keys are the allowed labels. */
function choiceLabelsOf(criteria: unknown): ReadonlySet<string> {
  if (!isObject(criteria)) fail('choice criteria must be a mapping');
  return new Set(Object.keys(criteria as object));
}

/** Grammar check 7: a closed `{min?, max?}` object; bounds finite, within [0, hi], min ≤ max. */
function rangeOf(kind: 'noul' | 'score', raw: unknown, hi: number): { min?: number; max?: number } {
  if (!isObject(raw)) fail(`${kind} range must be an object`);
  const range = raw as Record<string, unknown>;
  const unknownKey = firstUnknownKey(Object.keys(range), ['min', 'max']);
  // A score predicate may also be {"level": n}; its unknown-field text names that key too.
  if (unknownKey) fail(`${kind} predicate has unknown field ${unknownKey}; expected ${kind === 'score' ? "'min', 'max' or 'level'" : "'min' and 'max'"}`);
  if (Object.keys(range).length === 0) fail(`${kind} predicate requires at least one bound`);
  const out: { min?: number; max?: number } = {};
  for (const bound of ['min', 'max'] as const) {
    if (!Object.hasOwn(range, bound)) continue;
    const v = range[bound];
    // JSON null is a wrong type here, not an omitted bound.
    if (!isFiniteNumber(v)) fail(`${kind} ${bound} must be a finite number`);
    if ((v as number) < 0 || (v as number) > hi) fail(`${kind} ${bound} must be in [0.0, ${pyFloat(hi)}]`);
    out[bound] = v as number;
  }
  if (out.min !== undefined && out.max !== undefined && out.min > out.max) fail(`${kind} min cannot exceed max`);
  return out;
}

/**
 * A score predicate: bounds as {@link rangeOf}, or `{"level": n}`, an integer level index in
 * [0, top level], which excludes min and max. Diagnostics: `score level cannot be combined with min or
 * max`, `score level must be an integer`, `score level must be in [0, <top>]`; unknown keys name the
 * allowed ones.
 */
function scorePredicateOf(raw: unknown, hi: number): { min?: number; max?: number } | { level: number } {
  if (!isObject(raw) || !Object.hasOwn(raw, 'level')) return rangeOf('score', raw, hi);
  const predicate = raw as Record<string, unknown>;
  const unknownKey = firstUnknownKey(Object.keys(predicate), ['min', 'max', 'level']);
  if (unknownKey) fail(`score predicate has unknown field ${unknownKey}; expected 'min', 'max' or 'level'`);
  if (Object.hasOwn(predicate, 'min') || Object.hasOwn(predicate, 'max')) fail('score level cannot be combined with min or max');
  const level = predicate.level;
  // JSON null, booleans, strings and fractions are all wrong types for a level index.
  if (typeof level !== 'number' || !Number.isInteger(level)) fail('score level must be an integer');
  if ((level as number) < 0 || (level as number) > hi) fail(`score level must be in [0, ${hi}]`);
  return { level: level as number };
}

/** Grammar check 9: optional `confidence: {min}` with min a finite number in [0, 1]. */
function confidenceOf(pass: Record<string, unknown>): number | undefined {
  if (!Object.hasOwn(pass, 'confidence')) return undefined;
  const raw = pass.confidence;
  if (!isObject(raw)) fail('confidence must be an object');
  const keys = Object.keys(raw as object);
  if (keys.length !== 1 || keys[0] !== 'min') fail("confidence object must have exactly 'min' field");
  const v = (raw as Record<string, unknown>).min;
  if (!isFiniteNumber(v)) fail('confidence min must be a finite number, not bool or nonfinite');
  if ((v as number) < 0 || (v as number) > 1) fail('confidence min must be in [0.0, 1.0]');
  return v as number;
}

/** Checks an answer scalar: finite number within [0, hi]; messages `<label> is nonfinite or not numeric` / `<label> is outside the allowed range`. */
function checkedScalar(v: unknown, label: string, hi: number, answerFail: (message: string) => never): number {
  if (!isFiniteNumber(v)) answerFail(`${label} is nonfinite or not numeric`);
  if ((v as number) < 0 || (v as number) > hi) answerFail(`${label} is outside the allowed range`);
  return v as number;
}

/**
 * The highest-probability level of a score answer's `probabilities` (level index → probability), the
 * lowest such level on a tie (the first in level order, as a reader of the distribution would take it).
 * Fails with `score probabilities are missing or empty`, `score probability is …` (as checkedScalar) or
 * `score probabilities name a level outside the question scale`.
 */
function peakLevel(raw: unknown, hi: number, answerFail: (message: string) => never): number {
  if (!isObject(raw) || Object.keys(raw).length === 0) answerFail('score probabilities are missing or empty');
  let peak = -1;
  let best = -1;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!/^(0|[1-9]\d*)$/.test(key) || Number(key) > hi) answerFail('score probabilities name a level outside the question scale');
    const p = checkedScalar(value, 'score probability', 1, answerFail);
    const level = Number(key);
    if (p > best || (p === best && level < peak)) {
      best = p;
      peak = level;
    }
  }
  return peak;
}

/** Range detail parts and verdict for noul/score: `<label> <v> >= <min>`, `<label> <v> <= <max>`. */
function rangeParts(label: string, value: number, min: number | undefined, max: number | undefined): { parts: string[]; ok: boolean } {
  const parts: string[] = [];
  let ok = true;
  if (min !== undefined) {
    parts.push(`${label} ${pyFloat(value)} >= ${pyFloat(min)}`);
    ok &&= value >= min;
  }
  if (max !== undefined) {
    parts.push(`${label} ${pyFloat(value)} <= ${pyFloat(max)}`);
    ok &&= value <= max;
  }
  return { parts, ok };
}

const verdict = (ok: boolean) => (ok ? ' -> pass' : ' -> fail');

/**
 * Strict evaluation: rules in order, every rule reported; comparisons inclusive; extra answers
 * ignored. `answers` maps question id → `{type, …}` answer as validated from the provider.
 * Throws PolicyAnswerError (never a partial report) for: `missing answer for policy question`,
 * `answer type mismatch for policy question`, `noul value is nonfinite or not numeric`,
 * `noul value is outside the allowed range`, `choice confidence …`, `choice value not found in question
 * criteria`, `score confidence …`, `score is nonfinite or not numeric`, `score is outside the allowed range`,
 * and for `level` rules `score probabilities are missing or empty`, `score probability is …`, `score
 * probabilities name a level outside the question scale`. Its `question` names the rule's question.
 * A `level` rule reads the highest-probability level (the lowest level on a tie); its detail is e.g.
 * `score level 2 == 1 -> fail`.
 */
export function evaluatePolicy(policy: ValidatedPolicy, answers: Readonly<Record<string, unknown>>): PolicyReport {
  const rules: RuleReport[] = [];
  for (const rule of policy.rules) {
    const answerFail = (message: string): never => {
      throw new PolicyAnswerError(message, rule.question);
    };
    if (!Object.hasOwn(answers, rule.question)) answerFail('missing answer for policy question');
    const answer = answers[rule.question];
    if (!isObject(answer) || answer.type !== rule.kind) answerFail('answer type mismatch for policy question');
    const a = answer as Record<string, unknown>;

    if (rule.kind === 'noul') {
      const value = checkedScalar(a.noul, 'noul value', 1, answerFail);
      const { parts, ok } = rangeParts('noul', value, rule.min, rule.max);
      rules.push({ question: rule.question, kind: 'noul', passed: ok, detail: parts.join(' and ') + verdict(ok), observed: value, ...bounds(rule) });
      continue;
    }

    if (rule.kind === 'choice') {
      // Confidence is checked even without a confidence predicate (strict evaluator).
      const confidence = checkedScalar(a.confidence, 'choice confidence', 1, answerFail);
      const choice = a.choice;
      if (typeof choice !== 'string' || !policy.choiceLabels.get(rule.question)?.has(choice)) {
        answerFail('choice value not found in question criteria');
      }
      const observed = choice as string;
      let ok = observed === rule.choice;
      let detail = `choice '${observed}' == '${rule.choice}'`;
      if (rule.minConfidence !== undefined) {
        detail += ` and confidence ${pyFloat(confidence)} >= ${pyFloat(rule.minConfidence)}`;
        ok &&= confidence >= rule.minConfidence;
      }
      rules.push({
        question: rule.question,
        kind: 'choice',
        passed: ok,
        detail: detail + verdict(ok),
        observed,
        expected: rule.choice,
        confidence,
        ...(rule.minConfidence === undefined ? {} : { minConfidence: rule.minConfidence }),
      });
      continue;
    }

    const confidence = checkedScalar(a.confidence, 'score confidence', 1, answerFail);
    const top = policy.scoreMaxLevel.get(rule.question) ?? 0;
    const score = checkedScalar(a.score, 'score', top, answerFail);
    let parts: string[];
    let ok: boolean;
    let observed = score;
    if (rule.level !== undefined) {
      observed = peakLevel(a.probabilities, top, answerFail);
      ok = observed === rule.level;
      parts = [`score level ${observed} == ${rule.level}`];
    } else {
      ({ parts, ok } = rangeParts('score', score, rule.min, rule.max));
    }
    if (rule.minConfidence !== undefined) {
      parts.push(`confidence ${pyFloat(confidence)} >= ${pyFloat(rule.minConfidence)}`);
      ok &&= confidence >= rule.minConfidence;
    }
    rules.push({
      question: rule.question,
      kind: 'score',
      passed: ok,
      detail: parts.join(' and ') + verdict(ok),
      observed,
      ...bounds(rule),
      ...(rule.level === undefined ? {} : { level: rule.level }),
      confidence,
      ...(rule.minConfidence === undefined ? {} : { minConfidence: rule.minConfidence }),
    });
  }
  return { result: rules.every((r) => r.passed) ? 'pass' : 'fail', rules };
}

const bounds = (rule: { min?: number; max?: number }) => ({
  ...(rule.min === undefined ? {} : { min: rule.min }),
  ...(rule.max === undefined ? {} : { max: rule.max }),
});

/** The MCP/CLI JSON form of a report: `{result, rules:[{question, pass, detail}]}` in rule order. */
export function reportToJson(report: PolicyReport): PolicyReportJson {
  return { result: report.result, rules: report.rules.map((r) => ({ question: r.question, pass: r.passed, detail: r.detail })) };
}
