import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { JevError } from '../judgment/errors';
import type { CallOutcome } from '../tools/judgment-service';
import type { ToolFamily } from '../tools/types';

/**
 * Success envelope: one text block with the result as 2-space JSON and the same
 * payload as `structuredContent`. The structured copy is re-parsed from the text, so the two are equal
 * by construction on every transport (in-process ones included). A result that is not a JSON object
 * cannot be structured content and becomes an INVALID_RESPONSE failure instead.
 */
export function successResult(result: unknown, family: ToolFamily): CallToolResult {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) {
    return failureResult(new JevError('INVALID_RESPONSE', 'The tool result was not a JSON object.'), family);
  }
  const text = JSON.stringify(result, null, 2);
  return { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) as Record<string, unknown> };
}

/**
 * Failure envelope: `isError: true`, one text block, never `structuredContent` (so clients do not check an
 * error against the success schema). jev tools: `{"error":{code,message,retryable}}` JSON text;
 * judgevet tools: the message as plain text.
 */
export function failureResult(error: JevError, family: ToolFamily): CallToolResult {
  const text = family === 'judgevet' ? error.message : JSON.stringify({ error: error.toJSON() });
  return { isError: true, content: [{ type: 'text', text }] };
}

/** Maps a JudgmentService outcome to the MCP result of its tool's family. */
export function toCallToolResult(outcome: CallOutcome, family: ToolFamily): CallToolResult {
  return outcome.ok ? successResult(outcome.result, family) : failureResult(outcome.error, family);
}
