/**
 * Browser stand-in for zod in the MCP Apps card bundle (scripts/build.mjs aliases `zod`, `zod/v4` and
 * `zod/v3` to it there). The MCP SDK imports zod as a namespace and ext-apps imports its `z` object,
 * which esbuild cannot tree-shake (locales and JSON-schema code add ~150 kB); this module re-exports by
 * name only the builders the SDK's types, ext-apps' App and our tool modules call. A member missing here
 * fails the card's browser test at load. Like webview/shims/zod.ts it switches zod to jitless first,
 * since the card's CSP forbids eval.
 */
import {
  any,
  array,
  boolean,
  config,
  custom,
  discriminatedUnion,
  enum as zenum,
  intersection,
  iso,
  literal,
  looseObject,
  null as znull,
  number,
  object,
  optional,
  preprocess,
  record,
  safeParse,
  safeParseAsync,
  strictObject,
  string,
  undefined as zundefined,
  union,
  unknown,
  ZodError,
  ZodType,
} from 'zod/v4';

config({ jitless: true });

/**
 * The card never lists tools, so the tool modules' JSON schemas (computed at import) are not needed:
 * an empty schema here keeps zod's JSON-schema code (~20 kB) out of the card.
 */
function toJSONSchema(): Record<string, unknown> {
  return {};
}

export {
  any,
  array,
  boolean,
  custom,
  discriminatedUnion,
  zenum as enum,
  intersection,
  iso,
  literal,
  looseObject,
  znull as null,
  number,
  object,
  optional,
  preprocess,
  record,
  safeParse,
  safeParseAsync,
  strictObject,
  string,
  toJSONSchema,
  zundefined as undefined,
  union,
  unknown,
  ZodError,
  ZodType,
};

/** The `z` object ext-apps and our tool modules import. */
export const z = {
  any,
  array,
  boolean,
  custom,
  discriminatedUnion,
  enum: zenum,
  intersection,
  iso,
  literal,
  looseObject,
  null: znull,
  number,
  object,
  optional,
  preprocess,
  record,
  safeParse,
  safeParseAsync,
  strictObject,
  string,
  toJSONSchema,
  undefined: zundefined,
  union,
  unknown,
  ZodError,
  ZodType,
};
