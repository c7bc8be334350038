/**
 * The connection's OAuth in process, against the OAuth fixture server: step-up (a 403
 * insufficient_scope on one tool call → a second browser step asking for the granted scopes plus the
 * new ones, refresh token not used, the call retried), one browser step for concurrent 401s, a step-up
 * that has to wait for a sign-in (the call fails with the hint; the next sign-in asks for the scope),
 * and a denied sign-in reported as such.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpConnection } from '../../src/registry/connection';
import { ToolCallError } from '../../src/registry/errors';
import type { SignInInteraction } from '../../src/registry/oauth/sign-in';
import { MemoryOAuthStore } from '../../src/registry/oauth/store';
import { startOAuthMcpServer, type OAuthFixture } from '../helpers/oauth-mcp-server';

/** A browser whose user approves at once: follows the authorization server's redirects. */
function approvingBrowser(opened: URL[]): SignInInteraction {
  return {
    async openAuthorizationUrl(url) {
      opened.push(url);
      void fetch(url).then((r) => r.text()).catch(() => undefined);
    },
  };
}

const hint = (server: string) => `sign in to ${server}`;

describe('McpConnection OAuth', () => {
  let fixture: OAuthFixture;
  before(async () => {
    fixture = await startOAuthMcpServer();
  });
  after(() => fixture.close());

  it('steps up on 403 insufficient_scope: a second authorization with both scopes, then the call succeeds', async () => {
    const opened: URL[] = [];
    const conn = new McpConnection('docs', { url: fixture.url }, { oauth: { store: new MemoryOAuthStore(), signInHint: hint, interaction: approvingBrowser(opened) }, restart: { maxAttempts: 0 } });
    try {
      const status = await conn.start();
      assert.equal(status.state, 'ready', status.reason);
      assert.equal(status.auth, 'signed-in');
      // The GET stream and the initialize POST both met 401: one browser step for both.
      assert.equal(opened.length, 1);
      assert.equal(opened[0].searchParams.get('scope'), 'mcp:read');
      assert.equal(opened[0].searchParams.get('code_challenge_method'), 'S256');
      const grantsBefore = fixture.grants.length;
      const result = await conn.callTool('publish', { message: 'hi' });
      assert.deepEqual(result.content, [{ type: 'text', text: 'published hi' }]);
      assert.equal(opened.length, 2);
      assert.deepEqual(opened[1].searchParams.get('scope')?.split(' ').sort(), ['mcp:read', 'mcp:write']);
      // A refresh cannot widen the grant: the step-up used a new authorization code, not the refresh token.
      assert.deepEqual(fixture.grants.slice(grantsBefore), ['authorization_code']);
    } finally {
      await conn.close();
    }
  });

  it('without a browser step, a step-up fails the call with the hint and the next sign-in asks for the scope', async () => {
    const store = new MemoryOAuthStore();
    const opened: URL[] = [];
    const signIn = new McpConnection('docs', { url: fixture.url }, { oauth: { store, signInHint: hint }, restart: { maxAttempts: 0 } });
    try {
      const first = await signIn.signIn(approvingBrowser(opened));
      assert.equal(first.state, 'ready', first.reason);
      await assert.rejects(
        signIn.callTool('publish', { message: 'x' }),
        (err: unknown) => err instanceof ToolCallError && err.kind === 'unavailable' && /needs sign-in with scope "mcp:read mcp:write": sign in to docs/.test(err.message),
      );
      assert.equal(signIn.status.auth, 'required');
      assert.equal(opened.length, 1);
      const again = await signIn.signIn(approvingBrowser(opened));
      assert.equal(again.state, 'ready', again.reason);
      assert.deepEqual(opened[1].searchParams.get('scope')?.split(' ').sort(), ['mcp:read', 'mcp:write']);
      const result = await signIn.callTool('publish', { message: 'x' });
      assert.deepEqual(result.content, [{ type: 'text', text: 'published x' }]);
    } finally {
      await signIn.close();
    }
  });

  it('a sign-in the authorization server refuses is reported, and nothing is stored', async () => {
    const store = new MemoryOAuthStore();
    const refusing: SignInInteraction = {
      async openAuthorizationUrl(url) {
        const redirect = new URL(url.searchParams.get('redirect_uri') ?? '');
        redirect.searchParams.set('error', 'access_denied');
        redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
        void fetch(redirect).then((r) => r.text());
      },
    };
    const conn = new McpConnection('docs', { url: fixture.url }, { oauth: { store, signInHint: hint }, restart: { maxAttempts: 0 } });
    try {
      const status = await conn.signIn(refusing);
      assert.equal(status.state, 'error');
      assert.match(status.reason ?? '', /refused the sign-in: access_denied/);
      assert.equal((await store.read('docs ' + fixture.url))?.tokens, undefined);
    } finally {
      await conn.close();
    }
  });

  it('a browser step that never finishes times out with a clear reason', async () => {
    const conn = new McpConnection('docs', { url: fixture.url }, { oauth: { store: new MemoryOAuthStore(), signInHint: hint }, restart: { maxAttempts: 0 } });
    try {
      const status = await conn.signIn({ timeoutMs: 300, async openAuthorizationUrl() {} });
      assert.equal(status.state, 'error');
      assert.match(status.reason ?? '', /the browser sign-in did not finish within 300 ms/);
    } finally {
      await conn.close();
    }
  });
});
