import type { DecisionRecord } from '../src/panel/protocol';
import type { Floors } from '../src/policy/thresholds';
import { renderCandidates } from './candidates-view';
import { breakable, codicon, h, type Child } from './dom';
import { renderJudgment } from './judgment-view';
import { fmtThresholds, outcomeLines } from '../src/panel/outcome-diff';
import { decidingThreshold, fmtProb, versusNamed } from '../src/panel/numbers';
import { claimThresholds } from '../src/panel/explain';
import { cutPreview } from '../src/panel/cut-preview';
import { explainReason } from '../src/panel/reason-codes';
import { WhatIfView } from './whatif-view';

/**
 * Decision detail: handoff/action badges, every reason code with its plain explanation, the what-if
 * sliders, the candidate table, probability bars for every question, coverage, usage and latency, and
 * the raw request / response / result JSON (collapsed). All record text is rendered as text.
 */

export interface DetailOptions {
  record: DecisionRecord;
  /** 'sidebar' shows Back and "Open in editor"; 'decision' is the editor panel. */
  view: 'sidebar' | 'decision';
  whatIfFloors?: Floors;
  onWhatIf: (floors: Floors | undefined) => void;
  onBack?(): void;
  onOpenInEditor?(): void;
  /** Section names whose open state the user flipped from the default. */
  toggled: readonly string[];
  onToggle(section: string): void;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Legend of the effective dispatch_at (src/policy/thresholds.ts dispatchFloor). */
export const DISPATCH_AT_NOTE = 'dispatch_at: floor for dispatching a call: max(0.8, auto_accept).';

/** Largest JSON text shown inline, UTF-16 units; the ledger keeps the whole record. */
export const MAX_JSON_CHARS = 200_000;

/** Pretty JSON for display, cut at MAX_JSON_CHARS with a note saying so. */
export function jsonText(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_JSON_CHARS ? `${text.slice(0, MAX_JSON_CHARS)}\n… cut for display (${text.length} characters; the ledger has all of it)` : text;
}

function badge(kind: string, value: string, title?: string): HTMLElement {
  return h('span', { class: `badge badge-${kind} badge-${kind}-${value}`, title }, h('span', { class: 'badge-key' }, kind), h('span', { class: 'badge-value' }, value));
}

function reasonList(codes: readonly string[], cls = 'reasons'): HTMLElement {
  return h(
    'ul',
    { class: cls },
    codes.map((c) => {
      const info = explainReason(c);
      return h('li', { class: `reason reason-${info.kind}`, 'data-code': c }, h('code', null, breakable(c)), h('span', { class: 'reason-text' }, info.text));
    }),
  );
}

export function renderDetail(o: DetailOptions): HTMLElement {
  const r = o.record;
  const result = isObj(r.result) ? r.result : {};
  const section = (name: string, heading: string, defaultOpen: boolean, ...body: Child[]) => {
    const open = o.toggled.includes(name) ? !defaultOpen : defaultOpen;
    return h(
      'vscode-collapsible',
      { heading, open, class: `section section-${name}`, 'data-section': name, on: { 'vsc-collapsible-toggle': () => o.onToggle(name) } },
      h('div', { class: 'section-body' }, ...body),
    );
  };

  // Header and badges
  const mock = r.provider === 'mock' || (typeof result.model === 'string' && result.model.endsWith('+mock'));
  const badges = h(
    'div',
    { class: 'detail-badges', id: 'detail-badges' },
    typeof result.handoff === 'string' ? badge('handoff', result.handoff) : null,
    typeof result.action === 'string' ? badge('action', result.action) : null,
    r.error ? badge('error', r.error.code, r.error.message) : null,
    r.kind !== 'decision' ? badge('kind', r.kind) : null,
    mock ? h('span', { class: 'badge badge-mock', title: 'Answered by the mock judge: heuristics, not a model.' }, codicon('warning'), ' mock judge') : null,
  );
  const when = new Date(r.time);
  const header = h(
    'div',
    { class: 'detail-header' },
    o.view === 'sidebar'
      ? h(
          'div',
          { class: 'detail-nav' },
          h('vscode-button', { secondary: true, icon: 'arrow-left', id: 'detail-back', on: { click: () => o.onBack?.() } }, 'Feed'),
          h('vscode-button', { secondary: true, icon: 'link-external', id: 'detail-open-editor', on: { click: () => o.onOpenInEditor?.() } }, 'Open in editor'),
        )
      : null,
    h('h2', { class: 'detail-title' }, r.tool),
    h(
      'div',
      { class: 'detail-meta muted' },
      `${Number.isNaN(when.getTime()) ? r.time : when.toLocaleString()} · agent ${r.agent}${r.source ? ` (${r.source})` : ''} · ${r.provider}` +
        `${typeof result.model === 'string' ? ` · ${result.model}` : r.response ? ` · ${r.response.model}` : ''} · ${Math.round(r.latency_ms)} ms`,
    ),
    h('div', { class: 'detail-id muted' }, 'id ', h('code', null, r.id), r.decision_id ? [r.kind === 'override' ? ' · overrides decision ' : ' · executes decision ', h('code', null, r.decision_id)] : null),
    badges,
  );

  // Why
  const why: Child[] = [];
  if (r.error) {
    why.push(
      h('div', { class: 'error-text' }, h('code', null, r.error.code), ' ', r.error.message),
      h('div', { class: 'muted' }, `${explainReason(r.error.code).text} ${r.error.retryable ? 'Retrying may help.' : 'Retrying unchanged will not help.'} A failure never approves anything.`),
    );
  }
  const codes = Array.isArray(result.reason_codes) ? result.reason_codes.map(String) : [];
  if (codes.length) why.push(reasonList(codes));
  if (isObj(result.partner_model)) {
    const p = result.partner_model;
    why.push(
      h('div', { class: 'label' }, `Partner model: ${p.required ? `required (${String(p.tier)})` : 'not required'}`),
      reasonList(Array.isArray(p.reason_codes) ? p.reason_codes.map(String) : [], 'reasons partner-reasons'),
    );
  }
  if (isObj(result.recommendation)) why.push(h('div', null, `Recommendation: ${String(result.recommendation.action)} — ${String(result.recommendation.reason ?? '')}`));
  if (why.length === 0 && !r.error) why.push(h('div', { class: 'muted' }, 'This tool reports no reason codes; see the result below.'));

  // Thresholds
  const thresholds = h(
    'dl',
    { class: 'kv' },
    h('dt', null, 'Floors in force'),
    h('dd', null, fmtThresholds(r.thresholds)),
    isObj(result.thresholds) ? [h('dt', null, 'Effective'), h('dd', { title: 'dispatch_at' in result.thresholds ? DISPATCH_AT_NOTE : undefined }, fmtThresholds(result.thresholds))] : null,
  );
  const dispatchLegend = isObj(result.thresholds) && 'dispatch_at' in result.thresholds ? h('div', { class: 'muted legend', id: 'dispatch-legend' }, DISPATCH_AT_NOTE) : null;
  const whatIf = new WhatIfView({ record: r, floors: o.whatIfFloors, onFloors: o.onWhatIf });

  // Coverage, usage, latency
  const cov = r.coverage;
  const usage = isObj(result.usage) ? result.usage : r.response?.usage;
  const truncated = result.truncated === true || r.exchanges.some((e) => e.truncated) || (cov !== null && !cov.complete);
  const coverage = h(
    'div',
    null,
    truncated
      ? h(
          'div',
          { class: 'banner banner-warning', role: 'status' },
          codicon('warning'),
          h(
            'span',
            null,
            cov
              ? `Context incomplete: ${cov.evaluated_chars} of ${cov.original_chars} characters were judged. Nothing is approved automatically on incomplete context.`
              : 'Context incomplete: part of the input was not judged. Nothing is approved automatically on incomplete context.',
          ),
        )
      : null,
    h(
      'dl',
      { class: 'kv' },
      cov
        ? [
            h('dt', null, 'Coverage'),
            h('dd', null, `${cov.complete ? 'complete' : 'incomplete'} · ${cov.evaluated_chars} / ${cov.original_chars} chars judged`),
            h('dt', null, 'Estimated tokens'),
            h('dd', null, `state ${cov.estimated_tokens.state} · questions ${cov.estimated_tokens.questions} · longest question ${cov.estimated_tokens.longest_question} (${cov.estimator})`),
          ]
        : [h('dt', null, 'Coverage'), h('dd', null, 'no judgment request')],
      usage ? [h('dt', null, 'Usage'), h('dd', null, `${String(usage.input_tokens)} input · ${String(usage.output_tokens)} output tokens`)] : null,
      h('dt', null, 'Requests'),
      h('dd', null, String(r.exchanges.length)),
      h('dt', null, 'Latency'),
      h('dd', null, `${Math.round(r.latency_ms)} ms`),
      h('dt', null, 'Model'),
      h('dd', null, typeof result.model === 'string' ? result.model : (r.response?.model ?? '—')),
      h('dt', null, 'Provider'),
      h('dd', null, r.provider),
    ),
  );

  const candidates = renderCandidates(r);
  const claims = renderClaims(result);
  const request = { tool: r.tool, input: r.input, questions: r.exchanges.length > 1 ? r.exchanges.map((e) => e.questions) : r.questions };
  const response = r.exchanges.length > 1 ? r.exchanges.map((e) => e.response) : r.response;

  return h(
    'div',
    { class: 'detail', id: 'detail', 'data-id': r.id },
    header,
    section('why', 'Why', true, why),
    section('whatif', 'Thresholds and what-if', true, thresholds, dispatchLegend, whatIf.el),
    candidates ? section('candidates', 'Candidates', true, candidates) : null,
    section('result', 'Result', true, resultLines(result, r), claims),
    cutSection(section, 'cut-result', 'Result preview', r.result),
    cutSection(section, 'cut-input', 'Input preview', r.input),
    section('judgment', 'Judgment: probabilities per question', true, renderJudgment(r.exchanges)),
    section('coverage', 'Coverage, usage, latency', true, coverage),
    section('raw-request', 'Raw request (tool input and questions)', false, h('pre', { class: 'json', id: 'raw-request' }, jsonText(request))),
    section('raw-response', 'Raw response', false, h('pre', { class: 'json', id: 'raw-response' }, jsonText(response))),
    section('raw-result', r.error ? 'Raw error' : 'Raw result', false, h('pre', { class: 'json', id: 'raw-result' }, jsonText(r.error ?? r.result))),
  );
}

function resultLines(result: Obj, r: DecisionRecord): HTMLElement {
  const lines = outcomeLines(r.error ? { error: r.error } : { result }).filter((l) => l.key !== 'thresholds' && l.key !== 'reasons');
  const extra: [string, string][] = [];
  if (typeof result.composite === 'number') extra.push(['Composite', fmtProb(result.composite)]);
  if (typeof result.safe_to_apply === 'number') extra.push(['Safe to apply', fmtProb(result.safe_to_apply)]);
  if (isObj(result.review) && typeof result.review.composite === 'number') extra.push(['Review composite', fmtProb(result.review.composite)]);
  if (isObj(result.probabilities) && r.tool === 'jev_screen') {
    for (const [k, v] of Object.entries(result.probabilities)) extra.push([`P(${k})`, fmtProb(v)]);
  }
  if (Array.isArray(result.top)) {
    extra.push(['Top', result.top.map((t) => (isObj(t) ? `${String(t.id)} ${fmtProb(t.probability)}` : '?')).join(' · ')]);
  }
  return h(
    'dl',
    { class: 'kv result-lines' },
    lines.map((l) => [h('dt', null, l.label), h('dd', { 'data-key': l.key }, breakable(l.value))]),
    extra.map(([k, v]) => [h('dt', null, k), h('dd', null, v)]),
  );
}

const CLAIM_COLUMNS = ['Claim', 'Verdict', 'Confidence', 'Action'] as const;

/** Per-claim verdicts of jev_verify / jev_gate. */
function renderClaims(result: Obj): HTMLElement | null {
  const v = isObj(result.verification) ? result.verification : result;
  if (!Array.isArray(v.results)) return null;
  const thresholds = claimThresholds(result);
  // "0.19 < review_at 0.50": the confidence with the threshold that decided the claim's action.
  const confidence = (c: unknown) => {
    const t = typeof c === 'number' ? decidingThreshold(c, thresholds) : undefined;
    return typeof c === 'number' && t ? versusNamed('', c, t.name, t.value).trim() : fmtProb(c);
  };
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: 'claims stack' },
      h('thead', null, h('tr', null, CLAIM_COLUMNS.map((t) => h('th', { scope: 'col' }, t)))),
      h(
        'tbody',
        null,
        v.results.map((c) =>
          isObj(c)
            ? h(
                'tr',
                { class: `claim claim-${String(c.verdict)}` },
                h('td', { 'data-label': CLAIM_COLUMNS[0] }, String(c.claim ?? '')),
                h('td', { 'data-label': CLAIM_COLUMNS[1] }, String(c.verdict)),
                h('td', { class: 'num', 'data-label': CLAIM_COLUMNS[2] }, confidence(c.confidence)),
                h('td', { 'data-label': CLAIM_COLUMNS[3] }, h('span', { class: `pill pill-${String(c.action)}` }, String(c.action))),
              )
            : null,
        ),
      ),
    ),
  );
}

/** A value cut for size (src/ledger/bound.ts): its size note and preview; null for a whole value. */
function cutSection(section: (name: string, heading: string, open: boolean, ...body: Child[]) => HTMLElement, id: string, title: string, value: unknown): HTMLElement | null {
  const cut = cutPreview(value);
  if (!cut) return null;
  return section(id, title, true, h('div', { class: 'muted', id: `${id}-note` }, cut.note), cut.preview ? h('pre', { class: 'json', id: `${id}-text` }, cut.preview) : null);
}
