import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IdentityProviderError } from '../../src/registry/oauth/id-jag';
import { JevOAuthProvider, unionScopes } from '../../src/registry/oauth/provider';
import { AuthorizationRequiredError, type OAuthHost } from '../../src/registry/oauth/sign-in';
import { MemoryOAuthStore, oauthKey } from '../../src/registry/oauth/store';

const URL_ = 'https://mcp.example.com/mcp';
const host = (extra: Partial<OAuthHost> = {}): OAuthHost => ({ store: new MemoryOAuthStore(), signInHint: (s) => `sign in to ${s}`, ...extra });

describe('JevOAuthProvider', () => {
  it('without a browser step: no registration, AuthorizationRequiredError with the host hint', async () => {
    const p = new JevOAuthProvider('docs', URL_, { grant: 'authorization_code' }, host());
    await assert.rejects(Promise.resolve(p.clientInformation()), (err: unknown) => err instanceof AuthorizationRequiredError && err.message === 'needs sign-in: sign in to docs');
    assert.ok(p.required);
  });

  it('returns a configured client and never stores it', async () => {
    const h = host();
    const p = new JevOAuthProvider('docs', URL_, { grant: 'authorization_code', clientId: 'app', clientSecret: 'sec' }, h);
    assert.deepEqual(await p.clientInformation(), { client_id: 'app', client_secret: 'sec' });
    await p.saveClientInformation({ client_id: 'app', client_secret: 'sec' });
    assert.equal((await h.store.read(oauthKey('docs', URL_)))?.client, undefined);
    assert.equal(p.clientMetadata.token_endpoint_auth_method, 'client_secret_basic');
  });

  it('ignores a record stored for another URL and forgets everything on sign-out', async () => {
    const h = host();
    await h.store.write(oauthKey('docs', URL_), { serverUrl: 'https://old.example.com/mcp', tokens: { access_token: 'old', token_type: 'Bearer' } });
    const p = new JevOAuthProvider('docs', URL_, { grant: 'authorization_code' }, h);
    assert.equal(await p.tokens(), undefined);
    await p.saveTokens({ access_token: 'new', token_type: 'Bearer' });
    assert.equal(p.signedIn, true);
    await p.signOut();
    assert.equal(await h.store.read(oauthKey('docs', URL_)), undefined);
    assert.equal(await p.tokens(), undefined);
  });

  it('client_credentials: no redirect URI, a client_credentials token request with the scope', async () => {
    const p = new JevOAuthProvider('api', URL_, { grant: 'client_credentials', clientId: 'm', clientSecret: 's' }, host());
    assert.equal(p.redirectUrl, undefined);
    assert.deepEqual(p.clientMetadata.grant_types, ['client_credentials']);
    assert.equal((await p.prepareTokenRequest('read'))?.toString(), 'grant_type=client_credentials&scope=read');
  });

  it('jwt_bearer: no redirect URI, the jwt-bearer grant type, and no token request before the authorization server is known', async () => {
    const config = { grant: 'jwt_bearer' as const, clientId: 'm', identityProvider: { tokenEndpoint: 'https://idp.example.com/token', clientId: 'c', idTokenEnv: 'T' } };
    const p = new JevOAuthProvider('corp', URL_, config, host({ env: { T: 'x.y.z' } }));
    assert.equal(p.redirectUrl, undefined);
    assert.deepEqual(p.clientMetadata.grant_types, ['urn:ietf:params:oauth:grant-type:jwt-bearer']);
    assert.equal(p.clientMetadata.token_endpoint_auth_method, 'none');
    await assert.rejects(p.prepareTokenRequest(), (err: unknown) => err instanceof IdentityProviderError && /authorization server is not known yet/.test(err.message));
  });

  it('concurrent flows share one browser step and keep its code verifier', async () => {
    const opened: URL[] = [];
    const p = new JevOAuthProvider('docs', URL_, { grant: 'authorization_code' }, host({ interaction: { async openAuthorizationUrl(u) { opened.push(u); } } }));
    await p.clientInformation(); // starts the redirect listener
    assert.match(p.redirectUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    p.saveCodeVerifier('first');
    await p.redirectToAuthorization(new URL('https://auth.example.com/authorize?state=a'));
    p.saveCodeVerifier('second');
    await p.redirectToAuthorization(new URL('https://auth.example.com/authorize?state=b'));
    assert.equal(opened.length, 1);
    assert.equal(p.codeVerifier(), 'first');
    const redirect = new URL(p.redirectUrl!);
    redirect.searchParams.set('code', 'the-code');
    redirect.searchParams.set('state', 'a');
    const exchanged: string[] = [];
    const done = Promise.all([p.completeSignIn(async (c) => void exchanged.push(c)), p.completeSignIn(async (c) => void exchanged.push(c))]);
    assert.equal((await fetch(redirect)).status, 200);
    assert.deepEqual(await done, [true, true]);
    assert.deepEqual(exchanged, ['the-code'], 'the code is exchanged once');
    assert.equal(await p.completeSignIn(async () => undefined), false);
    await p.close();
  });

  it('unionScopes keeps first-seen order without duplicates', () => {
    assert.equal(unionScopes('a b', undefined, 'b c'), 'a b c');
    assert.equal(unionScopes(undefined, ''), undefined);
  });
});
