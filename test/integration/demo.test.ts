/**
 * `npm run demo` (scripts/demo.mjs): a configured backend is used and named; without one the mock judge
 * answers and the summary says so. The demo never writes to the user's ledger.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { capture } from '../helpers/processes';
import type { FakeSystemOne } from '../helpers/fake-systemone';
import { cleanEnv, openSandbox, ROOT, type CliSandbox } from './mcp-fixtures';
import { closedPort } from '../helpers/raw-http';

const KEY = 'sk-demo-test-secret-3e9b';

/** Runs scripts/demo.mjs; `out` is stdout and stderr in arrival order. */
async function demo(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const r = await capture(process.execPath, [join(ROOT, 'scripts', 'demo.mjs')], { cwd: ROOT, env });
  return { code: r.code, out: r.output };
}

let sandbox: CliSandbox | undefined;
let dir: string;
let fake: FakeSystemOne;
before(async () => {
  sandbox = await openSandbox('jevcp-demo-test-');
  ({ dir, fake } = sandbox);
});
after(() => sandbox?.close());

describe('npm run demo', () => {
  it('uses a configured backend, names its model, and leaves the ledger alone', async () => {
    const ledger = join(dir, 'ledger.jsonl');
    const before = fake.count();
    const r = await demo(cleanEnv({ JEV_BASE_URL: fake.url, JEV_API_KEY: KEY, JEV_MODEL: 'jev-demo-model', JEV_TIMEOUT_MS: '5000', JEV_LEDGER: ledger, JEV_GATE_FAIL_OPEN: '1' }));
    assert.equal(r.code, 0, r.out);
    assert.equal(fake.count(), before + 2, 'one jev_step and one jev_gate request');
    assert.match(r.out, /demo: using your configured backend \(JEV_API_KEY, JEV_BASE_URL, JEV_MODEL, JEV_TIMEOUT_MS\)/);
    assert.ok(fake.requests.slice(before).every((q) => q.body.model === 'jev-demo-model'), 'JEV_MODEL is kept');
    assert.match(r.out, /^jev_step — model jev-demo-model$/m);
    assert.match(r.out, /^jev_gate — model jev-demo-model$/m);
    assert.match(r.out, /Both decisions came from your configured backend \(model jev-demo-model\)/);
    assert.doesNotMatch(r.out, /mock judge/);
    assert.ok(!r.out.includes(KEY), 'the key is never printed');
    assert.equal(existsSync(ledger), false, 'the demo does not write to the user’s ledger');
  });

  it('without a backend the mock judge answers and the summary says so', async () => {
    const before = fake.count();
    const r = await demo(cleanEnv({ JEV_MODEL: 'ignored-without-backend' }));
    assert.equal(r.code, 0, r.out);
    assert.equal(fake.count(), before);
    assert.match(r.out, /demo: no backend configured/);
    assert.match(r.out, /Both decisions came from the mock judge \(model jev-latest\+mock\)/);
    assert.match(r.out, /Set JEV_API_KEY \(TypeSafe\) or JEV_BASE_URL/);
  });

  it('a configured backend that is down: no decision, and the summary says the judge failed', async () => {
    const r = await demo(cleanEnv({ JEV_BASE_URL: `http://127.0.0.1:${await closedPort()}`, JEV_TIMEOUT_MS: '2000', JEV_PROVIDER: 'systemone' }));
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /No decision was made: the judge failed/);
    assert.doesNotMatch(r.out, /came from/);
  });
});
