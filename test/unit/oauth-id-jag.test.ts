import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { IdentityProviderConfig } from '../../src/registry/oauth/config';
import { exchangeIdToken, IdentityProviderError, idpTokenEndpoint, readIdToken } from '../../src/registry/oauth/id-jag';

const jwt = (claims: Record<string, unknown>) => `${Buffer.from('{"alg":"ES256"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2ln`;
const NOW = Date.UTC(2026, 0, 1);
const live = jwt({ sub: 'ada', exp: NOW / 1000 + 600 });
const ISSUER = 'https://idp.example.com/tenant';

/** A fetch answering from `routes` (URL → status and JSON body), recording each request. */
function fakeFetch(routes: Record<string, { status: number; body: unknown }>) {
  const calls: { url: string; init?: RequestInit }[] = [];
  const fn = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    calls.push({ url, init });
    const r = routes[url] ?? { status: 404, body: { error: 'not_found' } };
    return new Response(JSON.stringify(r.body), { status: r.status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { fn, calls };
}

const rejects = (p: Promise<unknown>, message: RegExp) => assert.rejects(p, (err: unknown) => err instanceof IdentityProviderError && message.test(err.message));

describe('ID token source', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jev-idtoken-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const idp = (source: Partial<IdentityProviderConfig>): IdentityProviderConfig => ({ issuer: ISSUER, clientId: 'c', ...source });

  it('reads the token from a file (trimmed) or an environment variable', async () => {
    assert.equal(await readIdToken('corp', idp({ idTokenFile: file('ok', `\n${live}\n`) }), {}, NOW), live);
    assert.equal(await readIdToken('corp', idp({ idTokenEnv: 'TOK' }), { TOK: live }, NOW), live);
  });

  it('refuses an empty, non-JWT or expired token, naming the field', async () => {
    await rejects(readIdToken('corp', idp({ idTokenFile: file('empty', '  \n') }), {}, NOW), /^oauth\.identityProvider\.idTokenFile of server "corp": the ID token is empty/);
    await rejects(readIdToken('corp', idp({ idTokenEnv: 'TOK' }), { TOK: 'opaque-session-cookie' }, NOW), /idTokenEnv of server "corp": does not hold an ID token \(a JWT/);
    await rejects(readIdToken('corp', idp({ idTokenEnv: 'TOK' }), { TOK: jwt({ exp: NOW / 1000 - 1 }) }, NOW), /the ID token expired at 2025-12-31T23:59:59\.000Z/);
    await rejects(readIdToken('corp', idp({ idTokenEnv: 'TOK' }), { TOK: '' }, NOW), /environment variable TOK is not set/);
  });
});

describe('identity provider token endpoint', () => {
  const base = { clientId: 'c', idTokenEnv: 'T' };

  it('is the configured one, or discovered from the issuer (RFC 8414 first, then OpenID Connect)', async () => {
    assert.deepEqual(await idpTokenEndpoint('corp', { ...base, tokenEndpoint: 'https://idp.example.com/t' }, fakeFetch({}).fn), { tokenEndpoint: 'https://idp.example.com/t' });
    const f = fakeFetch({ 'https://idp.example.com/tenant/.well-known/openid-configuration': { status: 200, body: { issuer: ISSUER, token_endpoint: `${ISSUER}/token`, token_endpoint_auth_methods_supported: ['client_secret_post'] } } });
    assert.deepEqual(await idpTokenEndpoint('corp', { ...base, issuer: ISSUER }, f.fn), { tokenEndpoint: `${ISSUER}/token`, authMethods: ['client_secret_post'] });
    assert.deepEqual(f.calls.map((c) => c.url), [
      'https://idp.example.com/.well-known/oauth-authorization-server/tenant',
      'https://idp.example.com/.well-known/openid-configuration/tenant',
      'https://idp.example.com/tenant/.well-known/openid-configuration',
    ]);
  });

  it('refuses metadata of another issuer, a plain-http token endpoint, or no metadata at all', async () => {
    const at = (body: unknown) => fakeFetch({ 'https://idp.example.com/.well-known/oauth-authorization-server/tenant': { status: 200, body } }).fn;
    await rejects(idpTokenEndpoint('corp', { ...base, issuer: ISSUER }, at({ issuer: 'https://evil.example.com', token_endpoint: 'https://evil.example.com/t' })), /names issuer "https:\/\/evil\.example\.com", not the configured oauth\.identityProvider\.issuer/);
    await rejects(idpTokenEndpoint('corp', { ...base, issuer: ISSUER }, at({ issuer: ISSUER, token_endpoint: 'http://idp.example.com/t' })), /token_endpoint "http:\/\/idp\.example\.com\/t" must be an https:\/\/ URL/);
    await rejects(idpTokenEndpoint('corp', { ...base, issuer: ISSUER }, fakeFetch({}).fn), /cannot discover the identity provider of server "corp" .*HTTP 404.*; set oauth\.identityProvider\.tokenEndpoint instead/);
  });
});

describe('token exchange', () => {
  const target = { audience: 'https://auth.example.com', resource: 'https://mcp.example.com/mcp' };
  const ok = { status: 200, body: { access_token: jwt({ sub: 'ada' }), issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', token_type: 'N_A' } };
  const endpoint = { tokenEndpoint: 'https://idp.example.com/token' };

  it('sends the RFC 8693 form and authenticates with client_secret_basic, or client_secret_post when that is all the IdP lists', async () => {
    const f = fakeFetch({ [endpoint.tokenEndpoint]: ok });
    const idp = { clientId: 'jev app', clientSecret: 's:1', idTokenEnv: 'T', tokenEndpoint: endpoint.tokenEndpoint };
    assert.equal(await exchangeIdToken('corp', idp, endpoint, live, { ...target, scope: 'read' }, f.fn), ok.body.access_token);
    const sent = f.calls[0];
    assert.equal(sent.init?.method, 'POST');
    assert.equal(sent.init?.redirect, 'manual');
    assert.deepEqual(Object.fromEntries(sent.init?.body as URLSearchParams), {
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      subject_token: live,
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      audience: target.audience,
      resource: target.resource,
      scope: 'read',
    });
    assert.equal((sent.init?.headers as Record<string, string>).authorization, `Basic ${Buffer.from('jev%20app:s%3A1').toString('base64')}`);

    await exchangeIdToken('corp', idp, { ...endpoint, authMethods: ['client_secret_post'] }, live, target, f.fn);
    const post = f.calls[1];
    assert.equal((post.init?.headers as Record<string, string>).authorization, undefined);
    assert.equal((post.init?.body as URLSearchParams).get('client_secret'), 's:1');
    assert.equal((post.init?.body as URLSearchParams).get('scope'), null);
  });

  it('reports a refusal with the IdP error, a redirect as not followed, and an answer that is not an ID-JAG', async () => {
    const idp = { clientId: 'c', idTokenEnv: 'T', tokenEndpoint: endpoint.tokenEndpoint };
    const answer = (status: number, body: unknown) => exchangeIdToken('corp', idp, endpoint, live, target, fakeFetch({ [endpoint.tokenEndpoint]: { status, body } }).fn);
    await rejects(answer(400, { error: 'invalid_grant', error_description: 'ID token expired' }), /^the identity provider of server "corp" refused the ID token exchange \(HTTP 400, invalid_grant: ID token expired\)$/);
    await rejects(answer(302, {}), /refused the ID token exchange \(HTTP 302, a redirect, not followed\)/);
    await rejects(answer(200, { token_type: 'N_A' }), /answered the token exchange without an access_token/);
    await rejects(answer(200, { ...ok.body, issued_token_type: undefined }), /issued a token without issued_token_type, not an ID-JAG/);
    const unreachable = (async () => {
      throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
    }) as typeof fetch;
    await rejects(exchangeIdToken('corp', idp, endpoint, live, target, unreachable), /cannot reach the identity provider of server "corp" at https:\/\/idp\.example\.com\/token \(connect ECONNREFUSED/);
  });
});
