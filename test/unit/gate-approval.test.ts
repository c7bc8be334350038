/**
 * The editor's approvals for the commit hook (src/gate/approval.ts) and the private state files under
 * them (src/gate/state-dir.ts): bound to repository, HEAD, tree and message; used once; short-lived;
 * voided by any change; written 0600 in a 0700 directory; a file someone else could read is never trusted.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { APPROVAL_TTL_MS, APPROVALS_DIR, takeApproval, writeApproval, type ApprovalBinding } from '../../src/gate/approval';
import { readPrivateFile, stateDir, writePrivateFile } from '../../src/gate/state-dir';
import { JevError } from '../../src/judgment/errors';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'jev-approval-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const binding = (extra: Partial<ApprovalBinding> = {}): ApprovalBinding => ({ root: dir, head: 'a'.repeat(40), tree: 'b'.repeat(40), message: 'Add sub()\n\n- sub works\n', ...extra });
const fields = { recordId: 'rec-1', action: 'auto', acceptedAs: 'approved' as const };

describe('approvals', () => {
  it('is honoured once for exactly the commit it was written for', async () => {
    const state = join(dir, 's1');
    await writeApproval(state, binding(), fields);
    const first = await takeApproval(state, binding());
    assert.equal(first.approval?.recordId, 'rec-1');
    assert.equal(first.approval?.acceptedAs, 'approved');
    const again = await takeApproval(state, binding());
    assert.equal(again.approval, undefined, 'single use');
    assert.deepEqual(readdirSync(join(state, APPROVALS_DIR)), []);
  });

  it('a trailing newline is not a change; a different tree, message or HEAD voids it (and it is removed)', async () => {
    const state = join(dir, 's2');
    await writeApproval(state, binding(), fields);
    assert.ok((await takeApproval(state, binding({ message: 'Add sub()\n\n- sub works' }))).approval, 'the same message without its final newline');
    for (const changed of [{ tree: 'c'.repeat(40) }, { message: 'Add sub()\n\n- sub works well\n' }, { head: 'd'.repeat(40) }, { head: undefined }]) {
      await writeApproval(state, binding(), fields);
      const taken = await takeApproval(state, binding(changed));
      assert.equal(taken.approval, undefined, JSON.stringify(changed));
      assert.equal(taken.voided, 1);
      assert.equal((await takeApproval(state, binding())).approval, undefined, 'void for good, even if the change is undone');
    }
  });

  it('expires after APPROVAL_TTL_MS; a newer approval of the repository replaces the older one', async () => {
    const state = join(dir, 's3');
    const t0 = Date.now();
    await writeApproval(state, binding(), fields, t0);
    const late = await takeApproval(state, binding(), t0 + APPROVAL_TTL_MS + 1);
    assert.equal(late.approval, undefined);
    assert.equal(late.expired, true);
    await writeApproval(state, binding({ tree: 'e'.repeat(40) }), fields);
    await writeApproval(state, binding(), { ...fields, recordId: 'rec-2' });
    assert.equal(readdirSync(join(state, APPROVALS_DIR)).length, 1);
    assert.equal((await takeApproval(state, binding())).approval?.recordId, 'rec-2');
  });

  it('is written for the user alone; a file open to others is ignored, never trusted', async () => {
    const state = join(dir, 's4');
    const path = await writeApproval(state, binding(), fields);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(join(state, APPROVALS_DIR)).mode & 0o777, 0o700);
    chmodSync(path, 0o644);
    assert.equal((await takeApproval(state, binding())).approval, undefined);
    // A forged file with the right name but readable by others: ignored too.
    const forged = join(dir, 's5');
    const real = await writeApproval(forged, binding(), fields);
    writeFileSync(real, JSON.stringify({ v: 1, ...fields, createdAt: Date.now(), expiresAt: Date.now() + 60_000 }), { mode: 0o666 });
    chmodSync(real, 0o666);
    assert.equal((await takeApproval(forged, binding())).approval, undefined);
  });
});

describe('the state directory', () => {
  it('JEV_STATE_DIR, then XDG_STATE_HOME, then the platform default; a relative JEV_STATE_DIR is refused', () => {
    assert.equal(stateDir({ JEV_STATE_DIR: '/x/state', XDG_STATE_HOME: '/y' }, 'linux', '/home/u'), '/x/state');
    assert.equal(stateDir({ XDG_STATE_HOME: '/y' }, 'linux', '/home/u'), '/y/jev-control-panel');
    assert.equal(stateDir({}, 'linux', '/home/u'), '/home/u/.local/state/jev-control-panel');
    assert.equal(stateDir({}, 'darwin', '/Users/u'), '/Users/u/Library/Application Support/jev-control-panel');
    assert.throws(() => stateDir({ JEV_STATE_DIR: 'rel' }), (e: unknown) => e instanceof JevError && e.code === 'CONFIG_ERROR' && /JEV_STATE_DIR must be an absolute path/.test(e.message));
  });

  it('a private file is read back; one behind a symlink or open to others is not', async () => {
    const d = join(dir, 'priv');
    const path = await writePrivateFile(d, 'f', 'secret');
    assert.equal(await readPrivateFile(path), 'secret');
    symlinkSync(path, join(d, 'link'));
    assert.equal(await readPrivateFile(join(d, 'link')), undefined, 'a symlink is not followed');
    chmodSync(path, 0o640);
    assert.equal(await readPrivateFile(path), undefined);
    chmodSync(d, 0o755);
    await writePrivateFile(d, 'g', 'x');
    assert.equal(statSync(d).mode & 0o777, 0o700, 'an open directory of ours is closed again');
  });
});
