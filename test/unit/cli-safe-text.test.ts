import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatDecision } from '../../src/cli/format';
import { safeText } from '../../src/cli/safe-text';

describe('safeText (terminal controls in human output)', () => {
  it('escapes C0 (not tab/newline), CR, DEL, C1 and bidi controls visibly; leaves other text alone', () => {
    assert.equal(safeText('\u001b[31mRED\u001b[0m'), '\\x1b[31mRED\\x1b[0m');
    assert.equal(safeText('a\tb\nc'), 'a\tb\nc');
    assert.equal(safeText('over\rwrite\u0007\u0000\u007f'), 'over\\x0dwrite\\x07\\x00\\x7f');
    assert.equal(safeText('csi\u009b2J'), 'csi\\x9b2J');
    assert.equal(safeText('abc\u202edcba\u2066'), 'abc\\u202edcba\\u2066');
    assert.equal(safeText('héllo — ✓ 日本'), 'héllo — ✓ 日本');
  });

  it('formatDecision escapes controls from the model name, ids and claims', () => {
    const text = formatDecision('jev_gate', {
      model: 'evil\u001b]0;title\u0007',
      action: 'review',
      selection: { id: 'id\u009b31m', confidence: 0.9, suitability: 0.9 },
      verification: { summary: { verified: 0, contradicted: 0, unsupported: 1, needs_review: 1 }, results: [{ claim: '\u001b[31mRED', verdict: 'unsupported', confidence: 0.9, action: 'review' }] },
    });
    assert.doesNotMatch(text, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    assert.match(text, /evil\\x1b\]0;title\\x07/);
    assert.match(text, /id\\x9b31m/);
    assert.match(text, /\\x1b\[31mRED/);
  });
});
