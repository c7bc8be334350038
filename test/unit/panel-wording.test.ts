// Wording a first-time user reads in the panel: counts in the right number, the thresholds the shown
// tool reads (src/policy: jev_step reads auto_accept and review_at, jev_screen and jev_permit read block_at), and who the
// agent `editor` is.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { EDITOR_AGENT } from '../../src/config/panel-settings';
import { agentNote, EDITOR_AGENT_NAME } from '../../src/panel/agent-notes';
import { countOf } from '../../src/panel/numbers';
import { floorReaders, thresholdsText } from '../../webview/whatif-model';

const floors = { auto_accept: 0.8, review_at: 0.5, block_at: 0.75 };

describe('panel wording', () => {
  it('counts: "1 decision", "0 decisions", "2 decisions"', () => {
    assert.equal(countOf(1, 'decision'), '1 decision');
    assert.equal(countOf(0, 'decision'), '0 decisions');
    assert.equal(countOf(2, 'decision'), '2 decisions');
    assert.equal(countOf(1, 'attempt'), '1 attempt');
    assert.equal(countOf(3, 'less likely option'), '3 less likely options');
    assert.equal(countOf(2, 'child', 'children'), '2 children');
  });

  it("thresholds for jev_step name auto_accept and review_at, and block_at only as jev_screen's and jev_permit's", () => {
    const t = thresholdsText(floors, 'jev_step');
    assert.equal(t.read, 'auto_accept 0.80 · review_at 0.50');
    assert.equal(t.other, 'block_at 0.75 (jev_screen, jev_permit only)');
    assert.doesNotMatch(t.read, /block_at/);
  });

  it('thresholds for jev_screen name block_at only; for a tool reading none, all are "other"', () => {
    assert.deepEqual(thresholdsText(floors, 'jev_screen'), { read: 'block_at 0.75', other: 'auto_accept 0.80 · review_at 0.50' });
    assert.deepEqual(thresholdsText(floors, 'ask_choice'), { read: '', other: 'auto_accept 0.80 · review_at 0.50 · block_at 0.75 (jev_screen, jev_permit only)' });
    assert.deepEqual(thresholdsText(floors, 'jev_verify'), { read: 'auto_accept 0.80', other: 'review_at 0.50 · block_at 0.75 (jev_screen, jev_permit only)' });
  });

  it('with no decision shown, every floor is listed and the rarely read one says who reads it', () => {
    assert.deepEqual(thresholdsText(floors), { read: 'auto_accept 0.80 · review_at 0.50 · block_at 0.75 (jev_screen, jev_permit only)', other: '' });
    assert.deepEqual(floorReaders('block_at'), ['jev_screen', 'jev_permit']);
    assert.deepEqual(thresholdsText(floors, 'jev_permit'), { read: 'auto_accept 0.80 · review_at 0.50 · block_at 0.75', other: '' });
  });

  it('agent editor is explained; agents the user named are not', () => {
    assert.equal(EDITOR_AGENT_NAME, EDITOR_AGENT, 'the webview text names the agent the host runs the editor as');
    const note = agentNote('editor');
    assert.ok(note);
    assert.match(note, /VS Code's own agent/);
    assert.match(note, /Jev's MCP server/);
    assert.equal(agentNote('coder'), undefined);
  });
});
