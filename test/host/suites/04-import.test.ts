/**
 * "Jev: Import .vscode/mcp.json" copies the runnable servers of the workspace's mcp.json (JSON with
 * comments) into the workspace's jevPanel.mcpServers, after a confirmation naming that file, and says what
 * it skipped and why. (Re-imports and what they restart: 10-servers.test.ts.)
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateJev, resetSettings } from '../helpers';

describe('Import .vscode/mcp.json', () => {
  it('imports stdio/http servers, substitutes ${workspaceFolder}, skips SSE and ${input:…} entries', async () => {
    const api = await activateJev();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the host run opens a workspace folder');
    // assumeYes answers the confirmation dialog (a modal the test cannot click); its text is returned.
    const result = (await vscode.commands.executeCommand('jevPanel.importMcpJson', undefined, { assumeYes: true })) as { imported: string[]; skipped: string[]; message: string; written: boolean };
    assert.equal(result.written, true);
    assert.match(result.message, /^Import \.vscode\/mcp\.json into jevPanel\.mcpServers of the workspace settings \(\.vscode\/settings\.json\)\? Added: local, docs\. Skipped 2/);
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
