/**
 * The JSON schema of `*.jev.json` request files: a jev tool's
 * input plus a `tool` field naming the tool (default `jev_step`, as `jevcp step` reads it). Built from each
 * tool's own input JSON schema, so the editor validates and completes exactly what the tool's parser
 * accepts. `scripts/build.mjs` writes it to `dist/request-schema.json`, which `contributes.jsonValidation`
 * points at.
 */
import type { ToolDefinition } from '../tools/types';
import { DEFAULT_REQUEST_TOOL } from './read';

/** File name of the emitted schema inside `dist/`. */
export const REQUEST_SCHEMA_FILE = 'request-schema.json';

/** What the schema needs from a tool. */
export type SchemaTool = Pick<ToolDefinition, 'name' | 'title' | 'description' | 'inputJsonSchema'>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `tool`'s input schema with the `tool` member added (its schemas are closed: additionalProperties false). */
function branch(tool: SchemaTool): Record<string, unknown> {
  const input = structuredClone(tool.inputJsonSchema);
  const properties = isObject(input.properties) ? input.properties : {};
  return {
    ...input,
    properties: {
      tool: { const: tool.name, markdownDescription: `**${tool.title}** — ${tool.description}` },
      ...properties,
    },
  };
}

/**
 * The request-file schema (JSON Schema draft-07, which the editor's JSON service implements fully; the
 * tools' schemas use only keywords draft-07 shares with 2020-12). `tool` is an enum of the tool names; one
 * `if`/`then` per tool applies that tool's input schema, and a file without `tool` gets `defaultTool`'s.
 * Throws Error when `defaultTool` is not among `tools` or a tool name repeats.
 */
export function requestFileSchema(tools: readonly SchemaTool[], defaultTool = DEFAULT_REQUEST_TOOL): Record<string, unknown> {
  const names = tools.map((t) => t.name);
  if (new Set(names).size !== names.length) throw new Error(`request schema: tool names repeat (${names.join(', ')})`);
  const fallback = tools.find((t) => t.name === defaultTool);
  if (!fallback) throw new Error(`request schema: the default tool ${JSON.stringify(defaultTool)} is not among the tools`);
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Jev request file (*.jev.json)',
    description: `A jev tool's input plus "tool" (default ${defaultTool}). Run it with the "Run" CodeLens, or \`jevcp step FILE\`.`,
    type: 'object',
    properties: {
      tool: {
        type: 'string',
        enum: names,
        default: defaultTool,
        markdownDescription: `The judgment tool this file is the input of (default \`${defaultTool}\`). The other members are that tool's arguments.`,
        markdownEnumDescriptions: tools.map((t) => `**${t.title}** — ${t.description}`),
      },
    },
    allOf: [
      ...tools.map((t) => ({ if: { properties: { tool: { const: t.name } }, required: ['tool'] }, then: branch(t) })),
      { if: { not: { required: ['tool'] } }, then: branch(fallback) },
    ],
  };
}
