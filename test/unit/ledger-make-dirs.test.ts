// The ledger's folder is made one level at a time (src/ledger/make-dirs.ts): a path no folder can be made
// under fails at once with the OS code, where Node's recursive mkdir spins forever.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { JsonlLedger } from '../../src/ledger/jsonl';
import { makeDirs } from '../../src/ledger/make-dirs';

const tmp = mkdtempSync(join(tmpdir(), 'jev-make-dirs-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe('ledger folder', () => {
  it('makes every missing level with the mode, and is fine when it exists', () => {
    const deep = join(tmp, 'a', 'b', 'c');
    makeDirs(deep, 0o700);
    assert.ok(statSync(deep).isDirectory());
    if (process.platform !== 'win32') assert.equal(statSync(join(tmp, 'a')).mode & 0o777, 0o700);
    makeDirs(deep, 0o700);
  });

  it('a path under /proc fails at once with CONFIG_ERROR naming ENOENT, creating nothing', { skip: process.platform !== 'linux' }, () => {
    const started = Date.now();
    assert.throws(() => JsonlLedger.open('/proc/jev-no-such/x/ledger.jsonl'), (err: Error & { code?: string }) => err.code === 'CONFIG_ERROR' && /ENOENT/.test(err.message));
    assert.ok(Date.now() - started < 2_000);
    assert.equal(existsSync('/proc/jev-no-such'), false);
  });
});
