import * as vscode from 'vscode';
import type { OAuthHost, SignInInteraction } from '../../registry/oauth/sign-in';
import { SecretStorageOAuthStore } from './secret-store';

/**
 * OAuth as the editor does it: records in SecretStorage, the browser step through
 * `vscode.env.openExternal`, the redirect received on a loopback listener (`http://127.0.0.1:PORT/callback`,
 * mapped through `vscode.env.asExternalUri` so it also works from a remote extension host). Servers
 * never open a browser by themselves: one that needs a sign-in shows it in the panel and a notification,
 * and **Jev: Sign In to MCP Server** runs the browser step.
 */

/** The hint shown for a server that needs a sign-in. */
export function editorSignInHint(server: string): string {
  return `use "Jev: Sign In to MCP Server" (or Sign in on the server's row in the panel) for ${server}`;
}

/** The editor's OAuth host (no interaction: sign-in runs on the user's command). */
export function editorOAuthHost(secrets: vscode.SecretStorage): OAuthHost {
  return { store: new SecretStorageOAuthStore(secrets), signInHint: editorSignInHint };
}

/**
 * The browser step of one sign-in. `opened` hears each authorization URL (the test API passes it on, so
 * host tests can play the browser); `signal` is the progress notification's Cancel.
 */
export function editorSignInInteraction(signal: AbortSignal, opened?: (url: URL) => void): SignInInteraction {
  return {
    signal,
    async openAuthorizationUrl(url) {
      opened?.(url);
      // Parsed strictly so the query (state, code_challenge, redirect_uri) reaches the browser as sent.
      await vscode.env.openExternal(vscode.Uri.parse(url.href, true));
    },
    async externalRedirectUrl(loopbackUrl) {
      return (await vscode.env.asExternalUri(vscode.Uri.parse(loopbackUrl, true))).toString(true);
    },
  };
}
