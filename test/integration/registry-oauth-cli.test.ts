/**
 * OAuth from the CLI against a real OAuth-protected MCP server (test/helpers/oauth-mcp-server.ts): a
 * server needing sign-in is reported with the hint and nothing is registered; `jevcp servers login`
 * completes the browser step headlessly through BROWSER (test/fixtures/browser/follow-redirect.mjs) and
 * keeps the tokens in a 0600 file in a 0700 folder; later runs use them (refreshing an expired access
 * token without a browser); `logout` forgets them; client_credentials needs no browser at all.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startOAuthMcpServer, type OAuthFixture } from '../helpers/oauth-mcp-server';
import { ROOT, cleanEnv, ensureBuilt, jevcp } from './mcp-fixtures';

const FOLLOW = join(ROOT, 'test/fixtures/browser/follow-redirect.mjs');

describe('jevcp servers with an OAuth server', () => {
  let fixture: OAuthFixture;
  let work: string;
  let tokens: string;
  let browserLog: string;
  const env = (extra: Record<string, string> = {}) => cleanEnv({ JEV_OAUTH_DIR: tokens, ...extra });
  const browserRuns = () => (existsSync(browserLog) ? readFileSync(browserLog, 'utf8').trim().split('\n').length : 0);

  before(async () => {
    ensureBuilt();
    fixture = await startOAuthMcpServer();
    work = mkdtempSync(join(tmpdir(), 'jev-oauth-cli-'));
    tokens = join(work, 'tokens');
    browserLog = join(work, 'browser.log');
    mkdirSync(join(work, '.jev'));
    writeFileSync(join(work, '.jev/config.json'), JSON.stringify({ servers: { docs: { url: fixture.url } } }));
  });
  after(async () => {
    await fixture.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('reports a server that needs sign-in with the hint, without registering a client or opening a browser', async () => {
    const run = await jevcp(['servers', '--json'], { cwd: work, env: env({ BROWSER: `${process.execPath} ${FOLLOW}`, FOLLOW_REDIRECT_LOG: browserLog }) });
    assert.equal(run.code, 3, run.stderr);
    const docs = JSON.parse(run.stdout).servers[0];
    assert.equal(docs.status.state, 'error');
    assert.equal(docs.status.auth, 'required');
    assert.match(docs.status.reason, /needs sign-in: run "jevcp servers login docs"/);
    assert.equal(fixture.registrations, 0);
    assert.equal(browserRuns(), 0);
    const human = await jevcp(['servers'], { cwd: work, env: env() });
    assert.match(human.stdout, /reason: needs sign-in: run "jevcp servers login docs"/);
  });

  it('login completes the browser step through BROWSER and keeps the tokens readable by the user alone', async () => {
    const run = await jevcp(['servers', 'login', 'docs'], { cwd: work, env: env({ BROWSER: `${process.execPath} ${FOLLOW}`, FOLLOW_REDIRECT_LOG: browserLog }) });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Signed in to docs: ready, 2 tools/);
    assert.match(run.stderr, /sign in to docs in your browser: http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
    assert.equal(browserRuns(), 1);
    assert.equal(fixture.registrations, 1);
    assert.deepEqual(fixture.grants, ['authorization_code']);
    // Scopes from WWW-Authenticate (mcp:read) on the first 401.
    assert.equal(fixture.authorizationScopes.at(-1), 'mcp:read');
    if (process.platform !== 'win32') {
      assert.equal(statSync(tokens).mode & 0o777, 0o700);
      const files = readdirSync(tokens);
      assert.equal(files.length, 1);
      assert.equal(statSync(join(tokens, files[0])).mode & 0o777, 0o600);
    }
    for (const token of fixture.issuedAccessTokens) assert.ok(!run.stdout.includes(token) && !run.stderr.includes(token), 'an access token was printed');
  });

  it('later commands use the stored tokens and refresh an expired access token without a browser', async () => {
    const ready = await jevcp(['servers', '--json'], { cwd: work, env: env() });
    assert.equal(ready.code, 0, ready.stderr);
    assert.equal(JSON.parse(ready.stdout).servers[0].status.auth, 'signed-in');
    assert.match((await jevcp(['servers'], { cwd: work, env: env() })).stdout, /OAuth: signed in/);
    fixture.expireAccessTokens();
    const refreshed = await jevcp(['servers', '--json'], { cwd: work, env: env({ BROWSER: `${process.execPath} ${FOLLOW}`, FOLLOW_REDIRECT_LOG: browserLog }) });
    assert.equal(refreshed.code, 0, refreshed.stderr);
    assert.equal(fixture.grants.at(-1), 'refresh_token');
    assert.equal(browserRuns(), 1);
  });

  it('logout forgets the tokens; the server needs sign-in again', async () => {
    const run = await jevcp(['servers', 'logout', 'docs'], { cwd: work, env: env() });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Signed out of docs/);
    assert.deepEqual(readdirSync(tokens), []);
    const after = await jevcp(['servers', '--json'], { cwd: work, env: env() });
    assert.equal(JSON.parse(after.stdout).servers[0].status.auth, 'required');
  });

  it('login names an unknown server and a server without OAuth (exit 2)', async () => {
    const unknown = await jevcp(['servers', 'login', 'nope'], { cwd: work, env: env() });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no server "nope"; servers: docs/);
    writeFileSync(join(work, 'plain.json'), JSON.stringify({ servers: { plain: { url: fixture.url, oauth: false } } }));
    const plain = await jevcp(['servers', 'login', 'plain', '--config', 'plain.json'], { cwd: work, env: env() });
    assert.equal(plain.code, 2);
    assert.match(plain.stderr, /does not sign in with OAuth/);
  });

  it('a bad oauth field is a configuration error naming the field', async () => {
    writeFileSync(join(work, 'bad.json'), JSON.stringify({ servers: { cc: { url: fixture.url, oauth: { grant: 'client_credentials' } } } }));
    const run = await jevcp(['servers', '--config', 'bad.json'], { cwd: work, env: env() });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /servers\.cc\.oauth\.clientId: is required for grant "client_credentials"/);
  });
});

describe('jevcp servers with client credentials', () => {
  it('gets a token without a browser and never prints the secret', async () => {
    ensureBuilt();
    const fixture = await startOAuthMcpServer({ client: { id: 'machine', secret: 'machine-secret-value' } });
    const work = mkdtempSync(join(tmpdir(), 'jev-oauth-cc-'));
    try {
      writeFileSync(join(work, 'c.json'), JSON.stringify({ servers: { api: { url: fixture.url, oauth: { grant: 'client_credentials', clientId: 'machine', clientSecret: 'machine-secret-value', scopes: ['mcp:read'] } } } }));
      const run = await jevcp(['servers', '--config', 'c.json', '--json'], { cwd: work, env: cleanEnv({ JEV_OAUTH_DIR: join(work, 't'), BROWSER: 'false' }) });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(JSON.parse(run.stdout).servers[0].status.state, 'ready');
      assert.deepEqual(fixture.grants, ['client_credentials']);
      assert.ok(!`${run.stdout}${run.stderr}`.includes('machine-secret-value'));
    } finally {
      await fixture.close();
      rmSync(work, { recursive: true, force: true });
    }
  });
});
