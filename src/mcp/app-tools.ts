/**
 * App-only tools: tools a gateway session lists for the MCP Apps view (the decision card) and not for the model
 * (`_meta.ui.visibility: ["app"]`). VS Code's app host lets a view call a tool of its own server this way, while
 * it refuses `ui/open-link` for any URI but http(s); that is how the card's "Open in Jev panel" reaches the
 * editor. They are listed only to a client that announced the MCP Apps extension (one that does not would hand
 * them to its model), are not judgment tools, need no grant, and only open views: nothing is executed, granted
 * or approved through them.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';

/** Name of the tool that opens one decision in the Jev panel. */
export const OPEN_DECISION_TOOL = 'jev_open_decision';

/** A decision id as the ledger writes it. */
const DECISION_ID = /^[A-Za-z0-9-]{1,64}$/;

/** One app-only tool: its listing and its handler. */
export interface AppTool {
  listing: Tool;
  /** Runs the call; bad arguments give an `isError` result naming the field, never a throw. */
  call(args: Record<string, unknown>): Promise<CallToolResult>;
}

/**
 * `jev_open_decision {id}`: opens decision `id` in the Jev panel through `open` (the editor's
 * `jevPanel.openDecision`). An id that is not a decision id is an error result naming the field.
 */
export function openDecisionTool(open: (id: string) => Promise<void>): AppTool {
  return {
    listing: {
      name: OPEN_DECISION_TOOL,
      title: 'Open a decision in the Jev panel',
      description: 'Opens one recorded Jev decision in the editor’s Jev panel. Called by the decision card, not by the model.',
      inputSchema: {
        type: 'object',
        properties: { id: { type: 'string', description: 'Decision id (letters, digits and "-", at most 64).' } },
        required: ['id'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      _meta: { ui: { visibility: ['app'] } },
    },
    async call(args) {
      const id = args.id;
      if (typeof id !== 'string' || !DECISION_ID.test(id)) {
        return { isError: true, content: [{ type: 'text', text: 'jev_open_decision: "id" must be a decision id (letters, digits and "-", at most 64 characters).' }] };
      }
      await open(id);
      return { content: [{ type: 'text', text: `Opened decision ${id} in the Jev panel.` }] };
    },
  };
}
