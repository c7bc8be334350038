/**
 * VS Code's own MCP client against the extension's endpoint (not the SDK client): the contributed server is
 * started through VS Code's command, `vscode.lm.tools` lists exactly the tools granted to agent `editor`,
 * `vscode.lm.invokeTool` runs them, grant toggles reach VS Code as tools/list_changed while its connection
 * stays up, and after the endpoint is renewed (what a window reload does to it) an immediate call to an
 * external tool whose server is still starting succeeds.
 *
 * "Connection stays up" is read from the endpoint: VS Code ends its MCP session (DELETE) when it stops the
 * server, so `api.editorSessions().closed` counts the stops.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { JevPanelApi } from '../../../src/extension/api';
import { SAMPLE_STEP_INPUT, activateJev, markerServer, resetSettings, setSetting, waitFor } from '../helpers';

/** How VS Code names the server this extension contributes: `<extension id, lower case>/<definition label>`. */
const SERVER_ID = 'jevcp.jev-control-panel/Jev Control Panel';
/** The prefix VS Code gives the server's tools in `vscode.lm.tools` (the label, cut short). */
const TOOL_PREFIX = 'mcp_jev-control-p_';

/** Our server's tools as `vscode.lm.tools` lists them, without the prefix, sorted. */
function listedTools(): string[] {
  return vscode.lm.tools
    .filter((t) => t.name.startsWith(TOOL_PREFIX))
    .map((t) => t.name.slice(TOOL_PREFIX.length))
    .sort();
}

/** Text of an invokeTool result. */
function resultText(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

/** Starts the server through VS Code (retrying until VS Code knows the definition) and waits for a session. */
async function startThroughVsCode(api: JevPanelApi): Promise<void> {
  await waitFor('VS Code to connect to the endpoint', async () => {
    await vscode.commands.executeCommand('workbench.mcp.startServer', SERVER_ID, { waitForLiveTools: true });
    return api.editorSessions().open > 0;
  }, 30_000);
}

describe("VS Code's own MCP client", function () {
  this.timeout(90_000);
  let api: JevPanelApi;
  const markers = mkdtempSync(join(tmpdir(), 'jev-vsc-mcp-'));
  /** Granted to editor in these tests. */
  const GRANTS = ['jev_step', 'jev_rank', 'fixture/echo'];

  before(async () => {
    api = await activateJev();
    await resetSettings(api);
    await setSetting(api, 'mcpServers', { fixture: markerServer('fixture', markers) });
    await setSetting(api, 'agents', [{ name: 'editor', tools: GRANTS }]);
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.mcp.stopServer', SERVER_ID);
    await resetSettings(api);
  });

  it('starts the contributed server through VS Code; lm.tools lists exactly the granted tools; the connection stays up', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('workbench.mcp.startServer'), 'VS Code exposes its MCP start command (chat.disableAIFeatures is off)');
    const closedBefore = api.editorSessions().closed; // earlier suites' SDK clients closed theirs
    // VS Code learns the definition shortly after activation; until then the command finds no such server.
    await startThroughVsCode(api);
    await waitFor('the fixture server to be ready', () => api.snapshot().servers.find((s) => s.name === 'fixture')?.status === 'ready', 15_000);
    await waitFor('lm.tools to list the granted tools', () => listedTools().length === 3, 15_000);
    assert.deepEqual(listedTools(), ['fixture__echo', 'jev_rank', 'jev_step']);
    // The first Start used to stop by itself once the external server's tools arrived (a new definition version).
    const sessions = api.editorSessions();
    await new Promise((r) => setTimeout(r, 4_000));
    assert.deepEqual(api.editorSessions(), sessions, 'VS Code did not stop the server');
    assert.equal(sessions.closed, closedBefore, 'no session of VS Code ended since the start');
    // The panel's row for our endpoint follows VS Code's MCP view: Running while VS Code's client is connected.
    const endpoint = api.snapshot().servers.find((s) => s.name === 'jev-control-panel');
    assert.equal(endpoint?.status, 'ready', JSON.stringify(endpoint));
    assert.match(endpoint?.reason ?? '', /^Running: \d+ MCP client session/);
  });

  it('lm.invokeTool of jev_step returns the decision, and the feed shows it as agent editor', async () => {
    const before = api.feed().length;
    const result = await vscode.lm.invokeTool(`${TOOL_PREFIX}jev_step`, { input: structuredClone(SAMPLE_STEP_INPUT), toolInvocationToken: undefined });
    const decision = JSON.parse(resultText(result)) as { handoff?: string; action?: string };
    assert.ok(decision.handoff && decision.action, resultText(result));
    await waitFor('the feed row', () => api.feed().length > before);
    const row = api.feed().at(-1)!;
    assert.equal(row.tool, 'jev_step');
    assert.equal(row.agent, 'editor');
    assert.equal(row.kind, 'decision');
    assert.equal(row.handoff, decision.handoff);
    assert.equal(row.action, decision.action);
  });

  it('a grant toggle changes the listed tools without the server going to Stopped', async () => {
    await startThroughVsCode(api);
    const sessions = api.editorSessions();
    assert.ok(sessions.open > 0);
    await api.toggleGrant('editor', 'jev_rank', false);
    await waitFor('jev_rank to leave lm.tools', () => !listedTools().includes('jev_rank'), 15_000);
    assert.deepEqual(listedTools(), ['fixture__echo', 'jev_step']);
    await api.toggleGrant('editor', 'jev_rank', true);
    await waitFor('jev_rank to come back', () => listedTools().includes('jev_rank'), 15_000);
    await new Promise((r) => setTimeout(r, 3_000)); // VS Code stops a server within this after a definition change
    assert.deepEqual(api.editorSessions(), sessions, 'the same session served both changes');
    const result = await vscode.lm.invokeTool(`${TOOL_PREFIX}jev_step`, { input: structuredClone(SAMPLE_STEP_INPUT), toolInvocationToken: undefined });
    assert.ok((JSON.parse(resultText(result)) as { handoff?: string }).handoff, 'the connection still serves calls');
  });

  it('after the endpoint is renewed (as by a window reload), an immediate call to an external tool whose server is starting succeeds', async () => {
    // What a reload leaves: VS Code's server stopped with its tool list cached, a new endpoint (port and
    // token), and MCP servers that have not started yet (this one takes 7 s, longer than the 5 s a
    // tools/list waits for servers, so the call itself must wait).
    await vscode.commands.executeCommand('workbench.mcp.stopServer', SERVER_ID);
    await waitFor('VS Code to end its session', () => api.editorSessions().open === 0, 10_000);
    assert.ok(listedTools().includes('fixture__echo'), 'VS Code keeps the cached tools of a stopped server');
    await setSetting(api, 'mcpServers', { fixture: { ...markerServer('fixture', markers), env: { MARKER_DIR: markers, START_DELAY_MS: '7000' } } });
    await vscode.commands.executeCommand('jevPanel.restartServer', 'jev-control-panel');
    assert.equal(api.snapshot().servers.find((s) => s.name === 'fixture')?.status === 'ready', false, 'the server is still starting');

    const before = api.feed().length;
    const result = await vscode.lm.invokeTool(`${TOOL_PREFIX}fixture__echo`, { input: { text: 'after reload' }, toolInvocationToken: undefined });
    const text = resultText(result);
    assert.doesNotMatch(text, /Unknown tool|not available/);
    assert.deepEqual(JSON.parse(text), { echoed: 'after reload', server: 'fixture' });
    await waitFor('the feed row', () => api.feed().length > before);
    const row = api.feed().at(-1)!;
    assert.equal(row.kind, 'execution');
    assert.equal(row.tool, 'fixture/echo');
    assert.equal(row.agent, 'editor');
    assert.equal(api.getRecord(row.id)?.error, undefined);
  });
});
