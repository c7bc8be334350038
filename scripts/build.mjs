#!/usr/bin/env node
// Bundles the CLI and the extension for Node 20, and the webview for the browser.
import { build } from 'esbuild';
import { mkdirSync, copyFileSync, existsSync, chmodSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pureSchemas } from './pure-schemas.mjs';

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
// The lean entry of the permission hook: rule-settled calls without loading the whole CLI.
if (existsSync(join(root, 'src/cli/guard-main.ts'))) {
  jobs.push(build({
    ...common,
    entryPoints: [join(root, 'src/cli/guard-main.ts')],
    outfile: join(out, 'guard.js'),
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    plugins: [zodEnglishOnly],
  }));
}
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
// The MCP Apps decision card (webview/card/): ONE self-contained HTML, script and styles inline, served
// by src/mcp/app-card.ts as a ui:// resource. Always minified (hosts load it per tool call). zod goes
// through webview/shims/zod-card.ts (named builders only) and keeps only its English messages; the SDK's
// and ext-apps' schemas the card never reaches are dropped (scripts/pure-schemas.mjs).
if (existsSync(join(root, 'webview/card/main.ts'))) {
  const cardStandIns = {
    name: 'card-stand-ins',
    setup(b) {
      b.onResolve({ filter: /^zod(\/v4)?$/ }, (args) => (args.importer.endsWith('zod-card.ts') ? undefined : { path: join(root, 'webview/shims/zod-card.ts') }));
      b.onResolve({ filter: /^node:crypto$/ }, () => ({ path: join(root, 'webview/shims/node-crypto.ts') }));
      // The card never shows jev_evaluate (not one of its tools): its code stays out (size goal).
      b.onResolve({ filter: /[\\/]tools[\\/]jev-evaluate$/ }, () => ({ path: join(root, 'webview/shims/jev-evaluate-card.ts') }));
    },
  };
  // UTF-8 output (the page declares it) instead of \u escapes; ext-apps' console.debug traces dropped.
  const inline = { bundle: true, minify: true, write: false, logLevel: 'warning', legalComments: 'none', charset: 'utf8' };
  // The what-if engine (webview/whatif-entry.ts: tools, policy, replay) is a second script, kept in the
  // page as inert text and run by the card after its first paint; its zod is the card's (the bridge).
  const whatIfStandIns = {
    name: 'card-whatif-stand-ins',
    setup(b) {
      b.onResolve({ filter: /^zod(\/v4)?$/ }, () => ({ path: join(root, 'webview/shims/zod-card-bridge.ts') }));
      b.onResolve({ filter: /^node:crypto$/ }, () => ({ path: join(root, 'webview/shims/node-crypto.ts') }));
      b.onResolve({ filter: /[\\/]tools[\\/]jev-evaluate$/ }, () => ({ path: join(root, 'webview/shims/jev-evaluate-card.ts') }));
    },
  };
  jobs.push(Promise.all([
    // The banner is the bench's first mark (webview/card/main.ts lists them): before any module runs.
    build({ ...inline, entryPoints: [join(root, 'webview/card/main.ts')], platform: 'browser', target: 'es2022', format: 'iife',
      banner: { js: 'document.documentElement.dataset.bundleStart=String(performance.now());' },
      supported: { 'inline-script': false }, pure: ['console.debug'], plugins: [pureSchemas, zodEnglishOnly, cardStandIns] }),
    build({ ...inline, entryPoints: [join(root, 'webview/card/card.css')], supported: { 'inline-style': false } }),
    build({ ...inline, entryPoints: [join(root, 'webview/whatif-entry.ts')], platform: 'browser', target: 'es2022', format: 'iife',
      supported: { 'inline-script': false }, plugins: [whatIfStandIns] }),
  ]).then(([js, css, whatIf]) => {
    // The main script is a module script: it runs once the page is parsed and does not hold the first
    // paint, so 'Waiting for the decision…' is on screen while the script compiles and ext-apps starts.
    const html = '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
      '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Jev decision</title>' +
      `<style>${css.outputFiles[0].text}</style></head><body><div id="app"><p class="waiting" id="waiting">Waiting for the decision…</p></div>` +
      `<script type="text/plain" id="jev-whatif">${whatIf.outputFiles[0].text}</script>` +
      `<script type="module">${js.outputFiles[0].text}</script></body></html>\n`;
    writeFileSync(join(out, 'decision-card.html'), html);
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
