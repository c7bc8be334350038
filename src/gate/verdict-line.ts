/**
 * A jev_gate result in one line: the verdict, its one or two most important reasons in plain words, and
 * the claim count. It is the first line the commit hook prints (git shows it in the Source Control
 * error), the editor's short notification, and the CI annotation. Pure; no host import.
 */

import { fmtProb, versusNamed } from '../panel/numbers';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Probability as every face prints it (src/panel/numbers.ts: two decimals, never rounded up); `?` for a non-number. */
export function prob(v: unknown): string {
  return typeof v === 'number' ? fmtProb(v) : '?';
}

/** `confidence 0.19 < review_at 0.50`, or `confidence 0.19` when the threshold is unknown. */
function confidenceVs(confidence: unknown, name: string, threshold: unknown): string {
  return typeof confidence === 'number' && typeof threshold === 'number' ? versusNamed('confidence', confidence, name, threshold) : `confidence ${prob(confidence)}`;
}

/** A claim cut to `max` characters on one line, quoted. */
export function quoteClaim(text: unknown, max = 50): string {
  const one = String(text).replace(/\s+/g, ' ').trim();
  return `"${one.length > max ? `${one.slice(0, max - 1)}…` : one}"`;
}

/** The parts of a gate result the line is made of. */
export interface GateSummary {
  /** auto | review | escalate. */
  action: string;
  passed: boolean;
  /** The most important reasons, in plain words, most important first (one or two). */
  reasons: string[];
  /** `claims 1/2 verified` ('' when the result lists no claims). */
  counts: string;
}

interface Claim {
  claim: unknown;
  verdict: unknown;
  confidence: unknown;
  action: unknown;
}

/**
 * The summary of a jev_gate result. Reasons follow the result's reason codes, most serious first: a
 * contradicted claim, an unjudged part of the change, an escalated review, an unsupported claim, a weak
 * claim verdict, a review that wants a person; `accepted` for a pass.
 */
export function summarizeGate(result: unknown, maxReasons = 2): GateSummary {
  const r = isObj(result) ? result : {};
  const action = typeof r.action === 'string' ? r.action : 'escalate';
  const codes = new Set(Array.isArray(r.reason_codes) ? r.reason_codes.map(String) : []);
  const v = isObj(r.verification) ? r.verification : {};
  const claims: Claim[] = Array.isArray(v.results) ? (v.results.filter(isObj) as unknown as Claim[]) : [];
  const review = isObj(r.review) ? r.review : {};
  const thresholds = isObj(v.thresholds) ? v.thresholds : {};
  const first = (verdict: string) => claims.find((c) => c.verdict === verdict);
  const weakest = () => claims.filter((c) => c.action !== 'auto').sort((a, b) => Number(a.confidence) - Number(b.confidence))[0];

  const reasons: string[] = [];
  const add = (text: string | undefined) => {
    if (text && !reasons.includes(text)) reasons.push(text);
  };
  const contradicted = first('contradicted');
  if (contradicted) add(`the evidence contradicts ${quoteClaim(contradicted.claim)} (confidence ${prob(contradicted.confidence)})`);
  if (codes.has('incomplete_context')) add('part of the change was not judged (cut to fit the budget), so it cannot pass automatically');
  if (codes.has('review_escalated')) add(`the diff review escalated (safe to apply ${prob(review.safe_to_apply)}, composite ${prob(review.composite)})`);
  const unsupported = first('unsupported');
  if (unsupported) add(`${quoteClaim(unsupported.claim)} is not backed by the evidence (confidence ${prob(unsupported.confidence)})`);
  if (codes.has('claim_confidence_low') || codes.has('confidence_incoherent')) {
    const weak = weakest();
    const low = weak && typeof weak.confidence === 'number' && typeof thresholds.review_at === 'number' && weak.confidence < thresholds.review_at;
    if (weak) add(`the verdict on ${quoteClaim(weak.claim)} is not confident (${low ? confidenceVs(weak.confidence, 'review_at', thresholds.review_at) : confidenceVs(weak.confidence, 'auto_accept', thresholds.auto_accept)})`);
  }
  if (codes.has('review_required')) add(`the diff review wants a person to look (composite ${prob(review.composite)}, safe to apply ${prob(review.safe_to_apply)})`);
  if (codes.has('claim_confidence_below_auto_accept')) {
    const weak = weakest();
    if (weak) add(`${quoteClaim(weak.claim)} is verified only at ${confidenceVs(weak.confidence, 'auto_accept', thresholds.auto_accept)}`);
  }
  if (action === 'auto') add('every claim verified and the diff review accepted');
  if (reasons.length === 0) add(`reasons: ${[...codes].join(', ') || 'none given'}`);

  const verified = claims.filter((c) => c.verdict === 'verified').length;
  return { action, passed: action === 'auto', reasons: reasons.slice(0, maxReasons), counts: claims.length ? `claims ${verified}/${claims.length} verified` : '' };
}

/**
 * The hook's first line: `jev gate: passed (auto) — …` or `jev gate: NOT passed (escalate) — <reason>;
 * <reason> · claims 0/1 verified`. `judge` (e.g. `mock judge, advisory`) is put in the parentheses.
 */
export function gateVerdictLine(result: unknown, judge?: string): string {
  const s = summarizeGate(result);
  const head = s.passed ? 'passed' : 'NOT passed';
  return `jev gate: ${head} (${s.action}${judge ? `, ${judge}` : ''}) — ${s.reasons.join('; ')}${s.counts ? ` · ${s.counts}` : ''}`;
}
