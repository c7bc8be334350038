import { z } from 'zod';
import { JevError } from '../judgment/errors';
import type { ToolDefinition } from './types';

// Placeholder until the tool is implemented.
export const askNoulTool: ToolDefinition = {
  name: 'ask_noul',
  title: 'ask_noul',
  description: 'Not implemented yet.',
  family: 'judgevet',
  annotations: {},
  inputJsonSchema: { type: 'object' },
  outputJsonSchema: { type: 'object' },
  outputSchema: z.any(),
  parse: (args) => args,
  execute: async () => {
    throw new JevError('CONFIG_ERROR', 'ask_noul is not implemented yet.');
  },
};
