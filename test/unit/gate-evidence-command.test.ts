/** The gate's evidence command: background processes are not waited for; a timeout kills the whole group. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { EXIT_GRACE_MS, runEvidenceCommand } from '../../src/gate/evidence-command';

const posix = process.platform !== 'win32';
const cwd = mkdtempSync(join(tmpdir(), 'jevcp-evidence-'));
const leftovers: number[] = [];
after(() => {
  for (const pid of leftovers) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(cwd, { recursive: true, force: true });
});

/** True while `pid` runs (a killed process nobody reaped yet — a zombie — counts as gone). */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
};

describe('runEvidenceCommand', { skip: !posix && 'POSIX shell and process groups' }, () => {
  it('a background process holding the pipes is not waited for: the shell exit plus a short grace ends the run', async () => {
    const run = await runEvidenceCommand('sleep 30 & echo "bg $!"; echo started; exit 4', cwd, 20_000);
    const pid = Number(/bg (\d+)/.exec(run.output)?.[1]);
    if (pid) leftovers.push(pid);
    assert.equal(run.timedOut, false);
    assert.equal(run.exitCode, 4);
    assert.match(run.output, /started/);
    assert.ok(run.durationMs < EXIT_GRACE_MS + 3_000, `took ${run.durationMs} ms`);
  });

  it('output written just before the shell exits is kept', async () => {
    const run = await runEvidenceCommand('i=0; while [ $i -lt 2000 ]; do echo "line $i"; i=$((i+1)); done', cwd, 20_000);
    assert.equal(run.exitCode, 0);
    assert.match(run.output, /line 1999\n$/);
  });

  it('a timeout kills the whole process group, background processes included', async () => {
    const run = await runEvidenceCommand('sleep 30 & echo "bg $!"; wait', cwd, 400);
    const pid = Number(/bg (\d+)/.exec(run.output)?.[1]);
    assert.ok(pid > 0, run.output);
    leftovers.push(pid);
    assert.equal(run.timedOut, true);
    assert.equal(run.exitCode, null);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(alive(pid), false, 'the background sleep was killed with the group');
  });

  it('an empty command does not throw: it could not start', async () => {
    const run = await runEvidenceCommand('', cwd, 1_000);
    assert.equal(run.exitCode, null);
    assert.ok(run.startError);
  });
});
