import { z } from 'zod';
import { JevError } from '../judgment/errors';
import type { ToolDefinition } from './types';

// Placeholder until the tool is implemented.
export const jevCodingLoopTool: ToolDefinition = {
  name: 'jev_coding_loop',
  title: 'jev_coding_loop',
  description: 'Not implemented yet.',
  family: 'jev',
  annotations: {},
  inputJsonSchema: { type: 'object' },
  outputJsonSchema: { type: 'object' },
  outputSchema: z.any(),
  parse: (args) => args,
  execute: async () => {
    throw new JevError('CONFIG_ERROR', 'jev_coding_loop is not implemented yet.');
  },
};
