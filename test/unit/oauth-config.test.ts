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
});
