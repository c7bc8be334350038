import { z } from 'zod';
import type { ScoreQuestion } from '../judgment/types';
import {
  answerOf,
  checkAskArgs,
  INSTRUCTION_JSON,
  JUDGEVET_ANNOTATIONS,
  LEGEND_JSON,
  LEVEL_PROBABILITIES_JSON,
  MODEL_JSON,
  PROBABILITY_JSON,
  scoreFieldsZ,
  STATE_JSON_ASK,
  USAGE_JSON,
  usageOut,
  usageZ,
  type AskArgs,
} from './judgevet-args';
import { judgeWhole } from './judgevet-judge';
import type { ToolDefinition } from './types';

/** Internal question name of ask_score. */
export const SCORE_QUESTION = 'score_question';

/** Generic quality rubric applied when the call omits criteria, lowest first. */
export const DEFAULT_SCORE_CRITERIA: readonly string[] = Object.freeze(['Poor', 'Fair', 'Good', 'Excellent']);

/**
 * Structured result of ask_score, keys in this order (differs from the schema's `required` order).
 * `score` is the expected level (0 = lowest); `default_criteria` is true only when criteria was omitted.
 */
export interface AskScoreResult {
  score: number;
  legend: Record<string, string>;
  probabilities: Record<string, number>;
  confidence: number;
  default_criteria: boolean;
  model: string;
  usage: { input_tokens: number | null; output_tokens: number | null };
}

const outputSchema = z.object({ ...scoreFieldsZ, default_criteria: z.boolean(), model: z.string(), usage: usageZ }).strict();

/**
 * ask_score: one ordered-level question `score_question`; criteria lists level
 * descriptions lowest first, default `["Poor","Fair","Good","Excellent"]` (then default_criteria is
 * true — also false when a caller passes a list equal to the default).
 */
export const askScoreTool: ToolDefinition<AskArgs, AskScoreResult> = {
  name: 'ask_score',
  title: 'Ask a scored judgment',
  description:
    'Place a state on ordered levels. criteria lists level descriptions lowest first and should describe the ' +
    'property the instruction asks about, e.g. ["Not urgent","Low","Medium","High","Critical"] for urgency. Without ' +
    'criteria the generic quality rubric ["Poor","Fair","Good","Excellent"] applies and default_criteria is true. ' +
    'Returns the expected level (0 = lowest), confidence, per-level probabilities and the legend.',
  family: 'judgevet',
  annotations: { ...JUDGEVET_ANNOTATIONS },
  inputJsonSchema: {
    type: 'object',
    properties: {
      state: STATE_JSON_ASK,
      instruction: INSTRUCTION_JSON,
      criteria: {
        type: 'array',
        minItems: 1,
        items: { type: 'string', minLength: 1 },
        description: 'Level descriptions, lowest first. Omit for the generic rubric ["Poor","Fair","Good","Excellent"].',
      },
    },
    required: ['state', 'instruction'],
    additionalProperties: false,
  },
  outputJsonSchema: {
    type: 'object',
    description: 'Answer to one scored judgment.',
    properties: {
      score: { type: 'number', description: 'Probability-weighted expected level; 0 is the lowest level.' },
      legend: LEGEND_JSON,
      probabilities: LEVEL_PROBABILITIES_JSON,
      confidence: { ...PROBABILITY_JSON, description: 'Provider-reported confidence in [0,1] (not measured accuracy).' },
      default_criteria: { type: 'boolean', description: 'True when criteria was omitted and the generic rubric was applied.' },
      model: MODEL_JSON,
      usage: USAGE_JSON,
    },
    required: ['score', 'confidence', 'legend', 'probabilities', 'default_criteria', 'model', 'usage'],
    additionalProperties: false,
  },
  outputSchema,
  parse: (args) => checkAskArgs('score', args),
  async execute(input, ctx) {
    const supplied = input.criteria as string[] | undefined;
    const question: ScoreQuestion = { type: 'score', instructions: input.instruction, criteria: supplied ?? [...DEFAULT_SCORE_CRITERIA] };
    const response = await judgeWhole(ctx, input.state, { [SCORE_QUESTION]: question });
    const answer = answerOf(response, SCORE_QUESTION, 'score');
    return {
      score: answer.score,
      legend: { ...answer.legend },
      probabilities: { ...answer.probabilities },
      confidence: answer.confidence,
      default_criteria: supplied === undefined,
      model: response.model,
      usage: usageOut(response.usage),
    };
  },
};
