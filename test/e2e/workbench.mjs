// Helpers to run a packaged extension in code-server and drive its workbench from headless Chromium
// (test-only; adapted from scripts/vscode-host/start.sh and drive.mjs, which document the pitfalls).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { hostEnv } from '../../scripts/vscode-host/browser.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts code-server on 127.0.0.1 (free port, auth none, fresh state dir, workspace trust off) after
 * installing `vsix` into its empty extensions dir, with `folder` as the workspace. `env` is added to
 * the server's environment (inherited by extension hosts); `theme` is the colour theme. Resolves to { url, stateDir, logFile, stop() }.
 */
export async function startCodeServer({ vsix, folder, env = {}, theme = 'Default Dark Modern' }) {
  const host = hostEnv();
  const port = await freePort();
  // Short path: VS Code's IPC sockets live under TMPDIR (Unix socket paths must stay under 108 bytes).
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'jeve-'));
  for (const d of ['user-data/User', 'extensions', 'xdg-config', 'xdg-data', 'tmp']) fs.mkdirSync(path.join(stateDir, d), { recursive: true });
  fs.writeFileSync(path.join(stateDir, 'config.yaml'), `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  fs.writeFileSync(
    path.join(stateDir, 'user-data/User/settings.json'),
    JSON.stringify({
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'workbench.enableExperiments': false,
      'telemetry.telemetryLevel': 'off',
      'update.mode': 'none',
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'extensions.ignoreRecommendations': true,
      'security.workspace.trust.enabled': false,
      'chat.disableAIFeatures': true,
      'chat.commandCenter.enabled': false,
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'workbench.colorTheme': theme,
    }),
  );
  const childEnv = {
    ...process.env,
    XDG_CONFIG_HOME: path.join(stateDir, 'xdg-config'),
    XDG_DATA_HOME: path.join(stateDir, 'xdg-data'),
    TMPDIR: path.join(stateDir, 'tmp'),
    ...env,
  };
  const base = [
    host.VSCODE_HOST_CODE_SERVER,
    '--config', path.join(stateDir, 'config.yaml'),
    '--user-data-dir', path.join(stateDir, 'user-data'),
    '--extensions-dir', path.join(stateDir, 'extensions'),
  ];
  const install = spawnSync(host.VSCODE_HOST_NODE, [...base, '--install-extension', vsix], { env: childEnv, encoding: 'utf8' });
  if (install.status !== 0) throw new Error(`installing ${vsix} failed:\n${install.stdout}\n${install.stderr}`);
  const logFile = path.join(stateDir, 'server.log');
  const out = fs.openSync(logFile, 'a');
  const child = spawn(
    host.VSCODE_HOST_NODE,
    [...base, '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override', '--ignore-last-opened', folder],
    { detached: true, stdio: ['ignore', out, out], env: childEnv },
  );
  fs.closeSync(out);
  let exited = false;
  child.once('exit', () => (exited = true));
  const alive = () => {
    try {
      process.kill(-child.pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const stop = async () => {
    if (alive()) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      for (let i = 0; i < 50 && alive(); i++) await sleep(100);
      if (alive()) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
    }
    fs.rmSync(stateDir, { recursive: true, force: true });
  };
  const origin = `http://127.0.0.1:${port}`;
  const t0 = Date.now();
  while (Date.now() - t0 < 30_000 && !exited) {
    try {
      if ((await fetch(`${origin}/healthz`)).ok) return { url: `${origin}/?folder=${encodeURIComponent(folder)}`, stateDir, logFile, stop };
    } catch {
      /* not yet */
    }
    await sleep(150);
  }
  const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n') : '';
  await stop();
  throw new Error(`code-server did not come up:\n${tail}`);
}

/**
 * Runs a palette command (prefix '>') or quick-opens a file (prefix ''). The quick input closes itself
 * when focus moves (a toast, a view opening), so each attempt starts afresh; up to 5 attempts.
 */
export async function quickPick(page, prefix, text, log = () => {}) {
  for (let attempt = 1; attempt <= 5; attempt++) {
    try {
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 5000 });
      await input.fill(prefix + text);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first().waitFor({ state: 'visible', timeout: 5000 });
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5000 });
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
