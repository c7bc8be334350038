#!/usr/bin/env node
// Bundles the CLI and the extension for Node 20, and the webview for the browser.
import { build } from 'esbuild';
import { mkdirSync, copyFileSync, existsSync, chmodSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const production = process.argv.includes('--production');
// --outdir DIR builds somewhere else than dist/ (benchmarks measure their own build, not a shared dist/).
const outArg = process.argv.indexOf('--outdir');
const out = outArg > 0 ? resolve(process.argv[outArg + 1]) : join(root, 'dist');
mkdirSync(out, { recursive: true });

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: 'none',
};

const jobs = [
  build({
    ...common,
    entryPoints: [join(root, 'src/cli/main.ts')],
    outfile: join(out, 'cli.js'),
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    banner: { js: '#!/usr/bin/env node' },
  }),
];
if (existsSync(join(root, 'src/extension/extension.ts'))) {
  jobs.push(build({
    ...common,
    entryPoints: [join(root, 'src/extension/extension.ts')],
    outfile: join(out, 'extension.js'),
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
  }));
}
// The extension's runtime (tools, schemas, MCP SDK, registry), required by dist/extension.js on first use,
// so activation parses only the small shell. zod's `locales` namespace would add every language's messages
// (~250 kB); only English (zod's default) is kept.
if (existsSync(join(root, 'src/extension/core.ts'))) {
  const zodEnglishOnly = {
    name: 'zod-english-only',
    setup(b) {
      b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
        contents: 'export { default as en } from "./en.js";',
        resolveDir: dirname(args.path),
        loader: 'js',
      }));
    },
  };
  jobs.push(build({
    ...common,
    entryPoints: [join(root, 'src/extension/core.ts')],
    outfile: join(out, 'extension-core.js'),
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    plugins: [zodEnglishOnly],
  }));
}
if (existsSync(join(root, 'webview/main.ts'))) {
  jobs.push(build({
    ...common,
    entryPoints: [join(root, 'webview/main.ts')],
    outfile: join(out, 'webview.js'),
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
  }));
}
if (existsSync(join(root, 'webview/styles.css'))) {
  jobs.push(build({ ...common, sourcemap: false, entryPoints: [join(root, 'webview/styles.css')], outfile: join(out, 'webview.css') }));
}
// The what-if chunk (tool code + zod), loaded by the webview on demand. Two browser stand-ins: a `z`
// holding only the builders the tools use (zod's root `z` namespace defeats tree-shaking: +260 kB of
// locales), and randomUUID for node:crypto.
if (existsSync(join(root, 'webview/whatif-entry.ts'))) {
  const standIns = {
    name: 'webview-stand-ins',
    setup(b) {
      b.onResolve({ filter: /^zod$/ }, () => ({ path: join(root, 'webview/shims/zod.ts') }));
      b.onResolve({ filter: /^node:crypto$/ }, () => ({ path: join(root, 'webview/shims/node-crypto.ts') }));
    },
  };
  jobs.push(build({
    ...common,
    entryPoints: [join(root, 'webview/whatif-entry.ts')],
    outfile: join(out, 'webview-whatif.js'),
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    plugins: [standIns],
  }));
}
await Promise.all(jobs);
// The JSON schema of *.jev.json request files (package.json contributes.jsonValidation), from the tools' schemas.
if (existsSync(join(root, 'src/request-files/schema.ts'))) {
  await (await import('./emit-request-schema.mjs')).emitRequestSchema(root, out);
}
chmodSync(join(out, 'cli.js'), 0o755);
const codicons = join(root, 'node_modules/@vscode/codicons/dist');
if (existsSync(codicons)) {
  copyFileSync(join(codicons, 'codicon.css'), join(out, 'codicon.css'));
  copyFileSync(join(codicons, 'codicon.ttf'), join(out, 'codicon.ttf'));
}
// Walkthrough pages (contributes.walkthroughs media) ship inside dist/: the .vsix carries no docs folder.
const walkthrough = join(root, 'docs/walkthrough');
if (existsSync(walkthrough)) {
  const { readdirSync } = await import('node:fs');
  mkdirSync(join(out, 'walkthrough'), { recursive: true });
  for (const f of readdirSync(walkthrough)) if (f.endsWith('.md')) copyFileSync(join(walkthrough, f), join(out, 'walkthrough', f));
}
