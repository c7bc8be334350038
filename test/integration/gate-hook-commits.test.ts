/**
 * The commit-msg hook end to end in real temporary git repositories (git-sandbox.ts): `jevcp hook
 * install|uninstall` (existing hooks chained and restored byte-identical, core.hooksPath relative and
 * absolute), then real `git commit`s running the hook, which runs `node dist/cli.js gate --hook` against
 * the fake System One server in this process.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CHAINED_NAME, HOOK_MARKER } from '../../src/gate/hook/script';
import type { FakeSystemOne } from '../helpers/fake-systemone';
import { closedPort, GitSandbox, type Run } from './git-sandbox';
import { CLI } from './mcp-fixtures';

let sb: GitSandbox;
let dir: string;
let fake: FakeSystemOne;

const run = (cmd: string, args: string[], cwd: string, extraEnv: Record<string, string> = {}): Promise<Run> => sb.run(cmd, args, cwd, sb.env(extraEnv));
const jevcp = (cwd: string, args: string[], extraEnv: Record<string, string> = {}) => sb.jevcp(cwd, args, extraEnv);
const commit = (cwd: string, args: string[], extraEnv: Record<string, string> = {}) => sb.commit(cwd, args, extraEnv);
const git = (cwd: string, ...args: string[]) => sb.git(cwd, ...args);
const makeRepo = (initial = true) => sb.makeRepo(initial);
const head = (repo: string) => sb.head(repo);
const commitCount = (repo: string) => sb.commitCount(repo);
const approve = () => sb.approve();
const disapprove = () => sb.disapprove();

/** Stages a small real change. */
function stageChange(repo: string): void {
  writeFileSync(join(repo, 'src', 'parse.js'), 'export const parse = (s) => (s === "" ? [] : s.split(","));\n');
  git(repo, 'add', 'src/parse.js');
}

/** A previous hook that records how it was called (name it saw as $0 and its message file) and can fail. */
const OLD_HOOK = '#!/bin/sh\n# team hook\necho "old-hook $(basename "$0") $(head -n 1 "$1")" >> "$OLD_HOOK_LOG"\nif [ -n "$OLD_HOOK_FAIL" ]; then echo "old hook rejects this message" >&2; exit 1; fi\n# no newline at the end';

const mode = (p: string) => statSync(p).mode & 0o777;

before(async () => {
  sb = await GitSandbox.open('jevcp-hook-');
  dir = sb.dir;
  fake = sb.fake;
});
after(() => sb?.close());

describe('jevcp hook install / uninstall', () => {
  it('chains an existing hook (both run, the old one first under its own name; its failure fails the commit) and uninstall restores it byte-identical', async () => {
    const repo = makeRepo(false); // the first commit goes through the hook (unborn HEAD)
    const hookPath = join(repo, '.git', 'hooks', 'commit-msg');
    writeFileSync(hookPath, OLD_HOOK);
    chmodSync(hookPath, 0o750);
    const log = join(dir, 'old-hook-1.log');

    const installed = await jevcp(repo, ['hook', 'install', '--json']);
    assert.equal(installed.code, 0, installed.stderr);
    const result = JSON.parse(installed.stdout);
    assert.equal(result.action, 'installed');
    assert.equal(result.chainedPath, join(repo, '.git', 'hooks', CHAINED_NAME));
    assert.equal(readFileSync(result.chainedPath, 'utf8'), OLD_HOOK, 'the previous hook is kept byte for byte');
    const ours = readFileSync(hookPath, 'utf8');
    assert.equal(ours.split('\n')[1]!.startsWith(HOOK_MARKER), true);
    assert.ok(ours.includes(`jev_node='${process.execPath}'`) && ours.includes(`jev_cli='${CLI}'`), 'node and the CLI by absolute path');
    assert.equal(mode(hookPath), 0o755);

    approve();
    git(repo, 'add', 'src/parse.js');
    const before = fake.count();
    const ok = await commit(repo, ['-q', '-m', 'Add the parser'], { OLD_HOOK_LOG: log });
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.equal(head(repo), 'Add the parser');
    assert.equal(fake.count(), before + 1, 'the gate judged the first commit');
    assert.match(fake.requests.at(-1)!.body.state.diff, /new file mode 100644\n.*\n--- \/dev\/null\n\+\+\+ b\/src\/parse\.js/);
    assert.equal(readFileSync(log, 'utf8'), 'old-hook commit-msg Add the parser\n', 'the old hook ran once, seeing itself as commit-msg');

    // The old hook runs first: when it rejects, the commit fails and no judgment is paid for.
    stageChange(repo);
    const rejected = await commit(repo, ['-q', '-m', 'Handle empty input'], { OLD_HOOK_LOG: log, OLD_HOOK_FAIL: '1' });
    assert.notEqual(rejected.code, 0);
    assert.match(rejected.stderr, /old hook rejects this message/);
    assert.equal(fake.count(), before + 1);
    assert.equal(commitCount(repo), 1);

    // Idempotent: a second install leaves everything as it is.
    const again = await jevcp(repo, ['hook', 'install', '--json']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(JSON.parse(again.stdout).action, 'unchanged');
    assert.equal(readFileSync(hookPath, 'utf8'), ours);
    assert.equal(readFileSync(join(repo, '.git', 'hooks', CHAINED_NAME), 'utf8'), OLD_HOOK);

    const status = JSON.parse((await jevcp(repo, ['hook', 'status', '--json'])).stdout);
    assert.deepEqual([status.installed, status.chained, status.nodePath, status.cliPath], [true, true, process.execPath, CLI]);

    const removed = await jevcp(repo, ['hook', 'uninstall']);
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /the previous hook is back/);
    assert.equal(readFileSync(hookPath, 'utf8'), OLD_HOOK, 'byte-identical');
    assert.equal(mode(hookPath), 0o750, 'same mode');
    assert.equal(existsSync(join(repo, '.git', 'hooks', CHAINED_NAME)), false);
    const twice = await jevcp(repo, ['hook', 'uninstall']);
    assert.equal(twice.code, 0);
    assert.match(twice.stdout, /not installed/);
    assert.match(twice.stderr, /another tool's hook; left alone/);
    assert.equal(readFileSync(hookPath, 'utf8'), OLD_HOOK);
  });

  it('a symlinked hook is moved aside and comes back as the same symlink; with no previous hook, uninstall leaves none', async () => {
    const repo = makeRepo();
    const hooks = join(repo, '.git', 'hooks');
    const target = join(dir, 'shared-hook.sh');
    writeFileSync(target, '#!/bin/sh\nexit 0\n');
    chmodSync(target, 0o755);
    symlinkSync(target, join(hooks, 'commit-msg'));
    assert.equal((await jevcp(repo, ['hook', 'install'])).code, 0);
    assert.ok(lstatSync(join(hooks, CHAINED_NAME)).isSymbolicLink());
    assert.equal((await jevcp(repo, ['hook', 'uninstall'])).code, 0);
    assert.ok(lstatSync(join(hooks, 'commit-msg')).isSymbolicLink());

    rmSync(join(hooks, 'commit-msg'));
    const listing = readdirSync(hooks).sort();
    assert.equal((await jevcp(repo, ['hook', 'install'])).code, 0);
    const removed = await jevcp(repo, ['hook', 'uninstall', '--json']);
    assert.equal(JSON.parse(removed.stdout).action, 'removed');
    assert.deepEqual(readdirSync(hooks).sort(), listing, 'the hooks directory is as it was');
  });

  it('honours a relative core.hooksPath (a husky-style directory whose stub finds its script through $0)', async () => {
    const repo = makeRepo();
    const hooks = join(repo, '.husky', '_');
    mkdirSync(hooks, { recursive: true });
    // husky 9 layout: the stub sources ./h, which runs .husky/<basename of $0>.
    const stub = '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n';
    writeFileSync(join(hooks, 'commit-msg'), stub, { mode: 0o755 });
    writeFileSync(join(hooks, 'h'), '#!/usr/bin/env sh\nn=$(basename "$0")\ns=$(dirname "$(dirname "$0")")/$n\n[ ! -f "$s" ] && exit 0\nsh -e "$s" "$@"\nc=$?\nexit $c\n', { mode: 0o755 });
    writeFileSync(join(repo, '.husky', 'commit-msg'), 'echo "husky commit-msg ran" >> "$OLD_HOOK_LOG"\n');
    git(repo, 'config', 'core.hooksPath', '.husky/_');

    const installed = await jevcp(join(repo, 'src'), ['hook', 'install', '--json']);
    assert.equal(installed.code, 0, installed.stderr);
    const r = JSON.parse(installed.stdout);
    assert.equal(r.hookPath, join(hooks, 'commit-msg'), 'resolved from the work tree root, not the working directory');
    assert.match(installed.stderr, /inside the work tree: .*names this machine's node and CLI by absolute path, so do not commit it as is; .*jevcp gate --hook --message-file "\$1"/);
    assert.match(installed.stderr, /looks managed by husky/);
    assert.equal(existsSync(join(repo, '.git', 'hooks', 'commit-msg')), false, '.git/hooks is not used');

    approve();
    const log = join(dir, 'husky.log');
    stageChange(repo);
    const before = fake.count();
    const ok = await commit(repo, ['-q', '-m', 'Handle empty input'], { OLD_HOOK_LOG: log });
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(readFileSync(log, 'utf8'), 'husky commit-msg ran\n', "the user's husky hook still runs");
    assert.equal(fake.count(), before + 1);

    assert.equal((await jevcp(repo, ['hook', 'uninstall'])).code, 0);
    assert.equal(readFileSync(join(hooks, 'commit-msg'), 'utf8'), stub);
    assert.equal(mode(join(hooks, 'commit-msg')), 0o755);
  });

  it('honours an absolute core.hooksPath outside the repository only when confirmed (--shared), creating the directory and removing it again on uninstall', async () => {
    const repo = makeRepo();
    const hooks = join(dir, 'central-hooks', 'repo');
    git(repo, 'config', 'core.hooksPath', hooks);
    const refused = await jevcp(repo, ['hook', 'install', '--repo', '.']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /the hooks directory \S+central-hooks\/repo is outside this repository \(core\.hooksPath in .*\), so other repositories may use it too.*--shared/);
    assert.equal(existsSync(hooks), false, 'nothing was written');
    const installed = await jevcp(repo, ['hook', 'install', '--repo', '.', '--shared']);
    assert.equal(installed.code, 0, installed.stderr);
    assert.ok(existsSync(join(hooks, 'commit-msg')));
    assert.doesNotMatch(installed.stderr, /inside the work tree/);

    disapprove();
    stageChange(repo);
    const blocked = await commit(repo, ['-m', 'Handle empty input']);
    assert.notEqual(blocked.code, 0, 'the hook in core.hooksPath ran and blocked');
    assert.match(blocked.stderr, /^jev gate: NOT passed/);

    assert.equal((await jevcp(repo, ['hook', 'uninstall'])).code, 0);
    assert.equal(existsSync(hooks), false, 'the directory the install created is gone');
    assert.ok(existsSync(join(dir, 'central-hooks')), 'only the directory it created');
  });

  it('refuses politely outside a git work tree, for a missing directory or subcommand, and before overwriting a stale backup (exit 2)', async () => {
    const plain = join(dir, 'not-a-repo');
    mkdirSync(plain);
    const outside = await jevcp(plain, ['hook', 'install'], { GIT_CEILING_DIRECTORIES: dir });
    assert.equal(outside.code, 2);
    assert.match(outside.stderr, /CONFIG_ERROR: hook: .*not-a-repo is not inside a git work tree/);
    const missing = await jevcp(dir, ['hook', 'uninstall', '--repo', 'nowhere']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nowhere is not an existing directory/);
    const installMissing = await jevcp(dir, ['hook', 'install', '--repo', 'nowhere', '--allow-mock']);
    assert.equal(installMissing.code, 2);
    assert.match(installMissing.stderr, /--repo \S*nowhere is not an existing directory/, 'a missing folder is named, not reported as git missing');
    const bad = await jevcp(dir, ['hook', 'reinstall']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /say install, uninstall or status; got "reinstall"/);

    const repo = makeRepo();
    const hooks = join(repo, '.git', 'hooks');
    writeFileSync(join(hooks, 'commit-msg'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    writeFileSync(join(hooks, CHAINED_NAME), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    const stale = await jevcp(repo, ['hook', 'install']);
    assert.equal(stale.code, 2);
    assert.match(stale.stderr, /commit-msg\.jev-chained already exists/);
    assert.equal(readFileSync(join(hooks, 'commit-msg'), 'utf8'), '#!/bin/sh\nexit 0\n', 'nothing changed');
  });
});

describe('commits through the hook', () => {
  let repo: string;
  before(async () => {
    repo = makeRepo();
    const r = await jevcp(repo, ['hook', 'install']);
    assert.equal(r.code, 0, r.stderr);
  });

  it('a blocked commit fails and git shows the verdict and reasons; --no-verify bypasses without a judgment', async () => {
    disapprove();
    stageChange(repo);
    const before = fake.count();
    const blocked = await commit(repo, ['-m', 'Handle empty input in parse\n\n- parse("") returns an empty array']);
    assert.notEqual(blocked.code, 0);
    assert.equal(fake.count(), before + 1);
    assert.deepEqual(fake.requests.at(-1)!.body.state.claims, ['parse("") returns an empty array']);
    // The first line is the verdict and its top reason: what the editor's Source Control error shows.
    assert.match(blocked.stderr.split('\n')[0]!, /^jev gate: NOT passed \((review|escalate)\) — the diff review (escalated|wants a person to look) \(.*\) · claims \d\/1 verified$/);
    assert.match(blocked.stderr, /^ {2}judged by {3}the CLI configuration \(systemone at http:\/\/127\.0\.0\.1:\d+/m);
    assert.match(blocked.stderr, /^jev_gate — model jev-test-1$/m);
    assert.match(blocked.stderr, /^ {2}action +(review|escalate)$/m);
    assert.match(blocked.stderr, /^ {2}reasons +review_/m);
    assert.match(blocked.stderr, /^ {2}to commit anyway: JEV_GATE_OVERRIDE="why" git commit … \(recorded as an override\), or git commit --no-verify/m);
    assert.match(blocked.stderr, /jevcp: note: no editor with Jev is open on this repository; judged with the CLI configuration\./);
    assert.equal(commitCount(repo), 1);

    // The hook's own exit code is the gate's: 1 = not passed.
    writeFileSync(join(dir, 'MSG-blocked'), 'Handle empty input in parse\n');
    const direct = await run(join(repo, '.git', 'hooks', 'commit-msg'), [join(dir, 'MSG-blocked')], repo);
    assert.equal(direct.code, 1, direct.stderr);

    const bypass = await commit(repo, ['-q', '--no-verify', '-m', 'Handle empty input in parse']);
    assert.equal(bypass.code, 0, bypass.stderr);
    assert.equal(fake.count(), before + 2, 'only the direct hook run was judged; --no-verify skipped the hook');
    assert.equal(head(repo), 'Handle empty input in parse');
  });

  it('an approved commit goes through; `git commit -a` is judged on its temporary index', async () => {
    approve();
    writeFileSync(join(repo, 'src', 'parse.js'), 'export const parse = (s) => (s ? s.split(",") : []);\n');
    const ok = await commit(repo, ['-a', '-m', 'Simplify the empty check']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(head(repo), 'Simplify the empty check');
    assert.match(fake.requests.at(-1)!.body.state.diff, /\+export const parse = \(s\) => \(s \? s\.split/);
  });

  it('provider down: jevcp gate exits 3, the commit fails; JEV_GATE_FAIL_OPEN=1 lets it through loudly and the ledger still says error', async () => {
    const down = { JEV_BASE_URL: `http://127.0.0.1:${await closedPort()}`, JEV_TIMEOUT_MS: '3000' };
    writeFileSync(join(repo, 'src', 'util.js'), 'export const id = (x) => x;\n');
    git(repo, 'add', 'src/util.js');
    writeFileSync(join(dir, 'MSG-down'), 'Add id\n');

    const gate = await jevcp(repo, ['gate', '--staged', '--message-file', join(dir, 'MSG-down')], down);
    assert.equal(gate.code, 3, gate.stderr);
    assert.match(gate.stdout, /^jev gate: NOT passed — the judge failed \((API_ERROR|TIMEOUT): .*\); nothing was approved$/m);
    const hook = await run(join(repo, '.git', 'hooks', 'commit-msg'), [join(dir, 'MSG-down')], repo, down);
    assert.equal(hook.code, 3, 'the hook exits with the gate code');

    const overridden = await jevcp(repo, ['gate', '--staged', '--message-file', join(dir, 'MSG-down')], { ...down, JEV_GATE_OVERRIDE: 'hotfix' });
    assert.equal(overridden.code, 3, 'an override does not let a failed judgment through');
    assert.match(overridden.stdout, /JEV_GATE_OVERRIDE overrides a verdict, and the judge gave none; .* set JEV_GATE_FAIL_OPEN=1/);

    const blocked = await commit(repo, ['-m', 'Add id'], down);
    assert.notEqual(blocked.code, 0);
    assert.match(blocked.stderr.split('\n')[0]!, /^jev gate: NOT passed — the judge failed/);
    const count = commitCount(repo);

    const ledger = join(dir, 'fail-open.jsonl');
    const open = await commit(repo, ['-q', '-m', 'Add id'], { ...down, JEV_GATE_FAIL_OPEN: '1', JEV_LEDGER: ledger });
    assert.equal(open.code, 0, open.stderr);
    assert.equal(commitCount(repo), count + 1);
    assert.match(open.stderr, /WARNING: JEV_GATE_FAIL_OPEN is set — the gate could not judge this change \((API_ERROR|TIMEOUT)\) and lets it through UNJUDGED/);
    const records = readFileSync(ledger, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(records.length, 1);
    assert.equal(records[0].tool, 'jev_gate');
    assert.match(records[0].error.code, /API_ERROR|TIMEOUT/);
    assert.equal(records[0].result, undefined, 'never an approval in the ledger');
    const doctorOpen = JSON.parse((await jevcp(repo, ['doctor', '--json'], { JEV_GATE_FAIL_OPEN: '1' })).stdout);
    const doctorClosed = JSON.parse((await jevcp(repo, ['doctor', '--json'])).stdout);
    assert.deepEqual([doctorOpen.gate_fail_open, doctorClosed.gate_fail_open], [true, false], 'doctor shows the mode');

    // Fail-open is for failures only: a decision that does not pass still blocks, and a typo is refused.
    disapprove();
    stageChange(repo);
    writeFileSync(join(repo, 'src', 'parse.js'), 'export const parse = (s) => s.split(",").filter(Boolean);\n');
    git(repo, 'add', 'src/parse.js');
    const stillBlocked = await commit(repo, ['-m', 'Filter empty fields'], { JEV_GATE_FAIL_OPEN: '1' });
    assert.notEqual(stillBlocked.code, 0);
    assert.match(stillBlocked.stderr, /^jev gate: NOT passed \(/);
    const typo = await jevcp(repo, ['gate', '--staged'], { JEV_GATE_FAIL_OPEN: 'sometimes' });
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /JEV_GATE_FAIL_OPEN must be/);
    git(repo, 'reset', '-q', '--hard');
  });

  it('an empty message or one with only comments: the hook refuses (exit 2) before any judgment, with a clear message', async () => {
    stageChange(repo);
    writeFileSync(join(repo, 'src', 'parse.js'), 'export const parse = (s) => s.trim().split(",");\n');
    git(repo, 'add', 'src/parse.js');
    const before = fake.count();
    const count = commitCount(repo);
    // git checks for an empty message only after commit-msg ran, so the hook does see it.
    const empty = await commit(repo, ['-m', '']);
    assert.notEqual(empty.code, 0);
    assert.match(empty.stderr.split('\n')[0]!, /^jev gate: NOT passed — the commit message in \S+COMMIT_EDITMSG is empty \(only blank lines\); write a message, or commit with --no-verify/);
    const allowEmpty = await commit(repo, ['--allow-empty-message', '-m', '']);
    assert.notEqual(allowEmpty.code, 0, 'even when git would allow an empty message, the gate has nothing to judge it against');
    // Edited in an editor, git drops comment lines: only comments is an empty message.
    writeFileSync(join(dir, 'MSG-comments'), '# only a comment\n\n#another\n');
    const editor = join(dir, 'comments-editor.sh');
    writeFileSync(editor, `#!/bin/sh\ncat '${join(dir, 'MSG-comments')}' > "$1"\n`, { mode: 0o755 });
    const comments = await commit(repo, [], { GIT_EDITOR: editor });
    assert.notEqual(comments.code, 0);
    assert.match(comments.stderr, /is empty \(only blank or # comment lines\)/);
    const hook = await run(join(repo, '.git', 'hooks', 'commit-msg'), [join(dir, 'MSG-comments')], repo);
    assert.equal(hook.code, 2);
    assert.equal(fake.count(), before, 'no judgment was requested');
    assert.equal(commitCount(repo), count);
    git(repo, 'reset', '-q', '--hard');
  });

  it('nothing staged (git commit --allow-empty): the gate passes with a note', async () => {
    const before = fake.count();
    const r = await commit(repo, ['--allow-empty', '-m', 'Empty marker commit']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /nothing staged; nothing to gate/);
    assert.equal(head(repo), 'Empty marker commit');
    assert.equal(fake.count(), before);
  });

  it('binary files, renames and deletions reach the judge as git summarises them', async () => {
    approve();
    writeFileSync(join(repo, 'logo.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0, 255, 254, 0, 7]));
    writeFileSync(join(repo, 'old.txt'), 'obsolete\n');
    git(repo, 'add', 'logo.bin', 'old.txt');
    git(repo, 'commit', '-q', '--no-verify', '-m', 'fixtures');
    writeFileSync(join(repo, 'logo.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 9, 9, 9, 0, 255]));
    git(repo, 'add', 'logo.bin');
    git(repo, 'mv', 'src/parse.js', 'src/parser.js');
    git(repo, 'rm', '-q', 'old.txt');
    const ok = await commit(repo, ['-q', '-m', 'Rename parse.js, drop old.txt, new logo\n\n- src/parse.js is renamed to src/parser.js']);
    assert.equal(ok.code, 0, ok.stderr);
    const state = fake.requests.at(-1)!.body.state;
    assert.match(state.diff, /^diff --git a\/logo\.bin b\/logo\.bin\n(?:.*\n)?Binary files a\/logo\.bin and b\/logo\.bin differ$/m);
    assert.doesNotMatch(state.diff, /GIT binary patch/);
    assert.match(state.diff, /^deleted file mode 100644\n/m);
    assert.match(state.diff, /^similarity index 100%\nrename from src\/parse\.js\nrename to src\/parser\.js$/m);
    assert.match(state.evidence[0].text, /\n src\/parser\.js \| \+0 -0 \(renamed from src\/parse\.js\)\n/);
  });

  it('a 5 MB diff is judged on what fits: truncated, coverage incomplete → review (exit 1), never auto, not a failure', async () => {
    approve(); // even answers that would pass cannot pass an incomplete view
    const line = 'const row = "0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz";\n';
    writeFileSync(join(repo, 'big.js'), line.repeat(Math.ceil((5 * 1024 * 1024) / line.length)));
    git(repo, 'add', 'big.js');
    writeFileSync(join(dir, 'MSG-big'), 'Add the big table\n');

    const gate = await jevcp(repo, ['gate', '--staged', '--message-file', join(dir, 'MSG-big'), '--json']);
    assert.equal(gate.code, 1, gate.stderr);
    const result = JSON.parse(gate.stdout);
    assert.equal(result.action, 'review');
    assert.equal(result.truncated, true);
    assert.equal(result.coverage.complete, false);
    assert.ok(result.coverage.evaluated_chars < result.coverage.original_chars);
    assert.ok(result.reason_codes.includes('incomplete_context'), result.reason_codes.join(','));
    assert.match(gate.stderr, /the staged diff has 5\d{6} characters; only the first 1000000 are sent/);

    const count = commitCount(repo);
    const blocked = await commit(repo, ['-m', 'Add the big table']);
    assert.notEqual(blocked.code, 0);
    assert.match(blocked.stderr, /coverage +INCOMPLETE — evaluated \d+ of \d+ chars \(never auto\)/);
    assert.match(blocked.stderr, /^jev gate: NOT passed \(review\) — part of the change was not judged/);
    assert.equal(commitCount(repo), count);
    git(repo, 'reset', '-q', '--hard');
  });
});
