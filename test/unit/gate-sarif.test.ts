/**
 * `jevcp gate --range --format sarif`: the SARIF 2.1.0 log (src/gate/sarif.ts), one result per claim not
 * verified at auto and per failing review dimension, with the decision id, thresholds and numbers in
 * `properties`; validated with Ajv against the SARIF 2.1.0 JSON schema. The schema is not in the repository:
 * it is read from the devDependency @microsoft/jest-sarif (lib/schemas/sarif-2.1.0-rtm.5.json), or from the file
 * JEV_SARIF_SCHEMA names; a missing schema fails the test.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { gateSarif } from '../../src/gate/sarif';

const thresholds = { auto_accept: 0.8, review_at: 0.5 };
const result = {
  action: 'escalate',
  reason_codes: ['review_required', 'claims_contradicted'],
  review: {
    action: 'review',
    composite: 0.6,
    safe_to_apply: 0.7,
    scores: { correctness: { score: 1.5, confidence: 0.9 }, spec_match: { score: 0.6, confidence: 0.9 }, test_gap: { score: 0.2, confidence: 0.6 }, blast_radius: { score: 0.1, confidence: 0.95 } },
    thresholds,
  },
  verification: {
    action: 'escalate',
    results: [
      { claim: 'parse("") returns []', verdict: 'verified', confidence: 0.95, probabilities: { verified: 0.95, contradicted: 0.03, unsupported: 0.02 }, action: 'auto' },
      { claim: 'it is fast', verdict: 'contradicted', confidence: 0.9, probabilities: { verified: 0.05, contradicted: 0.9, unsupported: 0.05 }, action: 'auto' },
      { claim: 'docs updated', verdict: 'unsupported', confidence: 0.7, probabilities: { verified: 0.2, contradicted: 0.1, unsupported: 0.7 }, action: 'review' },
    ],
    thresholds,
  },
};
const log = gateSarif({ range: 'main..HEAD', outcome: { ok: true, result, recordId: 'dec-42' }, judge: 'jev-1.13.0', files: ['src/parse.js'], version: '0.0.0' });

function schemaPath(): string | undefined {
  const candidates = [process.env.JEV_SARIF_SCHEMA, join(__dirname, '../../node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json')];
  return candidates.find((p): p is string => p !== undefined && p !== '' && existsSync(p));
}

describe('gate SARIF', () => {
  it('one result per claim not verified at auto and per failing review dimension, numbers in properties', () => {
    const results = log.runs[0]!.results;
    assert.deepEqual(
      results.map((r) => [r.ruleId, r.level, r.properties.claim ?? r.properties.dimension]),
      [
        ['jev-gate/claim', 'error', 'it is fast'],
        ['jev-gate/claim', 'warning', 'docs updated'],
        ['jev-gate/review', 'warning', 'spec_match'],
        ['jev-gate/review', 'warning', 'test_gap'],
        ['jev-gate/review', 'warning', 'safe_to_apply'],
      ],
    );
    const contradicted = results[0]!;
    assert.equal(contradicted.properties.decision_id, 'dec-42');
    assert.deepEqual(contradicted.properties.thresholds, thresholds);
    assert.deepEqual(contradicted.properties.probabilities, { verified: 0.05, contradicted: 0.9, unsupported: 0.05 });
    assert.equal(contradicted.locations?.[0]?.physicalLocation.artifactLocation.uri, 'src/parse.js');
    assert.match(results[2]!.message.text, /spec_match: score 0\.60 \/ 2 is below 1/);
    assert.deepEqual(log.runs[0]!.properties.reason_codes, result.reason_codes);
  });

  it('a failed judgment is one error result; the mock\'s verdict is notes marked advisory', () => {
    const failed = gateSarif({ range: 'a..b', outcome: { ok: false, error: { code: 'API_ERROR', message: 'down.', retryable: true } }, judge: 'none', files: [], version: '0.0.0' });
    assert.deepEqual(failed.runs[0]!.results.map((r) => [r.ruleId, r.level]), [['jev-gate/failed', 'error']]);
    const advisory = gateSarif({ range: 'a..b', outcome: { ok: true, result }, judge: 'mock', files: [], version: '0.0.0', advisory: true });
    assert.ok(advisory.runs[0]!.results.every((r) => r.level === 'note' && r.message.text.startsWith('advisory only')));
  });

  it('validates against the SARIF 2.1.0 JSON schema (Ajv)', () => {
    const path = schemaPath();
    assert.ok(path, 'no SARIF schema: the devDependency @microsoft/jest-sarif is missing (npm install), or set JEV_SARIF_SCHEMA');
    // The schema is draft-04 (`id`, `$schema` draft-04); Ajv 8 reads it once those two are its own.
    const raw = JSON.parse(readFileSync(path!, 'utf8')) as Record<string, unknown>;
    const { $schema: _draft, id, ...rest } = raw;
    const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false }); // one of its patterns is not valid with the u flag
    addFormats(ajv);
    const validate = ajv.compile({ ...rest, $id: String(id) });
    for (const l of [log, gateSarif({ range: 'a..b', outcome: { ok: false, error: { code: 'TIMEOUT', message: 'late.', retryable: true } }, judge: 'none', files: [], version: '0.0.0' })]) {
      assert.equal(validate(l), true, JSON.stringify(validate.errors, null, 1));
    }
    // The check can fail: a result without a message is not SARIF.
    const broken = structuredClone(log) as unknown as { runs: { results: Record<string, unknown>[] }[] };
    delete broken.runs[0]!.results[0]!.message;
    assert.equal(validate(broken), false);
  });
});
