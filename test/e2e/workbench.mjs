// Helpers to run a packaged extension in code-server and drive its workbench from headless Chromium
// (test-only; adapted from scripts/vscode-host/start.sh and drive.mjs, which document the pitfalls).
import { startHost } from '../../scripts/vscode-host/host-server.mjs';


/**
 * Starts code-server on 127.0.0.1 (free port, auth none, fresh state dir, workspace trust off) after
 * installing `vsix` into its empty extensions dir, with `folder` as the workspace. `env` is added to
 * the server's environment (inherited by extension hosts); `theme` is the colour theme. Resolves to
 * { url (the workbench on `folder`), stateDir, logFile, stop() }. The launcher itself is the host suite's.
 */
export async function startCodeServer({ vsix, folder, env = {}, theme = 'Dark Modern' }) {
  const host = await startHost({ vsix, folder, env, settings: { 'workbench.colorTheme': theme } });
  return { url: `${host.url}/?folder=${encodeURIComponent(folder)}`, stateDir: host.stateDir, logFile: host.logFile, stop: host.stop };
}

/**
 * Runs a palette command (prefix '>') or quick-opens a file (prefix ''). The quick input closes itself
 * when focus moves (a toast, a view opening), so each attempt starts afresh; up to 5 attempts, each waiting
 * up to `timeout` ms for the input and the row.
 */
export async function quickPick(page, prefix, text, log = () => {}, { timeout = 5000 } = {}) {
  for (let attempt = 1; attempt <= 5; attempt++) {
    try {
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout });
      await input.fill(prefix + text);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first().waitFor({ state: 'visible', timeout });
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout });
      log(`ran: ${text}${attempt > 1 ? ` (attempt ${attempt})` : ''}`);
      return;
    } catch (e) {
      log(`quick input attempt ${attempt} for "${text}" failed: ${e.message.split('\n')[0]}`);
      await page.keyboard.press('Escape').catch(() => {});
      await page.waitForTimeout(500);
    }
  }
  throw new Error(`could not run "${text}" from the command palette`);
}

/** The first frame (webviews are nested iframes) in which `selector` matches; polls until `timeout` ms. */
export async function frameWith(page, selector, timeout = 30_000) {
  const end = Date.now() + timeout;
  while (Date.now() < end) {
    for (const f of page.frames()) {
      try {
        if (await f.$(selector)) return f;
      } catch {
        /* the frame went away */
      }
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`no frame contains ${selector} after ${timeout} ms`);
}
