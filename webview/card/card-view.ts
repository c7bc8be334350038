/**
 * DOM of the decision card: the verdict line first, then (expanded) reasons, probability bars,
 * candidates, claims, facts and the what-if. It only reads: no control here runs a call, changes a
 * grant or approves anything; the buttons open the decision in the Jev panel or copy its JSON.
 */
import { h, replaceChildren, type Child } from '../dom';
import { fmtProb } from '../../src/panel/numbers';
import type { CardModel, QuestionBars } from './card-model';

/** What the view may ask the host to do (both read-only). */
export interface CardActions {
  /** Present only where the host is VS Code: opens the decision in the Jev panel by id. */
  openInPanel?: (id: string) => void;
  copyJson: () => void;
}

const STATUS_LABEL = { selected: 'selected', eligible: 'eligible', blocked: 'blocked' } as const;

function bars(q: QuestionBars): HTMLElement {
  return h(
    'div',
    { class: 'question' },
    h('div', { class: 'question-head' }, h('span', { class: 'qid' }, q.id), h('span', { class: 'muted' }, q.summary)),
    h(
      'div',
      { class: 'bars' },
      q.bars.map((b) =>
        h(
          'div',
          { class: { bar: true, chosen: b.chosen } },
          h('span', { class: 'bar-label' }, b.option),
          // A <meter> draws the bar without inline styles (the host's CSP may forbid them).
          h('meter', { min: 0, max: 1, value: b.p, 'aria-label': `${q.id} ${b.option}` }),
          // The panel's number wording: never rounded up (0.529 stays below 0.53).
          h('span', { class: 'bar-value' }, fmtProb(b.p)),
        ),
      ),
    ),
  );
}

function section(title: string, id: string, ...children: Child[]): HTMLElement {
  return h('section', { class: 'part', id }, h('h3', null, title), ...children);
}

/** The expanded parts: reasons, probability bars, candidates, claims, facts and the what-if. */
function detailParts(model: CardModel, whatIf: HTMLElement | null): Child[] {
  return [
    model.reasons.length ? section('Why', 'reasons', h('ul', { class: 'reasons' }, model.reasons.map((r) => h('li', null, r)))) : null,
    model.questions.length ? section('Answers', 'questions', model.questions.map(bars)) : null,
    model.candidates.length
      ? section(
          'Candidates',
          'candidates',
          h(
            'ul',
            { class: 'candidates' },
            model.candidates.map((c) =>
              h(
                'li',
                { class: `cand ${c.status} tone-${c.tone}`, 'data-id': c.id },
                h('span', { class: 'cand-status' }, STATUS_LABEL[c.status]),
                h('code', null, c.id),
                c.name ? h('span', { class: 'muted' }, ` ${c.name}`) : null,
                h('div', { class: 'cand-text' }, c.text),
              ),
            ),
          ),
        )
      : null,
    model.claims.length
      ? section(
          'Claims',
          'claims',
          h(
            'ul',
            { class: 'claims' },
            model.claims.map((c) => h('li', { class: `claim tone-${c.tone}` }, h('div', null, c.claim), h('div', { class: 'muted' }, c.text))),
          ),
        )
      : null,
    model.facts.length ? h('dl', { class: 'facts' }, model.facts.map((f) => [h('dt', null, f.label), h('dd', null, f.value)])) : null,
    whatIf ? section('What-if', 'whatif-part', whatIf) : null,
  ];
}

/** The card as rendered: `fillDetails()` builds the (hidden) details now if they are not built yet. */
export interface RenderedCard {
  fillDetails(): void;
}

/**
 * Renders `model` into `root`. `whatIf` makes the what-if element (null when the decision cannot be
 * replayed); `expanded` opens the details. Compact, the details (up to 32 candidates, bars, the what-if)
 * are built only when opened or when the caller asks (fillDetails, after the verdict is painted), so the
 * first paint does not wait for what it does not show.
 */
export function renderCard(root: HTMLElement, model: CardModel, actions: CardActions, whatIf: () => HTMLElement | null, expanded: boolean): RenderedCard {
  const details = h('div', { class: 'details', id: 'details', hidden: !expanded });
  let filled = false;
  const fillDetails = (): void => {
    if (filled) return;
    filled = true;
    replaceChildren(details, ...detailParts(model, whatIf()));
  };
  if (expanded) fillDetails();
  const toggle = h(
    'button',
    {
      type: 'button',
      class: 'toggle',
      id: 'toggle',
      'aria-expanded': expanded ? 'true' : 'false',
      'aria-controls': 'details',
      on: {
        click: () => {
          const open = details.hidden;
          if (open) fillDetails();
          details.hidden = !open;
          toggle.setAttribute('aria-expanded', open ? 'true' : 'false');
          toggle.textContent = open ? 'Less' : 'Details';
        },
      },
    },
    expanded ? 'Less' : 'Details',
  );
  const buttons = h(
    'div',
    { class: 'actions' },
    toggle,
    actions.openInPanel && model.decisionId
      ? h('button', { type: 'button', id: 'open-panel', on: { click: () => actions.openInPanel!(model.decisionId!) } }, 'Open in Jev panel')
      : null,
    h('button', { type: 'button', id: 'copy-json', on: { click: actions.copyJson } }, 'Copy decision JSON'),
  );
  replaceChildren(
    root,
    h(
      'article',
      { class: `card tone-${model.tone}`, 'data-tool': model.tool },
      h(
        'header',
        null,
        h('div', { class: 'tool' }, model.tool, model.mock ? h('span', { class: 'mock', id: 'mock-note' }, 'mock judge: not a real judgment') : null),
        h('div', { class: 'verdict', id: 'verdict' }, model.verdict),
        model.call ? h('code', { class: 'call', id: 'call' }, model.call) : null,
      ),
      buttons,
      details,
    ),
  );
  return { fillDetails };
}
