/**
 * `jevcp gate --range BASE..HEAD`, the gate in CI, on a real repository whose feature branch has a merge
 * base behind main's tip (git-sandbox.ts): the combined diff from the merge base (main's later changes are
 * not in it), claims from the range's commit messages (merges left out), the same exit codes and --json,
 * GitHub Actions annotations and the step summary; a shallow-looking history (no merge base) and a range
 * with no backend say what to do.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GitSandbox } from './git-sandbox';

let sb: GitSandbox;
let repo: string;
before(async () => {
  sb = await GitSandbox.open('jevcp-range-');
  repo = sb.makeRepo();
  const git = (...args: string[]) => sb.git(repo, ...args);
  git('switch', '-q', '-c', 'feature');
  writeFileSync(join(repo, 'src', 'parse.js'), 'export const parse = (s) => (s === "" ? [] : s.split(","));\n');
  git('commit', '-q', '-a', '-m', 'Handle empty input\n\n- parse("") returns []');
  git('switch', '-q', 'main');
  writeFileSync(join(repo, 'README.md'), 'main moved on after the branch\n');
  git('add', 'README.md');
  git('commit', '-q', '-m', 'Docs on main');
  git('switch', '-q', 'feature');
  git('merge', '-q', '--no-edit', 'main');
  writeFileSync(join(repo, 'src', 'join.js'), 'export const join = (a) => a.join(",");\n');
  git('add', 'src/join.js');
  git('commit', '-q', '-m', 'Add join\n\n* join is the inverse of parse');
  git('switch', '-q', '--detach', 'main~1'); // CI checks out whatever; the range names the ends
});
after(() => sb?.close());

describe('jevcp gate --range', () => {
  it("judges the pull request's combined diff from the merge base with its commits' claims (exit 1 when not passed)", async () => {
    sb.disapprove();
    const before = sb.fake.count();
    const r = await sb.jevcp(repo, ['gate', '--range', 'main..feature', '--json']);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(sb.fake.count(), before + 1);
    const state = sb.fake.requests.at(-1)!.body.state as { request: string; claims: string[]; diff: string; evidence: { id: string; text: string }[] };
    assert.match(state.diff, /src\/parse\.js/);
    assert.match(state.diff, /src\/join\.js/);
    assert.doesNotMatch(state.diff, /README\.md/, "main's own change after the merge base is not the pull request's");
    assert.deepEqual(state.claims, ['parse("") returns []', 'join is the inverse of parse']);
    assert.match(state.request, /^commit [0-9a-f]{12}: Handle empty input\n\n- parse\(""\) returns \[\]\n\ncommit [0-9a-f]{12}: Add join/);
    assert.doesNotMatch(state.request, /Merge branch/);
    assert.match(state.evidence[0]!.text, /^files changed in main\.\.feature \(from the diff\)\n/);
    const out = JSON.parse(r.stdout) as { action: string; gate: Record<string, unknown> };
    assert.notEqual(out.action, 'auto');
    assert.deepEqual(out.gate, { ending: 'not-passed', commit_allowed: false, advisory: false, judged_by: out.gate.judged_by });
    assert.match(String(out.gate.judged_by), /^the CLI configuration/);
    assert.match(r.stderr, /^jev gate: NOT passed/m);

    sb.approve();
    const passed = JSON.parse((await sb.jevcp(repo, ['gate', '--range', 'main..feature', '--json'])).stdout) as { gate: Record<string, unknown> };
    assert.equal(passed.gate.ending, 'passed');
    assert.equal(passed.gate.commit_allowed, true);

    sb.fake.script({ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 });
    const down = await sb.jevcp(repo, ['gate', '--range', 'main..feature', '--json'], { JEV_TIMEOUT_MS: '3000' });
    assert.equal(down.code, 3, down.stderr);
    const failed = JSON.parse(down.stdout) as { error: { code: string }; gate: Record<string, unknown> };
    assert.match(failed.error.code, /API_ERROR|TIMEOUT/);
    assert.deepEqual([failed.gate.ending, failed.gate.commit_allowed], ['failed', false], 'a failed judge never reads as allowed');
  });

  it('on GitHub Actions: annotations on stdout and a Markdown step summary; exit 0 when it passes', async () => {
    sb.approve();
    const summary = join(sb.dir, 'summary.md');
    writeFileSync(summary, '# earlier step\n');
    const r = await sb.jevcp(repo, ['gate', '--range', 'main...feature'], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^jev gate: passed \(auto\)/);
    assert.match(r.stdout, /^::notice title=Jev gate::passed \(auto\) — every claim verified and the diff review accepted · claims 2\/2 verified \(judge: the CLI configuration/m);
    assert.match(r.stdout, /^::warning title=Jev gate note::no evidence command given/m);
    const md = readFileSync(summary, 'utf8');
    assert.match(md, /^# earlier step\n## Jev gate: passed \(auto\)\n/, 'appended, not overwritten');
    assert.match(md, /\| ✅ \| join is the inverse of parse \| verified \|/);
    assert.match(md, /main\.\.\.feature · 2 commits · judged by the CLI configuration/);

    sb.fake.script({ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 });
    const down = await sb.jevcp(repo, ['gate', '--range', 'main..feature'], { GITHUB_ACTIONS: 'true', JEV_TIMEOUT_MS: '3000' });
    assert.equal(down.code, 3, down.stderr);
    assert.match(down.stdout, /^::error title=Jev gate::failed closed: (API_ERROR|TIMEOUT)/m);
  });

  it('without bullet lines the commit subjects are the claims, with a note; no backend is exit 2 with an ::error', async () => {
    const plain = sb.makeRepo();
    sb.git(plain, 'switch', '-q', '-c', 'topic');
    sb.stageChange(plain);
    sb.git(plain, 'commit', '-q', '-m', 'Handle empty input');
    sb.approve();
    const r = await sb.jevcp(plain, ['gate', '--range', 'main..topic']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(sb.fake.requests.at(-1)!.body.state.claims, ['Handle empty input']);
    assert.match(r.stderr, /no "- " or "\* " lines in the range's commit messages; judging each commit's subject line as a claim/);

    const none = await sb.jevcp(plain, ['gate', '--range', 'main..topic'], { GITHUB_ACTIONS: 'true' }, false);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /CONFIG_ERROR: no judgment backend: the CLI configuration has none .*pass --allow-mock/);
    assert.match(none.stdout, /^::error title=Jev gate::failed closed: CONFIG_ERROR: no judgment backend/m);
  });

  it('refuses a malformed range, an unknown revision and ends without a merge base, saying what to fetch', async () => {
    const bad = await sb.jevcp(repo, ['gate', '--range', 'main']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--range must be BASE\.\.HEAD/);
    const unknown = await sb.jevcp(repo, ['gate', '--range', 'origin/main..HEAD']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /origin\/main names no commit in this repository .*fetch-depth: 0/);
    const option = await sb.jevcp(repo, ['gate', '--range', '--output=x..HEAD']);
    assert.equal(option.code, 2, 'a revision that looks like an option never reaches git');
    sb.git(repo, 'switch', '-q', '--orphan', 'unrelated');
    sb.git(repo, 'commit', '-q', '--allow-empty', '-m', 'unrelated root');
    const orphan = await sb.jevcp(repo, ['gate', '--range', 'main..unrelated']);
    assert.equal(orphan.code, 2);
    assert.match(orphan.stderr, /main and unrelated have no merge base here; check out the full history/);
    const none = await sb.jevcp(repo, ['gate', '--range', 'feature..feature']);
    assert.equal(none.code, 0);
    assert.match(none.stderr, /nothing to gate: feature\.\.feature has no commits/);
  });
});
