import { z } from 'zod';
import { JevError } from '../judgment/errors';
import type { ToolDefinition } from './types';

// Placeholder until the tool is implemented.
export const evaluatePolicyTool: ToolDefinition = {
  name: 'evaluate_policy',
  title: 'evaluate_policy',
  description: 'Not implemented yet.',
  family: 'judgevet',
  annotations: {},
  inputJsonSchema: { type: 'object' },
  outputJsonSchema: { type: 'object' },
  outputSchema: z.any(),
  parse: (args) => args,
  execute: async () => {
    throw new JevError('CONFIG_ERROR', 'evaluate_policy is not implemented yet.');
  },
};
