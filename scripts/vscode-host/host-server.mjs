// host-server.mjs: start and stop a throwaway code-server (the real VS Code extension host) from Node,
// for scripts/test-host.mjs and bench/extension.mjs. The same steps as start.sh/stop.sh: a fresh state dir
// (config.yaml, user-data, extensions, XDG dirs, TMPDIR for VS Code's sockets), 127.0.0.1 on a free port,
// auth none, the smoke-test driver flag so the URL payload (extensionDevelopmentPath/extensionTestsPath) is
// honoured, its own process group so stop() ends the server and every extension host it forked.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { hostEnv } from './browser.mjs';

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Quiet, offline user settings; `trust` turns Workspace Trust on (no startup prompt). */
function userSettings(trust, extra) {
  return {
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'security.workspace.trust.enabled': trust,
    'security.workspace.trust.startupPrompt': 'never',
    'security.workspace.trust.emptyWindow': false,
    // Off: VS Code's own MCP client (server definitions, vscode.lm.tools) loads only with AI features on.
    'chat.disableAIFeatures': false,
    'chat.commandCenter.enabled': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    ...extra,
  };
}

/**
 * Starts code-server. Options: `trust` (default false: `--disable-workspace-trust`, every folder trusted;
 * true: Workspace Trust on, so a folder nobody trusted opens in Restricted Mode), `env` (added to the
 * server's environment, which every extension host inherits), `settings` (extra user settings),
 * `keepState` (leave the state dir on stop, for debugging), `vsix` (a path or a list of paths, installed into the
 * fresh extensions dir first),
 * `folder` (the workspace to open).
 * Resolves to { url, port, stateDir, logFile, stop() } once /healthz answers.
 */
export async function startHost({ trust = false, env = {}, settings = {}, keepState = false, vsix, folder } = {}) {
  const host = hostEnv();
  const port = await freePort();
  // Short path: VS Code's IPC sockets live under TMPDIR and a socket path must stay under 108 bytes.
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'jevh-'));
  for (const d of ['user-data/User', 'extensions', 'xdg-config', 'xdg-data', 'xdg-state', 'tmp']) fs.mkdirSync(path.join(stateDir, d), { recursive: true });
  fs.writeFileSync(path.join(stateDir, 'config.yaml'), `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  fs.writeFileSync(path.join(stateDir, 'user-data/User/settings.json'), JSON.stringify(userSettings(trust, settings), null, 2));
  const childEnv = {
    ...process.env,
    XDG_CONFIG_HOME: path.join(stateDir, 'xdg-config'),
    XDG_DATA_HOME: path.join(stateDir, 'xdg-data'),
    // Jev's commit-hook state (launcher, editor channel, approvals) stays inside this run.
    XDG_STATE_HOME: path.join(stateDir, 'xdg-state'),
    TMPDIR: path.join(stateDir, 'tmp'),
    ...env,
  };
  const base = [
    host.VSCODE_HOST_CODE_SERVER,
    '--config', path.join(stateDir, 'config.yaml'),
    '--user-data-dir', path.join(stateDir, 'user-data'),
    '--extensions-dir', path.join(stateDir, 'extensions'),
  ];
  for (const file of vsix === undefined ? [] : [vsix].flat()) {
    const install = spawnSync(host.VSCODE_HOST_NODE, [...base, '--install-extension', file], { env: childEnv, encoding: 'utf8' });
    if (install.status !== 0) {
      if (!keepState) fs.rmSync(stateDir, { recursive: true, force: true });
      throw new Error(`installing ${file} failed:\n${install.stdout}\n${install.stderr}`);
    }
  }
  const logFile = path.join(stateDir, 'server.log');
  const out = fs.openSync(logFile, 'a');
  const args = [
    ...base,
    '--disable-telemetry', '--disable-update-check', '--disable-getting-started-override', '--ignore-last-opened',
    '--vscode-option', 'enable-smoke-test-driver',
    ...(trust ? [] : ['--disable-workspace-trust']),
    ...(folder ? [folder] : []),
  ];
  const child = spawn(host.VSCODE_HOST_NODE, args, {
    detached: true, // own process group: stop() signals the group
    stdio: ['ignore', out, out],
    env: childEnv,
  });
  fs.closeSync(out);
  let exited = false;
  child.once('exit', () => { exited = true; });

  const stop = async () => {
    if (!exited) {
      try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
      for (let i = 0; i < 50 && groupAlive(child.pid); i++) await sleep(100);
      if (groupAlive(child.pid)) { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }
    }
    if (!keepState) fs.rmSync(stateDir, { recursive: true, force: true });
  };

  const url = `http://127.0.0.1:${port}`;
  const t0 = Date.now();
  while (Date.now() - t0 < 30_000) {
    if (exited) break;
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return { url, port, stateDir, logFile, stop };
    } catch { /* not yet */ }
    await sleep(150);
  }
  const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n') : '';
  await stop();
  throw new Error(`code-server did not come up on ${url}:\n${tail}`);
}

function groupAlive(pid) {
  try { process.kill(-pid, 0); return true; } catch { return false; }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
