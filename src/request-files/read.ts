/**
 * Reading `*.jev.json` request files (`{"tool": NAME, ...tool input}`, tool defaulting to jev_step): one set
 * of rules for `jevcp step` (`splitRequestFile`) and the editor's inline surfaces (`readRequestFile`, which
 * also keeps the location of every value).
 */
import { invalidInput } from '../judgment/errors';
import { locateJson, type JsonNode } from './json-locate';

/** Tool a request file without `tool` runs. */
export const DEFAULT_REQUEST_TOOL = 'jev_step';

/** The tool name and input of a parsed request file, or why it cannot run (naming the field and the rule). */
function splitValue(value: unknown): { tool: string; input: Record<string, unknown> } | { reason: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { reason: 'a request file must be a JSON object ({"tool": …, …tool input}).' };
  }
  const { tool, ...input } = value as Record<string, unknown>;
  if (tool !== undefined && (typeof tool !== 'string' || tool.trim() === '')) return { reason: 'tool: must be a tool name such as "jev_step".' };
  return { tool: (tool as string | undefined) ?? DEFAULT_REQUEST_TOOL, input };
}

/**
 * Splits the parsed JSON of a request file into its tool name and the tool input. Throws JevError
 * INVALID_INPUT (`<label>: <rule>`) when the value is not an object or `tool` is not a non-blank string.
 */
export function splitRequestFile(value: unknown, label: string): { tool: string; input: Record<string, unknown> } {
  const split = splitValue(value);
  if ('reason' in split) throw invalidInput(`${label}: ${split.reason}`);
  return split;
}

/** A request file that can be run. */
export interface RequestFile {
  ok: true;
  tool: string;
  /** The tool arguments: every member but `tool`. */
  input: Record<string, unknown>;
  root: JsonNode;
}

/** A request file that cannot be run, and why (one sentence naming the field and the rule). */
export interface BadRequestFile {
  ok: false;
  reason: string;
  /** Located JSON when the text parsed (the lens still sits on the top object). */
  root?: JsonNode;
}

/**
 * Parses request-file text. Not JSON → `{ok:false}`; not an object, or `tool` not a non-blank string →
 * `{ok:false}` naming the rule; `tool` not in `knownTools` (when known) → `{ok:false}` listing them. The input is not
 * validated here: the tool's parser does that when it runs (and the JSON schema shows it while typing).
 */
export function readRequestFile(text: string, knownTools?: readonly string[]): RequestFile | BadRequestFile {
  const located = locateJson(text);
  if (!located) return { ok: false, reason: 'The file is not valid JSON; fix the problems the editor marks.' };
  const { value, root } = located;
  const split = splitValue(value);
  if ('reason' in split) return { ok: false, reason: split.reason, root };
  const { tool: name, input } = split;
  if (knownTools && !knownTools.includes(name)) {
    return { ok: false, reason: `tool: unknown tool ${JSON.stringify(name)}; known tools: ${knownTools.join(', ')}.`, root };
  }
  return { ok: true, tool: name, input, root };
}
