/**
 * Activation and commands, inside the real extension host.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateJev, extension, resetSettings, waitFor } from '../helpers';

describe('activation', () => {
  it('is lazy: only a view, a command, the MCP collection, a restored decision panel, a vscode:// link from the decision card or a workspace with request files activate it', () => {
    const pkg = extension().packageJSON as { activationEvents: string[]; contributes: Record<string, unknown> };
    // Request files get their CodeLens without a command first; activation itself spawns and fetches nothing.
    assert.deepEqual(pkg.activationEvents, ['onMcpCollection:jevPanel.mcpServer', 'onWebviewPanel:jevPanel.decision', 'onUri', 'workspaceContains:**/*.jev.json']);
    assert.ok(!pkg.activationEvents.some((e) => e === '*' || e === 'onStartupFinished'));
  });

  it('activates in Test mode, returns its API, and spawns nothing on activation', async () => {
    const api = await activateJev();
    assert.equal(extension().isActive, true);
    assert.equal(typeof api.activationMs, 'number');
    assert.ok(api.activationMs < 50, `activate() took ${api.activationMs} ms`);
    // The endpoint may already listen (VS Code lists MCP definitions eagerly); no MCP server is started.
    assert.deepEqual(api.startedServers(), []);
    await resetSettings(api);
  });

  it('registers every contributed command', async () => {
    const contributed = (extension().packageJSON.contributes.commands as { command: string }[]).map((c) => c.command);
    const all = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((c) => !all.has(c));
    assert.deepEqual(missing, []);
    assert.ok(contributed.length >= 10);
  });

  it('falls back to the mock judge with a visible warning when nothing is configured', async () => {
    const api = await activateJev();
    await resetSettings(api);
    const status = api.status();
    assert.equal(status.provider, 'mock');
    assert.equal(status.health, 'warning');
    assert.match(status.message ?? '', /Mock judge/);
    assert.equal(status.calibrated, false);
    assert.equal(status.model, 'jev-latest+mock');
    assert.match(api.statusBarText(), /\$\(warning\) Jev: mock judge/);
  });

  it('Run Sample Step ignores new runs while one is in flight (10 quick clicks → 1 call)', async () => {
    const api = await activateJev();
    const before = api.feed().length;
    const results = await Promise.all(Array.from({ length: 10 }, () => vscode.commands.executeCommand('jevPanel.runSampleStep')));
    assert.equal(results.filter((r) => r !== undefined).length, 1);
    assert.equal(api.feed().length, before + 1);
    const again = await vscode.commands.executeCommand('jevPanel.runSampleStep');
    assert.ok(again, 'a run after the first finished goes ahead');
    assert.equal(api.feed().length, before + 2);
  });

  it('Run Sample Step judges the sample, records it in the feed and opens the decision panel', async () => {
    const api = await activateJev();
    const before = api.feed().length;
    const record = (await vscode.commands.executeCommand('jevPanel.runSampleStep')) as { id: string; tool: string; agent: string };
    assert.equal(record.tool, 'jev_step');
    assert.equal(record.agent, 'panel');
    const feed = api.feed();
    assert.equal(feed.length, before + 1);
    const row = feed[feed.length - 1]!;
    assert.equal(row.id, record.id);
    assert.ok(row.handoff, 'a jev_step decision has a handoff');
    assert.ok(api.getRecord(record.id), 'the full record is available for the detail view');
    const isPanel = (t: vscode.Tab) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('jevPanel.decision');
    const panel = await waitFor('the decision panel tab', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find(isPanel), 5_000);
    assert.equal(panel?.label, 'Jev Decision');
  });

  it('opens the control panel view and shows the log without errors', async () => {
    await vscode.commands.executeCommand('jevPanel.openPanel');
    await vscode.commands.executeCommand('jevPanel.showLog');
  });

  it('rejects invalid settings with a problem naming the key, and keeps safe defaults', async () => {
    const api = await activateJev();
    const config = vscode.workspace.getConfiguration('jevPanel');
    await config.update('thresholds.reviewAt', 0.95, vscode.ConfigurationTarget.Global);
    await config.update('baseUrl', 'http://example.com', vscode.ConfigurationTarget.Global);
    await api.refresh();
    const settings = api.settings();
    assert.ok(settings.problems.some((p) => p.startsWith('jevPanel.thresholds.reviewAt')), settings.problems.join('\n'));
    assert.ok(settings.problems.some((p) => p.includes('jevPanel.baseUrl') && /plain http/.test(p)), settings.problems.join('\n'));
    assert.equal(settings.baseUrl, undefined, 'an http:// base URL to a remote host is never used');
    assert.equal(settings.floors.review_at, 0.5);
    assert.equal(api.status().provider, 'mock');
    await resetSettings(api);
  });
});
