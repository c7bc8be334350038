/** Base-URL rules (src/providers/base-url.ts): https anywhere, plain http only for loopback. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { JevError } from '../../src/judgment/errors';
import { DEFAULT_BASE_URL, isLoopbackHost, normalizeBaseUrl } from '../../src/providers/base-url';

function rejects(raw: string, why: RegExp, name?: string): JevError {
  let err: unknown;
  try {
    const value = normalizeBaseUrl(raw, name);
    assert.fail(`${JSON.stringify(raw)} was accepted as ${JSON.stringify(value)}`);
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof JevError, `expected a JevError for ${raw}`);
  assert.equal(err.code, 'CONFIG_ERROR');
  assert.equal(err.retryable, false);
  assert.match(err.message, why);
  return err;
}

describe('accepted base URLs', () => {
  const cases: Array<[string, string]> = [
    ['https://api.typesafe.ai/v1/', 'https://api.typesafe.ai/v1'],
    ['https://api.typesafe.ai', 'https://api.typesafe.ai'],
    ['https://api.typesafe.ai/', 'https://api.typesafe.ai'],
    ['https://example.com/api//', 'https://example.com/api'],
    ['https://api.typesafe.ai:443/', 'https://api.typesafe.ai'],
    ['http://localhost:11434', 'http://localhost:11434'],
    ['http://LOCALHOST:11434/', 'http://localhost:11434'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://127.1.2.3:9', 'http://127.1.2.3:9'],
    ['http://[::1]:1', 'http://[::1]:1'],
    ['  https://api.typesafe.ai/v1/  ', 'https://api.typesafe.ai/v1'],
  ];
  for (const [raw, expected] of cases) {
    test(`${JSON.stringify(raw)} → ${expected}`, () => {
      assert.equal(normalizeBaseUrl(raw), expected);
    });
  }

  test('empty or blank → the TypeSafe default', () => {
    assert.equal(normalizeBaseUrl(''), DEFAULT_BASE_URL);
    assert.equal(normalizeBaseUrl('   '), DEFAULT_BASE_URL);
    assert.equal(DEFAULT_BASE_URL, 'https://api.typesafe.ai');
  });
});

describe('rejected base URLs', () => {
  test('plain http to a public host (the key would travel in the clear)', () => {
    rejects('http://example.com', /plain http only for localhost/);
  });

  test('plain http to the cloud metadata address', () => {
    rejects('http://169.254.169.254', /plain http only/);
  });

  for (const raw of ['http://2130706433', 'http://0x7f000001', 'http://127.1', 'http://0177.0.0.1', 'http://127.000.000.001']) {
    test(`obfuscated loopback ${raw}`, () => {
      rejects(raw, /obfuscated host/);
    });
  }

  test('credentials, and the secret is not echoed', () => {
    const err = rejects('https://username:hunter2@example.com/api', /must not contain credentials/);
    assert.ok(!err.message.includes('hunter2'));
    rejects('https://token@example.com', /credentials/);
  });

  test('query and fragment', () => {
    rejects('http://127.0.0.1/path?x=1', /query or fragment/);
    rejects('https://api.typesafe.ai/v1#frag', /query or fragment/);
    rejects('https://api.typesafe.ai/v1?', /query or fragment/);
    const err = rejects('https://username:password@example.com/api?token=private#secret', /credentials|query/);
    assert.ok(!err.message.includes('private') && !err.message.includes('password'));
  });

  test('unsupported schemes', () => {
    rejects('ftp://api.typesafe.ai', /unsupported scheme "ftp:"/);
    rejects('file:///etc/passwd', /unsupported scheme|obfuscated/);
  });

  test('unparsable text', () => {
    rejects('not a url', /not a valid URL/);
  });

  test('the error names the setting it came from', () => {
    rejects('http://example.com', /^jevPanel\.baseUrl /, 'jevPanel.baseUrl');
    rejects('http://example.com', /^JEV_BASE_URL /);
  });
});

describe('isLoopbackHost', () => {
  test('loopback names and dotted 127/8 only', () => {
    for (const host of ['localhost', '127.0.0.1', '127.255.0.9', '[::1]']) assert.equal(isLoopbackHost(host), true, host);
    for (const host of ['example.com', '10.0.0.1', '128.0.0.1', '127.0.0.01', 'localhost.example.com']) {
      assert.equal(isLoopbackHost(host), false, host);
    }
  });
});
