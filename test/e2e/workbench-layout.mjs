// The panel's layout checked where users see it: inside the real VS Code workbench (code-server), the
// sidebar dragged to 300, 320 and 400 px and the decision tab in the editor area at 1400 px, in the Light
// Modern, Dark Modern and Default High Contrast themes (switched in the palette's Preferences: Color
// Theme, one code-server for all). A combination fails on: an interactive element whose centre another element covers
// (elementFromPoint), a word broken mid-word, sideways scroll or a cell cut off (test/e2e/layout-probe.js).
// Screenshots go to test-results/workbench/. Used by scripts/test-e2e.mjs once a sample step is recorded.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { frameWith, quickPick } from './workbench.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const layoutProbe = fs.readFileSync(path.join(here, 'layout-probe.js'), 'utf8');

/** Theme id (workbench.colorTheme) → the body class VS Code gives the webview in it, and a short name. */
export const WORKBENCH_THEMES = [
  { id: 'Light Modern', bodyClass: 'vscode-light', short: 'light' },
  { id: 'Dark Modern', bodyClass: 'vscode-dark', short: 'dark' },
  // The theme picker labels it "Dark High Contrast"; its settings id stays "Default High Contrast".
  { id: 'Default High Contrast', label: 'Dark High Contrast', bodyClass: 'vscode-high-contrast', short: 'hc' },
];
export const SIDEBAR_WIDTHS = [300, 320, 400];
export const EDITOR_WIDTH = 1400;

/**
 * Runs in the panel's frame: every interactive element in the viewport must be what elementFromPoint finds
 * at its centre (or hold it), and no box but the panel's own scrollers (SCROLLERS) may cut it off (a control
 * half hidden at the foot of a small scroll box reads as covered by what follows). Returns descriptions of
 * the failing ones ("vscode-button "Settings" at 150,212 under vscode-tab-header#…") and the count checked.
 */
export const coverProbe = () => {
  const up = (el) => el.assignedSlot ?? el.parentElement ?? (el.getRootNode() instanceof ShadowRoot ? el.getRootNode().host : null);
  const name = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.classList?.length ? `.${[...el.classList].join('.')}` : ''}`;
  const deepHit = (x, y) => {
    let hit = document.elementFromPoint(x, y);
    while (hit?.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  };
  const holds = (el, hit) => {
    for (let p = hit; p; p = up(p)) if (p === el) return true;
    return false;
  };
  // The sidebar's decision detail is a pane of its own that scrolls (as the feed list does): its foot cuts whatever comes next.
  const SCROLLERS = 'vscode-tab-panel, .feed-list, .detail, .table-scroll, body';
  const SEL = 'button, a[href], input, select, textarea, vscode-button, vscode-checkbox, vscode-textfield, vscode-single-select, vscode-tab-header, [role="button"], [role="option"], summary';
  const vw = document.documentElement.clientWidth;
  const vh = document.documentElement.clientHeight;
  const covered = [];
  let checked = 0;
  for (const el of document.querySelectorAll(SEL)) {
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden' || s.display === 'none' || s.pointerEvents === 'none') continue;
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) continue;
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x >= vw || y >= vh) continue;
    // Each box that clips it: a control cut off by one is hidden from the user, except by the panel's
    // own scrollers (the tab panels, the feed list, the decision detail, wide tables, the page), where scrolling to it is expected.
    let clipped = false;
    for (let p = up(el); p && p !== document.documentElement; p = up(p)) {
      const ps = getComputedStyle(p);
      if (ps.overflowX === 'visible' && ps.overflowY === 'visible') continue;
      const b = p.getBoundingClientRect();
      const whole = r.left >= b.left - 1 && r.right <= b.right + 1 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
      if (whole) continue;
      const scroller = /auto|scroll/.test(ps.overflowX + ps.overflowY);
      if (!scroller || !p.matches?.(SCROLLERS)) {
        const label = (el.getAttribute('aria-label') || el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 30);
        covered.push(`${name(el)} "${label}" cut off by ${p instanceof Element ? name(p) : 'a shadow part'} (${Math.round(r.top)}..${Math.round(r.bottom)} px in a box ${Math.round(b.top)}..${Math.round(b.bottom)} px)`);
      }
      clipped = true;
      break;
    }
    if (clipped) continue;
    checked++;
    const hit = deepHit(x, y);
    if (hit && holds(el, hit)) continue;
    const label = (el.getAttribute('aria-label') || el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 30);
    covered.push(`${name(el)} "${label}" at ${Math.round(x)},${Math.round(y)} under ${hit ? name(hit) : 'nothing'}`);
  }
  return { covered, checked };
};

/** True when the sidebar webview's body carries `bodyClass` (VS Code sets it from the colour theme). */
async function webviewHasClass(page, bodyClass) {
  const frame = await frameWith(page, 'body[data-view="sidebar"]', 5_000).catch(() => undefined);
  return Boolean(frame && (await frame.evaluate((c) => document.body.classList.contains(c), bodyClass).catch(() => false)));
}

/**
 * Sets workbench.colorTheme to `theme.id` through Preferences: Color Theme (the palette's own row: typing
 * its name puts "Browse Color Themes in Marketplace" first, which hangs offline) and waits until the
 * sidebar webview shows the theme's body class. Up to 3 attempts.
 */
async function setTheme(page, theme, say) {
  if (await webviewHasClass(page, theme.bodyClass)) return;
  const exact = (text) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  const row = (text) => page.locator('.quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: exact(text) }) }).first();
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      await page.keyboard.press('Escape');
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 5000 });
      await input.fill('>Preferences: Color Theme');
      await row('Preferences: Color Theme').click({ timeout: 8000 });
      await input.fill(theme.label ?? theme.id);
      await row(theme.label ?? theme.id).click({ timeout: 8000 });
      const end = Date.now() + 15_000;
      while (Date.now() < end) {
        if (await webviewHasClass(page, theme.bodyClass)) return;
        await page.waitForTimeout(300);
      }
    } catch (err) {
      say(`     theme ${theme.id}, attempt ${attempt}: ${err.message.split('\n')[0]}`);
    }
  }
  throw new Error(`could not switch the colour theme to ${theme.id}`);
}

/** Drags the sash right of the sidebar until the sidebar is `width` px wide (±2); returns the width reached. */
async function setSidebarWidth(page, width) {
  const sidebar = page.locator('.part.sidebar');
  for (let attempt = 0; attempt < 3; attempt++) {
    const box = await sidebar.boundingBox();
    if (Math.abs(box.width - width) <= 2) return box.width;
    const right = box.x + box.width;
    const sashes = await page.locator('.monaco-sash.vertical').evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return { x: r.x + r.width / 2, y: r.y + r.height / 2, h: r.height, vis: getComputedStyle(e).display !== 'none' };
      }),
    );
    const sash = sashes.filter((q) => q.vis && q.h > 200).sort((a, b) => Math.abs(a.x - right) - Math.abs(b.x - right))[0];
    if (!sash) throw new Error('no sash next to the sidebar');
    await page.mouse.move(sash.x, sash.y);
    await page.mouse.down();
    await page.mouse.move(sash.x + (box.x + width - right), sash.y, { steps: 8 });
    await page.mouse.up();
    await page.waitForTimeout(400);
  }
  return (await sidebar.boundingBox()).width;
}

/** Clicks a tab header or button in the frame: a real click, else (covered, say) the element's own click by script. */
const clickIn = async (frame, selector) => {
  const ok = await frame.locator(selector).first().click({ timeout: 3000 }).then(() => true, () => false);
  if (!ok) await frame.evaluate((s) => document.querySelector(s)?.click(), selector);
};

/** Sidebar views: how to reach each from any other, and what must be on screen once there. */
const SIDEBAR_VIEWS = {
  feed: {
    go: async (f) => {
      await clickIn(f, 'vscode-tab-header[data-tab="tab-decisions"]');
      if (await f.$('#detail-back')) await clickIn(f, '#detail-back');
    },
    ready: '#feed-list .feed-row',
  },
  detail: {
    go: async (f) => {
      await clickIn(f, 'vscode-tab-header[data-tab="tab-decisions"]');
      if (!(await f.$('#detail'))) await f.locator('#feed-list .feed-row', { hasText: 'jev_step' }).first().click();
    },
    ready: '#detail .whatif-diff',
  },
  servers: { go: (f) => clickIn(f, 'vscode-tab-header[data-tab="tab-servers"]'), ready: '.servers-slot > *' },
  agents: { go: (f) => clickIn(f, 'vscode-tab-header[data-tab="tab-agents"]'), ready: '.permissions tbody tr' },
};

/** Runs both probes in `frame` and returns the failures as lines ("what: item"). */
async function probe(frame) {
  const p = await frame.evaluate(layoutProbe);
  const c = await frame.evaluate(coverProbe);
  const lines = [];
  const add = (what, list) => list.length && lines.push(`${what}:\n      ${list.slice(0, 6).join('\n      ')}`);
  add('covered controls', c.covered);
  add('words broken mid-word', p.midWord);
  add('sideways overflow', p.overflow);
  add('cut or hidden cells', p.hidden);
  return { lines, checked: c.checked, contrast: p.contrast.length };
}

/**
 * The whole check on a running workbench `page` (a jev_step recorded, its decision tab open) of the
 * code-server. Screenshots to `<out>/workbench/`. Resolves to the failure
 * lines ("sidebar 300px light detail: covered controls: …"); empty when all passed.
 */
export async function checkWorkbenchLayout({ page, out, say = () => {} }) {
  const dir = path.join(out, 'workbench');
  fs.mkdirSync(dir, { recursive: true });
  const failures = [];
  const viewport = page.viewportSize();
  await quickPick(page, '>', 'Jev: Open Control Panel', say);
  // The cover probe must see a control it covers itself.
  {
    const frame = await frameWith(page, 'body[data-view="sidebar"] #status vscode-button', 30_000);
    await frame.evaluate(() => {
      const b = document.querySelector('#status vscode-button').getBoundingClientRect();
      const lid = document.createElement('div');
      lid.className = 'probe-lid';
      document.body.append(lid);
      Object.assign(lid.style, { position: 'fixed', left: `${b.left}px`, top: `${b.top}px`, width: `${b.width}px`, height: `${b.height}px`, zIndex: 99 });
    });
    const caught = (await frame.evaluate(coverProbe)).covered.some((c) => c.includes('probe-lid'));
    await frame.evaluate(() => document.querySelector('.probe-lid')?.remove());
    if (!caught) failures.push('self-check: the cover probe missed a control under another element');
  }
  let combos = 0;
  let checkedControls = 0;
  for (const theme of WORKBENCH_THEMES) {
    await page.setViewportSize(viewport);
    try {
      await setTheme(page, theme, say);
    } catch (err) {
      failures.push(`${theme.id}: ${err.message.split('\n')[0]}`);
      continue;
    }
    for (const width of SIDEBAR_WIDTHS) {
      const got = await setSidebarWidth(page, width);
      if (Math.abs(got - width) > 2) failures.push(`sidebar ${width}px: the sash stopped at ${got} px`);
      for (const [view, spec] of Object.entries(SIDEBAR_VIEWS)) {
        const at = `sidebar ${width}px ${theme.short} ${view}`;
        try {
          const frame = await frameWith(page, 'body[data-view="sidebar"]', 15_000);
          await spec.go(frame);
          await frame.locator(spec.ready).first().waitFor({ timeout: 15_000 });
          await page.waitForTimeout(350); // what-if recompute, codicons, tab switch settle
          await page.locator('.part.sidebar').screenshot({ path: path.join(dir, `sidebar-${width}-${theme.short}-${view}.png`) });
          const r = await probe(frame);
          checkedControls += r.checked;
          for (const l of r.lines) failures.push(`${at}: ${l}`);
        } catch (err) {
          failures.push(`${at}: ${err.message.split('\n')[0]}`);
        }
        combos++;
      }
    }
    // The decision tab in the editor area, made EDITOR_WIDTH px wide by widening the window.
    const at = `editor ${EDITOR_WIDTH}px ${theme.short} decision`;
    try {
      await setSidebarWidth(page, 300);
      await page.locator('.tabs-container .tab', { hasText: 'Jev Decision' }).first().click();
      let frame = await frameWith(page, 'body[data-view="decision"] #detail', 30_000);
      const editor = page.locator('.part.editor');
      const w = (await editor.boundingBox()).width;
      await page.setViewportSize({ width: Math.round(viewport.width + EDITOR_WIDTH - w), height: viewport.height });
      await page.waitForTimeout(800);
      frame = await frameWith(page, 'body[data-view="decision"] #detail .whatif-diff', 30_000);
      const inner = await frame.evaluate(() => document.documentElement.clientWidth);
      if (Math.abs(inner - EDITOR_WIDTH) > 40) failures.push(`${at}: the decision webview is ${inner} px wide`);
      await editor.screenshot({ path: path.join(dir, `editor-${EDITOR_WIDTH}-${theme.short}-decision.png`) });
      const r = await probe(frame);
      checkedControls += r.checked;
      for (const l of r.lines) failures.push(`${at}: ${l}`);
    } catch (err) {
      failures.push(`${at}: ${err.message.split('\n')[0]}`);
    }
    combos++;
    await page.setViewportSize(viewport);
  }
  await setSidebarWidth(page, 320).catch(() => {});
  say(`     workbench layout: ${combos} view × width × theme combinations, ${checkedControls} control centres hit-tested; screenshots in ${path.relative(process.cwd(), dir)}/`);
  return failures;
}
