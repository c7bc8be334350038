/**
 * Workspace Trust, in a host started WITH workspace trust enabled and a folder nobody trusted. The folder's
 * .vscode/settings.json (written by the launcher) tries to: spawn an MCP server "ws", lower autoAccept to
 * 0.05, and point the judge at another base URL. None of it may take effect; a server from the user's own
 * settings still runs.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { WorkspaceRoots } from '../../../src/extension/mcp-client/workspace-roots';
import { activateJev, exists, markerServer, provideDefinitions, resetSettings, resolveDefinition, setSetting, waitFor } from '../helpers';

const markers = process.env.JEV_HOST_MARKER_DIR ?? '';

describe('untrusted workspace', () => {
  before(() => {
    assert.ok(markers, 'the launcher passes JEV_HOST_MARKER_DIR');
  });

  it('runs in a workspace that is not trusted, whose settings file tries to configure Jev', () => {
    assert.equal(vscode.workspace.isTrusted, false);
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const file = JSON.parse(readFileSync(join(folder.uri.fsPath, '.vscode', 'settings.json'), 'utf8')) as Record<string, unknown>;
    assert.ok('ws' in (file['jevPanel.mcpServers'] as object), 'the workspace defines server "ws"');
    assert.equal(file['jevPanel.thresholds.autoAccept'], 0.05);
  });

  it('the workspace values never reach the extension (restrictedConfigurations), and the panel says why', async () => {
    // VS Code hides restricted settings of an untrusted workspace from inspect() and get(); the extension's
    // own reader (settings.ts, unit-tested) drops workspace scopes again when they do show up.
    const config = vscode.workspace.getConfiguration('jevPanel');
    for (const key of ['mcpServers', 'thresholds.autoAccept', 'baseUrl', 'provider']) {
      assert.equal(config.inspect(key)?.workspaceValue, undefined, `${key} leaked from the untrusted workspace`);
    }
    assert.equal(config.get('thresholds.autoAccept'), 0.8);
    const api = await activateJev();
    const settings = api.settings();
    assert.equal(settings.trusted, false);
    assert.deepEqual(settings.servers, []);
    assert.equal(settings.floors.auto_accept, 0.8);
    assert.equal(settings.baseUrl, undefined);
    assert.equal(settings.provider, 'auto');
    const status = api.status();
    assert.equal(status.provider, 'mock');
    assert.equal(status.health, 'warning');
    assert.match(status.message ?? '', /Workspace not trusted: jevPanel settings from this workspace are ignored/);
  });

  it('spawns only the user-level server, and only when the editor connects; the workspace server never runs', async () => {
    const api = await activateJev();
    await setSetting(api, 'serverStart', 'onConnect'); // servers start when the editor connects
    await setSetting(api, 'mcpServers', { user: markerServer('user', markers) });
    await setSetting(api, 'agents', [{ name: 'editor', tools: ['jev_step', 'user/echo'] }]);
    assert.deepEqual(api.settings().servers.map((s) => `${s.name}:${s.scope}`), ['user:user']);
    // Listing definitions (VS Code does it eagerly) opens the loopback listener but spawns nothing.
    await provideDefinitions(api);
    assert.ok(api.endpoint());
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(exists(join(markers, 'user.spawned')), false, 'a server was spawned before the editor connected');
    assert.deepEqual(api.startedServers(), []);
    await resolveDefinition(api);
    await waitFor('the user server to be spawned', () => exists(join(markers, 'user.spawned')), 15_000);
    await waitFor('the user server to be ready', () => api.snapshot().servers.find((s) => s.name === 'user')?.status === 'ready', 15_000);
    // Give a wrongly started workspace server time to leave its marker.
    await new Promise((r) => setTimeout(r, 1_500));
    assert.equal(exists(join(markers, 'ws.spawned')), false, 'the workspace-configured server was spawned');
    assert.deepEqual(api.startedServers(), ['user']);
    assert.deepEqual(
      api.snapshot().servers.map((s) => s.name),
      ['jev-control-panel', 'user'],
    );
    await resetSettings(api);
  });

  it('announces no roots to MCP servers while the workspace is untrusted', () => {
    const roots = new WorkspaceRoots();
    try {
      assert.ok((vscode.workspace.workspaceFolders ?? []).length > 0);
      assert.deepEqual(roots.roots(), []);
    } finally {
      roots.dispose();
    }
  });
});
