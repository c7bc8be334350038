/**
 * OAuth, roots and elicitation of the editor's MCP client inside the real extension host: an HTTP
 * server that needs sign-in shows it on its row (with the command to use); **Jev: Sign In to MCP
 * Server** opens the authorization URL through vscode.env.openExternal (the test plays the browser and
 * follows the redirect to the loopback redirect URI), the tokens persist in SecretStorage across a
 * restart, **Sign Out** forgets them; the roots are the workspace folders.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { JevPanelApi } from '../../../src/extension/api';
import { WorkspaceRoots } from '../../../src/extension/mcp-client/workspace-roots';
import { startOAuthMcpServer, type OAuthFixture } from '../../helpers/oauth-mcp-server';
import { activateJev, resetSettings, setSetting, waitFor } from '../helpers';

describe('MCP client: OAuth sign-in and roots', () => {
  let api: JevPanelApi;
  let fixture: OAuthFixture;
  const row = () => api.snapshot().servers.find((s) => s.name === 'docs');

  before(async () => {
    api = await activateJev();
    await resetSettings(api);
    fixture = await startOAuthMcpServer();
    await setSetting(api, 'mcpServers', { docs: { type: 'http', url: fixture.url } });
  });
  after(async () => {
    await vscode.commands.executeCommand('jevPanel.signOutServer', 'docs').then(undefined, () => undefined);
    await resetSettings(api);
    await fixture.close();
  });

  it('a server that needs sign-in says so on its row, without registering a client', async () => {
    await vscode.commands.executeCommand('jevPanel.restartServer', 'docs');
    await waitFor('docs to need sign-in', () => row()?.auth === 'required', 15_000);
    assert.equal(row()?.status, 'error');
    assert.match(row()?.reason ?? '', /needs sign-in: use "Jev: Sign In to MCP Server"/);
    assert.equal(fixture.registrations, 0);
  });

  it('Sign In opens the authorization URL in the browser and the redirect completes it', async () => {
    const before = api.authorizationUrls().length;
    const signIn = vscode.commands.executeCommand<{ state: string; reason?: string }>('jevPanel.signInServer', 'docs');
    const url = await waitFor('the authorization URL to be opened', () => api.authorizationUrls()[before], 15_000);
    const authorize = new URL(url);
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(authorize.searchParams.get('scope'), 'mcp:read');
    // The user approves: the browser follows the authorization server's redirect to the redirect URI.
    await fetch(url).then((r) => r.text()).catch(() => undefined);
    const status = await signIn;
    assert.equal(status.state, 'ready', status.reason);
    await waitFor('the row to show signed-in', () => row()?.auth === 'signed-in' && row()?.status === 'ready', 10_000);
    assert.deepEqual(row()?.tools, ['docs/echo', 'docs/publish']);
    assert.equal(fixture.grants.filter((g) => g === 'authorization_code').length, 1);
  });

  it('the tokens survive a restart (SecretStorage), and Sign Out forgets them', async () => {
    await vscode.commands.executeCommand('jevPanel.restartServer', 'docs');
    await waitFor('docs ready again', () => row()?.status === 'ready', 15_000);
    assert.equal(row()?.auth, 'signed-in');
    assert.equal(fixture.grants.filter((g) => g === 'authorization_code').length, 1, 'no second browser step');
    await vscode.commands.executeCommand('jevPanel.signOutServer', 'docs');
    await waitFor('docs to need sign-in after sign-out', () => row()?.auth === 'required', 15_000);
  });

  it('announces the workspace folders as roots in a trusted workspace', () => {
    const roots = new WorkspaceRoots();
    try {
      const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString());
      assert.ok(folders.length > 0, 'the trusted run opens a folder');
      assert.deepEqual(roots.roots().map((r) => r.uri), folders);
    } finally {
      roots.dispose();
    }
  });
});
