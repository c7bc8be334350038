import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { JevErrorCode } from '../../src/judgment/errors';
import { PARTNER_REASONS } from '../../src/policy/coding-loop';
import { ROUTE_REASONS, STEP_REASONS } from '../../src/policy/routing';
import { GATE_REASON_CODES } from '../../src/policy/verify';
import { PERMIT_REASONS } from '../../src/policy/permit';
import { BLOCK_REASONS } from '../../src/tools/candidates';
import { REASON_CODES, explainReason } from '../../src/panel/reason-codes';
import { z as shim } from '../../webview/shims/zod';

// A Record over the union makes tsc fail when an error code is added without being listed here.
const ERROR_CODES: Record<JevErrorCode, true> = {
  CONFIG_ERROR: true,
  INVALID_INPUT: true,
  INPUT_TOO_LARGE: true,
  INVALID_RESPONSE: true,
  TIMEOUT: true,
  CANCELLED: true,
  API_ERROR: true,
};

describe('webview reason-code table', () => {
  it('explains every reason code of every jev tool and every error code', () => {
    const all = new Set<string>([
      ...PARTNER_REASONS,
      'prepared_candidates_declined',
      ...ROUTE_REASONS,
      ...STEP_REASONS,
      ...BLOCK_REASONS,
      ...GATE_REASON_CODES,
      ...PERMIT_REASONS,
      ...Object.keys(ERROR_CODES),
    ]);
    const missing = [...all].filter((c) => !Object.hasOwn(REASON_CODES, c));
    assert.deepEqual(missing, []);
    const extra = Object.keys(REASON_CODES).filter((c) => !all.has(c));
    assert.deepEqual(extra, [], 'no explanation for a code no tool reports');
  });

  it('keeps each explanation to one plain line', () => {
    for (const [code, info] of Object.entries(REASON_CODES)) {
      assert.ok(info.text.length > 10 && info.text.length <= 160, `${code}: ${info.text.length} chars`);
      assert.ok(!info.text.includes('\n'), code);
      assert.match(info.text, /\.$/, `${code} ends as a sentence`);
    }
  });

  it('falls back to naming an unknown code, and never reads inherited keys', () => {
    assert.match(explainReason('brand_new_code').text, /brand_new_code/);
    assert.match(explainReason('toString').text, /toString/);
  });
});

describe('webview zod stand-in', () => {
  it('provides every z member the bundled tool and policy modules use at run time', () => {
    const root = join(__dirname, '../../src');
    const used = new Set<string>();
    for (const dir of ['tools', 'policy', 'judgment', 'ledger']) {
      for (const f of readdirSync(join(root, dir)).filter((n) => n.endsWith('.ts'))) {
        const text = readFileSync(join(root, dir, f), 'utf8');
        for (const m of text.matchAll(/\bz\.([A-Za-z]+)\b/g)) used.add(m[1]!);
      }
    }
    // Type-only members (z.infer<…>, z.input<…>, z.output<…>) vanish from the bundle.
    for (const t of ['infer', 'input', 'output']) used.delete(t);
    assert.ok(used.has('object') && used.has('string'), 'the scan found the builders');
    const missing = [...used].filter((m) => !(m in shim));
    assert.deepEqual(missing, [], 'add these to webview/shims/zod.ts');
  });
});
