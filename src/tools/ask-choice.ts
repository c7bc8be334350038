import { z } from 'zod';
import { JevError } from '../judgment/errors';
import type { ToolDefinition } from './types';

// Placeholder until the tool is implemented.
export const askChoiceTool: ToolDefinition = {
  name: 'ask_choice',
  title: 'ask_choice',
  description: 'Not implemented yet.',
  family: 'judgevet',
  annotations: {},
  inputJsonSchema: { type: 'object' },
  outputJsonSchema: { type: 'object' },
  outputSchema: z.any(),
  parse: (args) => args,
  execute: async () => {
    throw new JevError('CONFIG_ERROR', 'ask_choice is not implemented yet.');
  },
};
