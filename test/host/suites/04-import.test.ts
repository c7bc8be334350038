/**
 * "Jev: Import .vscode/mcp.json" copies the runnable servers of the workspace's mcp.json (JSON with
 * comments) into the workspace's jevPanel.mcpServers and says what it skipped and why.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateJev, resetSettings } from '../helpers';

describe('Import .vscode/mcp.json', () => {
  it('imports stdio/http servers, substitutes ${workspaceFolder}, skips SSE and ${input:…} entries', async () => {
    const api = await activateJev();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the host run opens a workspace folder');
    const result = (await vscode.commands.executeCommand('jevPanel.importMcpJson')) as { imported: string[]; skipped: string[] };
    assert.deepEqual(result.imported, ['local', 'docs']);
    assert.equal(result.skipped.length, 2);
    assert.ok(result.skipped.some((s) => s.startsWith('remote:') && /SSE/.test(s)));
    assert.ok(result.skipped.some((s) => s.startsWith('secret:') && /\$\{input:token\}/.test(s)));
    const saved = vscode.workspace.getConfiguration('jevPanel').inspect<Record<string, { args?: string[]; url?: string }>>('mcpServers')?.workspaceValue;
    assert.ok(saved);
    assert.equal(saved.local?.args?.[0], `${folder.uri.fsPath}/tools/server.js`);
    assert.equal(saved.docs?.url, 'http://127.0.0.1:9/mcp');
    await api.refresh();
    assert.deepEqual(api.settings().servers.map((s) => `${s.name}:${s.scope}`), ['local:workspace', 'docs:workspace']);
    await resetSettings(api);
  });
});
