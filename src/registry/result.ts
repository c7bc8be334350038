import { jsonProblem } from '../tools/candidates';
import { formatPath } from '../tools/schemas';
import { ToolCallError } from './errors';

/**
 * Turns an MCP CallToolResult into the registry's result: a plain JSON object. Both field
 * spellings (`isError`/`is_error`, `structuredContent`/`structured_content`) are read, so an SDK change
 * cannot silently turn tool errors into results, and the shape is checked.
 */

interface ContentBlock {
  type?: unknown;
  text?: unknown;
}

function firstText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  for (const block of content as ContentBlock[]) {
    if (block && typeof block.text === 'string' && block.text !== '') return block.text;
  }
  return undefined;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Maps a raw result for tool `id`:
 * 1. `isError` (or `is_error`) → throws ToolCallError `tool_error` with the first text block;
 * 2. `structuredContent` (or `structured_content`) that is an object → that object;
 * 3. exactly one text block: JSON object → as is; other JSON → `{result: value}`; not JSON → `{text}`;
 * 4. no content → `{}`; any other content (images, several blocks) → `{content: [...]}`.
 */
export function mapCallResult(id: string, raw: unknown, server?: string): Record<string, unknown> {
  if (!isPlainObject(raw)) throw new ToolCallError('invalid_result', id, `${id} returned a result that is not an object.`, server);
  if (raw.isError === true || raw.is_error === true) {
    const text = firstText(raw.content);
    throw new ToolCallError('tool_error', id, `${id} reported an error: ${text ? text.slice(0, 2_000) : 'no details given'}`, server);
  }
  const structured = raw.structuredContent ?? raw.structured_content;
  if (isPlainObject(structured)) return checkJsonObject(id, structured, server);
  const content = Array.isArray(raw.content) ? (raw.content as ContentBlock[]) : [];
  if (content.length === 0) return {};
  if (content.length === 1 && content[0]?.type === 'text' && typeof content[0].text === 'string') {
    const text = content[0].text;
    // Most plain-text results are not JSON: skip the parse (and its exception) when they cannot be.
    if (!/^\s*[{["\d\-tfn]/.test(text)) return { text };
    try {
      const parsed: unknown = JSON.parse(text);
      return isPlainObject(parsed) ? parsed : { result: parsed };
    } catch {
      return { text };
    }
  }
  return checkJsonObject(id, { content }, server);
}

/**
 * Returns `value` when it is a plain JSON object (no undefined, functions, NaN, class instances…);
 * otherwise throws ToolCallError `invalid_result` naming the path.
 */
export function checkJsonObject(id: string, value: unknown, server?: string): Record<string, unknown> {
  if (!isPlainObject(value)) {
    throw new ToolCallError('invalid_result', id, `${id} returned ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}; tool results must be JSON objects.`, server);
  }
  const problem = jsonProblem(value);
  if (problem) {
    throw new ToolCallError('invalid_result', id, `${id} returned a result that is not plain JSON at result${problem.path.length ? formatPath(problem.path).replace(/^(?!\[)/, '.') : ''}: ${problem.rule}.`, server);
  }
  return value;
}
