import * as vscode from 'vscode';
import type { CoreHost } from '../core-host';
import { editorSignInInteraction } from './oauth';

/**
 * **Jev: Sign In to MCP Server…** and **Jev: Sign Out of MCP Server…** (the panel's server row posts
 * the same commands). Sign-in shows a cancellable progress notification while the browser step runs.
 * Both take the server name as an optional argument; without one they ask with a quick pick of the
 * servers that sign in with OAuth.
 */

/** Authorization URLs opened by sign-ins of this session (the test API hands them to host tests). */
export const openedAuthorizationUrls: string[] = [];

async function pickServer(core: CoreHost, name: unknown, verb: string): Promise<string | undefined> {
  if (typeof name === 'string') return name;
  const names = (await core.get()).servers.oauthServers();
  if (names.length === 0) {
    void vscode.window.showInformationMessage('Jev: no configured MCP server signs in with OAuth (only Streamable HTTP servers do).');
    return undefined;
  }
  return vscode.window.showQuickPick(names, { title: `Jev: ${verb} MCP Server`, placeHolder: 'MCP server' });
}

/** Registers both commands. */
export function registerSignInCommands(core: CoreHost): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('jevPanel.signInServer', async (name?: unknown) => {
      const target = await pickServer(core, name, 'Sign In to');
      if (!target) return undefined;
      const runtime = await core.get();
      const status = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Jev: signing in to ${target} in your browser…`, cancellable: true },
        async (_progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          return runtime.servers.signIn(target, editorSignInInteraction(abort.signal, (url) => openedAuthorizationUrls.push(url.href)));
        },
      );
      if (status.state === 'ready') void vscode.window.showInformationMessage(`Jev: signed in to ${target}.`);
      else void vscode.window.showErrorMessage(`Jev: sign-in to ${target} failed: ${status.reason ?? status.state}`);
      return status;
    }),
    vscode.commands.registerCommand('jevPanel.signOutServer', async (name?: unknown) => {
      const target = await pickServer(core, name, 'Sign Out of');
      if (!target) return;
      await (await core.get()).servers.signOut(target);
      void vscode.window.showInformationMessage(`Jev: signed out of ${target}; its tokens are removed from SecretStorage.`);
    }),
  ];
}
