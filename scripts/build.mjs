#!/usr/bin/env node
// Bundles the CLI and the extension for Node 20, and the webview for the browser.
import { build } from 'esbuild';
import { mkdirSync, copyFileSync, existsSync, chmodSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const production = process.argv.includes('--production');
mkdirSync(join(root, 'dist'), { recursive: true });

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
    outfile: join(root, 'dist/cli.js'),
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
    outfile: join(root, 'dist/extension.js'),
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
  }));
}
if (existsSync(join(root, 'webview/main.ts'))) {
  jobs.push(build({
    ...common,
    entryPoints: [join(root, 'webview/main.ts')],
    outfile: join(root, 'dist/webview.js'),
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
  }));
}
await Promise.all(jobs);
chmodSync(join(root, 'dist/cli.js'), 0o755);
const codicons = join(root, 'node_modules/@vscode/codicons/dist');
if (existsSync(codicons)) {
  copyFileSync(join(codicons, 'codicon.css'), join(root, 'dist/codicon.css'));
  copyFileSync(join(codicons, 'codicon.ttf'), join(root, 'dist/codicon.ttf'));
}
