import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { JevError } from '../../src/judgment/errors';
import type { CliIO } from '../../src/cli/io';
import { fsReason } from '../../src/cli/fs-reason';
import { cliError, reportError, wantsJson } from '../../src/cli/report';
import { clip } from '../../src/cli/safe-text';

function capture(): { io: CliIO; out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let o = '';
  let e = '';
  stdout.on('data', (c: Buffer) => (o += c.toString()));
  stderr.on('data', (c: Buffer) => (e += c.toString()));
  return { io: { stdout, stderr, stdin: new PassThrough(), env: {}, cwd: '.' }, out: () => o, err: () => e };
}

describe('cli error reporting', () => {
  it('fs errors become INVALID_INPUT naming the path and the reason', () => {
    const err = Object.assign(new Error('EACCES: permission denied, open'), { code: 'EACCES', syscall: 'open', path: 'secret/ledger.jsonl' });
    const e = cliError(err);
    assert.equal(e.code, 'INVALID_INPUT');
    assert.equal(e.message, 'secret/ledger.jsonl: EACCES: permission denied.');
    assert.equal(fsReason({ code: 'EISDIR' }), 'EISDIR: is a directory');
    assert.equal(fsReason({ code: 'EWHATEVER' }), 'EWHATEVER');
    assert.equal(fsReason(new Error('x')), 'error');
  });

  it('an unexpected error is called an internal error, not a failure while judging', () => {
    const e = cliError(new TypeError('x is not a function'));
    assert.match(e.message, /^internal error in jevcp \(TypeError: x is not a function\); this is not a provider failure/);
    assert.doesNotMatch(e.message, /judging/);
    const j = new JevError('TIMEOUT', 't');
    assert.equal(cliError(j), j);
  });

  it('reportError: stderr line always, JSON error on stdout with --json; exit 2 for invalid input', () => {
    const c = capture();
    assert.equal(reportError(c.io, new JevError('INVALID_INPUT', 'bad'), true), 2);
    assert.deepEqual(JSON.parse(c.out()), { error: { code: 'INVALID_INPUT', message: 'bad', retryable: false } });
    assert.equal(c.err(), 'jevcp: INVALID_INPUT: bad\n');
    const h = capture();
    assert.equal(reportError(h.io, new JevError('API_ERROR', 'down')), 3);
    assert.equal(h.out(), '');
  });

  it('wantsJson looks before --; clip caps long text with an ellipsis', () => {
    assert.equal(wantsJson(['x', '--json']), true);
    assert.equal(wantsJson(['--', '--json']), false);
    assert.equal(wantsJson(['x']), false);
    assert.equal(clip('a'.repeat(300)).length, 200);
    assert.ok(clip('a'.repeat(300)).endsWith('…'));
    assert.equal(clip('short'), 'short');
  });
});
