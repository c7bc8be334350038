import type { DecisionRecord } from '../src/panel/protocol';
import { breakable, h } from './dom';
import { fmtProb } from '../src/panel/outcome-diff';
import { explainReason } from '../src/panel/reason-codes';

/**
 * The candidate table of jev_step / jev_tool_route: every prepared call with its effect, whether it
 * was eligible or blocked (with each block reason explained), its selection probability and its own
 * suitability, and which one was selected and returned. Eligible candidates are numbered in input
 * order, which is how the judge saw them (call_i / suitable_i).
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One table row, derived from the record (pure; exported for tests). */
export interface CandidateRow {
  id: string;
  name: string;
  effect: string;
  /**
   * 'eligible' / 'blocked' as the tool decided (its result's blocked_candidates), or 'not_judged' when
   * the record has no result saying so (a failed call): such a candidate is never shown as eligible.
   */
  status: 'eligible' | 'blocked' | 'not_judged';
  /** Position among eligible candidates (the judge's call_i), or null when blocked or not judged. */
  eligibleIndex: number | null;
  blocked: string[];
  pSelected?: number;
  suitability?: number;
  selected: boolean;
  returned: boolean;
}

/** Rows of the candidate table, or null when the record has no candidate list. */
export function candidateRows(record: DecisionRecord): CandidateRow[] | null {
  const input = isObj(record.input) ? record.input : {};
  if (!Array.isArray(input.candidates)) return null;
  const result = isObj(record.result) ? record.result : {};
  // Eligibility is the tool's own verdict (src/tools/candidates.ts, recorded as blocked_candidates);
  // the panel does not re-derive it, and without a result nothing was judged eligible.
  const judged = !record.error && Array.isArray(result.blocked_candidates);
  const blocked = new Map<string, string[]>();
  if (judged && Array.isArray(result.blocked_candidates)) {
    for (const b of result.blocked_candidates) if (isObj(b) && typeof b.id === 'string') blocked.set(b.id, Array.isArray(b.reason_codes) ? b.reason_codes.map(String) : []);
  }
  const answers = record.response?.answers ?? {};
  const selectedAnswer = answers.selected?.type === 'choice' ? answers.selected : undefined;
  const selectionId = isObj(result.selection) && typeof result.selection.id === 'string' ? result.selection.id : null;
  const returnedId = isObj(result.call) && typeof result.call.candidate_id === 'string' ? result.call.candidate_id : null;
  let eligible = 0;
  return input.candidates.map((c: unknown) => {
    const cand = isObj(c) ? c : {};
    const id = String(cand.id ?? '?');
    const reasons = blocked.get(id) ?? [];
    const status = !judged ? 'not_judged' : reasons.length ? 'blocked' : 'eligible';
    const index = status === 'eligible' ? eligible++ : null;
    const suit = index === null ? undefined : answers[`suitable_${index}`];
    return {
      id,
      name: String(cand.name ?? '?'),
      effect: String(cand.effect ?? 'unknown'),
      status,
      eligibleIndex: index,
      blocked: reasons,
      pSelected: index === null ? undefined : selectedAnswer?.probabilities[`call_${index}`],
      suitability: suit?.type === 'noul' ? suit.noul : undefined,
      selected: id === selectionId,
      returned: id === returnedId,
    };
  });
}

/** Column headings; each cell repeats its own as `data-label`, shown when a narrow view stacks the rows. */
const COLUMNS = ['Candidate', 'Effect', 'Status', 'P(selected)', 'Suitable'] as const;

/** The table plus the returned call (exact arguments) or why none was returned. */
export function renderCandidates(record: DecisionRecord): HTMLElement | null {
  const rows = candidateRows(record);
  if (!rows) return null;
  const result = isObj(record.result) ? record.result : {};
  const none = isObj(result.selection) && result.selection.id === null;
  const table = h(
    'table',
    { class: 'candidates stack' },
    h('thead', null, h('tr', null, COLUMNS.map((t) => h('th', { scope: 'col' }, t)))),
    h(
      'tbody',
      null,
      rows.map((r) =>
        h(
          'tr',
          { class: { blocked: r.status === 'blocked', 'not-judged': r.status === 'not_judged', selected: r.selected, returned: r.returned }, 'data-candidate': r.id },
          h('td', { 'data-label': COLUMNS[0] }, h('div', { class: 'cand-id' }, r.returned ? '▶ ' : r.selected ? '✓ ' : '', breakable(r.id)), h('div', { class: 'cand-name muted' }, breakable(r.name))),
          h('td', { 'data-label': COLUMNS[1] }, h('span', { class: `effect effect-${r.effect}` }, breakable(r.effect))),
          h(
            'td',
            { 'data-label': COLUMNS[2] },
            r.status === 'blocked'
              ? [h('div', { class: 'blocked-word' }, 'blocked'), r.blocked.map((code) => h('div', { class: 'blocked-reason', title: explainReason(code).text }, breakable(code)))]
              : r.status === 'eligible'
                ? h('span', { class: 'eligible' }, `eligible (call_${r.eligibleIndex})`)
                : h('span', { class: 'not-judged muted', title: 'The call failed before the tool reported which candidates were eligible.' }, 'not judged'),
            r.returned ? h('div', { class: 'cand-flag' }, 'returned') : r.selected ? h('div', { class: 'cand-flag' }, 'selected, not dispatched') : null,
          ),
          h('td', { class: 'num', 'data-label': COLUMNS[3] }, r.pSelected === undefined ? '—' : fmtProb(r.pSelected)),
          h('td', { class: 'num', 'data-label': COLUMNS[4] }, r.suitability === undefined ? '—' : fmtProb(r.suitability)),
        ),
      ),
    ),
  );
  const call = isObj(result.call) ? result.call : null;
  const selectedAnswer = record.response?.answers.selected;
  const noneP = selectedAnswer?.type === 'choice' ? selectedAnswer.probabilities.none : undefined;
  return h(
    'div',
    { class: 'candidates-block' },
    h('div', { class: 'table-scroll' }, table),
    noneP !== undefined ? h('div', { class: 'muted' }, `P(none) ${fmtProb(noneP)}${none ? ' — the judge chose none' : ''}`) : null,
    call
      ? h('div', { class: 'returned-call' }, h('div', { class: 'label' }, 'Returned call (exact prepared arguments)'), h('pre', { class: 'json' }, JSON.stringify(call, null, 2)))
      : h('div', { class: 'returned-call muted' }, record.error ? `No call returned (the call failed: ${record.error.code}).` : `No call returned (handoff ${String(result.handoff ?? '—')}).`),
  );
}
