/** validateFloors (policy/thresholds.ts): the one set of floor rules the CLI, the editor and replay share. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readPanelSettings, type InspectedValue, type SettingKey } from '../../src/config/panel-settings';
import { loadConfig } from '../../src/config/env';
import { DEFAULT_FLOORS, validateFloors, type FloorNames } from '../../src/policy/thresholds';

const NAMES: FloorNames = { auto_accept: 'A', review_at: 'R', block_at: 'B' };

describe('validateFloors', () => {
  it('accepts the defaults and the edges of every rule', () => {
    assert.deepEqual(validateFloors(DEFAULT_FLOORS, NAMES), []);
    assert.deepEqual(validateFloors({ auto_accept: 0.3, review_at: 0.3, block_at: 0.25 }, NAMES), []);
    assert.deepEqual(validateFloors({ auto_accept: 1, review_at: 0, block_at: 1 }, NAMES), []);
  });

  it('review_at above auto_accept breaks the order rule, reported on review_at and worded with the given names', () => {
    const [v, ...rest] = validateFloors({ auto_accept: 0.6, review_at: 0.7, block_at: 0.75 }, NAMES);
    assert.deepEqual(rest, []);
    assert.equal(v?.floor, 'review_at');
    assert.equal(v?.kind, 'order');
    assert.match(v!.rule, /^must not exceed A \(0\.6\) \(rule: 0 <= review_at <= auto_accept <= 1\)$/);
  });

  it('block_at below the screen review threshold breaks the minimum rule', () => {
    assert.deepEqual(validateFloors({ auto_accept: 0.8, review_at: 0.5, block_at: 0.2 }, NAMES), [
      { floor: 'block_at', kind: 'minimum', rule: 'must be at least 0.25 (the screen review threshold)' },
    ]);
  });

  it('out-of-range or non-finite floors break the range rule, and the order and minimum rules skip them', () => {
    const violations = validateFloors({ auto_accept: Number.NaN, review_at: 1.5, block_at: -1 }, NAMES);
    assert.deepEqual(violations.map((v) => [v.floor, v.kind]), [['auto_accept', 'range'], ['review_at', 'range'], ['block_at', 'range']]);
  });

  it('lists every broken rule in order: range, order, minimum', () => {
    const violations = validateFloors({ auto_accept: 0.4, review_at: 0.5, block_at: 0.1 }, NAMES);
    assert.deepEqual(violations.map((v) => v.kind), ['order', 'minimum']);
  });
});

describe('both faces word the shared rules with their own field names', () => {
  it('the environment names the variable', () => {
    assert.throws(() => loadConfig({ JEV_BLOCK_AT: '0.2' }), /^JevError: JEV_BLOCK_AT must be at least 0\.25 \(the screen review threshold\)\.$/);
  });

  it('the settings name the jevPanel key and fall back', () => {
    const values: Partial<Record<SettingKey, InspectedValue>> = {
      'thresholds.autoAccept': { globalValue: 0.6 },
      'thresholds.reviewAt': { globalValue: 0.7 },
      'thresholds.blockAt': { globalValue: 0.2 },
    };
    const s = readPanelSettings((key) => values[key], { trusted: true, judgmentTools: [] });
    assert.deepEqual(s.floors, { auto_accept: 0.6, review_at: 0.5, block_at: 0.75 });
    assert.deepEqual(s.problems, [
      'jevPanel.thresholds.reviewAt: must not exceed thresholds.autoAccept (0.6) (rule: 0 <= review_at <= auto_accept <= 1); using 0.5',
      'jevPanel.thresholds.blockAt: must be at least 0.25 (the screen review threshold); using 0.75',
    ]);
  });
});
