/**
 * Servers in the editor, with real marker servers (test/host/fixtures/marker-server.mjs, each writing its
 * PID when spawned): a re-import names its target and its diff and restarts only the changed server; a
 * server not started is neutral and a spawn failure reaches its live log; grants are saved with the
 * servers and survive a re-activation without warnings; the Enabled switch, the start on demand, the
 * per-server grant shortcuts, and the endpoint's row following the MCP client session.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JevPanelApi } from '../../../src/extension/api';
import { activateJev, connectClient, markerServer, provideDefinitions, resetSettings, setSetting, waitFor } from '../helpers';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('MCP servers in the editor', function () {
  this.timeout(90_000);
  let api: JevPanelApi;
  let markers: string;
  let file: vscode.Uri;
  const pidOf = (name: string) => (existsSync(join(markers, `${name}.spawned`)) ? Number(readFileSync(join(markers, `${name}.spawned`), 'utf8')) : undefined);
  const row = (name: string) => api.snapshot().servers.find((s) => s.name === name);
  const writeMcpJson = (servers: Record<string, unknown>) => writeFileSync(file.fsPath, JSON.stringify({ servers }, null, 2));
  const importFile = async () => (await vscode.commands.executeCommand('jevPanel.importMcpJson', file, { assumeYes: true })) as {
    diff: { added: string[]; changed: string[]; removed: string[]; unchanged: string[] };
    target: string;
    message: string;
    written: boolean;
  };

  before(async () => {
    api = await activateJev();
    await resetSettings(api);
    markers = mkdtempSync(join(tmpdir(), 'jev-servers-'));
    file = vscode.Uri.file(join(markers, 'mcp.json'));
  });

  after(async () => {
    await resetSettings(api);
    rmSync(markers, { recursive: true, force: true });
  });

  it('a re-import names the target file and scope, lists added/changed/removed/unchanged, restarts only the changed server', async () => {
    writeMcpJson({ keep: markerServer('keep', markers), change: markerServer('change', markers), drop: markerServer('drop', markers) });
    const first = await importFile();
    assert.equal(first.written, true);
    assert.match(first.target, /^workspace settings \(.*\.vscode\/settings\.json\)$/);
    assert.match(first.message, /into jevPanel\.mcpServers of the workspace settings \(.*\.vscode\/settings\.json\)/);
    assert.deepEqual(first.diff, { added: ['keep', 'change', 'drop'], changed: [], removed: [], unchanged: [] });
    for (const name of ['keep', 'change', 'drop']) {
      assert.equal(row(name)?.status, 'not-started', `${name} is not started by an import`);
      await vscode.commands.executeCommand('jevPanel.restartServer', name);
      await waitFor(`${name} ready`, () => row(name)?.status === 'ready', 20_000);
    }
    const [keepPid, changePid, dropPid] = [pidOf('keep')!, pidOf('change')!, pidOf('drop')!];
    assert.ok(alive(keepPid) && alive(changePid) && alive(dropPid));

    writeMcpJson({
      keep: markerServer('keep', markers),
      change: { ...markerServer('change', markers), env: { MARKER_DIR: markers, CHANGED: '1' } },
      fresh: markerServer('fresh', markers),
    });
    const second = await importFile();
    assert.deepEqual(second.diff, { added: ['fresh'], changed: ['change'], removed: ['drop'], unchanged: ['keep'] });
    assert.match(second.message, /Added: fresh\. Changed \(restarted if running\): change\. Removed \(stopped\): drop\. Unchanged \(kept running\): keep\./);
    await waitFor('the changed server to be respawned', () => pidOf('change') !== changePid && row('change')?.status === 'ready', 20_000);
    await waitFor('the removed server to exit', () => !alive(dropPid), 10_000);
    assert.equal(pidOf('keep'), keepPid, 'the unchanged server was not respawned');
    assert.ok(alive(keepPid), 'the unchanged server keeps running');
    assert.equal(row('keep')?.status, 'ready');
    await waitFor('the changed server’s old process to exit', () => !alive(changePid), 10_000);
    assert.equal(row('drop'), undefined);
    assert.equal(row('fresh')?.status, 'not-started');
    const saved = vscode.workspace.getConfiguration('jevPanel').inspect<Record<string, unknown>>('mcpServers');
    assert.deepEqual(Object.keys(saved?.workspaceValue ?? {}).sort(), ['change', 'fresh', 'keep']);
    assert.equal(saved?.globalValue, undefined, 'nothing is written to the user settings');
    const again = await importFile();
    assert.equal(again.written, false, 'an import that changes nothing writes nothing');
  });

  it('grant all / read-only per server are saved with the servers; after a re-activation no grant warnings', async () => {
    await api.grantServer('editor', 'keep', 'readOnly');
    let editor = api.snapshot().agents.find((a) => a.name === 'editor')!;
    const echo = editor.permissions.find((p) => p.tool === 'keep/echo')!;
    assert.equal(echo.allowed, true);
    assert.equal(echo.readOnly, true, 'the marker’s echo says readOnlyHint');
    await api.grantServer('editor', 'change', 'all');
    editor = api.snapshot().agents.find((a) => a.name === 'editor')!;
    assert.ok(editor.grants.includes('change/*'), editor.grants.join(', '));
    const agents = vscode.workspace.getConfiguration('jevPanel').inspect('agents');
    assert.ok(agents?.workspaceValue, 'grants go to the workspace, like the servers');
    assert.equal(agents?.globalValue, undefined, 'no grants in the user settings');

    await api.reactivate();
    editor = api.snapshot().agents.find((a) => a.name === 'editor')!;
    assert.deepEqual(editor.warnings, [], 'no "grant matches no known tool" after a re-activation');
    assert.equal(editor.permissions.find((p) => p.tool === 'keep/echo')?.allowed, true, 'the remembered tool list is offered before the server starts');
    assert.equal(row('keep')?.status, 'not-started');
  });

  it('on demand: the agent’s first call of a remembered tool starts the server; the endpoint row follows the client session', async () => {
    const before = pidOf('keep');
    const [definition] = await provideDefinitions(api);
    assert.equal(row('jev-control-panel')?.status, 'not-started', 'listening without a client reads as not started (Stopped in VS Code’s view)');
    const client = await connectClient(definition!.uri, definition!.headers);
    try {
      await waitFor('the endpoint row to show the session', () => row('jev-control-panel')?.status === 'ready');
      assert.match(row('jev-control-panel')!.reason!, /1 MCP client session/);
      const tools = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(tools.includes('keep__echo'), tools.join(', '));
      assert.equal(pidOf('keep'), before, 'listing remembered tools spawns nothing');
      assert.equal(row('keep')?.status, 'not-started');
      const result = await client.callTool({ name: 'keep__echo', arguments: { text: 'lazy' } });
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
      assert.notEqual(pidOf('keep'), before, 'the call spawned the server');
      assert.equal(row('keep')?.status, 'ready');
    } finally {
      await (client.transport as StreamableHTTPClientTransport).terminateSession();
      await client.close();
    }
    await waitFor('the endpoint row to drop the closed session', () => row('jev-control-panel')?.status === 'not-started');
  });

  it('a disabled server is stopped, not started again, and its tools are not offered; enabling brings it back', async () => {
    const pid = pidOf('keep')!;
    assert.ok(alive(pid));
    await api.setServerEnabled('keep', false);
    assert.deepEqual(vscode.workspace.getConfiguration('jevPanel').inspect('disabledServers')?.workspaceValue, ['keep']);
    await waitFor('the disabled server to exit', () => !alive(pid), 10_000);
    assert.equal(row('keep')?.status, 'disabled');
    assert.equal(row('keep')?.enabled, false);
    const editor = api.snapshot().agents.find((a) => a.name === 'editor')!;
    assert.ok(!editor.permissions.some((p) => p.tool.startsWith('keep/')), 'its tools are not offered');
    assert.ok(editor.warnings.some((w) => /"keep\/echo" names server "keep", which is disabled/.test(w)), editor.warnings.join('\n'));
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('jevPanel.restartServer', 'keep')), /disabled/);
    await api.setServerEnabled('keep', true);
    assert.equal(row('keep')?.status, 'not-started');
    assert.equal(row('keep')?.enabled, true);
  });

  it('not started is neutral; a spawn failure is in the server’s log, which updates while open', async () => {
    await setSetting(api, 'mcpServers', { broken: { command: join(markers, 'no-such-server') } }, vscode.ConfigurationTarget.Workspace);
    assert.equal(row('broken')?.status, 'not-started');
    assert.match(row('broken')!.reason!, /not started yet/);
    const uri = vscode.Uri.from({ scheme: 'jev-server-log', path: '/broken.log' });
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true });
    assert.doesNotMatch(doc.getText(), /cannot start/);
    const updated = new Promise<void>((resolve) => {
      const sub = vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.toString() === uri.toString() && /cannot start/.test(e.document.getText())) {
          sub.dispose();
          resolve();
        }
      });
    });
    await vscode.commands.executeCommand('jevPanel.restartServer', 'broken');
    await waitFor('the spawn error', () => row('broken')?.status === 'error');
    await Promise.race([updated, new Promise((_, reject) => setTimeout(() => reject(new Error('the open log did not update')), 10_000))]);
    assert.match(doc.getText(), /--- .* error: cannot start ".*no-such-server": no such file ".*no-such-server"/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('an open log shows new stderr lines as the server writes them', async () => {
    // Writes a stderr line every 200 ms and never answers initialize: stderr arrives while it is starting.
    const ticker = { command: process.execPath, args: ['-e', "let n = 0; setInterval(() => console.error('tick ' + ++n), 200)"] };
    await setSetting(api, 'mcpServers', { ticker }, vscode.ConfigurationTarget.Workspace);
    const uri = vscode.Uri.from({ scheme: 'jev-server-log', path: '/ticker.log' });
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true });
    assert.match(doc.getText(), /no stderr output yet/);
    // Not awaited: the start settles only at the startup timeout; the log must update before that.
    const restarting = Promise.resolve(vscode.commands.executeCommand('jevPanel.restartServer', 'ticker'));
    const seen = new Set<string>();
    const sub = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document.uri.toString() === uri.toString()) seen.add((/tick \d+(?![\s\S]*tick \d)/.exec(e.document.getText()) ?? [''])[0]);
    });
    try {
      await waitFor('three updates of the open log with later stderr lines', () => [...seen].filter(Boolean).length >= 3, 15_000);
    } finally {
      sub.dispose();
    }
    assert.equal(row('ticker')?.status, 'starting', 'the lines arrived while the server was still starting');
    assert.match(doc.getText(), /--- .* start ---\ntick 1\ntick 2/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await setSetting(api, 'mcpServers', {}, vscode.ConfigurationTarget.Workspace); // closes it
    await restarting.catch(() => undefined);
  });
});
