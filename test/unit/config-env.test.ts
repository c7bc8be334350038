/** loadConfig (config/env.ts): number parsing of the threshold, timeout and spend-cap variables. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mockNotice } from '../../src/cli/runtime';
import { loadConfig } from '../../src/config/env';
import { JevError } from '../../src/judgment/errors';

/** Asserts loadConfig(env) throws CONFIG_ERROR with a message matching every pattern. */
function rejects(env: Record<string, string>, ...patterns: RegExp[]): void {
  assert.throws(
    () => loadConfig(env),
    (err: unknown) => {
      assert.ok(err instanceof JevError, String(err));
      assert.equal(err.code, 'CONFIG_ERROR');
      for (const p of patterns) assert.match(err.message, p);
      return true;
    },
  );
}

describe('loadConfig: threshold floors', () => {
  it('accepts plain decimals', () => {
    assert.deepEqual(loadConfig({ JEV_AUTO_ACCEPT: '0.9', JEV_REVIEW_AT: '.6', JEV_BLOCK_AT: '1' }).floors, { auto_accept: 0.9, review_at: 0.6, block_at: 1 });
    assert.equal(loadConfig({ JEV_AUTO_ACCEPT: ' 1.0 ' }).floors.auto_accept, 1);
  });

  for (const raw of ['0x1', '0b1', '0o1', '1e0', '1E-1', 'Infinity', '-0', '+0.9', '0.8.1', '1.', 'one']) {
    it(`rejects JEV_AUTO_ACCEPT=${raw} (not a plain decimal)`, () => {
      rejects({ JEV_AUTO_ACCEPT: raw }, /JEV_AUTO_ACCEPT must be a decimal number in \[0, 1\]/, new RegExp(JSON.stringify(raw).replace(/[.+]/g, '\\$&')));
    });
  }

  it('rejects out-of-range decimals', () => {
    rejects({ JEV_REVIEW_AT: '1.5' }, /JEV_REVIEW_AT must be a decimal number in \[0, 1\]/);
  });

  it('JEV_AUTO_ACCEPT alone below the default review floor: says JEV_REVIEW_AT (default 0.5) exceeds it and to set it too', () => {
    rejects({ JEV_AUTO_ACCEPT: '0.3' }, /JEV_AUTO_ACCEPT=0\.3 is below JEV_REVIEW_AT \(default 0\.5\)/, /Set JEV_REVIEW_AT too, e\.g\. JEV_REVIEW_AT=0\.3/);
    assert.deepEqual(loadConfig({ JEV_AUTO_ACCEPT: '0.3', JEV_REVIEW_AT: '0.3' }).floors, { auto_accept: 0.3, review_at: 0.3, block_at: 0.75 });
  });

  it('JEV_REVIEW_AT alone above the default auto-accept floor names the default; both set names both values', () => {
    rejects({ JEV_REVIEW_AT: '0.9' }, /JEV_REVIEW_AT=0\.9 exceeds JEV_AUTO_ACCEPT \(default 0\.8\)/, /set JEV_AUTO_ACCEPT too/);
    rejects({ JEV_REVIEW_AT: '0.7', JEV_AUTO_ACCEPT: '0.6' }, /JEV_REVIEW_AT \(0\.7\) must not exceed JEV_AUTO_ACCEPT \(0\.6\)/);
  });

  it('JEV_BLOCK_AT must be at least 0.25', () => {
    rejects({ JEV_BLOCK_AT: '0.2' }, /JEV_BLOCK_AT must be at least 0\.25/);
    assert.equal(loadConfig({ JEV_BLOCK_AT: '0.25' }).floors.block_at, 0.25);
  });
});

describe('loadConfig: JEV_TIMEOUT_MS and JEV_SPEND_CAP', () => {
  it('accept plain integers', () => {
    const config = loadConfig({ JEV_TIMEOUT_MS: '120000', JEV_SPEND_CAP: '9' });
    assert.equal(config.timeoutMs, 120_000);
    assert.equal(config.spendCap, 9);
    assert.equal(loadConfig({}).timeoutMs, 30_000);
    assert.equal(loadConfig({}).spendCap, undefined);
  });

  for (const raw of ['1e4', '0x10', '0b11', '10.0', '10.5', '+5', '-5', '0', 'Infinity', '5 ms']) {
    it(`reject ${JSON.stringify(raw)}`, () => {
      rejects({ JEV_TIMEOUT_MS: raw }, /JEV_TIMEOUT_MS must be a whole number \(digits only\) from 1 to/);
      rejects({ JEV_SPEND_CAP: raw }, /JEV_SPEND_CAP must be a whole number \(digits only\) from 1 to/);
    });
  }
});

describe('loadConfig: JEV_MOCK forces the mock judge', () => {
  it('wins over JEV_PROVIDER and says so in providerReason', () => {
    const openai = loadConfig({ JEV_MOCK: '1', JEV_PROVIDER: 'openai', JEV_BASE_URL: 'http://127.0.0.1:8080' });
    assert.equal(openai.provider, 'mock');
    assert.equal(openai.providerReason, 'JEV_MOCK=1, overriding JEV_PROVIDER=openai');
    const systemone = loadConfig({ JEV_MCP_MOCK: 'true', JEV_PROVIDER: 'SystemOne', JEV_API_KEY: 'sk-config-test-1234' });
    assert.equal(systemone.provider, 'mock');
    assert.equal(systemone.providerReason, 'JEV_MCP_MOCK=true, overriding JEV_PROVIDER=systemone');
    assert.match(mockNotice(openai), /^jevcp: JEV_MOCK=1, overriding JEV_PROVIDER=openai — using the mock judge/);
    assert.match(mockNotice(loadConfig({ JEV_PROVIDER: 'mock' })), /^jevcp: JEV_PROVIDER=mock — using the mock judge/);
  });

  it('needs nothing JEV_PROVIDER would (openai without a base URL is fine under JEV_MOCK)', () => {
    assert.equal(loadConfig({ JEV_MOCK: 'yes', JEV_PROVIDER: 'openai' }).provider, 'mock');
    assert.throws(() => loadConfig({ JEV_PROVIDER: 'openai' }), /JEV_PROVIDER=openai needs JEV_BASE_URL/);
  });

  it('wins over a configured key or base URL; plain reasons without an override', () => {
    const keyed = loadConfig({ JEV_MOCK: '1', JEV_API_KEY: 'sk-config-test-1234' });
    assert.deepEqual([keyed.provider, keyed.providerReason], ['mock', 'JEV_MOCK=1']);
    const asked = loadConfig({ JEV_MOCK: '1', JEV_PROVIDER: 'mock' });
    assert.deepEqual([asked.provider, asked.providerReason], ['mock', 'JEV_MOCK=1']);
  });

  it('JEV_MOCK=0 does not force it; an unknown JEV_PROVIDER is still an error', () => {
    const config = loadConfig({ JEV_MOCK: '0', JEV_PROVIDER: 'openai', JEV_BASE_URL: 'http://127.0.0.1:8080' });
    assert.deepEqual([config.provider, config.providerReason], ['openai', 'JEV_PROVIDER']);
    assert.throws(() => loadConfig({ JEV_MOCK: '1', JEV_PROVIDER: 'opanai' }), /JEV_PROVIDER must be one of/);
  });
});

describe('loadConfig: a base URL on a port fetch refuses', () => {
  it('is a CONFIG_ERROR naming the variable and the rule, not a later API_ERROR', () => {
    rejects({ JEV_BASE_URL: 'http://127.0.0.1:9' }, /^JEV_BASE_URL uses port 9, which fetch refuses/, /bad port/);
    rejects({ TYPESAFE_BASE_URL: 'https://example.com:22' }, /^TYPESAFE_BASE_URL uses port 22/);
    assert.equal(loadConfig({ JEV_BASE_URL: 'http://127.0.0.1:8080' }).baseUrl, 'http://127.0.0.1:8080');
  });

  it('port 0 (nothing can be reached there) is a CONFIG_ERROR too, for every alias', () => {
    rejects({ JEV_BASE_URL: 'http://127.0.0.1:0' }, /^JEV_BASE_URL uses port 0, which nothing can be reached on/, /port the server listens on/);
    rejects({ JEV_API__BASE_URL: 'https://example.com:0/v1' }, /^JEV_API__BASE_URL uses port 0/);
  });
});

describe('loadConfig: a model name ending in the mock suffix', () => {
  it('is refused for every provider: "+mock" marks the mock judge on every face, so a real judge must not carry it', () => {
    rejects({ JEV_PROVIDER: 'openai', JEV_BASE_URL: 'http://127.0.0.1:8080', JEV_MODEL: 'jev-latest+mock' }, /^JEV_MODEL must not end in "\+mock"/);
    rejects({ JEV_MCP_MODEL: 'm+mock' }, /^JEV_MCP_MODEL must not end in/);
    assert.equal(loadConfig({ JEV_MODEL: 'mock-ish' }).model, 'mock-ish');
  });
});

describe('loadConfig: JEV_GATEWAY_MAX_RESULT_BYTES', () => {
  it('defaults to 1 MiB and takes a whole number within 4 096 – 8 388 608', () => {
    assert.equal(loadConfig({}).gatewayMaxResultBytes, 1_048_576);
    assert.equal(loadConfig({ JEV_GATEWAY_MAX_RESULT_BYTES: '100000' }).gatewayMaxResultBytes, 100_000);
  });
  it('refuses values out of range or not digits, naming the variable and the rule', () => {
    rejects({ JEV_GATEWAY_MAX_RESULT_BYTES: '1000' }, /JEV_GATEWAY_MAX_RESULT_BYTES must be from 4096 to 8388608 bytes; got 1000/);
    rejects({ JEV_GATEWAY_MAX_RESULT_BYTES: '9000000' }, /JEV_GATEWAY_MAX_RESULT_BYTES must be a whole number \(digits only\) from 1 to 8388608/);
    rejects({ JEV_GATEWAY_MAX_RESULT_BYTES: '1e6' }, /JEV_GATEWAY_MAX_RESULT_BYTES/);
  });
});
