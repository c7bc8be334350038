/**
 * Stand-in for src/tools/jev-evaluate.ts in the MCP Apps card bundle only (scripts/build.mjs). The card
 * never shows or replays a jev_evaluate result (it is not one of CARD_TOOLS in src/mcp/app-card.ts), and
 * leaving its code out keeps the card's HTML under its size goal. Any call refuses, naming the tool.
 */
import { z } from 'zod';
import type { ToolDefinition } from '../../src/tools/types';

function refuse(): never {
  throw new Error('jev_evaluate is not part of the decision card; recompute it in the Jev panel.');
}

/** Same name and family as the real tool, so the panel's what-if tool list keeps its shape. */
export const jevEvaluateTool: ToolDefinition<never, never> = {
  name: 'jev_evaluate',
  title: 'jev_evaluate',
  description: 'Not available in the decision card.',
  family: 'jev',
  annotations: {},
  inputJsonSchema: {},
  outputJsonSchema: {},
  outputSchema: z.unknown() as never,
  parse: refuse,
  execute: () => Promise.reject(new Error('jev_evaluate is not part of the decision card.')),
};
