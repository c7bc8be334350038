#!/usr/bin/env node
// Browser screenshots of the inline editor surfaces, offline: the packaged extension in
// code-server, driven from Debian Chromium through playwright-core, judged by the mock.
//   1. a request file: open examples/parser-fix.jev.json, click its "Run jev_step" CodeLens, wait for the
//      decision lens (execute_tool · auto · …) and the after-line decorations → inline-request.png, then
//      hover the blocked candidate → inline-hover.png;
//   2. the commit gate: the workspace is a git repository with a staged change; type the commit message in
//      the Source Control input, click "Gate Staged Changes" in its title bar, wait for the verdict
//      notification → gate-verdict.png.
// Screenshots go to test-results/; with --docs the two README ones are also copied to docs/images/.
// Each step checks what it waits for, so the script fails (exit 1) instead of taking a wrong picture.
// Usage: node scripts/screenshots-inline.mjs [--docs] [--keep] [--theme "Default Light Modern"]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const out = path.join(root, 'test-results');
fs.mkdirSync(out, { recursive: true });
const t0 = Date.now();
const say = (msg) => console.log(`[screenshots-inline ${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { cwd: root, encoding: 'utf8', ...opts });

// 1. Build for production and package, as a user installs it.
if (run(process.execPath, [path.join(root, 'scripts/build.mjs'), '--production'], { stdio: 'inherit' }).status !== 0) process.exit(1);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'jev-shots-'));
const vsix = path.join(scratch, 'jev-control-panel.vsix');
let r = run(path.join(root, 'node_modules/.bin/vsce'), ['package', '--no-dependencies', '-o', vsix]);
if (r.status !== 0) {
  console.error(`vsce package failed:\n${r.stdout}\n${r.stderr}`);
  process.exit(1);
}
say(`packaged ${path.basename(vsix)}`);

// 2. The workspace: a git repository with one commit, a staged change and a request file.
const folder = path.join(scratch, 'calc');
fs.mkdirSync(path.join(folder, '.vscode'), { recursive: true });
const git = (...args) => {
  const g = spawnSync('git', args, { cwd: folder, encoding: 'utf8' });
  if (g.status !== 0) throw new Error(`git ${args.join(' ')}: ${g.stderr}`);
};
git('init', '-q', '-b', 'main');
git('config', 'user.name', 'Jev Screenshots');
git('config', 'user.email', 'screenshots@example.invalid');
fs.writeFileSync(path.join(folder, 'math.js'), 'export function add(a, b) {\n  return a + b;\n}\n');
fs.writeFileSync(path.join(folder, '.gitignore'), '.vscode/\n');
git('add', '.');
git('commit', '-q', '-m', 'Add add()');
fs.writeFileSync(path.join(folder, 'math.js'), 'export function add(a, b) {\n  return a + b;\n}\n\nexport function sub(a, b) {\n  return a - b;\n}\n');
fs.writeFileSync(
  path.join(folder, 'math.test.js'),
  "import { add, sub } from './math.js';\nif (add(2, 3) !== 5) throw new Error('add');\nif (sub(5, 3) !== 2) throw new Error('sub');\nconsole.log('2 passing: add adds, sub subtracts the second argument from the first');\n",
);
fs.writeFileSync(path.join(folder, 'package.json'), '{ "type": "module" }\n');
git('add', 'math.js', 'math.test.js', 'package.json');
fs.copyFileSync(path.join(root, 'examples/parser-fix.jev.json'), path.join(folder, 'parser-fix.jev.json'));
fs.writeFileSync(
  path.join(folder, '.vscode/settings.json'),
  JSON.stringify({ 'jevPanel.provider': 'mock', 'jevPanel.gate.evidenceCommand': `"${process.execPath}" math.test.js`, 'git.openRepositoryInParentFolders': 'always' }, null, 2),
);

// 3. code-server with the .vsix, and Chromium.
const { ensureHost } = await import('./vscode-host/ensure-host.mjs');
if (!ensureHost(say)) {
  console.error('screenshots-inline: the VS Code host could not be installed; see above');
  process.exit(1);
}
const { chromium } = await import('playwright-core');
const { startCodeServer, quickPick } = await import('../test/e2e/workbench.mjs');
const { chromiumPath, CHROMIUM_ARGS } = await import('../test/e2e/harness-server.mjs');
const themeAt = argv.indexOf('--theme');
const server = await startCodeServer({ vsix, folder, ...(themeAt >= 0 ? { theme: argv[themeAt + 1] } : {}) });
say(`code-server up: ${server.url}`);
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'jev-shots-chrome-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: chromiumPath(),
  headless: true,
  viewport: { width: 1600, height: 1000 },
  args: CHROMIUM_ARGS,
  handleSIGINT: false,
  handleSIGTERM: false,
  handleSIGHUP: false,
});
const page = context.pages()[0] ?? (await context.newPage());

let failed = false;
async function step(name, fn) {
  const s = Date.now();
  try {
    await fn();
    say(`ok   ${name} (${Date.now() - s} ms)`);
  } catch (err) {
    failed = true;
    say(`FAIL ${name}: ${err.message.split('\n').slice(0, 8).join('\n       ')}`);
    await page.screenshot({ path: path.join(out, `shots-fail-${name.replace(/\W+/g, '-').slice(0, 40)}.png`) }).catch(() => {});
    throw err;
  }
}

/** A CodeLens link of the active editor whose text matches `re`. */
const lens = (re) => page.locator('.monaco-editor .codelens-decoration a', { hasText: re }).first();

try {
  await step('workbench loads', async () => {
    await page.goto(server.url);
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });
  });
  await step('the request file shows "Run jev_step" once Jev is active', async () => {
    // Opening the panel activates the extension (activation is lazy); the feed then shows the run too.
    await quickPick(page, '>', 'Jev: Open Control Panel', say);
    await quickPick(page, '', 'parser-fix.jev.json', say);
    await lens(/Run jev_step/).waitFor({ timeout: 60_000 });
  });
  await step('clicking the lens runs jev_step and shows the decision inline', async () => {
    await lens(/Run jev_step/).click();
    await lens(/execute_tool · auto · selected [\w-]+: confidence 0\.\d\d\d? ≥ dispatch_at 0\.80/).waitFor({ timeout: 60_000 });
    // After-line decorations render as ::after content on the candidate lines.
    await page.waitForFunction(
      () => [...document.querySelectorAll('.monaco-editor .view-lines span[class*="ced-"]')].some((el) => /blocked: not_authorized/.test(getComputedStyle(el, '::after').content)),
      undefined,
      { timeout: 30_000 },
    );
    await page.keyboard.press('Escape');
    await page.waitForTimeout(800);
    await page.screenshot({ path: path.join(out, 'inline-request.png') });
  });
  await step('hovering the blocked candidate explains its reason code', async () => {
    const line = page.locator('.monaco-editor .view-line', { hasText: '"id": "reset-branch"' }).first();
    await line.hover({ position: { x: 60, y: 8 } });
    await page.locator('.monaco-hover', { hasText: 'not authorized' }).first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(out, 'inline-hover.png') });
    await page.keyboard.press('Escape');
  });
  await step('Gate Staged Changes shows the verdict', async () => {
    // The Source Control icon of the activity bar (its label carries the pending-changes count).
    await page.locator('.activitybar .action-item a[aria-label^="Source Control"], .activitybar .action-item[aria-label^="Source Control"]').first().click();
    const input = page.locator('.scm-editor .monaco-editor, .scm-input .monaco-editor').first();
    await input.waitFor({ timeout: 60_000 });
    // The staged diff of math.js beside the verdict, instead of the request file.
    await quickPick(page, '>', 'View: Close All Editors', say);
    await page.locator('.scm-view .monaco-list-row', { hasText: 'math.js' }).first().click();
    await page.locator('.monaco-diff-editor').first().waitFor({ timeout: 30_000 });
    await input.click();
    await page.keyboard.type('Add sub() to math');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('- sub subtracts the second argument from the first');
    await page.keyboard.press('Enter');
    await page.keyboard.type('- the math tests pass');
    const button = page.locator('.action-label[aria-label="Gate Staged Changes"], .action-label[title="Gate Staged Changes"]').first();
    if (await button.count()) await button.click();
    else await quickPick(page, '>', 'Jev: Gate Staged Changes', say);
    // Some workbench builds show a new notification only as the bell's dot, with no toast: then open the
    // notification centre, which lists it.
    const verdict = page.locator('.notification-toast, .notifications-center .notification-list-item', { hasText: 'Jev gate' }).first();
    await page.locator('[id="status.notifications"] .codicon-bell-dot, .notification-toast').first().waitFor({ timeout: 120_000 });
    if (!(await page.locator('.notification-toast', { hasText: 'Jev gate' }).count())) await quickPick(page, '>', 'Notifications: Show Notifications', say);
    await verdict.waitFor({ timeout: 30_000 });
    await page.waitForTimeout(800);
    await page.screenshot({ path: path.join(out, 'gate-verdict.png') });
  });
} catch {
  // Reported by step(); fall through to cleanup.
} finally {
  await context.close().catch(() => {});
  fs.rmSync(profile, { recursive: true, force: true });
  await server.stop();
  if (argv.includes('--keep')) say(`kept ${scratch}`);
  else fs.rmSync(scratch, { recursive: true, force: true });
}
if (!failed && argv.includes('--docs')) {
  fs.mkdirSync(path.join(root, 'docs/images'), { recursive: true });
  for (const f of ['inline-request.png', 'gate-verdict.png']) fs.copyFileSync(path.join(out, f), path.join(root, 'docs/images', f));
  say('copied inline-request.png and gate-verdict.png to docs/images/');
}
say(failed ? 'failed; see test-results/shots-fail-*.png' : 'done; screenshots in test-results/');
process.exit(failed ? 1 : 0);
