#!/usr/bin/env node
// Fast browser checks of the panel webview on the static harness (headless Chromium, playwright-core):
// strict CSP holds, the feed renders real records, a decision's detail explains it, the what-if slider
// changes the handoff, UI state survives a reload, filters, servers (restart), grants (toggle), a
// 10 000-row feed stays virtualized, and the decision-panel view. Screenshots go to test-results/.
// Usage: node test/e2e/harness-check.mjs   (needs a build: node scripts/build.mjs)
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath, startHarness } from './harness-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const out = join(root, 'test-results');
mkdirSync(out, { recursive: true });

const harness = await startHarness({ root });
const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
let failed = 0;
const results = [];

async function check(name, fn) {
  const t0 = Date.now();
  try {
    await fn();
    results.push(`ok   ${name} (${Date.now() - t0} ms)`);
  } catch (err) {
    failed++;
    results.push(`FAIL ${name}: ${err.message.split('\n').slice(0, 6).join('\n     ')}`);
  }
}

async function open(params, viewport = { width: 420, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(harness.url(params));
  await page.locator('#app').waitFor();
  return { page, context, errors };
}

const stepRecord = harness.records.find((r) => r.tool === 'jev_step' && Array.isArray(r.input?.candidates) && r.result);
const gateRecord = harness.records.find((r) => r.tool === 'jev_gate');

await check('sidebar renders the feed under the strict CSP, with the mock warning', async () => {
  const { page, context, errors } = await open({});
  await page.locator('#feed-list .feed-row').first().waitFor();
  assert.equal(await page.locator('#feed-list .feed-row').count(), harness.records.length);
  assert.match(await page.locator('#health-banner').innerText(), /Mock judge/);
  assert.match(await page.locator('#status').innerText(), /mock/);
  await page.screenshot({ path: join(out, 'harness-feed.png') });
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  assert.deepEqual(errors, []);
  await context.close();
});

await check('detail explains a jev_step decision; what-if moves the handoff; state survives a reload', async () => {
  assert.ok(stepRecord, 'a jev_step record with candidates exists');
  const { page, context, errors } = await open({});
  await page.locator(`[data-id="${stepRecord.id}"]`).click();
  await page.locator('#detail').waitFor();
  const recorded = stepRecord.result.handoff;
  assert.match(await page.locator('#detail-badges').innerText(), new RegExp(recorded));
  for (const code of stepRecord.result.reason_codes) {
    const li = page.locator(`.section-why li[data-code="${code}"]`);
    assert.ok((await li.locator('.reason-text').innerText()).length > 10, `${code} is explained`);
  }
  assert.equal(await page.locator('table.candidates tbody tr').count(), stepRecord.input.candidates.length);
  assert.equal(await page.locator('.judgment .question').count(), Object.keys(stepRecord.questions).length);
  // Move auto_accept up with the keyboard until the recomputed handoff differs.
  const slider = page.locator('#whatif-auto_accept');
  await page.locator('.whatif-diff').waitFor();
  await slider.focus();
  let moved = 0;
  while (moved < 20 && !(await page.locator('.whatif-diff tr[data-key="handoff"].changed').count())) {
    await page.keyboard.press('ArrowRight');
    moved++;
    await page.waitForTimeout(120);
  }
  const after = await page.locator('.whatif-diff tr[data-key="handoff"] td.after').innerText();
  assert.notEqual(after, recorded, `handoff changed after ${moved} steps`);
  const value = await slider.inputValue();
  await page.locator('#detail').screenshot({ path: join(out, 'harness-whatif.png') });
  await page.screenshot({ path: join(out, 'harness-detail.png') });
  await page.waitForTimeout(300); // setState is debounced
  await page.reload();
  await page.locator('#detail').waitFor();
  assert.equal(await page.locator('#whatif-auto_accept').inputValue(), value, 'slider restored');
  await page.locator('.whatif-diff tr[data-key="handoff"].changed').waitFor();
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  assert.deepEqual(errors, []);
  await context.close();
});

await check("a jev_screen decision: what-if on the screen's own review_at (recorded 0.25) and block_at, each pushing the other", async () => {
  const screen = harness.records.find((r) => r.tool === 'jev_screen' && r.result);
  assert.ok(screen, 'the examples hold a jev_screen record');
  const { page, context, errors } = await open({});
  await page.locator(`[data-id="${screen.id}"]`).click();
  await page.locator('.whatif-diff').waitFor();
  assert.match(await page.locator('label[for="whatif-review_at"]').innerText(), /review_at \(recorded 0\.25\)/);
  assert.equal(await page.locator('#whatif-auto_accept').count(), 0, 'jev_screen reads no auto_accept');
  const set = (id, v) => page.locator(id).evaluate((el, value) => {
    el.value = value;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, v);
  await set('#whatif-review_at', '0.99');
  assert.equal(await page.locator('#whatif-block_at').inputValue(), '0.99', 'block_at follows review_at up');
  await page.locator('.whatif-diff tr.changed').first().waitFor();
  await set('#whatif-block_at', '0.1');
  assert.equal(await page.locator('#whatif-review_at').inputValue(), '0.1', 'review_at follows block_at down');
  await page.waitForTimeout(300);
  assert.equal(await page.locator('.whatif-out .error-text').count(), 0, 'no threshold-order error');
  await page.locator('#detail').screenshot({ path: join(out, 'harness-screen-whatif.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

await check('filters, keyboard, sample step, servers restart, grant toggle', async () => {
  const { page, context, errors } = await open({});
  await page.locator('#feed-list .feed-row').first().waitFor();
  // Keyboard: the list is one tab stop; arrows move the selection, Enter opens, Back returns.
  await page.locator('#feed-list').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const second = await page.locator('#feed-list .feed-row').nth(1).getAttribute('data-id');
  assert.equal(await page.locator('#feed-list').getAttribute('aria-activedescendant'), `row-${second}`);
  await page.keyboard.press('Enter');
  await page.locator(`#detail[data-id="${second}"]`).waitFor();
  await page.locator('#detail-back').click();
  await page.locator('#feed-list .feed-row.selected').waitFor();
  await page.selectOption('#filter-action', 'error');
  await page.waitForTimeout(50);
  const errorsShown = await page.locator('#feed-list .feed-row').count();
  assert.equal(errorsShown, harness.records.filter((r) => r.error).length);
  await page.selectOption('#filter-action', '');
  await page.locator('#filter-text').click();
  await page.keyboard.type('jev_gate');
  await page.waitForTimeout(300);
  assert.equal(await page.locator('#feed-list .feed-row').count(), harness.records.filter((r) => r.tool === 'jev_gate').length);
  await page.locator('#status vscode-button', { hasText: 'Run sample step' }).click();
  await page.waitForFunction(() => window.__hostLog.some((m) => m.type === 'runSampleStep'));
  await page.locator('#feed-count', { hasText: `of ${harness.records.length + 1}` }).waitFor();

  await page.locator('[data-tab="tab-servers"]').click();
  await page.locator('.server-error .server-reason').waitFor();
  assert.match(await page.locator('.server-error .server-reason').innerText(), /exited with code 1/);
  await page.screenshot({ path: join(out, 'harness-servers.png') });
  await page.locator('[data-server="flaky"] vscode-button', { hasText: 'Restart' }).click();
  await page.waitForFunction(() => window.__hostLog.some((m) => m.type === 'restartServer' && m.name === 'flaky'));
  await page.locator('[data-tab="tab-agents"]').click();
  const row = page.locator('[data-agent="editor"] tr[data-tool="filesystem/write_file"]');
  assert.match(await row.locator('.why').innerText(), /denied by "!filesystem\/write_file"/);
  await row.locator('vscode-checkbox').click();
  await page.waitForFunction(() => window.__hostLog.some((m) => m.type === 'toggleGrant' && m.enabled === true));
  await page.locator('[data-agent="editor"] tr[data-tool="filesystem/write_file"]:not(.denied)').waitFor();
  assert.match(await page.locator('[data-agent="editor"] tr[data-tool="filesystem/write_file"] .why').innerText(), /allowed by/);
  await page.screenshot({ path: join(out, 'harness-agents.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

await check('servers: not started and disabled are neutral, the Enabled switch; agents: grant all / read-only per server', async () => {
  const { page, context, errors } = await open({});
  await page.locator('[data-tab="tab-servers"]').click();
  const lazy = page.locator('li[data-server="lazy"]');
  await lazy.waitFor();
  assert.match(await lazy.locator('.server-head').innerText(), /not started/);
  assert.equal(await lazy.locator('.server-reason-problem').count(), 0, 'a server not started yet is not drawn as a problem');
  assert.equal(await lazy.locator('.server-reason-note').count(), 1);
  assert.equal(await page.locator('li[data-server="off"] .server-reason-problem').count(), 0);
  // A working server's warning (stray stdout lines) is shown, without turning the row into an error.
  const warned = page.locator('li.server-ready[data-server="filesystem"] .server-warning');
  assert.match(await warned.innerText(), /non-JSON-RPC lines skipped/);
  assert.equal(await page.locator('li[data-server="off"] vscode-button', { hasText: 'Restart' }).count(), 0, 'a disabled server offers no Restart');
  await page.locator('li[data-server="off"] vscode-checkbox.server-enabled').click();
  await page.waitForFunction(() => window.__hostLog.some((m) => m.type === 'setServerEnabled' && m.name === 'off' && m.enabled === true));
  await page.locator('li.server-not-started[data-server="off"]').waitFor();
  await lazy.locator('vscode-checkbox.server-enabled').click();
  await page.waitForFunction(() => window.__hostLog.some((m) => m.type === 'setServerEnabled' && m.name === 'lazy' && m.enabled === false));
  await page.locator('li.server-disabled[data-server="lazy"]').waitFor();
  await page.screenshot({ path: join(out, 'harness-servers-switch.png') });

  await page.locator('[data-tab="tab-agents"]').click();
  const shortcuts = page.locator('[data-agent="editor"] .server-grants li[data-server="filesystem"]');
  await shortcuts.waitFor();
  assert.match(await page.locator('[data-agent="editor"] tr[data-tool="filesystem/read_file"]').innerText(), /read-only/);
  await shortcuts.locator('vscode-button', { hasText: 'Grant read-only' }).click();
  await page.waitForFunction(() => window.__hostLog.some((m) => m.type === 'grantServer' && m.server === 'filesystem' && m.mode === 'readOnly'));
  await page.locator('[data-agent="editor"] tr.denied[data-tool="filesystem/edit_file"]').waitFor();
  await page.locator('[data-agent="editor"] tr[data-tool="filesystem/read_file"]:not(.denied)').waitFor();
  await shortcuts.locator('vscode-button', { hasText: 'Grant all' }).click();
  await page.waitForFunction(() => window.__hostLog.some((m) => m.type === 'grantServer' && m.server === 'filesystem' && m.mode === 'all'));
  await page.locator('[data-agent="editor"] tr[data-tool="filesystem/edit_file"]:not(.denied)').waitFor();
  await page.screenshot({ path: join(out, 'harness-agents-shortcuts.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

await check('guard: status names where it is on with a Turn off link; a jev_permit row shows the call and the decision; the hook agent shows its rules', async () => {
  const { page, context, errors } = await open({});
  const places = page.locator('#status [data-key="guard-places"]');
  await places.waitFor();
  assert.match(await places.innerText(), /on for VS Code's agent \(\.github\/hooks\/jev-guard\.json\)/);
  const permit = harness.records.find((r) => r.tool === 'jev_permit');
  assert.ok(permit, 'the fixtures hold a jev_permit record');
  const row = page.locator(`#feed-list .feed-row[data-id="${permit.id}"]`);
  await row.waitFor();
  const text = await row.innerText();
  assert.match(text, /jev_permit/);
  assert.match(text, new RegExp(`→ ${permit.result.decision}`));
  assert.match(text, /run_in_terminal: rm -rf build/);
  assert.match(text, new RegExp(permit.result.reason_codes[0]));
  await page.screenshot({ path: join(out, 'harness-guard-feed.png') });
  await page.locator('[data-tab="tab-agents"]').click();
  const agent = page.locator('li.hook-agent[data-agent="vscode"]');
  await agent.waitFor();
  assert.match(await agent.innerText(), /guard hook of VS Code's agent/);
  assert.match(await agent.locator('[data-rules="deny"]').innerText(), /Bash\(git push --force\*\)/);
  assert.match(await agent.locator('[data-rules="allow"]').innerText(), /Read\(\.\/\*\*\)/);
  assert.equal(await agent.locator('vscode-checkbox, .chip-remove').count(), 0, 'hook agents are edited in .jev/config.json, not toggled here');
  await page.screenshot({ path: join(out, 'harness-guard-agents.png') });
  await page.locator('[data-tab="tab-decisions"]').click();
  await page.locator('#status a[data-key="guardOff"]').click();
  await page.waitForFunction(() => window.__hostLog.some((m) => m.type === 'command' && m.command === 'guardOff'));
  await page.locator('#status a[data-key="guardOn"]').waitFor();
  assert.match(await places.innerText(), /^off/);
  assert.deepEqual(errors, []);
  await context.close();
});

await check('10 000 rows: counted, virtualized, scroll to the end', async () => {
  const { page, context, errors } = await open({ rows: '10000' });
  await page.locator('#feed-list .feed-row').first().waitFor();
  const total = 10000;
  assert.match(await page.locator('#feed-count').innerText(), new RegExp(`${total}`));
  const inDom = await page.locator('#feed-list .feed-row').count();
  assert.ok(inDom > 10 && inDom < 60, `${inDom} rows in the DOM`);
  // Rows arriving while the user reads further down do not move what they are reading.
  await page.locator('#feed-list').evaluate((el) => (el.scrollTop = 44 * 300));
  await page.waitForTimeout(100);
  const firstVisible = () =>
    page.locator('#feed-list').evaluate((el) => {
      const top = el.getBoundingClientRect().top;
      return [...el.querySelectorAll('.feed-row')].find((r) => r.getBoundingClientRect().bottom > top + 1)?.dataset.id;
    });
  const before = await firstVisible();
  await page.evaluate(() => {
    const proto = window.__harness.fixtures.records[0];
    const rows = [1, 2, 3].map((i) => ({ ...window.__harness.feedRowOf(proto), id: `live-${i}`, time: new Date(Date.now() + i).toISOString() }));
    window.__harness.toWebview({ type: 'feedAppend', rows });
  });
  await page.waitForTimeout(200);
  assert.equal(await firstVisible(), before, 'the first visible row stayed in place');
  await page.locator('#feed-list').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await page.locator(`#feed-list .feed-row[aria-posinset="${total}"]`).waitFor();
  assert.ok((await page.locator('#feed-list .feed-row').count()) < 60);
  assert.deepEqual(errors, []);
  await context.close();
});

await check('decision panel view renders one decision (jev_gate) with its claims', async () => {
  assert.ok(gateRecord, 'a jev_gate record exists');
  const { page, context, errors } = await open({ view: 'decision', id: gateRecord.id }, { width: 1000, height: 1100 });
  await page.locator('#detail').waitFor();
  assert.equal(await page.locator('#feed-list').count(), 0);
  assert.equal(await page.locator('table.claims tbody tr').count(), gateRecord.input.claims.length);
  await page.screenshot({ path: join(out, 'harness-decision-panel.png'), fullPage: true });
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  assert.deepEqual(errors, []);
  await context.close();
});

await browser.close();
await harness.close();
console.log(results.join('\n'));
console.log(`harness: ${results.length - failed} passed, ${failed} failed; screenshots in test-results/`);
process.exit(failed ? 1 : 0);
