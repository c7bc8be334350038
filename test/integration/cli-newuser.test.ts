/**
 * What a first-time user meets in the CLI: doctor with the mock judge, per-call thresholds below the floor,
 * blocked ports, ledger reading without a provider, subcommand help and argument errors, and the hook's
 * evidence command. Needs `npm run build`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cleanEnv, jevcp } from './mcp-fixtures';

describe('jevcp doctor with the mock judge', () => {
  it('stays ready (exit 0) but says the mock is advisory only, in text and --json', async () => {
    const text = await jevcp(['doctor']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /judge +mock — advisory only.*`jevcp gate` and `jevcp hook install` need a backend .* or --allow-mock/);
    assert.match(text.stdout, /ready\n$/);
    const json = await jevcp(['doctor', '--json']);
    const report = JSON.parse(json.stdout);
    assert.equal(report.judge, 'mock');
    assert.equal(report.real_judge, false);
    assert.equal(report.api_key_ignored, undefined);
  });

  it('JEV_MOCK with a key set says the key is ignored', async () => {
    const env = cleanEnv({ JEV_MOCK: '1', JEV_API_KEY: 'sk-doctor-ignored-1234' });
    const text = await jevcp(['doctor'], { env });
    assert.match(text.stdout, /api key +set, but IGNORED \(JEV_MOCK=1 forces the mock judge\)/);
    assert.ok(!text.stdout.includes('sk-doctor-ignored-1234'));
    const report = JSON.parse((await jevcp(['doctor', '--json'], { env })).stdout);
    assert.equal(report.api_key_ignored, true);
    assert.equal(report.judge, 'mock');
  });
});
