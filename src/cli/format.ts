/**
 * Human-readable decision printouts for the CLI. Every printout names the model that answered and
 * labels the mock judge, so a mock decision is never mistaken for a real one.
 */

import { safeText } from './safe-text';
import { claimLine, fmtProb, fmtThreshold, reviewScoresText, versusNamed } from '../panel/numbers';

import { thresholdFloorNotes } from './threshold-notes';

import { claimSummaryText } from '../panel/claim-summary';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Probability/confidence as every face prints it (src/panel/numbers.ts: two decimals, never rounded up). */
export function num(v: unknown): string {
  return fmtProb(v);
}

/** `model jev-latest+mock (mock judge: deterministic, not a real judgment)` etc. */
export function modelLabel(model: unknown): string {
  const m = typeof model === 'string' ? model : 'unknown';
  if (m.endsWith('+mock')) return `${m} (mock judge: deterministic, not a real judgment)`;
  if (m === 'local-policy') return `${m} (decided locally, no judgment request)`;
  return m;
}

function thresholds(t: unknown): string | undefined {
  if (!isObj(t)) return undefined;
  return Object.entries(t)
    .map(([k, v]) => `${k} ${typeof v === 'number' ? fmtThreshold(v) : String(v)}`)
    .join(', ');
}

function choiceLine(v: unknown): string | undefined {
  if (!isObj(v) || typeof v.choice !== 'string') return undefined;
  return `${v.choice} (confidence ${num(v.confidence)})`;
}

function row(lines: string[], label: string, value: string | undefined): void {
  if (value !== undefined && value !== '') lines.push(`  ${label.padEnd(12)}${value}`);
}

/**
 * Printout of one successful tool result (terminal controls escaped, see safeText). `tool` names the tool; unknown
 * fields are left to --json. With the tool's `input`, a requested threshold the floor overrode gets a note.
 */
export function formatDecision(tool: string, result: unknown, input?: unknown): string {
  const r = isObj(result) ? result : {};
  const lines = [`${tool} — model ${modelLabel(r.model)}`];
  row(lines, 'decision', typeof r.decision === 'string' ? r.decision : undefined);
  row(lines, 'handoff', typeof r.handoff === 'string' ? r.handoff : undefined);
  row(lines, 'action', typeof r.action === 'string' ? r.action : undefined);
  row(lines, 'reasons', Array.isArray(r.reason_codes) ? r.reason_codes.join(', ') : undefined);
  // jev_gate nests its thresholds in review/verification; show the effective pair either way.
  const nested = isObj(r.review) ? r.review.thresholds : isObj(r.verification) ? r.verification.thresholds : undefined;
  row(lines, 'thresholds', thresholds(r.thresholds ?? nested));
  for (const n of thresholdFloorNotes(input, result)) row(lines, 'note', n);

  // jev_permit: the effect it relied on and the three nouls.
  if (isObj(r.effect) && typeof r.effect.source === 'string') {
    row(lines, 'effect', `${String(r.effect.choice)} (${r.effect.source}, confidence ${num(r.effect.confidence)})`);
    row(lines, 'judged', `serves_request ${num(r.serves_request)}, exfiltration ${num(r.exfiltration)}, planted_purpose ${num(r.planted_purpose)}`);
  }
  if ('call' in r) {
    const c = r.call;
    row(lines, 'call', isObj(c) ? `${String(c.name)} ${JSON.stringify(c.arguments)} (candidate ${String(c.candidate_id)})` : 'none');
  }
  if (isObj(r.selection)) {
    const s = r.selection;
    const t = isObj(r.thresholds) && typeof r.thresholds.dispatch_at === 'number' ? r.thresholds.dispatch_at : undefined;
    const named = (what: string, v: unknown) => (typeof v === 'number' && t !== undefined ? versusNamed(what, v, 'dispatch_at', t) : `${what} ${num(v)}`);
    row(lines, 'selection', `${s.id === null ? 'none' : String(s.id)} (${named('confidence', s.confidence)}, ${s.suitability === null ? 'suitability n/a' : named('suitability', s.suitability)})`);
  }
  if (Array.isArray(r.blocked_candidates) && r.blocked_candidates.length > 0) {
    row(lines, 'blocked', r.blocked_candidates.map((b) => (isObj(b) ? `${String(b.id)} (${(b.reason_codes as string[] | undefined)?.join(', ') ?? ''})` : '')).join('; '));
  }
  if (isObj(r.partner_model)) {
    const p = r.partner_model;
    const codes = Array.isArray(p.reason_codes) && p.reason_codes.length ? ` — ${p.reason_codes.join(', ')}` : '';
    row(lines, 'partner', p.required === true ? `required, tier ${String(p.tier)}${codes}` : `not required${codes}`);
  }
  const autoAccept = isObj(r.thresholds) && typeof r.thresholds.auto_accept === 'number' ? r.thresholds.auto_accept : undefined;
  const nextLine = isObj(r.next) && typeof r.next.choice === 'string' && typeof r.next.confidence === 'number' && autoAccept !== undefined
    ? `next ${r.next.choice}: ${versusNamed('confidence', r.next.confidence, 'auto_accept', autoAccept)}`
    : choiceLine(r.next) && `next ${choiceLine(r.next)}`;
  const signals = [
    nextLine,
    isObj(r.risk) && typeof r.risk.score === 'number' && `risk ${r.risk.score.toFixed(2)}/2 (confidence ${num(r.risk.confidence)})`,
    choiceLine(r.model_tier) && `tier ${choiceLine(r.model_tier)}`,
    choiceLine(r.focus) && `focus ${choiceLine(r.focus)}`,
  ].filter(Boolean);
  row(lines, 'signals', signals.join(' · '));
  const nouls = ['done_enough', 'needs_more_context', 'needs_generation', 'tests_likely_fail']
    .filter((k) => typeof r[k] === 'number')
    .map((k) => `${k} ${num(r[k])}`);
  row(lines, '', nouls.join(' · '));

  if (isObj(r.review)) formatReview(lines, r.review, true);
  else if (typeof r.composite === 'number') formatReview(lines, r, false);
  if (isObj(r.verification)) formatVerification(lines, r.verification);
  else if (Array.isArray(r.results)) formatVerification(lines, r);

  if (isObj(r.recommendation)) row(lines, 'screen', `${String(r.recommendation.action)} — ${String(r.recommendation.reason)}`);
  if (typeof r.winner === 'string') {
    row(lines, 'winner', `${r.winner} (confidence ${num(r.winner_confidence)}); exists ${num(r.exists)} → ${String(r.exists_verdict)}`);
    if (Array.isArray(r.top)) row(lines, 'top', r.top.map((t) => (isObj(t) ? `${String(t.id)} ${num(t.probability)}` : '')).join(', '));
  }
  if (typeof r.noul === 'number') row(lines, 'noul', num(r.noul));
  if (typeof r.choice === 'string') row(lines, 'choice', `${r.choice} (confidence ${num(r.confidence)})`);
  if (typeof r.score === 'number') row(lines, 'score', `${r.score.toFixed(2)} (confidence ${num(r.confidence)})`);
  if (isObj(r.policy)) row(lines, 'policy', String(r.policy.result));

  if (isObj(r.coverage)) {
    const c = r.coverage;
    row(lines, 'coverage', c.complete === true ? 'complete' : `INCOMPLETE — evaluated ${String(c.evaluated_chars)} of ${String(c.original_chars)} chars (never auto)`);
  }
  // Model names, ids, claims and arguments are untrusted: no terminal control reaches the screen.
  return safeText(`${lines.join('\n')}\n`);
}

function formatReview(lines: string[], review: Obj, showAction: boolean): void {
  const scores = reviewScoresText(review.scores);
  const action = showAction && typeof review.action === 'string' ? `${review.action}; ` : '';
  row(lines, 'review', `${action}composite ${num(review.composite)}, safe_to_apply ${num(review.safe_to_apply)}${scores ? ` — ${scores}` : ''}`);
}

function formatVerification(lines: string[], v: Obj): void {
  if (isObj(v.summary)) {
    const s = v.summary;
    row(lines, 'claims', claimSummaryText(s, typeof v.action === 'string' ? v.action : undefined));
  }
  if (Array.isArray(v.results)) {
    for (const item of v.results.slice(0, 20)) {
      if (!isObj(item)) continue;
      const claim = String(item.claim);
      lines.push(`    - [${claimLine(item as { verdict: unknown; confidence: unknown; action: unknown }, v.thresholds)}] ${claim.length > 100 ? `${claim.slice(0, 99)}…` : claim}`);
    }
    if (v.results.length > 20) lines.push(`    … ${v.results.length - 20} more (use --json)`);
  }
}
