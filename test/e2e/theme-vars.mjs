#!/usr/bin/env node
// Writes test/e2e/theme.css from the real workbench: starts code-server once per default theme (Light+,
// Dark+, High Contrast), reads the `--vscode-*` colour variables VS Code gives every webview, and keeps the
// ones the panel and its @vscode-elements components read. Test-only; run it when the VS Code host is
// upgraded: node test/e2e/theme-vars.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { ensureHost } from '../../scripts/vscode-host/ensure-host.mjs';
import { CHROMIUM_ARGS, chromiumPath } from './harness-server.mjs';
import { startCodeServer } from './workbench.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Harness theme name → VS Code theme id and the class the workbench gets once that theme is applied. */
const THEMES = {
  light: ['Light+', 'vscode-theme-defaults-themes-light_plus-json'],
  dark: ['Dark+', 'vscode-theme-defaults-themes-dark_plus-json'],
  hc: ['Default High Contrast', 'vscode-theme-defaults-themes-hc_black-json'],
};

/** Every --vscode-* variable the panel's CSS and the components it bundles mention. */
function variablesUsed() {
  const files = [path.join(root, 'webview/styles.css')];
  const elements = path.join(root, 'node_modules/@vscode-elements/elements/dist');
  for (const c of fs.readFileSync(path.join(root, 'webview/components.ts'), 'utf8').matchAll(/dist\/(vscode-[\w-]+)\//g)) {
    const dir = path.join(elements, c[1]);
    for (const f of fs.readdirSync(dir)) if (f.endsWith('.js')) files.push(path.join(dir, f));
  }
  const names = new Set();
  for (const f of files) for (const m of fs.readFileSync(f, 'utf8').matchAll(/--vscode-[A-Za-z0-9-]+/g)) names.add(m[0]);
  for (const font of ['font-family', 'font-size', 'font-weight', 'editor-font-family', 'editor-font-size']) names.delete(`--vscode-${font}`);
  return [...names].sort();
}

if (!ensureHost()) process.exit(1);
const names = variablesUsed();
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'jev-theme-'));
const found = {};
for (const [key, [theme, applied]] of Object.entries(THEMES)) {
  const server = await startCodeServer({ folder, theme });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'jev-theme-chrome-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(server.url);
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });
    // The configured theme replaces the built-in default a moment after the first paint.
    await page.locator(`.monaco-workbench.${applied}`).waitFor({ timeout: 30_000 });
    found[key] = await page.evaluate((list) => {
      const s = getComputedStyle(document.querySelector('.monaco-workbench'));
      return Object.fromEntries(list.map((n) => [n, s.getPropertyValue(n).trim()]).filter(([, v]) => v));
    }, names);
    console.log(`${theme}: ${Object.keys(found[key]).length} of ${names.length} variables set`);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
    await server.stop();
  }
}
fs.rmSync(folder, { recursive: true, force: true });

const block = (selector, vars) => `${selector} {\n${Object.entries(vars).map(([k, v]) => `  ${k}: ${v};`).join('\n')}\n}\n`;
const css =
  `/* VS Code's theme variables for the static harness, as the workbench sets them in the default themes\n` +
  `   ${Object.values(THEMES).map(([t]) => t).join(', ')} (written by test/e2e/theme-vars.mjs from the VS Code host; do not edit\n` +
  `   by hand). VS Code injects the full set into every webview; the harness picks one with ?theme=. Test-only. */\n` +
  block('html', {
    '--vscode-font-family': 'system-ui, -apple-system, "Segoe UI", "Ubuntu", "Droid Sans", sans-serif',
    '--vscode-font-size': '13px',
    '--vscode-font-weight': 'normal',
    '--vscode-editor-font-family': '"Droid Sans Mono", "monospace", monospace',
    '--vscode-editor-font-size': '12px',
  }) +
  Object.entries(found)
    .map(([key, vars]) => block(`html[data-theme='${key}']`, vars))
    .join('');
fs.writeFileSync(path.join(root, 'test/e2e/theme.css'), css);
console.log('wrote test/e2e/theme.css');
