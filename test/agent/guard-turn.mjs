// The Guard turn scripts/test-agent.mjs drives through VS Code's real agent loop (test-only): the extension's
// command turns Guard on for the workspace (.github/hooks/jev-guard.json), the editor judges with a fake System One
// (test/agent/fake-judge.mjs), the scripted model proposes a destructive terminal command and then a file read.
// VS Code runs the hook before each call; the hook (jevcp guard --host vscode) asks the editor through its channel.
import fs from 'node:fs';
import path from 'node:path';

const GUARD_FILE = '.github/hooks/jev-guard.json';

/** Text of the chat view. */
async function chatText(page) {
  return page.locator('.interactive-session').first().innerText().catch(() => '');
}

/** The editor sessions' files of the channel (src/channel/session-file.ts) under the host's state directory. */
function editorSessions(stateDir) {
  const dir = path.join(stateDir, 'xdg-state', 'jev-control-panel', 'editors');
  try {
    return fs.readdirSync(dir).filter((n) => n.endsWith('.json')).map((n) => JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8')));
  } catch {
    return [];
  }
}

/**
 * Guard in VS Code's agent loop: install through the command, a destructive command denied by the editor's
 * judge (the command never runs, VS Code shows the reason), a read allowed by the default rule, both in the feed.
 * `ctx.judge` is the fake judge; `ctx.stateDir` the host's state directory.
 */
export async function guardTurn(ctx) {
  const { page, step, until, quickPick, frameWith, agentEvents, scriptFile, results, say, sleep, folder, judge, stateDir } = ctx;

  await step('the editor judges with a real backend (a fake System One on 127.0.0.1), not the mock', async () => {
    fs.writeFileSync(path.join(folder, '.vscode/settings.json'), JSON.stringify({ 'jevPanel.provider': 'systemone', 'jevPanel.baseUrl': judge.url }, null, 2));
    await until('the editor channel to offer a real judge', () => editorSessions(stateDir).some((s) => s.judge && s.judge.mock === false), 60_000);
  });

  await step(`"Jev: Turn On Guard for VS Code's Agent" asks first, naming ${GUARD_FILE}, and writes it`, async () => {
    await quickPick(page, '>', "Jev: Turn On Guard for VS Code's Agent", say);
    const dialog = page.locator('.monaco-dialog-box', { hasText: GUARD_FILE });
    await dialog.waitFor({ timeout: 30_000 });
    await page.screenshot({ path: path.join(results, 'agent-guard-confirm.png') });
    await dialog.locator('.monaco-button', { hasText: 'Turn On Guard' }).click();
    const file = path.join(folder, GUARD_FILE);
    const text = await until(`${GUARD_FILE} to be written`, () => fs.existsSync(file) && fs.readFileSync(file, 'utf8'), 30_000);
    const hooks = JSON.parse(text).hooks?.PreToolUse ?? [];
    if (!hooks.some((h) => /guard --host vscode/.test(h.command ?? ''))) throw new Error(`${GUARD_FILE} has no PreToolUse hook running jevcp guard --host vscode: ${text}`);
    if (!(JSON.parse(text).hooks?.UserPromptSubmit ?? []).some((h) => /guard --host vscode/.test(h.command ?? ''))) throw new Error(`${GUARD_FILE} has no UserPromptSubmit hook (the user's request): ${text}`);
    say(`     ${GUARD_FILE}: ${hooks.map((h) => h.command).join(' | ').slice(0, 160)}`);
    // The command writes the file again through the workbench at 1 s and 4 s (VS Code's hook discovery can miss
    // a file in a folder just created; src/extension/guard/install-guard-command.ts); a user's next request comes later.
    await sleep(5_000);
  });

  const keep = path.join(folder, 'build', 'keep.txt');
  fs.mkdirSync(path.dirname(keep), { recursive: true });
  fs.writeFileSync(keep, 'the guard must keep this file\n');
  const readme = path.join(folder, 'README.md');
  fs.writeFileSync(scriptFile, JSON.stringify({
    query: 'Tidy the README.',
    steps: [
      { call: 'run_in_terminal', input: { command: 'rm -rf build', explanation: 'Remove the build folder', isBackground: false } },
      { call: 'read_file', input: { filePath: readme, startLine: 1, endLine: 5 } },
      { text: 'guard turn done.' },
    ],
  }));
  const from = agentEvents().length;
  const events = () => agentEvents().slice(from);
  const judgedBefore = judge.count();

  await step('the agent proposes `rm -rf build`: Guard denies it through the editor, VS Code shows the reason, the command never runs', async () => {
    await quickPick(page, '>', 'Jev Test: Run Agent Turn', say);
    await until('the turn to end', async () => {
      const text = await chatText(page);
      const runError = events().find((e) => e.event === 'run-error' || e.event === 'no-tool');
      if (runError) throw new Error(`the turn failed: ${JSON.stringify(runError)}`);
      // A confirmation for the terminal command means the hook did not deny it.
      const confirm = page.locator('.interactive-session .monaco-button', { hasText: /^(Allow|Continue)\b/ }).first();
      if (await confirm.isVisible().catch(() => false)) throw new Error(`VS Code asked to confirm a call the guard should have settled:\n${text.slice(-600)}`);
      return events().some((e) => e.event === 'text');
    }, 180_000);
    if (!fs.existsSync(keep)) throw new Error('the build folder was deleted: the command ran');
    const calls = events().filter((e) => e.event === 'call').map((e) => e.name);
    if (!calls.some((n) => /run_in_terminal$/.test(n))) throw new Error(`the model did not call run_in_terminal: ${calls.join(', ')}`);
    const afterDeny = events().filter((e) => e.event === 'request')[1];
    say(`     the model was told: ${String(afterDeny?.lastResult ?? '').replace(/\s+/g, ' ').slice(0, 200)}`);
    if (!/Jev judged this call: deny \(.*planted_purpose_likely/.test(String(afterDeny?.lastResult ?? ''))) throw new Error(`the model was not told the guard's reason: ${String(afterDeny?.lastResult ?? '(no request)').slice(0, 300)}`);
    // The judge got the user's request (VS Code's transcript, else the prompt the UserPromptSubmit hook kept).
    const permitState = judge.states().find((st) => /rm -rf build/.test(st)) ?? '';
    if (!permitState.includes('Tidy the README.')) throw new Error(`the judge did not get the user's request: ${permitState.slice(0, 400)}`);
    // The finished turn folds its steps ("Finished with 2 steps"); the blocked call inside is one line
    // ("Blocked by Pre-Tool Use hook") that opens to the hook's reason.
    const session = page.locator('.interactive-session');
    const shown = await until('the chat to show the denial and its reason', async () => {
      const found = /Jev judged this call: deny[^\n]*/.exec(await chatText(page))?.[0];
      if (found) return found;
      // Folded, the line is inert and the click fails: unfold first.
      const opened = await session.getByText(/Blocked by Pre-Tool Use hook/).first().click({ timeout: 1_500 }).then(() => true, () => false);
      if (!opened) await session.getByText(/Finished with \d+ steps?/).first().click({ timeout: 1_500 }).catch(() => {});
      return undefined;
    }, 30_000).catch(async () => {
      throw new Error(`the chat does not show the guard's reason:\n${(await chatText(page)).slice(-800)}`);
    });
    await sleep(300);
    await page.screenshot({ path: path.join(results, 'agent-guard-deny.png') });
    say(`     VS Code shows: ${shown.slice(0, 200)}`);
  });

  await step('the file read is allowed by the default rule Read(./**) with no judgment', async () => {
    const afterRead = events().filter((e) => e.event === 'request')[2];
    if (!/agent workspace/.test(String(afterRead?.lastResult ?? ''))) throw new Error(`the model did not get README.md: ${String(afterRead?.lastResult ?? '(no request)').slice(0, 300)}`);
    const judged = judge.count() - judgedBefore;
    if (judged !== 1) throw new Error(`the fake judge was asked ${judged} times; expected once (the terminal command only)`);
  });

  await step('both decisions came through the editor channel and are in the feed with their reasons', async () => {
    await quickPick(page, '>', 'Jev: Open Control Panel', say);
    const feed = await frameWith(page, 'body[data-view="sidebar"] #feed-list .feed-row', 60_000);
    const rows = feed.locator('#feed-list .feed-row');
    const texts = await until('the two guard decisions in the feed', async () => {
      const all = await rows.allInnerTexts();
      const guard = all.filter((t) => /jev_permit|run_in_terminal|read_file/.test(t));
      return guard.some((t) => /deny/.test(t)) && guard.some((t) => /allow/.test(t)) ? guard : undefined;
    }, 30_000);
    for (const t of texts) say(`     feed row: ${t.replace(/\s+/g, ' ').slice(0, 200)}`);
    const places = await until("the status's Guard row to say it is on", async () => {
      const text = await feed.locator('#status [data-key="guard-places"]').innerText().catch(() => '');
      return /on for VS Code's agent \(\.github\/hooks\/jev-guard\.json\)/.test(text) ? text : undefined;
    }, 15_000);
    say(`     status: Guard ${places}`);
    await sleep(300);
    await page.screenshot({ path: path.join(results, 'agent-guard-feed.png') });
  });
}
