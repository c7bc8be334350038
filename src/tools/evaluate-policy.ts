import { z } from 'zod';
import { JevError, quoted } from '../judgment/errors';
import type { Answer, QuestionMap } from '../judgment/types';
import {
  evaluatePolicy,
  PolicyAnswerError,
  PolicyDefinitionError,
  reportToJson,
  validatePolicyValue,
  type PolicyReportJson,
  type ValidatedPolicy,
} from '../policy/judgevet-policy';
import {
  checkPolicyToolArgs,
  choiceFieldsZ,
  JUDGEVET_ANNOTATIONS,
  LABEL_PROBABILITIES_JSON,
  LEGEND_JSON,
  LEVEL_PROBABILITIES_JSON,
  MODEL_JSON,
  noulFieldsZ,
  PROBABILITY_JSON,
  routeEvidence,
  scoreFieldsZ,
  USAGE_JSON,
  usageOut,
  usageZ,
  type PolicyToolArgs,
} from './judgevet-args';
import { judgeWhole } from './judgevet-judge';
import type { ToolDefinition } from './types';

/** Checked evaluate_policy input: arguments plus the policy validated against the questions. */
export interface EvaluatePolicyInput extends PolicyToolArgs {
  validated: ValidatedPolicy;
}

/** One answer in the result, `{name, type, …fields}`. */
export type NamedAnswer =
  | { name: string; type: 'noul'; noul: number }
  | { name: string; type: 'choice'; choice: string; confidence: number; probabilities: Record<string, number> }
  | { name: string; type: 'score'; score: number; confidence: number; legend: Record<string, string>; probabilities: Record<string, number> };

/** Structured result of evaluate_policy, keys in this order. An unmet policy is `policy.result: "fail"`. */
export interface EvaluatePolicyResult {
  model: string;
  usage: { input_tokens: number | null; output_tokens: number | null };
  answers: Record<string, NamedAnswer>;
  policy: PolicyReportJson;
}

const namedZ = { name: z.string() };
const outputSchema = z
  .object({
    model: z.string(),
    usage: usageZ,
    answers: z.record(
      z.string(),
      z.union([
        z.object({ ...namedZ, type: z.literal('noul'), ...noulFieldsZ }).strict(),
        z.object({ ...namedZ, type: z.literal('choice'), ...choiceFieldsZ }).strict(),
        z.object({ ...namedZ, type: z.literal('score'), ...scoreFieldsZ }).strict(),
      ]),
    ),
    policy: z
      .object({
        result: z.enum(['pass', 'fail']),
        rules: z.array(z.object({ question: z.string(), pass: z.boolean(), detail: z.string() }).strict()),
      })
      .strict(),
  })
  .strict();

// ---- input schema pieces ----
const CONFIDENCE_JSON = {
  type: 'object',
  description: 'Minimum confidence, inclusive.',
  properties: { min: { type: 'number', minimum: 0, maximum: 1, description: 'Lowest accepted confidence in [0,1].' } },
  required: ['min'],
  additionalProperties: false,
};
const rangeJson = (what: string, max?: number) => ({
  type: 'object',
  description: `Inclusive bounds on ${what}; at least one of min and max.`,
  properties: {
    min: { type: 'number', minimum: 0, ...(max === undefined ? {} : { maximum: max }), description: 'Lowest accepted value.' },
    max: { type: 'number', minimum: 0, ...(max === undefined ? {} : { maximum: max }), description: 'Highest accepted value.' },
  },
  minProperties: 1,
  additionalProperties: false,
});
const LEVEL_JSON = {
  type: 'object',
  description: 'Exact match on the highest-probability level; excludes min and max.',
  properties: { level: { type: 'integer', minimum: 0, description: 'Level index the answer must peak at (0 = lowest, at most the top level index).' } },
  required: ['level'],
  additionalProperties: false,
};
const QUESTION_JSON = {
  type: 'object',
  description: 'One question. choice needs a non-empty criteria object, score a non-empty criteria array (lowest level first).',
  properties: {
    type: { type: 'string', enum: ['noul', 'choice', 'score'], description: 'Question type.' },
    instructions: { description: 'The question text (usually a string).' },
    criteria: { description: 'noul: optional {"true": …, "false": …}; choice: label → description; score: level descriptions, lowest first.' },
  },
  required: ['type'],
  additionalProperties: false,
  allOf: [
    {
      if: { properties: { type: { const: 'choice' } }, required: ['type'] },
      then: { required: ['criteria'], properties: { criteria: { type: 'object', minProperties: 1 } } },
    },
    {
      if: { properties: { type: { const: 'score' } }, required: ['type'] },
      then: { required: ['criteria'], properties: { criteria: { type: 'array', minItems: 1, items: { description: 'A level description, lowest level first (passed through unchanged).' } } } },
    },
  ],
};
const PASS_JSON = {
  description: 'The predicate a rule requires: exactly one of noul, choice or score.',
  anyOf: [
    {
      type: 'object',
      properties: { noul: rangeJson('P(true)', 1) },
      required: ['noul'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { choice: { type: 'string', description: 'The label the answer must choose.' }, confidence: CONFIDENCE_JSON },
      required: ['choice'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        score: {
          description: 'Bounds on the expected level, or {"level": n} for the highest-probability level.',
          anyOf: [rangeJson('the expected level (0 = lowest, at most the top level index)'), LEVEL_JSON],
        },
        confidence: CONFIDENCE_JSON,
      },
      required: ['score'],
      additionalProperties: false,
    },
  ],
};
const POLICY_JSON = {
  type: 'object',
  description:
    'Acceptance policy: every rule must pass. Bounds are inclusive; a score rule may instead require the ' +
    'highest-probability level, {"score":{"level":1}}. Example: {"rules":[{"question":"clear","pass":{"noul":{"min":0.8}}}]}',
  properties: {
    rules: {
      type: 'array',
      minItems: 1,
      description: 'Rules in evaluation order, at most one per question.',
      items: {
        type: 'object',
        properties: { question: { type: 'string', minLength: 1, description: 'Question id the rule checks.' }, pass: PASS_JSON },
        required: ['question', 'pass'],
        additionalProperties: false,
      },
    },
  },
  required: ['rules'],
  additionalProperties: false,
};

const ANSWER_NAME_JSON = { type: 'string', description: 'Question id.' };
const ANSWERS_JSON = {
  type: 'object',
  description: 'Question id → answer, in answer order.',
  additionalProperties: {
    anyOf: [
      {
        type: 'object',
        description: 'Yes/no answer.',
        properties: {
          name: ANSWER_NAME_JSON,
          type: { const: 'noul', description: 'Answer type.' },
          noul: { ...PROBABILITY_JSON, description: 'Probability in [0,1] that the proposition is true.' },
        },
        required: ['name', 'type', 'noul'],
        additionalProperties: false,
      },
      {
        type: 'object',
        description: 'Multiple-choice answer.',
        properties: {
          name: ANSWER_NAME_JSON,
          type: { const: 'choice', description: 'Answer type.' },
          choice: { type: 'string', description: 'The chosen label.' },
          confidence: { ...PROBABILITY_JSON, description: 'Provider-reported confidence in [0,1].' },
          probabilities: LABEL_PROBABILITIES_JSON,
        },
        required: ['name', 'type', 'choice', 'confidence', 'probabilities'],
        additionalProperties: false,
      },
      {
        type: 'object',
        description: 'Scored answer.',
        properties: {
          name: ANSWER_NAME_JSON,
          type: { const: 'score', description: 'Answer type.' },
          score: { type: 'number', description: 'Probability-weighted expected level; 0 is the lowest level.' },
          confidence: { ...PROBABILITY_JSON, description: 'Provider-reported confidence in [0,1].' },
          legend: LEGEND_JSON,
          probabilities: LEVEL_PROBABILITIES_JSON,
        },
        required: ['name', 'type', 'score', 'confidence', 'legend', 'probabilities'],
        additionalProperties: false,
      },
    ],
  },
};

function namedAnswer(name: string, answer: Answer): NamedAnswer {
  switch (answer.type) {
    case 'noul':
      return { name, type: 'noul', noul: answer.noul };
    case 'choice':
      return { name, type: 'choice', choice: answer.choice, confidence: answer.confidence, probabilities: { ...answer.probabilities } };
    case 'score':
      return { name, type: 'score', score: answer.score, confidence: answer.confidence, legend: { ...answer.legend }, probabilities: { ...answer.probabilities } };
  }
}

/**
 * evaluate_policy: several keyed questions about one state, one provider call, then
 * strict evaluation of the policy. Handler order: argument shape → state → questions → policy
 * grammar (PolicyDefinitionError → INVALID_INPUT with its text) → evidence routing — all before
 * dispatch — then judge, then evaluate (PolicyAnswerError → INVALID_RESPONSE `Question "<id>": <text>`).
 * An unmet policy is a successful result with `policy.result: "fail"`.
 */
export const evaluatePolicyTool: ToolDefinition<EvaluatePolicyInput, EvaluatePolicyResult> = {
  name: 'evaluate_policy',
  title: 'Evaluate a judgment policy',
  description:
    'Ask several keyed questions about one state in one call and check the answers against an acceptance policy. ' +
    'Each choice question needs a non-empty criteria object and each score question a non-empty criteria array; the ' +
    'ask-tool defaults do not apply. An unmet policy is a normal result with policy.result "fail", not an error.',
  family: 'judgevet',
  annotations: { ...JUDGEVET_ANNOTATIONS },
  inputJsonSchema: {
    type: 'object',
    properties: {
      state: {
        type: ['string', 'object', 'array'],
        items: { description: 'Any JSON value.' },
        description: 'What to judge: text, a JSON object or an array. It is sent to the configured judgment provider; send no secrets. A state over the request budget (32 000 estimated tokens with the longest question, 64 000 with all questions) is refused, never cut.',
      },
      questions: {
        type: 'object',
        minProperties: 1,
        description: 'Question id → question.',
        additionalProperties: QUESTION_JSON,
      },
      policy: POLICY_JSON,
      evidence: {
        type: 'string',
        description:
          'Optional image evidence as JSON text {"images":[{id,data_base64,media_type}],"by_question":{id:[image ids]},"required"?:[ids]}. ' +
          'Empty evidence keeps the text route; this server has no image-capable provider.',
      },
    },
    required: ['state', 'questions', 'policy'],
    additionalProperties: false,
  },
  outputJsonSchema: {
    type: 'object',
    description: 'Answers to the keyed questions and the policy verdict.',
    properties: {
      model: MODEL_JSON,
      usage: USAGE_JSON,
      answers: ANSWERS_JSON,
      policy: {
        type: 'object',
        description: 'Policy verdict: pass only when every rule passed.',
        properties: {
          result: { type: 'string', enum: ['pass', 'fail'], description: 'pass when every rule passed, else fail.' },
          rules: {
            type: 'array',
            description: 'One entry per rule, in policy order.',
            items: {
              type: 'object',
              properties: {
                question: { type: 'string', description: 'Question id the rule checked.' },
                pass: { type: 'boolean', description: 'Whether the rule passed.' },
                detail: { type: 'string', description: 'The comparison made, e.g. "noul 0.9 >= 0.8 -> pass".' },
              },
              required: ['question', 'pass', 'detail'],
              additionalProperties: false,
            },
          },
        },
        required: ['result', 'rules'],
        additionalProperties: false,
      },
    },
    required: ['model', 'usage', 'answers', 'policy'],
    additionalProperties: false,
  },
  outputSchema,
  parse(args) {
    const checked = checkPolicyToolArgs(args);
    let validated: ValidatedPolicy;
    try {
      // Over MCP the policy arrives decoded, so duplicate keys were already merged by the JSON decoder.
      validated = validatePolicyValue(checked.policy, checked.questions);
    } catch (err) {
      if (err instanceof PolicyDefinitionError) throw new JevError('INVALID_INPUT', err.message);
      throw err;
    }
    if (checked.hasEvidence) routeEvidence(checked.evidence, Object.keys(checked.questions));
    return { ...checked, validated };
  },
  async execute(input, ctx) {
    // instructions/criteria pass through as the caller wrote them; the wire accepts any JSON there.
    const questions = input.questions as unknown as QuestionMap;
    const response = await judgeWhole(ctx, input.state, questions);
    let report;
    try {
      report = evaluatePolicy(input.validated, response.answers);
    } catch (err) {
      if (err instanceof PolicyAnswerError) throw new JevError('INVALID_RESPONSE', `Question ${quoted(err.question)}: ${err.message}`);
      throw err;
    }
    const answers: Record<string, NamedAnswer> = {};
    for (const [name, answer] of Object.entries(response.answers)) answers[name] = namedAnswer(name, answer);
    return { model: response.model, usage: usageOut(response.usage), answers, policy: reportToJson(report) };
  },
};
