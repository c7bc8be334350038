import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseServerConfig } from '../../src/registry/servers';
import { JevError } from '../../src/judgment/errors';

const parse = (oauth: unknown) => parseServerConfig({ url: 'https://mcp.example.com/mcp', oauth }, 'servers.docs');
const fails = (oauth: unknown, message: RegExp) =>
  assert.throws(() => parse(oauth), (err: unknown) => err instanceof JevError && err.code === 'CONFIG_ERROR' && message.test(err.message));

describe('server config: oauth', () => {
  it('accepts false, an empty object (defaults to authorization_code) and every documented field', () => {
    assert.deepEqual(parse(false), { url: 'https://mcp.example.com/mcp', oauth: false });
    assert.deepEqual((parse({}) as { oauth: unknown }).oauth, { grant: 'authorization_code' });
    const full = parse({ clientId: 'app', clientSecret: 's', scopes: ['read', 'write'], clientMetadataUrl: 'https://app.example.com/client.json', redirectPort: 33418 });
    assert.deepEqual((full as { oauth: unknown }).oauth, { grant: 'authorization_code', clientId: 'app', clientSecret: 's', scopes: ['read', 'write'], clientMetadataUrl: 'https://app.example.com/client.json', redirectPort: 33418 });
    assert.equal(((parse({ grant: 'client_credentials', clientId: 'm', privateKeyFile: '/k.pem', signingAlgorithm: 'ES256' }) as { oauth: { grant: string } }).oauth.grant), 'client_credentials');
  });

  it('names the field and the rule of each mistake', () => {
    fails('yes', /^servers\.docs\.oauth: must be an object .* or false$/);
    fails({ grant: 'password' }, /servers\.docs\.oauth\.grant: must be "authorization_code", "client_credentials" or "jwt_bearer"/);
    fails({ grant: 'client_credentials' }, /servers\.docs\.oauth\.clientId: is required for grant "client_credentials"/);
    fails({ grant: 'client_credentials', clientId: 'm' }, /oauth\.clientSecret: clientSecret or privateKeyFile is required/);
    fails({ clientSecret: 's' }, /oauth\.clientSecret: needs clientId/);
    fails({ clientMetadataUrl: 'http://app.example.com/c.json' }, /oauth\.clientMetadataUrl: must be an https:\/\/ URL with a path/);
    fails({ clientMetadataUrl: 'https://app.example.com/' }, /oauth\.clientMetadataUrl: must be an https:\/\/ URL with a path/);
    fails({ redirectPort: 70000 }, /oauth\.redirectPort: must be a port from 1 to 65535/);
    fails({ scopes: ['a b'] }, /oauth\.scopes\[0\]: must be scope tokens/);
    fails({ privateKeyFile: '/k.pem' }, /oauth\.privateKeyFile: applies to grants "client_credentials" and "jwt_bearer" only/);
    fails({ clientID: 'typo' }, /servers\.docs\.oauth: unknown field clientID/);
  });

  describe('grant jwt_bearer', () => {
    const idp = { issuer: 'https://idp.example.com', clientId: 'jev-at-idp', idTokenFile: '/run/user/id-token' };
    it('accepts an identity provider by issuer or token endpoint, the ID token from a file or a variable', () => {
      const full = parse({ grant: 'jwt_bearer', clientId: 'app', clientSecret: 's', identityProvider: { ...idp, clientSecret: 'x' } });
      assert.deepEqual((full as { oauth: unknown }).oauth, { grant: 'jwt_bearer', clientId: 'app', clientSecret: 's', identityProvider: { ...idp, clientSecret: 'x' } });
      const other = { tokenEndpoint: 'http://127.0.0.1:8080/token', clientId: 'c', idTokenEnv: 'CORP_ID_TOKEN' };
      assert.deepEqual((parse({ grant: 'jwt_bearer', clientId: 'app', identityProvider: other }) as { oauth: { identityProvider: unknown } }).oauth.identityProvider, other);
    });

    it('names the field and the rule of each mistake', () => {
      fails({ grant: 'jwt_bearer', identityProvider: idp }, /oauth\.clientId: is required for grant "jwt_bearer"/);
      fails({ grant: 'jwt_bearer', clientId: 'app' }, /oauth\.identityProvider: is required for grant "jwt_bearer"/);
      fails({ clientId: 'app', identityProvider: idp }, /oauth\.identityProvider: applies to grant "jwt_bearer" only/);
      fails({ grant: 'jwt_bearer', clientId: 'app', clientSecret: 's', privateKeyFile: '/k.pem', identityProvider: idp }, /oauth\.privateKeyFile: give clientSecret or privateKeyFile, not both/);
      fails({ grant: 'jwt_bearer', clientId: 'app', clientMetadataUrl: 'https://app.example.com/c.json', identityProvider: idp }, /oauth\.clientMetadataUrl: applies to grant "authorization_code" only/);
      const bad = (change: Record<string, unknown>, message: RegExp) => fails({ grant: 'jwt_bearer', clientId: 'app', identityProvider: { ...idp, ...change } }, message);
      fails({ grant: 'jwt_bearer', clientId: 'app', identityProvider: 'okta' }, /oauth\.identityProvider: must be an object/);
      bad({ issuer: undefined }, /oauth\.identityProvider\.issuer: give exactly one of issuer \(discovered\) or tokenEndpoint/);
      bad({ tokenEndpoint: 'https://idp.example.com/token' }, /oauth\.identityProvider\.tokenEndpoint: give exactly one of issuer/);
      bad({ issuer: 'http://idp.example.com' }, /oauth\.identityProvider\.issuer: must be an https:\/\/ URL; plain http:\/\/ is allowed only for loopback hosts/);
      bad({ issuer: 'idp.example.com' }, /oauth\.identityProvider\.issuer: must be an absolute https:\/\/ URL/);
      bad({ idTokenFile: undefined }, /oauth\.identityProvider\.idTokenFile: give exactly one of idTokenFile or idTokenEnv/);
      bad({ idTokenEnv: 'X' }, /oauth\.identityProvider\.idTokenEnv: give exactly one of idTokenFile or idTokenEnv/);
      bad({ idTokenFile: undefined, idTokenEnv: 'CORP-TOKEN' }, /oauth\.identityProvider\.idTokenEnv: must be an environment variable name/);
      bad({ clientId: undefined }, /oauth\.identityProvider\.clientId:/);
      bad({ idToken: 'eyJ...' }, /oauth\.identityProvider: unknown field idToken/);
    });
  });
});
