/**
 * Reads a `*.jev.json` request file the way `jevcp step` does (`{"tool": NAME, ...tool input}`, tool
 * defaulting to jev_step) and keeps the location of every value for the inline surfaces. No `vscode` import.
 */
import { locateJson, type JsonNode } from './json-locate';
import { DEFAULT_REQUEST_TOOL } from './request-schema';

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
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: 'A request file must be a JSON object ({"tool": …, …tool input}).', root };
  }
  const { tool, ...input } = value as Record<string, unknown>;
  if (tool !== undefined && (typeof tool !== 'string' || tool.trim() === '')) {
    return { ok: false, reason: 'tool: must be a tool name such as "jev_step".', root };
  }
  const name = (tool as string | undefined) ?? DEFAULT_REQUEST_TOOL;
  if (knownTools && !knownTools.includes(name)) {
    return { ok: false, reason: `tool: unknown tool ${JSON.stringify(name)}; known tools: ${knownTools.join(', ')}.`, root };
  }
  return { ok: true, tool: name, input, root };
}
