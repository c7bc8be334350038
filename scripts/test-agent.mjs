#!/usr/bin/env node
// VS Code's own agent loop drives Jev, offline. The packaged .vsix and the test-only scripted model
// (test/agent/scripted-agent, packaged too) are installed into code-server (VS Code 1.139 with Copilot Chat built
// in); Chromium plays the user. A turn in agent mode with every Jev tool enabled must pass Copilot Chat's tool
// validation, call jev_step through VS Code's MCP client, show the decision card in the chat and end; the decision
// must be in the panel's feed, and the card's "Open in Jev panel" must open it. The card's timings in the chat are
// printed ("call confirmed → waiting shell painted", "tool result → decision painted"). Then Guard: the command
// turns it on, a destructive terminal command is denied by the editor's judge (a fake System One), a read is
// allowed by rule, both decisions reach the feed (test/agent/guard-turn.mjs). Screenshots in
// test-results/agent-*.png (light and dark).
// Usage: node scripts/test-agent.mjs [--keep] [--skip-package (reuse out/agent/*.vsix)]
// Exit 0 only when every step passed; the last line is `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const results = path.join(root, 'test-results');
fs.mkdirSync(results, { recursive: true });
const t0 = Date.now();
const say = (msg) => console.log(`[test-agent ${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// 1. The two packages: Jev as users install it, and the scripted model.
const packages = path.join(root, 'out/agent');
const jevVsix = path.join(packages, 'jev-control-panel.vsix');
const agentVsix = path.join(packages, 'jev-scripted-agent.vsix');
if (!argv.includes('--skip-package') || !fs.existsSync(jevVsix) || !fs.existsSync(agentVsix)) {
  fs.mkdirSync(packages, { recursive: true });
  const vsce = path.join(root, 'node_modules/.bin/vsce');
  const steps = [
    [process.execPath, [path.join(root, 'scripts/build.mjs'), '--production'], root],
    [vsce, ['package', '--no-dependencies', '-o', jevVsix], root],
    [vsce, ['package', '--no-dependencies', '--allow-missing-repository', '-o', agentVsix], path.join(root, 'test/agent/scripted-agent')],
  ];
  for (const [cmd, args, cwd] of steps) {
    const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
    if (r.status !== 0) {
      console.error(`${path.basename(cmd)} ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
      process.exit(1);
    }
  }
  say(`packaged ${path.basename(jevVsix)} and ${path.basename(agentVsix)}`);
}

// 2. The host.
const { ensureHost } = await import('./vscode-host/ensure-host.mjs');
if (!ensureHost(say)) {
  console.error('test-agent: the VS Code host could not be installed; see above');
  process.exit(1);
}
const { chromium } = await import('playwright-core');
const { startHost } = await import('./vscode-host/host-server.mjs');
const { quickPick, frameWith } = await import('../test/e2e/workbench.mjs');
const { chromiumPath, CHROMIUM_ARGS } = await import('../test/e2e/harness-server.mjs');
const { stepTurn } = await import('../test/agent/turns.mjs');
const { guardTurn } = await import('../test/agent/guard-turn.mjs');
const { startFakeJudge } = await import('../test/agent/fake-judge.mjs');
const judge = await startFakeJudge();

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'jev-agent-'));
const folder = path.join(scratch, 'workspace');
fs.mkdirSync(path.join(folder, '.vscode'), { recursive: true });
fs.writeFileSync(path.join(folder, '.vscode/settings.json'), JSON.stringify({ 'jevPanel.provider': 'mock' }, null, 2));
fs.writeFileSync(path.join(folder, 'README.md'), '# agent workspace\n');
const scriptFile = path.join(scratch, 'agent-script.json');
const agentLog = path.join(scratch, 'agent-log.jsonl');
fs.writeFileSync(agentLog, '');

const host = await startHost({
  vsix: [jevVsix, agentVsix],
  folder,
  env: { JEV_AGENT_SCRIPT: scriptFile, JEV_AGENT_LOG: agentLog },
  settings: { 'workbench.colorTheme': 'Light Modern', 'chat.mcp.autostart': 'never' },
  keepState: argv.includes('--keep'),
});
const url = `${host.url}/?folder=${encodeURIComponent(folder)}`;
say(`code-server up: ${host.url}`);

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'jev-agent-chrome-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: chromiumPath(),
  headless: true,
  viewport: { width: 1400, height: 1000 },
  args: CHROMIUM_ARGS,
  handleSIGINT: false,
  handleSIGTERM: false,
  handleSIGHUP: false,
});
const page = context.pages()[0] ?? (await context.newPage());
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(e.message));

/** The agent log's entries (test/agent/scripted-agent/extension.js), newest last. */
const agentEvents = () => fs.readFileSync(agentLog, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

let passed = 0;
let failed = 0;
async function step(name, fn) {
  const s = Date.now();
  try {
    await fn();
    passed++;
    say(`ok   ${name} (${Date.now() - s} ms)`);
  } catch (err) {
    failed++;
    say(`FAIL ${name}: ${String(err?.message ?? err).split('\n').slice(0, 10).join('\n       ')}`);
    await page.screenshot({ path: path.join(results, `agent-fail-${name.replace(/\W+/g, '-').slice(0, 40)}.png`) }).catch(() => {});
    throw err;
  }
}

/** Waits until `fn` returns a truthy value (polled every 250 ms) or throws after `ms`, naming `what`. */
async function until(what, fn, ms = 60_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(250);
  }
}

// A loaded 2-core machine needs more than the default 5 s for the palette's rows while the workbench starts.
const patientPick = (p, prefix, text, log) => quickPick(p, prefix, text, log, { timeout: 20_000 });
const ctx = { page, say, step, until, sleep, quickPick: patientPick, frameWith, agentEvents, scriptFile, results, folder, judge, stateDir: host.stateDir };
try {
  await step('workbench loads', async () => {
    // Generous: on a loaded 2-core machine the first load of the workbench takes tens of seconds.
    await page.goto(url, { timeout: 180_000, waitUntil: 'domcontentloaded' });
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 180_000 });
  });
  await step('the built-in chat is enabled (first-run gate) and the scripted model is active', async () => {
    // On a fresh profile the workbench disables the built-in Copilot Chat until chat setup completes; enabling
    // every extension once lifts that (the scripted model offered in agent mode needs no account).
    // The scripted model activates on startup finished: the workbench is then ready for palette commands.
    await until('the scripted model extension to activate', () => agentEvents().some((e) => e.event === 'activate'), 180_000);
    await patientPick(page, '>', 'Extensions: Enable All Extensions', say);
  });
  await stepTurn(ctx);
  await guardTurn(ctx);
} catch {
  // Reported by step(); fall through to cleanup.
} finally {
  await context.close().catch(() => {});
  fs.rmSync(profile, { recursive: true, force: true });
  // A failure keeps what explains it: VS Code's logs (hooks, extension host), the server log and the agent log.
  if (failed > 0) {
    const logs = path.join(results, 'agent-logs');
    fs.rmSync(logs, { recursive: true, force: true });
    for (const [from, to] of [[path.join(host.stateDir, 'user-data', 'logs'), 'vscode'], [path.join(host.stateDir, 'server.log'), 'server.log'], [agentLog, 'agent-log.jsonl']]) {
      try {
        fs.cpSync(from, path.join(logs, to), { recursive: true });
      } catch {
        // Not written: nothing to keep.
      }
    }
    say(`logs of the failed run in ${path.relative(process.cwd(), logs)}`);
  }
  await host.stop();
  await judge.close();
  if (argv.includes('--keep')) say(`kept ${scratch} and ${host.stateDir}`);
  else fs.rmSync(scratch, { recursive: true, force: true });
}
const ours = pageErrors.filter((e) => /jev|decision-card/i.test(e));
if (ours.length) {
  failed++;
  say(`FAIL page errors from Jev:\n       ${ours.join('\n       ')}`);
}
say(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s; screenshots in test-results/agent-*.png`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
