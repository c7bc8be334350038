/**
 * Enterprise-managed authorization (SEP-990, grant `jwt_bearer`) through McpConnection, against a fake
 * identity provider (test/helpers/fake-idp.ts) and the OAuth fixture server as the MCP server's
 * authorization server, both real HTTP on 127.0.0.1: the RFC 8693 token exchange at the IdP (its form
 * fields and client authentication), the RFC 7523 jwt-bearer grant at the authorization server (the
 * ID-JAG as assertion, the client's Basic authentication), the access token on MCP requests, the tokens
 * in the store; and the failures: the IdP refuses, no ID token, an expired one, an answer that is not an
 * ID-JAG, the authorization server refuses the ID-JAG. No failure ends in a ready connection.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { McpConnection } from '../../src/registry/connection';
import type { OAuthConfig } from '../../src/registry/oauth/config';
import { MemoryOAuthStore, oauthKey } from '../../src/registry/oauth/store';
import { startFakeIdp, type FakeIdp } from '../helpers/fake-idp';
import { startOAuthMcpServer, type OAuthFixture } from '../helpers/oauth-mcp-server';

const MCP_CLIENT = { id: 'jev-corp', secret: 'as-secret' };
const IDP_CLIENT = { id: 'jev-at-idp', secret: 'idp-secret' };
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('McpConnection: enterprise-managed authorization (jwt_bearer)', () => {
  let idp: FakeIdp;
  let fixture: OAuthFixture;
  let work: string;
  let idTokenFile: string;
  /** What the authorization server saw in each assertion it was given. */
  let assertions: { claims: Record<string, unknown> | undefined; clientId: string; issuer: string; resource: string }[];
  let acceptAssertions = true;

  before(async () => {
    idp = await startFakeIdp({ client: IDP_CLIENT, resourceClientId: MCP_CLIENT.id });
    fixture = await startOAuthMcpServer({
      client: MCP_CLIENT,
      jwtBearer: (assertion, ctx) => {
        const claims = idp.verify(assertion);
        assertions.push({ claims, ...ctx });
        // What a real authorization server checks: its own IdP signed it, for this server, this resource and this client.
        const ok = acceptAssertions && claims !== undefined && claims.aud === ctx.issuer && claims.resource === ctx.resource && claims.client_id === ctx.clientId;
        return ok ? 'mcp:read mcp:write' : undefined;
      },
    });
    work = mkdtempSync(join(tmpdir(), 'jev-xaa-'));
    idTokenFile = join(work, 'id-token');
  });
  after(async () => {
    await fixture.close();
    await idp.close();
    rmSync(work, { recursive: true, force: true });
  });
  beforeEach(() => {
    idp.tokenRequests.length = 0;
    idp.answer = undefined;
    fixture.tokenRequests.length = 0;
    fixture.mcpAuthorizations.length = 0;
    assertions = [];
    acceptAssertions = true;
    writeFileSync(idTokenFile, `${idp.idToken('ada@corp.example', IDP_CLIENT.id)}\n`);
  });

  const oauth = (identityProvider: Partial<NonNullable<OAuthConfig['identityProvider']>> = {}): OAuthConfig => ({
    grant: 'jwt_bearer',
    clientId: MCP_CLIENT.id,
    clientSecret: MCP_CLIENT.secret,
    scopes: ['mcp:read', 'mcp:write'],
    identityProvider: { issuer: idp.issuer, clientId: IDP_CLIENT.id, clientSecret: IDP_CLIENT.secret, idTokenFile, ...identityProvider },
  });
  const connect = (config: OAuthConfig, store = new MemoryOAuthStore(), env: Record<string, string | undefined> = {}) =>
    new McpConnection('corp', { url: fixture.url, oauth: config }, { oauth: { store, signInHint: (s) => `sign in to ${s}`, env }, restart: { maxAttempts: 0 } });
  const bearerRequests = () => fixture.mcpAuthorizations.filter((a) => a.startsWith('Bearer '));

  it('exchanges the ID token for an ID-JAG, presents it as a jwt-bearer grant, and calls with the access token', async () => {
    const store = new MemoryOAuthStore();
    const conn = connect(oauth(), store);
    try {
      const status = await conn.start();
      assert.equal(status.state, 'ready', status.reason);
      assert.equal(status.auth, 'signed-in');

      // The token exchange at the IdP (RFC 8693), found by OpenID Connect discovery from the issuer.
      assert.ok(idp.discoveryRequests.includes('/.well-known/openid-configuration'));
      assert.equal(idp.tokenRequests.length, 1);
      const exchange = idp.tokenRequests[0];
      assert.deepEqual(exchange.form, {
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
        subject_token: readFileSync(idTokenFile, 'utf8').trim(),
        subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
        audience: new URL(fixture.url).origin,
        resource: fixture.url,
        scope: 'mcp:read mcp:write',
      });
      assert.equal(exchange.authorization, basic(IDP_CLIENT.id, IDP_CLIENT.secret));

      // The jwt-bearer grant at the authorization server (RFC 7523), the ID-JAG as its assertion.
      const grants = fixture.tokenRequests.filter((r) => r.form.grant_type === 'urn:ietf:params:oauth:grant-type:jwt-bearer');
      assert.equal(grants.length, 1);
      assert.equal(grants[0].authorization, basic(MCP_CLIENT.id, MCP_CLIENT.secret));
      assert.equal(grants[0].form.scope, 'mcp:read mcp:write');
      assert.equal(grants[0].form.resource, fixture.url);
      assert.equal(assertions.length, 1);
      assert.equal(assertions[0].claims?.sub, 'ada@corp.example');
      assert.equal(assertions[0].claims?.iss, idp.issuer);

      // MCP requests carry the access token the authorization server issued, and it is in the store.
      const issued = fixture.issuedAccessTokens.at(-1);
      const result = await conn.callTool('publish', { message: 'hi' });
      assert.deepEqual(result.content, [{ type: 'text', text: 'published hi' }]);
      assert.ok(bearerRequests().length >= 2);
      assert.ok(bearerRequests().every((a) => a === `Bearer ${issued}`));
      const record = await store.read(oauthKey('corp', fixture.url));
      assert.equal(record?.tokens?.access_token, issued);
    } finally {
      await conn.close();
    }

    // Stored tokens are used as they are: no new exchange for the next connection.
    const again = connect(oauth(), store);
    try {
      assert.equal((await again.start()).state, 'ready');
      assert.equal(idp.tokenRequests.length, 1);
      // An access token the server no longer accepts: a new exchange, with the ID token read afresh.
      fixture.expireAccessTokens();
      const fresh = idp.idToken('ada@corp.example', IDP_CLIENT.id, 7200);
      writeFileSync(idTokenFile, fresh);
      assert.deepEqual((await again.callTool('echo', { message: 'x' })).content, [{ type: 'text', text: 'x' }]);
      assert.equal(idp.tokenRequests.length, 2);
      assert.equal(idp.tokenRequests[1].form.subject_token, fresh);
    } finally {
      await again.close();
    }
  });

  it('a public client at an IdP given by its token endpoint, the ID token from a variable; an IdP the server does not trust is refused', async () => {
    const publicIdp = await startFakeIdp({ client: { id: 'public-at-idp' }, resourceClientId: MCP_CLIENT.id });
    try {
      const config = oauth({ issuer: undefined, tokenEndpoint: publicIdp.tokenEndpoint, clientId: 'public-at-idp', clientSecret: undefined, idTokenFile: undefined, idTokenEnv: 'CORP_ID_TOKEN' });
      const publicToken = publicIdp.idToken('bob@corp.example', 'public-at-idp');
      const conn = connect(config, new MemoryOAuthStore(), { CORP_ID_TOKEN: publicToken });
      // The ID-JAG is signed by this second IdP: the authorization server trusts only the first, so it refuses it.
      const status = await conn.start();
      await conn.close();
      assert.notEqual(status.state, 'ready');
      assert.equal(publicIdp.discoveryRequests.length, 0);
      assert.ok(publicIdp.tokenRequests.length >= 1);
      const exchange = publicIdp.tokenRequests[0];
      assert.equal(exchange.authorization, undefined);
      assert.equal(exchange.form.client_id, 'public-at-idp');
      assert.equal(exchange.form.client_secret, undefined);
      assert.equal(exchange.form.subject_token, publicToken);
      assert.match(status.reason ?? '', /assertion not accepted/);
      assert.deepEqual(bearerRequests(), []);
    } finally {
      await publicIdp.close();
    }
  });

  /** Starts a connection that must fail; returns its reason after checking nothing was authorized. */
  async function fails(config: OAuthConfig, env: Record<string, string | undefined> = {}): Promise<string> {
    const store = new MemoryOAuthStore();
    const conn = connect(config, store, env);
    try {
      const status = await conn.start();
      assert.equal(status.state, 'error', 'a failed exchange must not leave the connection ready');
      assert.notEqual(status.auth, 'signed-in');
      assert.equal((await store.read(oauthKey('corp', fixture.url)))?.tokens, undefined);
      assert.deepEqual(bearerRequests(), [], 'no MCP request carried a token');
      return status.reason ?? '';
    } finally {
      await conn.close();
    }
  }

  it('the IdP refusing the exchange (400 invalid_grant) fails the connection with its error, and nothing reaches the authorization server', async () => {
    idp.answer = { status: 400, body: { error: 'invalid_grant', error_description: 'ID token not valid' } };
    const reason = await fails(oauth());
    assert.match(reason, /the identity provider of server "corp" refused the ID token exchange \(HTTP 400, invalid_grant: ID token not valid\)/);
    assert.equal(idp.tokenRequests.length, 1, 'a refusal is not retried');
    assert.deepEqual(fixture.tokenRequests, []);
  });

  it('no ID token (the variable is not set): a clear error naming the field, and the IdP is not asked', async () => {
    const reason = await fails(oauth({ idTokenFile: undefined, idTokenEnv: 'CORP_ID_TOKEN' }), {});
    assert.match(reason, /oauth\.identityProvider\.idTokenEnv of server "corp": environment variable CORP_ID_TOKEN is not set/);
    assert.equal(idp.tokenRequests.length, 0);
  });

  it('an ID token file that is missing, or holds an expired token: clear errors, the IdP is not asked', async () => {
    assert.match(await fails(oauth({ idTokenFile: join(work, 'absent') })), /cannot read oauth\.identityProvider\.idTokenFile of server "corp": ".*absent" \(ENOENT\)/);
    writeFileSync(idTokenFile, idp.idToken('ada@corp.example', IDP_CLIENT.id, -60));
    assert.match(await fails(oauth()), /idTokenFile of server "corp": the ID token expired at \d{4}-\d\d-\d\dT[\d:.]+Z; sign in to your identity provider again/);
    assert.equal(idp.tokenRequests.length, 0);
  });

  it('an IdP answer that is not an ID-JAG is refused before anything is sent to the authorization server', async () => {
    idp.answer = { status: 200, body: { access_token: 'opaque-access-token', issued_token_type: 'urn:ietf:params:oauth:token-type:access_token', token_type: 'Bearer' } };
    assert.match(await fails(oauth()), /issued "urn:ietf:params:oauth:token-type:access_token", not an ID-JAG/);
    idp.answer = { status: 200, body: { access_token: 'not-a-jwt', issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', token_type: 'N_A' } };
    assert.match(await fails(oauth()), /issued an ID-JAG that is not a JWT/);
    assert.deepEqual(fixture.tokenRequests, []);
  });

  it('the authorization server refusing the ID-JAG fails the connection', async () => {
    acceptAssertions = false;
    assert.match(await fails(oauth()), /assertion not accepted/);
    assert.ok(assertions.length >= 1);
    assert.ok(assertions.every((a) => a.claims?.aud === a.issuer && a.claims?.resource === a.resource), 'the ID-JAG was addressed right; the server just said no');
  });
});
