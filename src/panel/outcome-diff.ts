/**
 * The headline of a decision as short labelled lines (action, handoff, call, partner, reason codes,
 * tool-specific verdicts, effective thresholds), and the line-by-line difference between two of them.
 * The what-if panel shows the recorded decision next to the recomputed one and highlights changed lines.
 * Pure: no DOM, no tool imports.
 */
import { claimSummaryText } from './claim-summary';
import { fmtProb, fmtThreshold, reviewScoresText } from './numbers';

/** One labelled line of a decision headline. `key` is stable across tools; `value` is display text. */
export interface OutcomeLine {
  key: string;
  label: string;
  value: string;
}

/** A result or a failure, as recorded or recomputed. */
export interface Outcome {
  result?: unknown;
  error?: { code: string; message: string };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

// The one number wording (src/panel/numbers.ts); re-exported for the views that import it from here.
export { fmtProb } from './numbers';

/** "auto_accept 0.80 · review_at 0.50" from a thresholds object (numbers only, in key order, as written). */
export function fmtThresholds(t: unknown): string {
  if (!isObj(t)) return '';
  return Object.entries(t)
    .filter((e): e is [string, number] => typeof e[1] === 'number')
    .map(([k, v]) => `${k} ${fmtThreshold(v)}`)
    .join(' · ');
}

/**
 * Headline lines of an outcome, in display order. A failure gives an `error` line (and no action:
 * a failure never approves). Fields a tool does not return are left out.
 */
export function outcomeLines(outcome: Outcome): OutcomeLine[] {
  const lines: OutcomeLine[] = [];
  const add = (key: string, label: string, value: string | undefined) => {
    if (value !== undefined && value !== '') lines.push({ key, label, value });
  };
  if (outcome.error) {
    add('error', 'Error', `${outcome.error.code}: ${outcome.error.message}`);
    return lines;
  }
  const r = isObj(outcome.result) ? outcome.result : {};
  add('action', 'Action', str(r.action) ?? (isObj(r.policy) ? `policy ${String(r.policy.result)}` : undefined));
  add('handoff', 'Handoff', str(r.handoff));
  if ('call' in r) {
    const call = r.call;
    add('call', 'Call', isObj(call) ? `${String(call.candidate_id ?? '?')} → ${String(call.name ?? '?')}` : 'none');
  }
  if (isObj(r.partner_model)) {
    const p = r.partner_model;
    const codes = Array.isArray(p.reason_codes) ? ` (${p.reason_codes.join(', ')})` : '';
    add('partner', 'Partner model', (p.required ? `required: ${String(p.tier)}` : 'not required') + codes);
  }
  if (Array.isArray(r.reason_codes)) add('reasons', 'Reason codes', r.reason_codes.join(', '));
  if (isObj(r.review) && typeof r.review.action === 'string') add('review', 'Review', r.review.action);
  // jev_gate nests its review; jev_review's scores sit beside its composite. Scores carry their 0–2 scale.
  const scores = reviewScoresText(isObj(r.review) ? r.review.scores : typeof r.composite === 'number' ? r.scores : undefined);
  if (scores) add('scores', 'Review scores', scores);
  if (isObj(r.verification) && typeof r.verification.action === 'string') add('verification', 'Verification', r.verification.action);
  const verification = isObj(r.verification) ? r.verification : r;
  if (isObj(verification.summary)) {
    const s = verification.summary;
    add('summary', 'Claims', claimSummaryText(s));
  }
  if (Array.isArray(verification.results)) {
    const actions = verification.results.map((x) => (isObj(x) ? String(x.action) : '?'));
    add('claim_actions', 'Claim actions', actions.length > 12 ? `${actions.slice(0, 12).join(', ')}, … (${actions.length})` : actions.join(', '));
  }
  if (isObj(r.recommendation)) add('recommendation', 'Recommendation', `${String(r.recommendation.action)} — ${String(r.recommendation.reason ?? '')}`);
  if (typeof r.exists_verdict === 'string') add('exists', 'Answer exists', `${r.exists_verdict} (${fmtProb(r.exists)})`);
  if (typeof r.winner === 'string') add('winner', 'Winner', r.winner);
  add('thresholds', 'Effective thresholds', fmtThresholds(r.thresholds));
  return lines;
}

/** One line of a before/after comparison. `changed` is true when the values differ or one side lacks it. */
export interface DiffLine {
  key: string;
  label: string;
  before?: string;
  after?: string;
  changed: boolean;
}

/** Compares two headlines line by line: `after`'s order first, then lines only `before` has. */
export function diffOutcomes(before: readonly OutcomeLine[], after: readonly OutcomeLine[]): DiffLine[] {
  const was = new Map(before.map((l) => [l.key, l]));
  const out: DiffLine[] = after.map((l) => {
    const b = was.get(l.key);
    return { key: l.key, label: l.label, before: b?.value, after: l.value, changed: b?.value !== l.value };
  });
  const seen = new Set(after.map((l) => l.key));
  for (const b of before) if (!seen.has(b.key)) out.push({ key: b.key, label: b.label, before: b.value, changed: true });
  return out;
}

/** Keys whose change the panel calls out in its summary line ("handoff changed: gather_context → review"). */
export const KEY_CHANGES = ['error', 'action', 'handoff', 'call', 'reasons', 'recommendation'] as const;

/** Summary sentence of the key changes ("handoff gather_context → review; action auto → review"). */
export function changeSummary(diff: readonly DiffLine[]): string {
  const key = diff.filter((d) => d.changed && (KEY_CHANGES as readonly string[]).includes(d.key));
  if (key.length === 0) return diff.some((d) => d.changed) ? 'Same decision; only the effective thresholds moved.' : 'Same decision at these thresholds.';
  // A value may end in its own full stop (error messages); drop it so the join reads "….; " never.
  const bare = (v: string | undefined) => (v ?? '—').replace(/[.;]+$/, '');
  return key.map((d) => `${d.label.toLowerCase()} ${bare(d.before)} → ${bare(d.after)}`).join('; ');
}
