import { z } from 'zod';
import type { ChoiceQuestion } from '../judgment/types';
import {
  answerOf,
  checkAskArgs,
  choiceFieldsZ,
  INSTRUCTION_JSON,
  JUDGEVET_ANNOTATIONS,
  LABEL_PROBABILITIES_JSON,
  MODEL_JSON,
  PROBABILITY_JSON,
  STATE_JSON_ASK,
  USAGE_JSON,
  usageOut,
  usageZ,
  type AskArgs,
} from './judgevet-args';
import { judgeWhole } from './judgevet-judge';
import type { ToolDefinition } from './types';

/** Internal question name of ask_choice. */
export const CHOICE_QUESTION = 'choice_question';

/** Criteria applied when the call omits them. */
export const DEFAULT_CHOICE_CRITERIA: Readonly<Record<string, string>> = Object.freeze({ yes: 'Yes', no: 'No' });

/** Structured result of ask_choice, keys in this order. Confidence and probabilities in [0,1]. */
export interface AskChoiceResult {
  choice: string;
  confidence: number;
  probabilities: Record<string, number>;
  model: string;
  usage: { input_tokens: number | null; output_tokens: number | null };
}

const outputSchema = z.object({ ...choiceFieldsZ, model: z.string(), usage: usageZ }).strict();

/**
 * ask_choice: one multiple-choice question `choice_question`; criteria maps
 * label → description (string or null), default `{"yes":"Yes","no":"No"}`. The provider's answer is
 * validated to choose among the offered labels before it is returned.
 */
export const askChoiceTool: ToolDefinition<AskArgs, AskChoiceResult> = {
  name: 'ask_choice',
  title: 'Ask a multiple-choice judgment',
  description:
    'Ask one multiple-choice question about a state. criteria maps each label to a plain description of when it ' +
    'applies (default {"yes":"Yes","no":"No"}). Returns the chosen label, its confidence and the probability of every ' +
    'label, with the model that answered and token usage.',
  family: 'judgevet',
  annotations: { ...JUDGEVET_ANNOTATIONS },
  inputJsonSchema: {
    type: 'object',
    properties: {
      state: STATE_JSON_ASK,
      instruction: INSTRUCTION_JSON,
      criteria: {
        type: 'object',
        minProperties: 1,
        propertyNames: { minLength: 1 },
        additionalProperties: { type: ['string', 'null'] },
        description: 'Label → description of when that label applies. Omit for {"yes":"Yes","no":"No"}.',
      },
    },
    required: ['state', 'instruction'],
    additionalProperties: false,
  },
  outputJsonSchema: {
    type: 'object',
    description: 'Answer to one multiple-choice judgment.',
    properties: {
      choice: { type: 'string', description: 'The chosen label, one of the criteria labels.' },
      confidence: { ...PROBABILITY_JSON, description: 'Provider-reported confidence in [0,1] (not measured accuracy).' },
      probabilities: LABEL_PROBABILITIES_JSON,
      model: MODEL_JSON,
      usage: USAGE_JSON,
    },
    required: ['choice', 'confidence', 'probabilities', 'model', 'usage'],
    additionalProperties: false,
  },
  outputSchema,
  parse: (args) => checkAskArgs('choice', args),
  async execute(input, ctx) {
    const criteria = (input.criteria as Record<string, string | null> | undefined) ?? { ...DEFAULT_CHOICE_CRITERIA };
    const question: ChoiceQuestion = { type: 'choice', instructions: input.instruction, criteria };
    const response = await judgeWhole(ctx, input.state, { [CHOICE_QUESTION]: question });
    const answer = answerOf(response, CHOICE_QUESTION, 'choice');
    return {
      choice: answer.choice,
      confidence: answer.confidence,
      probabilities: { ...answer.probabilities },
      model: response.model,
      usage: usageOut(response.usage),
    };
  },
};
