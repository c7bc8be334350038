import type { GateReportOutcome } from './ci-report';

/**
 * The range gate's verdict as a SARIF 2.1.0 log, for code scanning (GitHub's upload-sarif): one result per
 * claim that was not verified at auto, one per review dimension that fails its bound, and one for a
 * judgment that failed (nothing approved). Each result's `properties` carry the decision id, the
 * thresholds and the numbers the policy compared. Pure; the CLI writes it (src/cli/gate/range-gate.ts).
 */

/** SARIF result levels used here. */
export type SarifLevel = 'error' | 'warning' | 'note';

/** One SARIF result (the subset of the 2.1.0 `result` object this file writes). */
export interface SarifResult {
  ruleId: string;
  level: SarifLevel;
  message: { text: string };
  locations?: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }>;
  properties: Record<string, unknown>;
}

/** A SARIF 2.1.0 log with one run. */
export interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: Array<{
    tool: { driver: { name: string; version: string; informationUri?: string; rules: Array<{ id: string; shortDescription: { text: string } }> } };
    results: SarifResult[];
    properties: Record<string, unknown>;
  }>;
}

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';

const RULES = [
  { id: 'jev-gate/claim', shortDescription: { text: 'A claim of the commits was not verified from the evidence at auto_accept.' } },
  { id: 'jev-gate/review', shortDescription: { text: 'A dimension of the diff review fails its bound or its confidence is below auto_accept.' } },
  { id: 'jev-gate/failed', shortDescription: { text: 'The judgment failed; nothing was approved.' } },
];

/**
 * Where each dimension of the 0–2 review rubric must be to count as clear (src/policy/review.ts
 * reviewAction): correctness and spec_match at least 1, test_gap and blast_radius at most 1.
 */
const DIMENSION_BOUNDS: Record<string, { at_least?: number; at_most?: number }> = {
  correctness: { at_least: 1 },
  spec_match: { at_least: 1 },
  test_gap: { at_most: 1 },
  blast_radius: { at_most: 1 },
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * The SARIF log of one range-gate run. `files`: paths the range changes (results are attached to the
 * first, line 1, as code scanning shows a result at a location; a gate judges the change as a whole).
 * `advisory`: the mock judged, every result is a `note` saying so. `version`: jevcp's version.
 */
export function gateSarif(o: { range: string; outcome: GateReportOutcome; judge: string; files: readonly string[]; version: string; advisory?: boolean }): SarifLog {
  const results: SarifResult[] = [];
  const decision = o.outcome.recordId ?? null;
  const level = (l: SarifLevel): SarifLevel => (o.advisory ? 'note' : l);
  const prefix = o.advisory ? 'advisory only (mock judge, not a real judgment): ' : '';
  const locations = o.files.length ? [{ physicalLocation: { artifactLocation: { uri: o.files[0]! }, region: { startLine: 1 } } }] : undefined;
  const push = (r: Omit<SarifResult, 'locations'>) => results.push(locations ? { ...r, locations } : r);
  let runProps: Obj = { range: o.range, judge: o.judge, decision_id: decision, advisory: o.advisory === true };

  if (!o.outcome.ok) {
    push({
      ruleId: 'jev-gate/failed',
      level: 'error',
      message: { text: `Jev gate failed closed: ${o.outcome.error.code}: ${o.outcome.error.message} Nothing was approved.` },
      properties: { decision_id: decision, code: o.outcome.error.code },
    });
    return log(o.version, results, { ...runProps, action: null });
  }
  const r = isObj(o.outcome.result) ? o.outcome.result : {};
  const verification = isObj(r.verification) ? r.verification : {};
  const review = isObj(r.review) ? r.review : {};
  const vt = isObj(verification.thresholds) ? verification.thresholds : {};
  const thresholds = { auto_accept: num(vt.auto_accept) ?? null, review_at: num(vt.review_at) ?? null };
  runProps = { ...runProps, action: r.action ?? null, reason_codes: Array.isArray(r.reason_codes) ? r.reason_codes : [], thresholds };

  for (const c of Array.isArray(verification.results) ? verification.results : []) {
    if (!isObj(c) || (c.verdict === 'verified' && c.action === 'auto')) continue;
    const verdict = String(c.verdict);
    const confidence = num(c.confidence);
    push({
      ruleId: 'jev-gate/claim',
      level: level(verdict === 'contradicted' || c.action === 'escalate' ? 'error' : 'warning'),
      message: { text: `${prefix}claim "${String(c.claim)}": ${verdict}, confidence ${confidence?.toFixed(2) ?? '?'} (action ${String(c.action)})` },
      properties: { decision_id: decision, claim: c.claim, verdict, confidence: confidence ?? null, action: c.action, probabilities: isObj(c.probabilities) ? c.probabilities : {}, thresholds },
    });
  }

  const autoAccept = thresholds.auto_accept;
  const scores = isObj(review.scores) ? review.scores : {};
  for (const [dimension, bound] of Object.entries(DIMENSION_BOUNDS)) {
    const s = scores[dimension];
    if (!isObj(s)) continue;
    const score = num(s.score);
    const confidence = num(s.confidence);
    const outOfBound = score === undefined || (bound.at_least !== undefined && score < bound.at_least) || (bound.at_most !== undefined && score > bound.at_most);
    const unsure = confidence === undefined || (autoAccept !== null && confidence < autoAccept);
    if (!outOfBound && !unsure) continue;
    const why = outOfBound
      ? `score ${score?.toFixed(2) ?? '?'} / 2 is ${bound.at_least !== undefined ? `below ${bound.at_least}` : `above ${bound.at_most}`}`
      : `confidence ${confidence?.toFixed(2) ?? '?'} is below auto_accept ${autoAccept ?? '?'}`;
    push({
      ruleId: 'jev-gate/review',
      level: level(review.action === 'escalate' ? 'error' : 'warning'),
      message: { text: `${prefix}review ${dimension}: ${why}` },
      properties: { decision_id: decision, dimension, score: score ?? null, scale: [0, 2], confidence: confidence ?? null, bound, thresholds },
    });
  }
  const safe = num(review.safe_to_apply);
  if (safe !== undefined && autoAccept !== null && safe < autoAccept) {
    push({
      ruleId: 'jev-gate/review',
      level: level(review.action === 'escalate' ? 'error' : 'warning'),
      message: { text: `${prefix}review safe_to_apply: probability ${safe.toFixed(2)} is below auto_accept ${autoAccept}` },
      properties: { decision_id: decision, dimension: 'safe_to_apply', probabilities: { true: safe, false: 1 - safe }, thresholds },
    });
  }
  return log(o.version, results, runProps);
}

function log(version: string, results: SarifResult[], properties: Obj): SarifLog {
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'jevcp', version, rules: RULES } }, results, properties }],
  };
}
