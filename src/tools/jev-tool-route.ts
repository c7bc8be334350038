import { z } from 'zod';
import { JevError } from '../judgment/errors';
import type { ToolDefinition } from './types';

// Placeholder until the tool is implemented.
export const jevToolRouteTool: ToolDefinition = {
  name: 'jev_tool_route',
  title: 'jev_tool_route',
  description: 'Not implemented yet.',
  family: 'jev',
  annotations: {},
  inputJsonSchema: { type: 'object' },
  outputJsonSchema: { type: 'object' },
  outputSchema: z.any(),
  parse: (args) => args,
  execute: async () => {
    throw new JevError('CONFIG_ERROR', 'jev_tool_route is not implemented yet.');
  },
};
