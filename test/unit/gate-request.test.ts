/**
 * The commit gate's core without a face: the commit message as git leaves it, the claims, the diff stat
 * used as evidence, the evidence command's option rules, and the one jev_gate request both `jevcp gate`
 * and the editor build (claims, evidence, notes in each face's words, a huge diff cut instead of refused).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cliGateWording } from '../../src/cli/commands/gate';
import { EDITOR_GATE_WORDING } from '../../src/gate/editor-wording';
import { splitClaims } from '../../src/gate/claims';
import { messageText, parseCommitMessage } from '../../src/gate/commit-message';
import { diffFiles, diffStat } from '../../src/gate/diff-stat';
import { evidenceCommandProblem, evidenceTimeoutProblem } from '../../src/gate/evidence-command';
import { buildGateRequest, gateSubject, readGateMessage } from '../../src/gate/request';
import { JevError } from '../../src/judgment/errors';
import { TRUNCATION_MARKER } from '../../src/judgment/budget';
import { MAX_TEXT_CHARS } from '../../src/tools/schemas';

const DIFF = [
  'diff --git a/src/math.js b/src/math.js',
  'index 1111111..2222222 100644',
  '--- a/src/math.js',
  '+++ b/src/math.js',
  '@@ -1,3 +1,6 @@',
  ' export function add(a, b) {',
  '   return a + b;',
  ' }',
  '+',
  '+++ a line whose content starts with "++"',
  '+export const sub = (a, b) => a - b;',
  '-// old comment',
  'diff --git a/old name.txt b/new name.txt',
  'similarity index 90%',
  'rename from old name.txt',
  'rename to new name.txt',
  'index 3333333..4444444 100644',
  '--- a/old name.txt',
  '+++ b/new name.txt',
  '@@ -1 +1 @@',
  '-a',
  '+b',
  'diff --git a/logo.png b/logo.png',
  'new file mode 100644',
  'index 0000000..5555555',
  'Binary files /dev/null and b/logo.png differ',
  'diff --git a/gone.md b/gone.md',
  'deleted file mode 100644',
  'index 6666666..0000000',
  '--- a/gone.md',
  '+++ /dev/null',
  '@@ -1,2 +0,0 @@',
  '-# gone',
  '-bye',
  '',
].join('\n');

describe('diff stat', () => {
  it('counts hunk lines only (a "+++" content line is an insertion), and names renames, binaries and deletions', () => {
    assert.deepEqual(diffFiles(DIFF), [
      { path: 'src/math.js', status: 'modified', binary: false, insertions: 3, deletions: 1 },
      { path: 'new name.txt', from: 'old name.txt', status: 'renamed', binary: false, insertions: 1, deletions: 1 },
      { path: 'logo.png', status: 'added', binary: true, insertions: 0, deletions: 0 },
      { path: 'gone.md', status: 'deleted', binary: false, insertions: 0, deletions: 2 },
    ]);
    assert.equal(
      diffStat(DIFF),
      [
        ' src/math.js | +3 -1',
        ' new name.txt | +1 -1 (renamed from old name.txt)',
        ' logo.png | (new, binary)',
        ' gone.md | +0 -2 (deleted)',
        ' 4 files changed, 4 insertions(+), 4 deletions(-)',
      ].join('\n'),
    );
    assert.equal(diffStat(''), '');
  });
});


describe('commit message', () => {
  it('drops # lines and everything below the scissors line; bullet lines become candidate claims', () => {
    const m = parseCommitMessage('\r\n  Fix parse  \r\n# Please enter the message\r\n\r\nBody line.\r\n  - empty input works \r\n*not a bullet\r\n# ------------------------ >8 ------------------------\r\n- below the scissors\r\n');
    assert.deepEqual(m, { subject: 'Fix parse', body: 'Body line.\n  - empty input works\n*not a bullet', bullets: ['empty input works'] });
    assert.equal(messageText(m), 'Fix parse\n\nBody line.\n  - empty input works\n*not a bullet');
    assert.deepEqual(parseCommitMessage('# only\n\n'), { subject: '', body: '', bullets: [] });
  });
});

describe('evidence command options', () => {
  it('one non-blank line; a time limit in whole milliseconds from 1', () => {
    assert.equal(evidenceCommandProblem('npm test -- --grep "a b"'), undefined);
    assert.match(evidenceCommandProblem('  ')!, /^must not be empty/);
    assert.equal(evidenceCommandProblem('npm test\nrm -rf /'), 'must be a single line (no line breaks or NUL)');
    assert.equal(evidenceCommandProblem('npm test\0'), 'must be a single line (no line breaks or NUL)');
    assert.equal(evidenceTimeoutProblem(1), undefined);
    for (const bad of [0, -5, 1.5, Number.NaN, '500', 2 ** 53]) assert.equal(evidenceTimeoutProblem(bad), 'must be a positive whole number of milliseconds', String(bad));
  });
});

describe('gate request', () => {
  const message = '# comment dropped\nAdd sub()\n\nSubtraction for the calculator.\n- sub subtracts b from a\n* the math tests pass\n- sub subtracts b from a\n';

  it('uses the message as the request and its bullet lines as claims; evidence is the stat plus the command output', () => {
    const req = buildGateRequest(
      {
        message,
        diff: DIFF,
        evidence: { command: 'npm test', timeoutMs: 1000, exitCode: 0, timedOut: false, output: '4 passing\n', omittedChars: 0, durationMs: 12 },
      },
      EDITOR_GATE_WORDING,
    );
    assert.equal(req.input.request, 'Add sub()\n\nSubtraction for the calculator.\n- sub subtracts b from a\n* the math tests pass\n- sub subtracts b from a');
    assert.deepEqual(req.input.claims, ['sub subtracts b from a', 'the math tests pass']);
    assert.equal(req.input.diff, DIFF);
    assert.deepEqual(req.input.evidence.map((e) => e.id), ['diff-stat', 'evidence-cmd']);
    assert.ok(req.input.evidence[0]!.text.includes(' 4 files changed'));
    assert.equal(req.input.tests, '$ npm test\n(exit code 0)\n4 passing\n');
    assert.deepEqual(req.notes, []);
    assert.equal(req.diffCut, false);
  });

  it('a credential in the staged diff or the evidence output never goes on to the judge; source code stays as written', () => {
    const token = `ghp_${'a1B2'.repeat(9)}`;
    const leaky = `${DIFF}+const client = new Octokit({ auth: "${token}" });\n+const token = options.token;\n`;
    const req = buildGateRequest(
      { message: 'Add the client\n', diff: leaky, evidence: { command: 'env', timeoutMs: 1000, exitCode: 0, timedOut: false, output: `KEY=AKIAABCDEFGHIJKLMNOP\n`, omittedChars: 0, durationMs: 1 } },
      EDITOR_GATE_WORDING,
    );
    assert.ok(!req.input.diff.includes(token) && req.input.diff.includes('auth: "[REDACTED]"'));
    assert.ok(req.input.diff.includes('+const token = options.token;'), 'an ordinary assignment is not a credential');
    assert.ok(!JSON.stringify(req.input).includes('AKIAABCDEFGHIJKLMNOP'));
    assert.ok(req.notes.some((n) => /looks like a credential .* replaced by \[REDACTED\] before judging/.test(n)));
    assert.deepEqual(buildGateRequest({ message: 'Add sub()\n', diff: DIFF }, EDITOR_GATE_WORDING).notes.filter((n) => /credential/.test(n)), []);
  });

  it('takes typed claims when the message has no bullets, else the subject, and says so', () => {
    const asked = buildGateRequest({ message: 'Add sub()', diff: DIFF, claims: ['sub works', ' ', 'sub works'] }, EDITOR_GATE_WORDING);
    assert.deepEqual(asked.input.claims, ['sub works']);
    const subject = buildGateRequest({ message: 'Add sub()\n', diff: DIFF, claims: [] }, EDITOR_GATE_WORDING);
    assert.deepEqual(subject.input.claims, ['Add sub()']);
    assert.ok(subject.notes.some((n) => /^no claims given \(no claims typed, .*\); judging the subject line as the claim$/.test(n)));
    assert.ok(subject.notes.some((n) => /^no evidence command given \(setting jevPanel\.gate\.evidenceCommand\)/.test(n)));
    assert.deepEqual(splitClaims('- one; two\n* three\n\none'), ['one', 'two', 'three']);
  });

  it('a subject written as a list item ("- Fix …") is the request without its marker, never a claim bullet', () => {
    const m = parseCommitMessage('- Fix the empty-input parse\n\n- parse("") returns []\n');
    assert.equal(m.subject, 'Fix the empty-input parse');
    assert.deepEqual(m.bullets, ['parse("") returns []']);
    const req = buildGateRequest({ message: '- Fix the empty-input parse\n\n- parse("") returns []\n', diff: DIFF }, cliGateWording('MSG'));
    assert.equal(req.input.request, 'Fix the empty-input parse\n\n- parse("") returns []');
    assert.deepEqual(req.input.claims, ['parse("") returns []']);
    // Subject only: it stands in as the claim, without the dash; `* ` and indentation too.
    const alone = buildGateRequest({ message: '  * Fix the empty-input parse\n', diff: DIFF }, cliGateWording('MSG'));
    assert.equal(alone.input.request, 'Fix the empty-input parse');
    assert.deepEqual(alone.input.claims, ['Fix the empty-input parse']);
    // A dash with no space is text ("-1 day", "--force"), not a list marker.
    assert.equal(parseCommitMessage('--force is refused now').subject, '--force is refused now');
  });

  it('puts given claims (--claim) before the bullet lines, and names the CLI flags in its notes', () => {
    const req = buildGateRequest({ message: 'Add sub()\n\n- sub works\n', diff: DIFF, claims: ['it is tested', 'sub works'] }, cliGateWording('MSG'));
    assert.deepEqual(req.input.claims, ['it is tested', 'sub works']);
    assert.deepEqual(req.notes, ['no evidence command given (--evidence-cmd); the only evidence is the diff stat, so claims will rarely be verified']);
    const subject = buildGateRequest({ message: 'Add sub()', diff: DIFF }, cliGateWording('MSG'));
    assert.match(subject.notes[0]!, /^no claims given \(no --claim, /);
  });

  it('without a message the claims are the request; with neither it refuses instead of inventing a claim', () => {
    const claimsOnly = buildGateRequest({ diff: DIFF, claims: ['sub works', 'sub is tested'] }, cliGateWording());
    assert.equal(claimsOnly.input.request, 'sub works\nsub is tested');
    const refused = (err: unknown) =>
      err instanceof JevError && err.code === 'INVALID_INPUT' && err.message === 'gate: nothing to judge the staged diff against: give a commit message (--message-file FILE) or a claim (--claim).';
    assert.throws(() => gateSubject({ claims: [' '] }, cliGateWording()), refused);
    assert.throws(() => buildGateRequest({ diff: DIFF }, cliGateWording()), refused);
  });

  it('refuses a blank message (comments only) with INVALID_INPUT naming where the message is', () => {
    const isEmpty = (where: RegExp) => (err: unknown) => err instanceof JevError && err.code === 'INVALID_INPUT' && where.test(err.message);
    assert.throws(
      () => buildGateRequest({ message: '# only a comment\n\n', diff: DIFF }, EDITOR_GATE_WORDING),
      isEmpty(/^the commit message in the Source Control input box is empty \(only blank or # comment lines\); write it there first/),
    );
    assert.throws(() => readGateMessage('\n  \n# x\n', cliGateWording('.git/COMMIT_EDITMSG')), isEmpty(/^gate: the commit message in \.git\/COMMIT_EDITMSG is empty .*--no-verify/));
  });

  it('cuts a diff larger than the field limit instead of refusing it, and notes a timed-out command', () => {
    const huge = `${DIFF}${'+x'.repeat(Math.ceil(MAX_TEXT_CHARS / 2) + 10)}`;
    const req = buildGateRequest(
      {
        message: 'Big change\n- it builds',
        diff: huge,
        evidence: { command: 'npm test', timeoutMs: 50, exitCode: null, timedOut: true, output: 'partial', omittedChars: 0, durationMs: 61 },
      },
      EDITOR_GATE_WORDING,
    );
    assert.equal(req.diffCut, true);
    assert.equal(req.diffChars, huge.length);
    assert.equal(req.input.diff.length, MAX_TEXT_CHARS);
    assert.ok(req.input.diff.endsWith(TRUNCATION_MARKER));
    assert.ok(req.notes.some((n) => new RegExp(`^the staged diff has ${huge.length} characters; only the first ${MAX_TEXT_CHARS} are sent`).test(n)));
    assert.ok(req.notes.some((n) => /timed out after 50 ms/.test(n)), 'the time limit, not the measured duration');
  });

  it('notes an evidence command that could not start; its failure is still the evidence', () => {
    const req = buildGateRequest(
      { message: 'Add sub()', diff: DIFF, evidence: { command: 'nope', timeoutMs: 1000, exitCode: null, timedOut: false, startError: 'ENOENT', output: '', omittedChars: 0, durationMs: 1 } },
      cliGateWording(),
    );
    assert.equal(req.input.tests, '$ nope\n(could not start (ENOENT))\n');
    assert.ok(req.notes.includes('the evidence command could not start (ENOENT); that failure is the evidence'), req.notes.join('|'));
  });
});
