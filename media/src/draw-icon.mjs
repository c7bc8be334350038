#!/usr/bin/env node
// Renders media/src/icon.svg to media/icon.png (128×128, transparent corners) with Debian's Chromium through
// playwright-core (the copy scripts/vscode-host/setup.sh installs). Run: node media/src/draw-icon.mjs
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../../scripts/vscode-host/browser.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const svg = readFileSync(join(here, 'icon.svg'), 'utf8');
const { page, close } = await launch({ width: 128, height: 128 });
try {
  await page.setContent(`<!DOCTYPE html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: join(here, '..', 'icon.png'), omitBackground: true });
} finally {
  await close();
}
console.log('wrote media/icon.png');
