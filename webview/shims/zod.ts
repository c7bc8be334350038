/**
 * Browser-bundle stand-in for `import { z } from 'zod'` (used only by scripts/build.mjs for the webview
 * what-if chunk). zod's root module re-exports its whole namespace as `z`, which esbuild cannot tree-shake,
 * so the locales alone add ~260 kB. This object holds just the builders our tool modules call; the
 * unit test panel-reason-codes.test.ts fails when a tool module starts using a member missing here.
 * It also switches zod to jitless before any schema exists: the webview CSP forbids eval, and zod's JIT
 * probe (`new Function`) would be reported as a CSP violation even though zod catches it.
 */
import {
  array,
  boolean,
  config,
  discriminatedUnion,
  enum as zenum,
  literal,
  number,
  object,
  record,
  string,
  toJSONSchema,
  union,
  unknown,
  ZodError,
  ZodType,
} from 'zod/v4';

config({ jitless: true });

export const z = {
  array,
  boolean,
  discriminatedUnion,
  enum: zenum,
  literal,
  number,
  object,
  record,
  string,
  toJSONSchema,
  union,
  unknown,
  ZodError,
  ZodType,
};
