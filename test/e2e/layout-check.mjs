#!/usr/bin/env node
// Every panel view at 300, 600 and 1400 px wide in the light, dark and high-contrast themes, in headless
// Chromium on the static harness: the document never scrolls sideways, the cells a reader needs (slider
// values, What-if, P(selected), Suitable, Why) are on screen, no word is broken mid-word, the feed starts
// above the fold, the Agents table has no tall blank rows, and every text (the status words execute_tool,
// auto, eligible, blocked, … in particular) meets WCAG AA contrast (4.5:1) against its background.
// Screenshots of every combination go to test-results/screens/ (gitignored).
// Usage: node test/e2e/layout-check.mjs [--only VIEW] (needs a build: node scripts/build.mjs)
import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, THEMES, chromiumPath, startHarness } from './harness-server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
const out = join(root, 'test-results/screens');
mkdirSync(out, { recursive: true });
const probe = readFileSync(join(here, 'layout-probe.js'), 'utf8');
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;

const WIDTHS = [300, 600, 1400];
/** Sidebar height, px: a laptop's sidebar below the title and activity bars. */
const HEIGHT = 760;
const harness = await startHarness({ root });
const step = harness.records.find((r) => r.tool === 'jev_step' && Array.isArray(r.input?.candidates) && r.result?.blocked_candidates?.length);
const gate = harness.records.find((r) => r.tool === 'jev_gate' && r.result);
assert.ok(step && gate, 'the fixtures hold a jev_step with a blocked candidate and a jev_gate decision');

const sidebar = (state) => ({ params: {}, state });
const VIEWS = {
  feed: sidebar({ tab: 'decisions' }),
  detail: sidebar({ tab: 'decisions', selected: step.id, detailOpen: true }),
  servers: sidebar({ tab: 'servers' }),
  agents: sidebar({ tab: 'agents' }),
  'decision-step': { params: { view: 'decision', id: step.id } },
  'decision-gate': { params: { view: 'decision', id: gate.id } },
};
/** What each view must show, so a probe of an empty page cannot pass. */
const READY = {
  feed: '#feed-list .feed-row',
  detail: '#detail .whatif-diff',
  servers: '#servers .server',
  agents: '.permissions tbody tr',
  'decision-step': '#detail table.candidates',
  'decision-gate': '#detail table.claims',
};

const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
const failures = [];

// The probe itself must see what it looks for: words forced to break anywhere and a too-wide element.
{
  const context = await browser.newContext({ viewport: { width: 300, height: HEIGHT } });
  const page = await context.newPage();
  await page.goto(harness.url({ view: 'decision', id: step.id }));
  await page.locator(READY['decision-step']).waitFor();
  await page.evaluate(() => {
    const bad = document.createElement('p');
    bad.className = 'probe-sabotage';
    bad.textContent = 'configured auto_accept execute_tool eligible';
    document.querySelector('#detail').prepend(bad, Object.assign(document.createElement('div'), { className: 'probe-wide' }));
    // The harness CSP allows no inline style: set the sabotage through the CSSOM instead.
    bad.style.wordBreak = 'break-all';
    bad.style.width = '60px';
    document.querySelector('.probe-wide').style.width = '420px';
  });
  const p = await page.evaluate(probe);
  if (!p.midWord.some((m) => m.includes('probe-sabotage'))) failures.push('self-check: the probe missed words broken by word-break: break-all');
  if (!p.overflow.length) failures.push('self-check: the probe missed a 420 px element in a 300 px view');
  await context.close();
}
const words = new Map(); // "theme word" → lowest ratio seen
let combos = 0;
try {
  for (const [view, spec] of Object.entries(VIEWS)) {
    if (only && view !== only) continue;
    for (const theme of Object.keys(THEMES)) {
      for (const width of WIDTHS) {
        const context = await browser.newContext({ viewport: { width, height: HEIGHT } });
        const page = await context.newPage();
        const errors = [];
        page.on('pageerror', (e) => errors.push(e.message));
        if (spec.state) {
          const state = { v: 1, filters: { tool: '', agent: '', action: '', text: '' }, scrollTop: 0, detailOpen: false, collapsed: [], ...spec.state };
          await page.addInitScript((s) => sessionStorage.setItem('jev-harness-state', s), JSON.stringify(state));
        }
        await page.goto(harness.url({ ...spec.params, theme }));
        const at = `${view} ${width}px ${theme}`;
        try {
          await page.locator(READY[view]).first().waitFor({ timeout: 10_000 });
          await page.evaluate(() => document.fonts.ready);
          await page.waitForTimeout(250); // what-if recompute and codicons settle
          await page.screenshot({ path: join(out, `${view}-${width}-${theme}.png`) });
          // The decision views are long: their candidate and claim tables get a picture of their own.
          for (const section of ['candidates', 'result']) {
            const el = page.locator(`.section-${section}`);
            if (view.startsWith('decision') && (await el.count())) await el.screenshot({ path: join(out, `${view}-${width}-${theme}-${section}.png`) });
          }
          const p = await page.evaluate(probe);
          const fail = (what, list) => list.length && failures.push(`${at}: ${what}:\n    ${list.slice(0, 6).join('\n    ')}`);
          fail('sideways overflow', p.overflow);
          fail('cut or hidden cells', p.hidden);
          fail('words broken mid-word', p.midWord);
          fail('text below WCAG AA contrast', p.contrast);
          fail('tall blank rows', p.blankRows);
          if (view === 'feed' && (p.feedTop === null || p.feedTop > HEIGHT * 0.6)) failures.push(`${at}: the feed starts at ${p.feedTop} px, below 60% of a ${HEIGHT} px sidebar`);
          for (const s of p.statusWords) {
            const key = `${theme} ${s.word}`;
            words.set(key, Math.min(words.get(key) ?? Infinity, s.ratio));
          }
          if (errors.length) failures.push(`${at}: page errors: ${errors.join('; ')}`);
        } catch (err) {
          failures.push(`${at}: ${err.message.split('\n')[0]}`);
        }
        combos++;
        await context.close();
      }
    }
  }
} finally {
  await browser.close();
  await harness.close();
}

// The status words the issue names must have been seen (and measured) in every theme.
const MUST = ['execute_tool', 'auto', 'eligible', 'blocked', 'escalate', 'review', 'ready', 'error'];
for (const theme of Object.keys(THEMES)) {
  if (only) break;
  for (const w of MUST) if (!words.has(`${theme} ${w}`)) failures.push(`${theme}: status word "${w}" was not found on any view`);
}
const table = Object.keys(THEMES)
  .map((t) => `  ${t.padEnd(6)} ${[...words].filter(([k]) => k.startsWith(`${t} `)).map(([k, r]) => `${k.slice(t.length + 1)} ${r.toFixed(1)}`).join(' · ')}`)
  .join('\n');
console.log(`layout: ${combos} view × width × theme combinations; lowest contrast per status word:\n${table}`);
if (failures.length) {
  console.log(`layout: FAIL (${failures.length})\n${failures.join('\n')}`);
  process.exit(1);
}
console.log(`layout: ok; screenshots in test-results/screens/`);
