// The agent turns scripts/test-agent.mjs drives through VS Code's real agent loop (test-only). Each turn writes
// the scripted model's script (test/agent/scripted-agent/extension.js), starts the turn from the palette, answers
// VS Code's confirmations as a user would, and checks what VS Code and Jev showed.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
/** Every judgment tool the editor agent is granted by default: all of them must reach the model. */
const JEV_TOOLS = pkg.contributes.configuration.properties['jevPanel.agents'].default.find((a) => a.name === 'editor').tools;
const { tool: _tool, ...STEP_INPUT } = JSON.parse(fs.readFileSync(path.join(root, 'examples/parser-fix.jev.json'), 'utf8'));

/** Switches VS Code to colour theme `name` through the scripted model's extension (the script's `theme`). */
export function colorTheme({ scriptFile }, name) {
  const script = JSON.parse(fs.readFileSync(scriptFile, 'utf8'));
  fs.writeFileSync(scriptFile, JSON.stringify({ ...script, theme: name }));
}

/** Text of the chat view. */
async function chatText(page) {
  return page.locator('.interactive-session').first().innerText().catch(() => '');
}

/** The frame of the decision card in the chat that shows a verdict, if any. */
async function cardFrame(page) {
  for (const f of page.frames()) {
    try {
      if (await f.$('article.card #verdict')) return f;
    } catch {
      /* the frame went away */
    }
  }
  return undefined;
}

/**
 * Clicks VS Code's confirmation buttons in the chat (Allow / Continue) while `done()` is false; returns the times
 * (browser clock, ms since the epoch) of the clicks. Fails at once on a tool validation error or on an
 * "Approve Tool Result" step (the jev tools are not open-world: docs/decisions.md).
 */
async function answerConfirmations(ctx, done, ms) {
  const { page, until, say } = ctx;
  const clicks = [];
  await until(
    'the agent turn to end',
    async () => {
      const text = await chatText(page);
      const invalid = /Failed to validate tool[^\n]*/.exec(text);
      if (invalid) throw new Error(`VS Code refused a tool: ${invalid[0]}`);
      if (/Approve Tool Result|Review the tool result/i.test(text)) throw new Error('VS Code asked to approve a Jev tool result');
      const button = page.locator('.interactive-session .monaco-button', { hasText: /^(Allow|Continue)\b/ }).first();
      if (await button.isVisible().catch(() => false)) {
        const at = await page.evaluate(() => Date.now());
        await button.click().catch(() => undefined);
        clicks.push(at);
        say(`     clicked "${(await button.innerText().catch(() => '?')).trim()}" in the chat`);
      }
      return done();
    },
    ms,
  );
  return clicks;
}

/**
 * One agent turn: "judge the next step" → the scripted model calls jev_step with the parser-fix request → the
 * card renders in the chat → the model ends the turn.
 */
export async function stepTurn(ctx) {
  const { page, step, until, quickPick, frameWith, agentEvents, scriptFile, results, say, sleep } = ctx;
  fs.writeFileSync(scriptFile, JSON.stringify({ query: 'Judge the next step of the parser fix with jev_step.', steps: [{ call: 'jev_step', input: STEP_INPUT }, { text: 'jev_step answered; done.' }] }));
  const from = agentEvents().length;
  const events = () => agentEvents().slice(from);
  let confirmations = [];
  let decisionId;

  await step('an agent turn with every Jev tool enabled passes VS Code\'s tool validation and reaches the model', async () => {
    await quickPick(page, '>', 'Jev Test: Run Agent Turn', say);
    const request = await until('the first model request', async () => {
      const text = await chatText(page);
      const invalid = /Failed to validate tool[^\n]*/.exec(text);
      if (invalid) throw new Error(`VS Code refused a tool before calling the model: ${invalid[0]}`);
      const runError = events().find((e) => e.event === 'run-error');
      if (runError) throw new Error(`the turn did not start: ${runError.message}`);
      return events().find((e) => e.event === 'request');
    }, 120_000);
    const missing = JEV_TOOLS.filter((t) => !request.tools.some((n) => n === t || n.endsWith(`_${t}`)));
    if (missing.length) throw new Error(`the model was not offered ${missing.join(', ')} (offered: ${request.tools.join(', ')})`);
    say(`     the model was offered ${request.tools.length} tools, all ${JEV_TOOLS.length} Jev tools among them`);
  });

  await step('the agent calls jev_step through VS Code\'s MCP client and the turn ends', async () => {
    confirmations = await answerConfirmations(ctx, () => events().some((e) => e.event === 'text'), 120_000);
    const call = events().find((e) => e.event === 'call');
    if (!call || !/jev_step$/.test(call.name)) throw new Error(`no jev_step call in the agent log: ${JSON.stringify(events().map((e) => e.event))}`);
    const answered = events().find((e) => e.event === 'request' && e.toolResults === 1);
    if (!answered?.lastResult) throw new Error('the model never saw the tool result');
    const result = JSON.parse(answered.lastResult);
    if (typeof result.handoff !== 'string') throw new Error(`the tool result has no handoff: ${answered.lastResult.slice(0, 300)}`);
    say(`     jev_step answered handoff ${result.handoff} (${result.action}); the model saw it and ended the turn`);
    await until('the final answer in the chat', async () => /jev_step answered; done\./.test(await chatText(page)), 30_000);
  });

  let card;
  await step('the decision card renders in the chat, and its timings there', async () => {
    card = await until('the decision card in the chat', () => cardFrame(page), 60_000);
    await until('the card to paint the decision', () => card.evaluate(() => document.documentElement.dataset.painted !== undefined), 30_000);
    const t = await card.evaluate(() => ({
      origin: performance.timeOrigin,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      resultAt: Number(document.documentElement.dataset.resultAt),
      painted: Number(document.documentElement.dataset.painted),
      verdict: document.getElementById('verdict')?.textContent ?? '',
    }));
    const call = events().find((e) => e.event === 'call');
    const confirmed = confirmations[0] ?? call.t;
    const shell = t.fcp === undefined ? undefined : t.origin + t.fcp - confirmed;
    const paint = t.painted - t.resultAt;
    say(`     verdict: ${t.verdict}`);
    say(`     card timings in VS Code's chat: call ${confirmations.length ? 'confirmed' : 'started (no confirmation asked)'} → waiting shell painted ${shell === undefined ? 'n/a' : `${shell.toFixed(0)} ms`}; tool result → decision painted ${paint.toFixed(1)} ms`);
    // Printed, not asserted: speed goals live in benchmarks (the goal, within 100 ms, is judged from these lines).
    if (!(paint >= 0)) throw new Error(`the card's marks are out of order: result at ${t.resultAt}, painted at ${t.painted}`);
    const part = page.locator('.mcp-app-part').first();
    await part.scrollIntoViewIfNeeded().catch(() => undefined);
    await sleep(500);
    await part.screenshot({ path: path.join(results, 'agent-card-light.png') });
    await page.screenshot({ path: path.join(results, 'agent-chat-light.png') });
  });

  await step('the card follows VS Code\'s theme (dark)', async () => {
    const before = await card.evaluate(() => getComputedStyle(document.body).backgroundColor + '|' + getComputedStyle(document.body).color);
    colorTheme(ctx, 'Dark Modern');
    await until('the workbench to turn dark', () => page.locator('.monaco-workbench.vs-dark').count(), 30_000);
    const after = await until('the card to follow', async () => {
      const now = await card.evaluate(() => getComputedStyle(document.body).backgroundColor + '|' + getComputedStyle(document.body).color);
      return now !== before ? now : undefined;
    }, 15_000);
    say(`     card colours ${before} → ${after}`);
    await sleep(500);
    await page.locator('.mcp-app-part').first().screenshot({ path: path.join(results, 'agent-card-dark.png') });
    await page.screenshot({ path: path.join(results, 'agent-chat-dark.png') });
  });

  await step('the decision is in the panel\'s feed, from agent editor', async () => {
    await quickPick(page, '>', 'Jev: Open Control Panel', say);
    const feed = await frameWith(page, 'body[data-view="sidebar"] #feed-list .feed-row', 60_000);
    const row = feed.locator('#feed-list .feed-row', { hasText: 'jev_step' }).first();
    const text = await row.innerText();
    if (!/editor/.test(text)) throw new Error(`the feed row does not name agent editor: ${text}`);
    decisionId = await row.getAttribute('data-id');
    say(`     feed row: ${text.replace(/\s+/g, ' ').slice(0, 160)}`);
  });

  await step('"Open in Jev panel" in the card opens that decision', async () => {
    await page.locator('.mcp-app-part').first().scrollIntoViewIfNeeded().catch(() => undefined);
    await card.locator('#open-panel').click();
    await until('the button to report the panel opened', async () => /Opened in Jev panel/.test(await card.locator('#open-panel').innerText()), 20_000).catch(async (err) => {
      throw new Error(`${err.message}; the button says "${await card.locator('#open-panel').innerText().catch(() => '?')}"`);
    });
    const detail = await frameWith(page, `body[data-view="decision"] #detail[data-id="${decisionId}"]`, 30_000);
    if (!detail) throw new Error(`the decision tab does not show ${decisionId}`);
    await page.screenshot({ path: path.join(results, 'agent-open-in-panel.png') });
  });
}
