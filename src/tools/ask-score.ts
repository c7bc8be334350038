import { z } from 'zod';
import { JevError } from '../judgment/errors';
import type { ToolDefinition } from './types';

// Placeholder until the tool is implemented.
export const askScoreTool: ToolDefinition = {
  name: 'ask_score',
  title: 'ask_score',
  description: 'Not implemented yet.',
  family: 'judgevet',
  annotations: {},
  inputJsonSchema: { type: 'object' },
  outputJsonSchema: { type: 'object' },
  outputSchema: z.any(),
  parse: (args) => args,
  execute: async () => {
    throw new JevError('CONFIG_ERROR', 'ask_score is not implemented yet.');
  },
};
