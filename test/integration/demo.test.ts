/**
 * `npm run demo` (scripts/demo.mjs): a configured backend is used and named; without one the mock judge
 * answers and the summary says so. The demo never writes to the user's ledger.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startFakeSystemOne, type FakeSystemOne } from '../helpers/fake-systemone';
import { cleanEnv, ensureBuilt, ROOT } from './mcp-fixtures';

const KEY = 'sk-demo-test-secret-3e9b';

function demo(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'demo.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** A port on 127.0.0.1 with nothing listening (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

let dir: string;
let fake: FakeSystemOne;
before(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'jevcp-demo-test-'));
  fake = await startFakeSystemOne();
});
after(async () => {
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

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
