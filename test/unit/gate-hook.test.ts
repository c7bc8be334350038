/**
 * Host-independent commit-gate pieces: option validation of installHook, the hook script run by a real
 * `sh` with awkward paths (quotes, spaces, `$`), what runs the gate when the installed CLI or node is gone
 * (node from PATH, the launcher, one line with the fix), the launcher itself (the newest installed copy
 * after an update), JEV_GATE_FAIL_OPEN parsing, and the diff cap. The full git flows are in
 * test/integration/gate-hook-commits.test.ts.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { installHook } from '../../src/gate/hook/install';
import { extensionFolderPrefix, renderLauncher } from '../../src/gate/hook/launcher';
import { hookPaths, isJevHook, renderHook, shellQuote } from '../../src/gate/hook/script';
import { capStagedDiff } from '../../src/gate/diff-cap';
import { failOpenApplies, readGateFailOpen } from '../../src/gate/fail-open';
import { JevError } from '../../src/judgment/errors';
import { TRUNCATION_MARKER } from '../../src/judgment/budget';
import { MAX_TEXT_CHARS } from '../../src/tools/schemas';

/**
 * A PATH with the tools the hook and the launcher use (sh, dirname, head, sed, tr, ls) and no node: a folder of
 * links to them, since node usually sits beside them in /usr/bin.
 */
function pathWithoutNode(): string {
  const bin = join(dir, 'bin-without-node');
  if (!existsSync(bin)) {
    mkdirSync(bin);
    for (const tool of ['sh', 'dirname', 'head', 'sed', 'tr', 'ls']) {
      const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      assert.ok(found.startsWith('/'), `${tool} is on PATH`);
      symlinkSync(found, join(bin, tool));
    }
  }
  assert.notEqual(spawnSync(join(bin, 'sh'), ['-c', 'command -v node'], { env: { PATH: bin } }).status, 0, 'no node on this PATH');
  return bin;
}

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'jev-hook-unit-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const rejectsWith = (p: Promise<unknown>, code: string, pattern: RegExp) =>
  assert.rejects(p, (err: unknown) => err instanceof JevError && err.code === code && pattern.test(err.message));

describe('installHook options', () => {
  test('paths must be absolute, existing, node executable; env names shell identifiers; evidence one line', async () => {
    const cli = join(dir, 'cli.js');
    writeFileSync(cli, '');
    const base = { repoDir: dir, nodePath: process.execPath, cliPath: cli, launcherPath: join(dir, 'launcher') };
    await rejectsWith(installHook({ ...base, nodePath: 'node' }), 'INVALID_INPUT', /nodePath must be an absolute path/);
    await rejectsWith(installHook({ ...base, cliPath: 'dist/cli.js' }), 'INVALID_INPUT', /cliPath must be an absolute path/);
    await rejectsWith(installHook({ ...base, cliPath: join(dir, 'missing.js') }), 'INVALID_INPUT', /cliPath .*missing\.js is not a file/);
    await rejectsWith(installHook({ ...base, nodePath: cli }), 'INVALID_INPUT', /nodePath .* is not an executable file/);
    await rejectsWith(installHook({ ...base, env: { 'BAD-NAME': '1' } }), 'INVALID_INPUT', /"BAD-NAME" is not a shell identifier/);
    await rejectsWith(installHook({ ...base, evidenceCommand: 'npm test\nrm -rf /' }), 'INVALID_INPUT', /evidenceCommand: must be a single line \(no line breaks or NUL\)/);
    await rejectsWith(installHook({ repoDir: dir, nodePath: process.execPath, launcherPath: join(dir, 'launcher') }), 'INVALID_INPUT', /nodePath and cliPath together, or neither/);
    await rejectsWith(installHook({ repoDir: dir, launcherPath: join(dir, 'no-launcher') }), 'INVALID_INPUT', /launcherPath .*no-launcher is not an executable file/);
  });
});

describe('the hook script', () => {
  // A stand-in CLI that records its argv and one variable, then exits with GATE_EXIT.
  const recorder = `require('fs').writeFileSync(process.env.RECORD, JSON.stringify({ argv: process.argv.slice(2), extra: process.env.EXTRA_VAR ?? null })); process.exit(Number(process.env.GATE_EXIT ?? 0));`;

  function runHook(script: string, args: string[], env: Record<string, string>) {
    const hook = join(dir, `hook-${Math.random().toString(36).slice(2)}`);
    writeFileSync(hook, script, { mode: 0o755 });
    return spawnSync('sh', [hook, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
  }

  test('quotes paths, the evidence command and env values for sh; passes the message file; returns the gate exit code', () => {
    const odd = join(dir, "it's a $dir `x`");
    mkdirSync(odd, { recursive: true });
    const cli = join(odd, 'cli.js');
    writeFileSync(cli, recorder);
    const record = join(dir, 'record.json');
    const script = renderHook({ nodePath: process.execPath, cliPath: cli, launcherPath: join(odd, 'launcher'), evidenceCommand: `npm test -- --grep "it's"`, env: { EXTRA_VAR: "a 'b' $c" } });
    assert.ok(isJevHook(script));
    assert.deepEqual(hookPaths(script), {
      nodePath: process.execPath,
      cliPath: cli,
      launcherPath: join(odd, 'launcher'),
      allowMock: false,
      evidenceCommand: `npm test -- --grep "it's"`,
    });
    const r = runHook(script, ['MSG FILE'], { RECORD: record, GATE_EXIT: '1' });
    assert.equal(r.status, 1, r.stderr);
    const seen = JSON.parse(readFileSync(record, 'utf8'));
    assert.deepEqual(seen.argv, ['gate', '--hook', '--message-file', 'MSG FILE', '--evidence-cmd', `npm test -- --grep "it's"`]);
    assert.equal(seen.extra, "a 'b' $c");
    const mock = renderHook({ nodePath: process.execPath, cliPath: cli, launcherPath: join(odd, 'launcher'), allowMock: true });
    assert.equal(hookPaths(mock).allowMock, true);
    assert.equal(hookPaths(mock).evidenceCommand, undefined, 'no --evidence-cmd, none read back');
    assert.equal(runHook(mock, ['M'], { RECORD: record }).status, 0);
    assert.deepEqual(JSON.parse(readFileSync(record, 'utf8')).argv, ['gate', '--hook', '--allow-mock', '--message-file', 'M']);
  });

  test('the installed node is gone: the same CLI runs under node from PATH; the CLI is gone: the launcher runs', () => {
    const cli = join(dir, 'path-cli.js');
    writeFileSync(cli, recorder);
    const record = join(dir, 'record-path.json');
    const viaPath = runHook(renderHook({ nodePath: join(dir, 'old-node', 'node'), cliPath: cli, launcherPath: join(dir, 'none') }), ['MSG'], { RECORD: record, GATE_EXIT: '0' });
    assert.equal(viaPath.status, 0, viaPath.stderr);
    assert.deepEqual(JSON.parse(readFileSync(record, 'utf8')).argv.slice(0, 2), ['gate', '--hook']);

    const launcher = join(dir, 'launcher.sh');
    writeFileSync(launcher, `#!/bin/sh\necho "launcher $*" > "$RECORD"\nexit 1\n`, { mode: 0o755 });
    const viaLauncher = runHook(renderHook({ launcherPath: launcher }), ['MSG'], { RECORD: record });
    assert.equal(viaLauncher.status, 1, 'the launcher exit code is the hook exit code');
    assert.equal(readFileSync(record, 'utf8'), 'launcher gate --hook --message-file MSG\n');
  });

  test('nothing can run the gate: one line with the fix and exit 3; JEV_GATE_FAIL_OPEN lets the commit through with a warning', () => {
    const script = renderHook({ nodePath: process.execPath, cliPath: join(dir, 'gone', 'cli.js'), launcherPath: join(dir, 'gone', 'jevcp') });
    const closed = runHook(script, ['MSG'], {});
    assert.equal(closed.status, 3);
    const lines = closed.stderr.trim().split('\n');
    assert.equal(lines.length, 1, closed.stderr);
    assert.match(lines[0]!, /^jev gate: cannot run the gate: neither jevcp \(.*gone\/cli\.js\) nor the editor's launcher \(.*gone\/jevcp\) is there — run 'jevcp hook install' again .*--no-verify$/);
    const open = runHook(script, ['MSG'], { JEV_GATE_FAIL_OPEN: 'Yes' });
    assert.equal(open.status, 0);
    assert.match(open.stderr, /WARNING: JEV_GATE_FAIL_OPEN is set — letting this commit through UNJUDGED/);
  });
  test('no node anywhere (the installed one gone, none on PATH): the line says node is missing, not the CLI', () => {
    const cli = join(dir, 'there-cli.js');
    writeFileSync(cli, recorder);
    const script = renderHook({ nodePath: join(dir, 'old-node', 'node'), cliPath: cli, launcherPath: join(dir, 'no-launcher') });
    const r = runHook(script, ['MSG'], { PATH: pathWithoutNode() });
    assert.equal(r.status, 3);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, /^jev gate: cannot run the gate: node is missing — the node jevcp was installed with \(.*old-node\/node\) is gone and there is no node on PATH \(jevcp itself is there: .*there-cli\.js\) — .*--no-verify$/);
    assert.doesNotMatch(lines[0]!, /neither jevcp/);
  });
});

describe('the launcher', () => {
  const recorder = `require('fs').writeFileSync(process.env.RECORD, JSON.stringify({ cli: __filename, argv: process.argv.slice(2), electron: process.env.ELECTRON_RUN_AS_NODE ?? null }));`;
  const run = (path: string, env: Record<string, string>) => spawnSync('sh', [path, 'gate', '--hook'], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });

  test('runs the bundled CLI under the editor runtime (ELECTRON_RUN_AS_NODE for Electron) with the arguments', () => {
    const ext = join(dir, 'exts', 'jevcp.jev-control-panel-0.1.0', 'dist');
    mkdirSync(ext, { recursive: true });
    writeFileSync(join(ext, 'cli.js'), recorder);
    const path = join(dir, 'launcher-a');
    writeFileSync(path, renderLauncher({ nodePath: process.execPath, cliPath: join(ext, 'cli.js'), electron: true, version: '0.1.0' }, path), { mode: 0o700 });
    const record = join(dir, 'launch.json');
    assert.equal(run(path, { RECORD: record }).status, 0);
    assert.deepEqual(JSON.parse(readFileSync(record, 'utf8')), { cli: join(ext, 'cli.js'), argv: ['gate', '--hook'], electron: '1' });
  });

  test('after an update (the old folder gone) it runs the newest installed copy; with none, one line and exit 127', () => {
    const exts = join(dir, 'exts-update');
    const old = join(exts, 'jevcp.jev-control-panel-0.1.0', 'dist', 'cli.js');
    const path = join(dir, 'launcher-b');
    writeFileSync(path, renderLauncher({ nodePath: process.execPath, cliPath: old, electron: false, version: '0.1.0' }, path), { mode: 0o700 });
    const record = join(dir, 'launch-b.json');
    const none = run(path, { RECORD: record });
    assert.equal(none.status, 127);
    assert.equal(none.stderr.trim().split('\n').length, 1);
    assert.match(none.stderr, /^jevcp: cannot run the gate: .*open the editor once so Jev rewrites .*launcher-b, or run 'jevcp hook install' again; to commit now: git commit --no-verify$/m);

    const fresh = join(exts, 'jevcp.jev-control-panel-0.1.1', 'dist');
    mkdirSync(fresh, { recursive: true });
    writeFileSync(join(fresh, 'cli.js'), recorder);
    mkdirSync(join(exts, 'other.extension-9.9.9', 'dist'), { recursive: true });
    writeFileSync(join(exts, 'other.extension-9.9.9', 'dist', 'cli.js'), 'process.exit(9)');
    assert.equal(run(path, { RECORD: record }).status, 0);
    assert.equal(JSON.parse(readFileSync(record, 'utf8')).cli, join(fresh, 'cli.js'));
    assert.deepEqual(extensionFolderPrefix(old), { parent: exts, prefix: 'jevcp.jev-control-panel-' });
    assert.equal(extensionFolderPrefix('/src/jev-control-panel/dist/cli.js'), undefined, 'a checkout has no version to look for');
  });

  test('the editor runtime gone and no node on PATH: the line says node is missing, not the CLI', () => {
    const ext = join(dir, 'exts-nonode', 'jevcp.jev-control-panel-0.1.0', 'dist');
    mkdirSync(ext, { recursive: true });
    writeFileSync(join(ext, 'cli.js'), recorder);
    const path = join(dir, 'launcher-c');
    writeFileSync(path, renderLauncher({ nodePath: join(dir, 'old-editor', 'code'), cliPath: join(ext, 'cli.js'), electron: true, version: '0.1.0' }, path), { mode: 0o700 });
    const r = run(path, { PATH: pathWithoutNode() });
    assert.equal(r.status, 127);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^jevcp: cannot run the gate: node is missing — the editor's runtime \(.*old-editor\/code\) is gone and there is no node on PATH \(the CLI is there: .*cli\.js\) — open the editor once so Jev rewrites .*launcher-c, or run 'jevcp hook install' again; to commit now: git commit --no-verify$/m);
  });

  test('shellQuote survives single quotes', () => {
    const r = spawnSync('sh', ['-c', `printf '%s' ${shellQuote("a'b\"c $d")}`], { encoding: 'utf8' });
    assert.equal(r.stdout, "a'b\"c $d");
  });
});

describe('JEV_GATE_FAIL_OPEN', () => {
  test('on/off spellings, anything else is a configuration error naming the variable', () => {
    for (const v of ['1', 'true', 'YES', ' on ']) assert.equal(readGateFailOpen({ JEV_GATE_FAIL_OPEN: v }), true, v);
    for (const v of [undefined, '', '0', 'false', 'No', 'off']) assert.equal(readGateFailOpen({ JEV_GATE_FAIL_OPEN: v }), false, String(v));
    assert.throws(() => readGateFailOpen({ JEV_GATE_FAIL_OPEN: 'maybe' }), (e: unknown) => e instanceof JevError && e.code === 'CONFIG_ERROR' && /JEV_GATE_FAIL_OPEN/.test(e.message));
  });

  test('applies to provider and operational failures only', () => {
    for (const code of ['API_ERROR', 'TIMEOUT', 'INVALID_RESPONSE'] as const) assert.equal(failOpenApplies(new JevError(code, 'x')), true, code);
    for (const code of ['INVALID_INPUT', 'INPUT_TOO_LARGE', 'CONFIG_ERROR', 'CANCELLED'] as const) assert.equal(failOpenApplies(new JevError(code, 'x')), false, code);
  });
});

describe('capStagedDiff', () => {
  test('keeps a diff within the field limit; cuts a longer one to the limit with the marker', () => {
    const small = 'diff --git a/x b/x\n+1\n';
    assert.deepEqual(capStagedDiff(small), { diff: small, originalChars: small.length, cut: false });
    const exact = 'y'.repeat(MAX_TEXT_CHARS);
    assert.equal(capStagedDiff(exact).cut, false);
    const big = 'z'.repeat(MAX_TEXT_CHARS + 5);
    const capped = capStagedDiff(big);
    assert.equal(capped.cut, true);
    assert.equal(capped.originalChars, MAX_TEXT_CHARS + 5);
    assert.equal(capped.diff.length, MAX_TEXT_CHARS);
    assert.ok(capped.diff.endsWith(TRUNCATION_MARKER));
  });
});
