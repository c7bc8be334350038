// Writes <out>/request-schema.json: the JSON schema of *.jev.json request files (package.json
// contributes.jsonValidation), generated from the tools' own input schemas by
// src/request-files/schema.ts. Called by scripts/build.mjs.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

/** Bundles the generator in memory, runs it, and writes the schema into `out`. Returns the file path. */
export async function emitRequestSchema(root, out) {
  const contents = [
    "import { ALL_TOOLS } from './src/tools';",
    "import { REQUEST_SCHEMA_FILE, requestFileSchema } from './src/request-files/schema';",
    'export const file = REQUEST_SCHEMA_FILE;',
    'export const text = JSON.stringify(requestFileSchema(ALL_TOOLS), null, 2);',
  ].join('\n');
  const bundled = await build({
    stdin: { contents, resolveDir: root, loader: 'ts', sourcefile: 'emit-request-schema.ts' },
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  const mod = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`);
  const path = join(out, mod.file);
  writeFileSync(path, `${mod.text}\n`);
  return path;
}
