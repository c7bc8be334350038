#!/usr/bin/env node
// Acceptance test of the MCP Apps decision card, the way real hosts render it: a real `jevcp serve`
// process (stdio, mock judge) asked by the SDK client announcing the UI extension; the card read with
// resources/read; a real tools/call result delivered by ext-apps' AppBridge to the view in a sandboxed
// iframe under the CSP of its `_meta.ui.csp`, in Debian Chromium (playwright-core). Checks the verdict,
// the details, the what-if slider flipping jev_step from execute_tool to gather_context while the
// returned decision stands, the open-in-editor tool call, claims of jev_gate, and no CSP violation or page error.
// Screenshots (light, dark, 360 and 800 px) go to test-results/card-*.png.
// Usage: node test/e2e/card-check.mjs   (needs a build: node scripts/build.mjs)
import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CHROMIUM_ARGS, chromiumPath } from './harness-server.mjs';
import { HOST_VARIABLES, startCardHost } from './card-host/host-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const out = join(root, 'test-results');
mkdirSync(out, { recursive: true });
const UI_CAPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

/** Connects to a real `jevcp serve` (stdio, mock judge) as a UI-capable client. */
export async function connectServe() {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', JEV_MOCK: '1', JEV_LEDGER: '' };
  const client = new Client({ name: 'card-test-host', version: '1.0.0' }, { capabilities: UI_CAPS });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(root, 'dist/cli.js'), 'serve'], env, stderr: 'ignore' }));
  return client;
}

/** Reads the card a tool names: { html, csp, uri }. */
export async function readCard(client, tool) {
  const { tools } = await client.listTools();
  const uri = tools.find((t) => t.name === tool)?._meta?.ui?.resourceUri;
  assert.ok(uri, `${tool} names a ui:// resource`);
  const { contents } = await client.readResource({ uri });
  assert.equal(contents[0].mimeType, 'text/html;profile=mcp-app');
  return { uri, html: contents[0].text, csp: contents[0]._meta?.ui?.csp ?? {} };
}

/** The parser-fix example as a jev_step input (its `tool` key removed). */
export function stepInput() {
  const { tool: _tool, ...input } = JSON.parse(readFileSync(join(root, 'examples/parser-fix.jev.json'), 'utf8'));
  return input;
}

/** Opens the host page and renders `result` of `tool`; resolves with { page, context, frame, errors }. */
export async function render(browser, host, card, { tool, input, result, theme = 'light', palette = theme, width = 360, hostName = 'Chat test host', prompt }) {
  const context = await browser.newContext({ viewport: { width: width + 24, height: 1000 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  await page.goto(host.hostUrl);
  const viewUrl = host.addView(card.html, card.csp);
  await page.evaluate((o) => window.__startCard(o), {
    viewUrl, tool, input, result, theme, variables: HOST_VARIABLES[palette], width, hostName, prompt: prompt ?? `Ask Jev: what next for "${String(input.task ?? tool).slice(0, 60)}"?`,
  });
  const frame = page.frameLocator('#view');
  await frame.locator('#verdict').waitFor({ timeout: 10_000 });
  return { page, context, frame, errors };
}

/** Waits until the view's size notifications stop (autoResize), so a screenshot shows the whole card. */
async function settle(page) {
  let last = -1;
  for (let i = 0; i < 20; i++) {
    const n = await page.evaluate(() => window.__sizes ?? 0);
    if (n === last) break;
    last = n;
    await page.waitForTimeout(150);
  }
  // The view is an out-of-process frame: Chromium paints it only inside the viewport, so a full-page
  // screenshot needs a viewport as tall as the page.
  const size = page.viewportSize();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (size && height > size.height) await page.setViewportSize({ width: size.width, height });
}

async function main() {
  const client = await connectServe();
  const card = await readCard(client, 'jev_step');
  const input = stepInput();
  const result = await client.callTool({ name: 'jev_step', arguments: input });
  assert.equal(result.structuredContent.handoff, 'execute_tool', 'the mock sends this step to execute_tool');
  assert.ok(result._meta?.['jevcp/decision']?.id, 'the UI client got the decision');
  const host = await startCardHost();
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: [...CHROMIUM_ARGS, '--headless'] });
  let failed = 0;
  const lines = [];
  const check = async (name, fn) => {
    const t0 = Date.now();
    try {
      await fn();
      lines.push(`ok   ${name} (${Date.now() - t0} ms)`);
    } catch (err) {
      failed++;
      lines.push(`FAIL ${name}: ${String(err?.message ?? err).split('\n').slice(0, 8).join('\n     ')}`);
    }
  };

  for (const theme of ['light', 'dark']) {
    for (const width of [360, 800]) {
      await check(`jev_step card, ${theme}, ${width} px: verdict first, compact, then details`, async () => {
        const { page, context, frame, errors } = await render(browser, host, card, { tool: 'jev_step', input, result, theme, width });
        const verdict = await frame.locator('#verdict').innerText();
        assert.match(verdict, /^execute_tool · auto → run read_file \(read-parser\)$/);
        assert.equal(await frame.locator('#details').isHidden(), true, 'compact by default');
        assert.match(await frame.locator('#mock-note').innerText(), /not a real judgment/);
        await page.screenshot({ path: join(out, `card-step-${theme}-${width}.png`), fullPage: true });
        await frame.locator('#toggle').click();
        await frame.locator('#candidates').waitFor();
        assert.equal(await frame.locator('.cand.selected').count(), 1);
        assert.equal(await frame.locator('.cand.blocked').count(), 1);
        assert.match(await frame.locator('.cand.blocked').innerText(), /not_authorized/);
        assert.ok((await frame.locator('.question').count()) >= 3, 'probability bars per question');
        const bg = await frame.locator('.card').evaluate((el) => getComputedStyle(el).backgroundColor);
        assert.equal(bg, theme === 'light' ? 'rgb(255, 255, 255)' : 'rgb(38, 38, 36)', 'the host background variable is used');
        const overflow = await frame.locator('body').evaluate((b) => b.scrollWidth - b.clientWidth);
        assert.ok(overflow <= 0, `no horizontal overflow at ${width} px (${overflow})`);
        await settle(page);
        await page.screenshot({ path: join(out, `card-step-${theme}-${width}-expanded.png`), fullPage: true });
        assert.deepEqual(errors, []);
        await context.close();
      });
    }
  }

  await check('high contrast: the host\'s high-contrast variables colour the card', async () => {
    const { page, context, frame, errors } = await render(browser, host, card, { tool: 'jev_step', input, result, theme: 'dark', palette: 'high-contrast', width: 360 });
    await frame.locator('#toggle').click();
    await frame.locator('#candidates').waitFor();
    assert.equal(await frame.locator('.card').evaluate((el) => getComputedStyle(el).borderTopColor), 'rgb(111, 195, 223)');
    assert.equal(await frame.locator('#verdict').evaluate((el) => getComputedStyle(el).color), 'rgb(137, 209, 133)');
    await settle(page);
    await page.screenshot({ path: join(out, 'card-step-hc-360-expanded.png'), fullPage: true });
    assert.deepEqual(errors, []);
    await context.close();
  });

  await check('what-if: raising auto_accept flips jev_step to gather_context; the returned decision stands', async () => {
    const { page, context, frame, errors } = await render(browser, host, card, { tool: 'jev_step', input, result, width: 360 });
    await frame.locator('#toggle').click();
    await frame.locator('#whatif-banner').waitFor();
    assert.match(await frame.locator('#whatif-banner').innerText(), /What-if only.*agent’s decision stands as returned/s);
    const after = frame.locator('.whatif-diff tr[data-key="handoff"] td.after');
    await after.waitFor();
    assert.equal(await after.innerText(), 'execute_tool');
    let flipped;
    for (let v = 0.8; v <= 1.0001 && !flipped; v += 0.01) {
      await frame.locator('#whatif-auto_accept').fill(v.toFixed(2));
      await page.waitForTimeout(120);
      if ((await after.innerText()) === 'gather_context') flipped = v;
    }
    assert.ok(flipped, 'some auto_accept flips the handoff to gather_context');
    assert.equal(await frame.locator('#verdict').innerText(), 'execute_tool · auto → run read_file (read-parser)', 'the verdict line still shows the returned decision');
    lines.push(`     flipped at auto_accept ${flipped.toFixed(2)}`);
    await settle(page);
    await page.screenshot({ path: join(out, 'card-step-whatif-360.png'), fullPage: true });
    assert.deepEqual(errors, []);
    await context.close();
  });

  await check('where the server offers its app-only open tool the card calls it with the decision id; elsewhere it only copies', async () => {
    const id = result._meta['jevcp/decision'].id;
    // The editor's endpoint names its app-only tool in the decision (src/mcp/app-card.ts); `jevcp serve` has none.
    assert.equal(result._meta['jevcp/decision'].open_tool, undefined, 'jevcp serve offers no open tool');
    const inEditor = { ...result, _meta: { ...result._meta, 'jevcp/decision': { ...result._meta['jevcp/decision'], open_tool: 'jev_open_decision' } } };
    const vs = await render(browser, host, card, { tool: 'jev_step', input, result: inEditor, hostName: 'Visual Studio Code' });
    await vs.frame.locator('#open-panel').click();
    await vs.frame.locator('#open-panel', { hasText: 'Opened in Jev panel' }).waitFor();
    assert.deepEqual(await vs.page.evaluate(() => window.__calledTools), [{ name: 'jev_open_decision', arguments: { id } }]);
    assert.deepEqual(await vs.page.evaluate(() => window.__openedLinks), [], 'no ui/open-link: VS Code refuses non-http(s) links');
    await vs.context.close();
    const other = await render(browser, host, card, { tool: 'jev_step', input, result });
    assert.equal(await other.frame.locator('#open-panel').count(), 0);
    await other.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await other.frame.locator('#copy-json').click();
    await other.frame.locator('#copy-json', { hasText: 'Copied' }).waitFor();
    const copied = JSON.parse(await other.page.evaluate(() => navigator.clipboard.readText()));
    assert.equal(copied.decision.id, id, 'the copied JSON is this decision');
    assert.deepEqual(copied.result, result.structuredContent);
    assert.equal(await other.frame.locator('button').evaluateAll((bs) => bs.map((b) => b.textContent).join('|')), 'Details|Copied');
    await other.context.close();
  });

  await check('jev_gate card lists the claims with their verdicts; a failure reads as no decision', async () => {
    const gateInput = JSON.parse(readFileSync(join(root, 'examples/gate-commit.jev.json'), 'utf8'));
    delete gateInput.tool;
    const gate = await client.callTool({ name: 'jev_gate', arguments: gateInput });
    const g = await render(browser, host, card, { tool: 'jev_gate', input: gateInput, result: gate, theme: 'dark', width: 360 });
    await g.frame.locator('#toggle').click();
    assert.ok((await g.frame.locator('.claim').count()) >= 1, 'claims shown');
    assert.match(await g.frame.locator('.claim').first().innerText(), /verified|contradicted|unsupported/);
    await settle(g.page);
    await g.page.screenshot({ path: join(out, 'card-gate-dark-360.png'), fullPage: true });
    assert.deepEqual(g.errors, []);
    await g.context.close();
    const bad = await client.callTool({ name: 'jev_step', arguments: { task: '' } });
    const b = await render(browser, host, card, { tool: 'jev_step', input: { task: '' }, result: bad });
    assert.match(await b.frame.locator('#verdict').innerText(), /^INVALID_INPUT · no decision \(fails closed\)$/);
    assert.equal(await b.frame.locator('#whatif-banner').count(), 0);
    assert.deepEqual(b.errors, []);
    await b.context.close();
  });

  await check('no CSP violation was reported by any view', async () => {
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(host.violations, []);
  });

  await browser.close();
  await host.close();
  await client.close();
  console.log(lines.join('\n'));
  console.log(`card-check: ${lines.length - failed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
