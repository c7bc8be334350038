import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { HttpServerConfig } from '../servers';
import { JevOAuthProvider } from './provider';
import type { OAuthHost, SignInInteraction } from './sign-in';

/**
 * Where OAuth meets a connection (connection.ts): which HTTP servers get a provider, and the retry after
 * a browser sign-in that a request had to wait for.
 */

/**
 * The OAuth provider of an HTTP server, or undefined when it has none: no host support, `oauth: false`,
 * or no `oauth` field while `headers` carry an Authorization header (that header is then the credential).
 */
export function oauthProviderFor(server: string, config: HttpServerConfig, host: OAuthHost | undefined): JevOAuthProvider | undefined {
  if (!host || config.oauth === false) return undefined;
  if (!config.oauth && Object.keys(config.headers ?? {}).some((h) => h.toLowerCase() === 'authorization')) return undefined;
  return new JevOAuthProvider(server, config.url, config.oauth ?? { grant: 'authorization_code' }, host);
}

/**
 * After a request failed: when a browser sign-in is open, waits for it and exchanges its code through
 * `transport` (the session that asked), then resolves true so the caller retries. False otherwise.
 * Rejects with the sign-in's failure (denied, timed out, token request refused).
 */
export function finishSignIn(provider: JevOAuthProvider | undefined, transport: unknown): Promise<boolean> {
  if (!provider) return Promise.resolve(false);
  return provider.completeSignIn((code) => (transport as StreamableHTTPClientTransport).finishAuth(code));
}

/** Runs `run`; when it failed on a sign-in that then completed, runs it again (at most `retries` times). */
export async function retryAfterSignIn<T>(provider: JevOAuthProvider | undefined, transport: unknown, run: () => Promise<T>, retries = 2): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= retries || !(await finishSignIn(provider, transport))) throw err;
    }
  }
}

/** `provider`, or Error naming `server` and why it has no OAuth. */
export function withOAuth(server: string, provider: JevOAuthProvider | undefined): JevOAuthProvider {
  if (provider) return provider;
  throw new Error(`Server ${JSON.stringify(server)} does not sign in with OAuth (not an HTTP server, it sends its own Authorization header, or its oauth is false).`);
}

/**
 * A fresh sign-in: forgets the stored tokens (the registered client stays), lets `interaction` do the
 * browser step while `restart` runs, then puts the host's own interaction back. Resolves with the
 * settled status `restart` gives.
 */
export async function signInAgain<T>(provider: JevOAuthProvider, interaction: SignInInteraction, host: OAuthHost | undefined, restart: () => Promise<T>): Promise<T> {
  await provider.forgetTokens();
  provider.interaction = interaction;
  try {
    return await restart();
  } finally {
    provider.interaction = host?.interaction;
  }
}
