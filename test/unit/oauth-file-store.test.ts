import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FileOAuthStore, defaultOAuthDir } from '../../src/registry/oauth/file-store';
import { oauthKey } from '../../src/registry/oauth/store';

const posix = process.platform !== 'win32';
const work = mkdtempSync(join(tmpdir(), 'jev-oauth-store-'));
after(() => rmSync(work, { recursive: true, force: true }));

describe('FileOAuthStore', () => {
  it('writes one 0600 file per key in a 0700 folder, reads it back, deletes it', async () => {
    const dir = join(work, 'a', 'oauth');
    const store = new FileOAuthStore(dir);
    const key = oauthKey('docs', 'https://mcp.example.com/mcp');
    assert.equal(await store.read(key), undefined);
    await store.write(key, { serverUrl: 'https://mcp.example.com/mcp', tokens: { access_token: 'at', token_type: 'Bearer' } });
    const files = readdirSync(dir);
    assert.equal(files.length, 1);
    assert.match(files[0], /^[0-9a-f]{32}\.json$/);
    if (posix) {
      assert.equal(statSync(dir).mode & 0o777, 0o700);
      assert.equal(statSync(join(dir, files[0])).mode & 0o777, 0o600);
    }
    assert.equal((await store.read(key))?.tokens?.access_token, 'at');
    assert.equal(await store.read(oauthKey('docs', 'https://other.example.com/mcp')), undefined);
    await store.delete(key);
    assert.deepEqual(readdirSync(dir), []);
    await store.delete(key); // absent: no error
  });

  it('narrows a folder and a file that others could read', { skip: !posix }, async () => {
    const dir = join(work, 'wide');
    const store = new FileOAuthStore(dir);
    await store.write('k', { serverUrl: 'u' });
    const file = join(dir, readdirSync(dir)[0]);
    chmodSync(dir, 0o755);
    chmodSync(file, 0o644);
    await store.read('k');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    await store.write('k', { serverUrl: 'u' });
    assert.equal(statSync(dir).mode & 0o777, 0o700);
  });

  it('never hands a record to another key, and a damaged file reads as nothing stored', async () => {
    const dir = join(work, 'b');
    const store = new FileOAuthStore(dir);
    await store.write('one', { serverUrl: 'u1' });
    const oneFile = join(dir, readdirSync(dir)[0]);
    await store.write('two', { serverUrl: 'u2' });
    const twoFile = readdirSync(dir).map((f) => join(dir, f)).find((f) => f !== oneFile)!;
    // A file copied under another key's name (or a hash collision) is not trusted.
    writeFileSync(twoFile, readFileSync(oneFile));
    assert.equal(await store.read('two'), undefined);
    assert.equal((await store.read('one'))?.serverUrl, 'u1');
    writeFileSync(twoFile, '{"key": "two", "record": ');
    assert.equal(await store.read('two'), undefined);
    assert.ok(!readdirSync(dir).some((f) => f.endsWith('.tmp')));
  });

  it('defaults to JEV_OAUTH_DIR, else the config folder', () => {
    assert.equal(defaultOAuthDir({ JEV_OAUTH_DIR: '/x/y' }), '/x/y');
    if (posix) assert.equal(defaultOAuthDir({ XDG_CONFIG_HOME: '/cfg' }), join('/cfg', 'jevcp', 'oauth'));
  });

  it('a file that cannot be read is an error naming it', { skip: !posix || process.getuid?.() === 0 }, async () => {
    const dir = join(work, 'c');
    mkdirSync(dir);
    const store = new FileOAuthStore(dir);
    await store.write('k', { serverUrl: 'u' });
    chmodSync(join(dir, readdirSync(dir)[0]), 0o000);
    await assert.rejects(store.read('k'), /cannot read the OAuth token file .*EACCES/);
  });
});
