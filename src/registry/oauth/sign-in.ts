import type { OAuthStore } from './store';

/**
 * How a host takes part in OAuth sign-in (the CLI and the editor differ only here): where records are
 * kept, how the authorization URL reaches the user's browser, and how a sign-in is asked for.
 */

/** The browser step of an `authorization_code` sign-in. */
export interface SignInInteraction {
  /** Opens `url` (the authorization server's page) for the user. Resolves once opened, not when signed in. */
  openAuthorizationUrl(url: URL, server: string): Promise<void>;
  /** The redirect URI as the browser reaches it (editor: `vscode.env.asExternalUri`); default: unchanged. */
  externalRedirectUrl?(loopbackUrl: string): Promise<string>;
  /** How long to wait for the browser step, ms (default 300 000). */
  timeoutMs?: number;
  /** Aborting it gives up waiting for the browser step (the user cancelled). */
  signal?: AbortSignal;
}

/** What every OAuth-capable connection of a host shares. */
export interface OAuthHost {
  store: OAuthStore;
  /**
   * Present: a server asking for sign-in opens the browser step at once. Absent: the connection stops in
   * error with `auth: 'required'` and the host's hint; `McpConnection.signIn()` runs the browser step.
   */
  interaction?: SignInInteraction;
  /** The host's words for "how to sign in", e.g. `run "jevcp servers login docs"`. */
  signInHint(server: string): string;
  /** `client_name` sent in dynamic client registration (default "Jev Control Panel"). */
  clientName?: string;
  /** Environment that `oauth.identityProvider.idTokenEnv` names a variable of (default: the process's). */
  env?: Record<string, string | undefined>;
}

/** Default wait for the browser step: 5 minutes. */
export const DEFAULT_SIGN_IN_TIMEOUT_MS = 300_000;

/**
 * Raised inside the OAuth flow when a sign-in is needed but nobody can do the browser step now (no
 * interaction). `scope` is the scope the server asked for, when it named one (step-up).
 */
export class AuthorizationRequiredError extends Error {
  constructor(
    readonly server: string,
    readonly hint: string,
    readonly scope?: string,
  ) {
    super(`needs sign-in${scope ? ` with scope "${scope}"` : ''}: ${hint}`);
    this.name = 'AuthorizationRequiredError';
  }
}
