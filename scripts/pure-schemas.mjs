// esbuild plugin for the MCP Apps card bundle: lets esbuild drop the MCP SDK's and ext-apps' zod schemas
// that the card never reaches. Those modules build every schema at import (`export const XSchema =
// z.object(...).extend(...)`); esbuild must keep such calls, since it cannot know they have no side effect.
// This marks each top-level `const X = <call>` initializer as a pure IIFE (`/* @__PURE__ */ (() => …)()`),
// so an unused one goes and a used one runs exactly as before. Only call initializers are touched:
// classes, functions and enums (`ErrorCode`) stay as they are.
import { readFileSync } from 'node:fs';
import ts from 'typescript';

/**
 * Returns `source` (an ES module) with its top-level call initializers marked pure, and how many were
 * marked. Throws when `file` has none, so an SDK release that changes shape fails the build loudly
 * instead of silently growing the card.
 */
export function markTopLevelCallsPure(source, file = 'module.js') {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const edits = [];
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st)) continue;
    for (const d of st.declarationList.declarations) {
      if (d.initializer && ts.isCallExpression(d.initializer)) {
        edits.push([d.initializer.getStart(sf), '/* @__PURE__ */ (() => '], [d.initializer.getEnd(), ')()']);
      }
    }
  }
  if (!edits.length) throw new Error(`pure-schemas: no top-level schema call found in ${file}; the plugin's filter no longer fits this package`);
  let out = source;
  for (const [pos, text] of edits.sort((a, b) => b[0] - a[0])) out = out.slice(0, pos) + text + out.slice(pos);
  return { code: out, marked: edits.length / 2 };
}

/** The modules whose schemas the card only partly uses: the SDK's types and ext-apps' App module. */
export const PURE_SCHEMA_MODULES = /[\\/]node_modules[\\/]@modelcontextprotocol[\\/](sdk[\\/]dist[\\/]esm[\\/]types\.js|ext-apps[\\/]dist[\\/]src[\\/]app\.js)$/;

/** The esbuild plugin applying markTopLevelCallsPure to PURE_SCHEMA_MODULES. */
export const pureSchemas = {
  name: 'pure-schemas',
  setup(b) {
    b.onLoad({ filter: PURE_SCHEMA_MODULES }, (args) => ({ contents: markTopLevelCallsPure(readFileSync(args.path, 'utf8'), args.path).code, loader: 'js' }));
  },
};
