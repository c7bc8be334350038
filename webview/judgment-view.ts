import type { Answer, Question, QuestionMap, RecordedExchange } from '../src/panel/protocol';
import { h } from './dom';
import { choiceLine, countOf, fmtProb } from '../src/panel/numbers';

/**
 * Probability bars for every question of every recorded request: noul → P(true); choice → every option
 * (the chosen one marked) with the reported confidence; score → every level with its text and the
 * expected score. Long option lists (rank) show the most probable ones first and say how many are hidden.
 */

/** Options shown per choice question before the rest are summarized. */
export const MAX_OPTIONS = 24;

/** A labelled horizontal bar for probability `p` in [0,1]. */
export function bar(label: string, p: number, opts: { chosen?: boolean; title?: string } = {}): HTMLElement {
  const value = Number.isFinite(p) ? Math.min(1, Math.max(0, p)) : 0;
  const fill = h('span', { class: 'bar-fill' });
  fill.style.width = `${(value * 100).toFixed(1)}%`;
  return h(
    'div',
    { class: { 'prob-row': true, chosen: !!opts.chosen }, title: opts.title },
    h('span', { class: 'prob-label' }, opts.chosen ? '✓ ' : '', label),
    h('span', { class: 'bar', role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': 1, 'aria-valuenow': value.toFixed(3), 'aria-label': label }, fill),
    h('span', { class: 'prob-value' }, fmtProb(value)),
  );
}

function questionHead(id: string, q: Question | undefined, kind: string, extra: string): HTMLElement {
  return h(
    'div',
    { class: 'q-head' },
    h('span', { class: 'q-id' }, id),
    h('span', { class: 'q-kind' }, kind),
    extra ? h('span', { class: 'q-extra' }, extra) : null,
    q ? h('div', { class: 'q-text', title: q.instructions }, q.instructions) : null,
  );
}

/** Rendering of one question and its answer (or a note when the answer is missing or mistyped). */
export function renderQuestion(id: string, q: Question | undefined, a: Answer | undefined): HTMLElement {
  if (!a) return h('div', { class: 'question' }, questionHead(id, q, q?.type ?? '?', ''), h('div', { class: 'muted' }, 'No answer recorded.'));
  if (a.type === 'noul') {
    return h(
      'div',
      { class: 'question', 'data-question': id },
      questionHead(id, q, 'yes/no', ''),
      bar('P(true)', a.noul, { title: q?.type === 'noul' ? q.criteria?.true : undefined }),
    );
  }
  const entries = Object.entries(a.probabilities);
  if (a.type === 'choice') {
    const criteria = q?.type === 'choice' ? q.criteria : {};
    const sorted = entries.length > MAX_OPTIONS ? [...entries].sort((x, y) => y[1] - x[1]).slice(0, MAX_OPTIONS) : entries;
    return h(
      'div',
      { class: 'question', 'data-question': id },
      questionHead(id, q, 'choice', `chosen ${choiceLine(a.choice, a.probabilities[a.choice], a.confidence)}`),
      sorted.map(([opt, p]) => bar(opt, p, { chosen: opt === a.choice, title: criteria[opt] ?? undefined })),
      entries.length > sorted.length ? h('div', { class: 'muted' }, `… ${countOf(entries.length - sorted.length, 'less likely option')} not shown`) : null,
    );
  }
  const levels = entries.sort((x, y) => Number(x[0]) - Number(y[0]));
  const top = levels.length - 1;
  const peak = levels.reduce((best, cur) => (cur[1] > best[1] ? cur : best), levels[0] ?? ['0', 0])[0];
  return h(
    'div',
    { class: 'question', 'data-question': id },
    questionHead(id, q, 'score', `expected ${a.score.toFixed(2)} of ${top} · confidence ${fmtProb(a.confidence)}`),
    levels.map(([lvl, p]) => bar(`${lvl}: ${a.legend[lvl] ?? ''}`, p, { chosen: lvl === peak, title: a.legend[lvl] })),
  );
}

/** Every question of every exchange. Empty exchanges (no upstream request) say so. */
export function renderJudgment(exchanges: readonly RecordedExchange[]): HTMLElement {
  if (exchanges.length === 0) return h('div', { class: 'muted' }, 'No judgment was requested for this call.');
  return h(
    'div',
    { class: 'judgment' },
    exchanges.map((ex, i) =>
      h(
        'div',
        { class: 'exchange' },
        exchanges.length > 1 ? h('div', { class: 'exchange-head' }, `Request ${i + 1} of ${exchanges.length}${i === exchanges.length - 1 ? ' (final)' : ''}`) : null,
        Object.keys(ex.questions as QuestionMap).map((id) => renderQuestion(id, ex.questions[id], Object.hasOwn(ex.response.answers, id) ? ex.response.answers[id] : undefined)),
      ),
    ),
  );
}
