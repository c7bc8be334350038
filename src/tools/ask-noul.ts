import { z } from 'zod';
import type { NoulQuestion } from '../judgment/types';
import {
  answerOf,
  checkAskArgs,
  INSTRUCTION_JSON,
  JUDGEVET_ANNOTATIONS,
  MODEL_JSON,
  noulFieldsZ,
  PROBABILITY_JSON,
  STATE_JSON_ASK,
  USAGE_JSON,
  usageOut,
  usageZ,
  type AskArgs,
} from './judgevet-args';
import { judgeWhole } from './judgevet-judge';
import type { ToolDefinition } from './types';

/** Internal question name of ask_noul. */
export const NOUL_QUESTION = 'noul_question';

/** Structured result of ask_noul, keys in this order: P(true) in [0,1], resolved model, usage (tokens). */
export interface AskNoulResult {
  noul: number;
  model: string;
  usage: { input_tokens: number | null; output_tokens: number | null };
}

const outputSchema = z.object({ ...noulFieldsZ, model: z.string(), usage: usageZ }).strict();

/**
 * ask_noul: one yes/no question `noul_question` about a string or object state;
 * the model is host-selected. Argument errors (exact texts, before any provider call) come from
 * checkAskArgs; provider errors pass through unchanged (e.g. the spend-cap text).
 */
export const askNoulTool: ToolDefinition<AskArgs, AskNoulResult> = {
  name: 'ask_noul',
  title: 'Ask a yes/no judgment',
  description:
    'Ask one yes/no question about a state. Returns noul, the probability in [0,1] that the proposition in the ' +
    'instruction is true, with the model that answered and token usage. A probability is not measured accuracy.',
  family: 'judgevet',
  annotations: { ...JUDGEVET_ANNOTATIONS },
  inputJsonSchema: {
    type: 'object',
    properties: { state: STATE_JSON_ASK, instruction: INSTRUCTION_JSON },
    required: ['state', 'instruction'],
    additionalProperties: false,
  },
  outputJsonSchema: {
    type: 'object',
    description: 'Answer to one yes/no judgment.',
    properties: {
      noul: { ...PROBABILITY_JSON, description: 'Probability in [0,1] that the proposition is true.' },
      model: MODEL_JSON,
      usage: USAGE_JSON,
    },
    required: ['noul', 'model', 'usage'],
    additionalProperties: false,
  },
  outputSchema,
  parse: (args) => checkAskArgs('noul', args),
  async execute(input, ctx) {
    const question: NoulQuestion = { type: 'noul', instructions: input.instruction };
    const response = await judgeWhole(ctx, input.state, { [NOUL_QUESTION]: question });
    const answer = answerOf(response, NOUL_QUESTION, 'noul');
    return { noul: answer.noul, model: response.model, usage: usageOut(response.usage) };
  },
};
