import type { DecisionRecord } from '../src/panel/protocol';
import type { Floors } from '../src/policy/thresholds';
import { breakable, h, replaceChildren } from './dom';
import { changeSummary, diffOutcomes, fmtProb, outcomeLines, type Outcome } from '../src/panel/outcome-diff';
import { explainReason } from '../src/panel/reason-codes';
import { loadWhatIf } from './whatif-loader';
import { FLOOR_KEYS, FLOORS_USED, SLIDER_STEP, constrainFloors, sliderLimits, notRecomputable, whatIfKeys, recordFloors, sameFloors, toSlider, type FloorKey, type WhatIfApi } from './whatif-model';

/**
 * What-if sliders for auto_accept / review_at / block_at. Each change recomputes the decision in the
 * webview with the same tool and policy code as the live path (the lazily loaded what-if chunk), from the
 * record's own answers, and shows recorded vs. recomputed line by line with the changes highlighted.
 */

export interface WhatIfOptions {
  record: DecisionRecord;
  /** Slider values to start from (restored state), else the record's floors. */
  floors?: Floors;
  /** Called with the new floors, or undefined when they are back at the record's. */
  onFloors(floors: Floors | undefined): void;
  /** Loader override (tests). */
  load?: () => Promise<WhatIfApi>;
}

const LABELS: Record<FloorKey, string> = { auto_accept: 'auto_accept', review_at: 'review_at', block_at: 'block_at' };

export class WhatIfView {
  readonly el: HTMLElement;
  private floors: Floors;
  private readonly base: Floors;
  private readonly recorded: Outcome;
  private readonly out: HTMLElement;
  private readonly note: HTMLElement;
  private readonly inputs = new Map<FloorKey, { input: HTMLInputElement; value: HTMLElement }>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private seq = 0;

  constructor(private readonly o: WhatIfOptions) {
    this.base = recordFloors(o.record);
    this.floors = { ...(o.floors ?? this.base) };
    this.recorded = o.record.error ? { error: o.record.error } : { result: o.record.result };
    const used = whatIfKeys(o.record.tool);
    this.out = h('div', { class: 'whatif-out', 'aria-live': 'polite' });
    this.note = h('div', { class: 'whatif-note muted' });
    if (used.length === 0 || o.record.kind !== 'decision') {
      this.el = h('div', { class: 'whatif', id: 'whatif' }, h('div', { class: 'muted' }, `${o.record.tool} results do not depend on thresholds; nothing to recompute.`));
      return;
    }
    const failed = notRecomputable(o.record);
    if (failed) {
      this.el = h('div', { class: 'whatif', id: 'whatif' }, h('div', { class: 'muted whatif-failed' }, failed));
      return;
    }
    const sliders = FLOOR_KEYS.filter((k) => used.includes(k)).map((k) => this.slider(k));
    const unused = FLOOR_KEYS.filter((k) => !used.includes(k));
    this.el = h(
      'div',
      { class: 'whatif', id: 'whatif' },
      h('div', { class: 'sliders' }, sliders),
      unused.length ? h('div', { class: 'muted whatif-unused', id: 'whatif-unused' }, unusedNote(o.record.tool, unused)) : null,
      h(
        'div',
        { class: 'whatif-actions' },
        h('vscode-button', { secondary: true, icon: 'discard', id: 'whatif-reset', on: { click: () => this.reset() } }, 'Reset to recorded'),
      ),
      this.out,
      this.note,
    );
    this.recompute(0);
  }

  private slider(k: FloorKey): HTMLElement {
    const id = `whatif-${k}`;
    const value = h('output', { class: 'slider-value', for: id }, fmtProb(this.floors[k]));
    const input = h('input', {
      type: 'range',
      id,
      min: 0,
      max: 1,
      step: SLIDER_STEP,
      'aria-label': `What-if ${k}`,
      props: { value: String(this.floors[k]) },
      on: { input: () => this.moved(k) },
    });
    this.inputs.set(k, { input, value });
    return h(
      'div',
      { class: 'slider' },
      h('label', { for: id }, LABELS[k], h('span', { class: 'muted' }, ` (recorded ${fmtProb(this.base[k])})`)),
      input,
      value,
    );
  }

  private moved(k: FloorKey): void {
    const s = this.inputs.get(k)!;
    // Keep the thresholds in order: the other slider follows, so a recompute never fails on the order rule.
    this.floors = constrainFloors({ ...this.floors, [k]: toSlider(Number(s.input.value)) }, k, sliderLimits(this.o.record));
    for (const [key, other] of this.inputs) {
      if (Number(other.input.value) !== this.floors[key]) other.input.value = String(this.floors[key]);
      other.value.textContent = fmtProb(this.floors[key]);
    }
    this.o.onFloors(sameFloors(this.floors, this.base) ? undefined : { ...this.floors });
    this.recompute(60);
  }

  private reset(): void {
    this.floors = { ...this.base };
    for (const [k, s] of this.inputs) {
      s.input.value = String(this.floors[k]);
      s.value.textContent = fmtProb(this.floors[k]);
    }
    this.o.onFloors(undefined);
    this.recompute(0);
  }

  private recompute(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(++this.seq), delay);
  }

  private async run(seq: number): Promise<void> {
    const floors = { ...this.floors };
    this.el.classList.add('busy');
    try {
      const api = await (this.o.load ?? loadWhatIf)();
      const after = await api.recompute(this.o.record, floors);
      if (seq !== this.seq) return; // a newer slider move is on its way
      this.show(after, floors);
      this.note.textContent =
        `Recomputed here from the ${after.replayed} recorded ${after.replayed === 1 ? 'answer set' : 'answer sets'} with the same tool code ` +
        'as the live call; no new judgment was requested.';
    } catch (err) {
      if (seq !== this.seq) return;
      replaceChildren(this.out, h('div', { class: 'error-text' }, `What-if unavailable: ${err instanceof Error ? err.message : String(err)}`));
    } finally {
      if (seq === this.seq) this.el.classList.remove('busy');
    }
  }

  private show(after: Outcome, floors: Floors): void {
    const diff = diffOutcomes(outcomeLines(this.recorded), outcomeLines(after));
    const atBase = sameFloors(floors, this.base);
    const drift = atBase && diff.some((d) => d.changed);
    const summary = atBase
      ? drift
        ? 'At the recorded thresholds the recomputation differs from the record (the tool code changed since it was recorded).'
        : 'Move a slider to see how this decision changes.'
      : changeSummary(diff);
    const beforeCodes = new Set(reasonCodes(this.recorded));
    const added = reasonCodes(after).filter((c) => !beforeCodes.has(c));
    replaceChildren(
      this.out,
      h('div', { class: { 'whatif-summary': true, changed: !atBase && diff.some((d) => d.changed && d.key !== 'thresholds'), drift } }, summary),
      h(
        'table',
        { class: 'whatif-diff stack' },
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, ''), h('th', { scope: 'col' }, 'Recorded'), h('th', { scope: 'col' }, 'What-if'))),
        h(
          'tbody',
          null,
          diff.map((d) =>
            h(
              'tr',
              { class: { changed: d.changed }, 'data-key': d.key },
              h('th', { scope: 'row' }, d.label),
              h('td', { class: 'before', 'data-label': 'Recorded' }, breakable(d.before ?? '—')),
              h('td', { class: 'after', 'data-label': 'What-if' }, breakable(d.after ?? '—')),
            ),
          ),
        ),
      ),
      added.length
        ? h(
            'ul',
            { class: 'reasons whatif-new-reasons' },
            added.map((c) => h('li', null, h('code', null, breakable(c)), ' ', explainReason(c).text)),
          )
        : null,
    );
  }
}

/** Why a floor has no slider here ("block_at: only jev_screen reads it"). */
function unusedNote(tool: string, unused: readonly FloorKey[]): string {
  const users = (k: FloorKey) => Object.entries(FLOORS_USED).filter(([, keys]) => keys.includes(k)).map(([t]) => t);
  return unused.map((k) => `${k}: not read by ${tool}${users(k).length <= 2 ? ` (only ${users(k).join(' and ')} ${users(k).length === 1 ? 'uses' : 'use'} it)` : ''}`).join(' · ') + '.';
}

function reasonCodes(o: Outcome): string[] {
  if (o.error) return [o.error.code];
  const r = o.result as { reason_codes?: unknown } | undefined;
  return Array.isArray(r?.reason_codes) ? r.reason_codes.map(String) : [];
}
