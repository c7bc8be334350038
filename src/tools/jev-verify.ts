import { z } from 'zod';
import { JevError } from '../judgment/errors';
import type { ToolDefinition } from './types';

// Placeholder until the tool is implemented.
export const jevVerifyTool: ToolDefinition = {
  name: 'jev_verify',
  title: 'jev_verify',
  description: 'Not implemented yet.',
  family: 'jev',
  annotations: {},
  inputJsonSchema: { type: 'object' },
  outputJsonSchema: { type: 'object' },
  outputSchema: z.any(),
  parse: (args) => args,
  execute: async () => {
    throw new JevError('CONFIG_ERROR', 'jev_verify is not implemented yet.');
  },
};
