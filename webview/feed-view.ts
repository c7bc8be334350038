import type { FeedProgress, FeedRow } from '../src/panel/protocol';
import { h, replaceChildren } from './dom';
import { distinctValues, filterFeed, rowActionClass, scrollToReveal, virtualWindow, type FeedFilters, type FeedStore } from './feed-model';
import { explainReason } from '../src/panel/reason-codes';
import { countOf } from '../src/panel/numbers';

/**
 * The live decision feed: filter bar plus a virtualized list. Only the rows in view (plus a few
 * either side) exist in the DOM, so 10 000 decisions scroll like 30. Rows have a fixed height.
 */

/** Row height in px; must match `.feed-row` in styles.css. */
export const ROW_HEIGHT = 44;

export interface FeedViewOptions {
  store: FeedStore;
  /** Calls still running: registry calls that reported progress, judgments waiting on their judge. */
  running?: readonly FeedProgress[];
  filters: FeedFilters;
  scrollTop: number;
  selected?: string;
  onFilters(filters: FeedFilters): void;
  onScroll(scrollTop: number): void;
  /** A row was chosen (click or Enter): open its detail. */
  onOpen(id: string): void;
  /** Keyboard moved the selection. */
  onSelect(id: string): void;
}

const ACTIONS = ['auto', 'review', 'escalate', 'error'];

/** HH:MM:SS of an ISO time in local time, or the raw string when unparsable. */
function clock(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString([], { hour12: false });
}

/** A running line in two parts: what runs (`⟳ jev_step · coder · waiting for the judge`) and its elapsed time (`4.0 s`). */
export function runningParts(r: FeedProgress, sinceMs = 0): { what: string; elapsed: string } {
  const amount = r.kind === 'judgment' ? 'waiting for the judge' : r.progress === undefined ? undefined : r.total === undefined ? `${r.progress}` : `${r.progress}/${r.total}`;
  const what = [`⟳ ${r.tool}`, r.agent, amount, r.message].filter((p) => p !== undefined && p !== '').join(' · ');
  return { what, elapsed: `${((r.elapsed_ms + Math.max(0, sinceMs)) / 1000).toFixed(1)} s` };
}

/**
 * `everything/long · coder · 3/10 · step 3 · 1.2 s` for a registry call, `jev_step · coder · waiting for
 * the judge · 4.0 s` for a judgment; `sinceMs` (ms since the entry arrived) is added to its elapsed time.
 */
export function runningText(r: FeedProgress, sinceMs = 0): string {
  const p = runningParts(r, sinceMs);
  return `${p.what} · ${p.elapsed}`;
}

/** How often the running lines' elapsed time is redrawn, ms. */
const RUNNING_TICK_MS = 1000;

export class FeedView {
  readonly el: HTMLElement;
  private readonly list: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly window: HTMLElement;
  private readonly count: HTMLElement;
  private readonly runningEl: HTMLElement;
  private readonly selects: Record<'tool' | 'agent' | 'action', HTMLSelectElement>;
  private readonly text: HTMLElement & { value: string };
  private order: number[] = [];
  /** The store's row array `order` indexes into (the store replaces its array when it drops old rows). */
  private orderRows: readonly FeedRow[] = [];
  private frame = 0;
  private rendered = { start: -1, end: -1, version: -1 };
  private version = 0;
  private textTimer: ReturnType<typeof setTimeout> | undefined;
  private runningTimer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly o: FeedViewOptions) {
    const select = (key: 'tool' | 'agent' | 'action', label: string) =>
      h('select', { class: 'filter-select', 'aria-label': `Filter by ${label}`, id: `filter-${key}`, on: { change: () => this.filtersChanged() } });
    this.selects = { tool: select('tool', 'tool'), agent: select('agent', 'agent'), action: select('action', 'action') };
    this.text = h('vscode-textfield', {
      id: 'filter-text',
      placeholder: 'Filter: tool, reason, handoff, id…',
      'aria-label': 'Filter decisions by text',
      props: { value: o.filters.text },
      on: {
        input: () => {
          clearTimeout(this.textTimer);
          this.textTimer = setTimeout(() => this.filtersChanged(), 120);
        },
      },
    }) as HTMLElement & { value: string };
    this.count = h('span', { class: 'feed-count', 'aria-live': 'polite', id: 'feed-count' });
    this.runningEl = h('div', { class: 'feed-running', id: 'feed-running', role: 'status', 'aria-label': 'Tool calls running' });
    this.window = h('div', { class: 'feed-window' });
    this.spacer = h('div', { class: 'feed-spacer' }, this.window);
    this.list = h(
      'div',
      {
        class: 'feed-list',
        id: 'feed-list',
        role: 'listbox',
        tabindex: 0,
        'aria-label': 'Decisions, newest first',
        on: { scroll: () => this.schedule(), keydown: (e) => this.onKey(e as KeyboardEvent), click: (e) => this.onClick(e) },
      },
      this.spacer,
    );
    this.el = h(
      'div',
      { class: 'feed' },
      h('div', { class: 'feed-filters' }, this.text, h('div', { class: 'filter-selects' }, this.selects.tool, this.selects.agent, this.selects.action), this.count),
      this.runningEl,
      this.list,
    );
    this.setRunning(o.running ?? []);
    this.resize = new ResizeObserver(() => this.schedule());
    this.resize.observe(this.list);
    this.refresh();
    this.list.scrollTop = o.scrollTop;
  }

  private readonly resize: ResizeObserver;

  /** Stops observing (the view is being replaced). */
  dispose(): void {
    this.resize.disconnect();
    if (this.frame) cancelAnimationFrame(this.frame);
    clearTimeout(this.textTimer);
    clearInterval(this.runningTimer);
  }

  /**
   * Re-applies filters and re-renders (after new rows arrived or filters changed). When the list is
   * scrolled away from the top, the first visible row keeps its place as newer rows arrive above it.
   */
  refresh(): void {
    const rows = this.o.store.rows;
    const top = this.list.scrollTop;
    const anchorAt = Math.floor(top / ROW_HEIGHT);
    const anchor = top > 0 && anchorAt < this.order.length ? this.orderRows[this.order[anchorAt]!] : undefined;
    this.fillSelect('tool', ['', ...distinctValues(rows, 'tool')], 'All tools');
    this.fillSelect('agent', ['', ...distinctValues(rows, 'agent')], 'All agents');
    this.fillSelect('action', ['', ...ACTIONS], 'All actions');
    this.order = filterFeed(rows, this.o.filters);
    this.orderRows = rows;
    this.count.textContent = this.order.length === rows.length ? countOf(rows.length, 'decision') : `${this.order.length} of ${countOf(rows.length, 'decision')}`;
    this.spacer.style.height = `${this.order.length * ROW_HEIGHT}px`;
    if (anchor) {
      const now = this.order.findIndex((i) => rows[i]!.id === anchor.id);
      if (now >= 0 && now !== anchorAt) this.list.scrollTop = top + (now - anchorAt) * ROW_HEIGHT;
    }
    this.version++;
    this.renderWindow();
  }

  /** Shows the calls still running, one line each: tool, agent, progress (of total) or "waiting for the judge", message, elapsed time. */
  setRunning(running: readonly FeedProgress[]): void {
    const arrived = performance.now();
    const rows = running.map((r) => {
      const p = runningParts(r);
      // Only the time ticks, and it is hidden from screen readers: the live region speaks when a call starts or ends.
      const elapsed = h('span', { class: 'running-elapsed', 'aria-hidden': 'true' }, p.elapsed);
      const el = h('div', { class: 'feed-running-row', 'data-call': r.kind === 'judgment' ? `judgment-${r.call}` : String(r.call), 'data-kind': r.kind ?? 'call' }, `${p.what} · `, elapsed);
      return { r, el, elapsed };
    });
    replaceChildren(this.runningEl, ...rows.map((x) => x.el));
    this.runningEl.hidden = running.length === 0;
    // The elapsed time keeps counting between messages (a judgment sends none until it ends).
    clearInterval(this.runningTimer);
    this.runningTimer = undefined;
    if (rows.length) {
      this.runningTimer = setInterval(() => {
        const since = performance.now() - arrived;
        for (const x of rows) x.elapsed.textContent = runningParts(x.r, since).elapsed;
      }, RUNNING_TICK_MS);
    }
  }

  /** Marks `id` as selected (or none) without rebuilding the list. */
  setSelected(id: string | undefined): void {
    this.o.selected = id;
    for (const el of this.window.children) {
      const on = (el as HTMLElement).dataset.id === id;
      el.classList.toggle('selected', on);
      el.setAttribute('aria-selected', String(on));
    }
    this.list.setAttribute('aria-activedescendant', id ? `row-${id}` : '');
  }

  /** Number of rows currently in the DOM (the bench and tests check virtualization with it). */
  get renderedRows(): number {
    return this.window.childElementCount;
  }

  focus(): void {
    this.list.focus();
  }

  private fillSelect(key: 'tool' | 'agent' | 'action', values: string[], anyLabel: string): void {
    const sel = this.selects[key];
    const want = this.o.filters[key];
    const all = want && !values.includes(want) ? [...values, want] : values;
    const same = sel.options.length === all.length && all.every((v, i) => sel.options[i]!.value === v);
    if (!same) replaceChildren(sel, all.map((v) => h('option', { value: v }, v || anyLabel)));
    sel.value = want;
  }

  private filtersChanged(): void {
    const f: FeedFilters = {
      tool: this.selects.tool.value,
      agent: this.selects.agent.value,
      action: this.selects.action.value,
      text: String(this.text.value ?? ''),
    };
    this.o.filters = f;
    this.o.onFilters(f);
    this.list.scrollTop = 0;
    this.refresh();
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.renderWindow();
      this.o.onScroll(this.list.scrollTop);
    });
  }

  private renderWindow(): void {
    const w = virtualWindow(this.order.length, ROW_HEIGHT, this.list.scrollTop, this.list.clientHeight || 600);
    if (w.start === this.rendered.start && w.end === this.rendered.end && this.rendered.version === this.version) return;
    this.rendered = { start: w.start, end: w.end, version: this.version };
    this.window.style.transform = `translateY(${w.offset}px)`;
    const rows = this.orderRows;
    const frag = document.createDocumentFragment();
    for (let i = w.start; i < w.end; i++) frag.appendChild(this.renderRow(rows[this.order[i]!]!, i));
    this.window.textContent = '';
    this.window.appendChild(frag);
    if (this.order.length === 0) {
      this.window.appendChild(
        h('div', { class: 'feed-empty muted' }, rows.length ? 'No decision matches these filters.' : 'No decisions yet. Run a sample step, or call a jev tool from an agent.'),
      );
    }
  }

  private renderRow(r: FeedRow, position: number): HTMLElement {
    const cls = rowActionClass(r);
    const reason = r.error ?? r.topReason;
    const selected = r.id === this.o.selected;
    return h(
      'div',
      {
        class: { 'feed-row': true, selected, [`row-${cls || 'none'}`]: true },
        role: 'option',
        id: `row-${r.id}`,
        'data-id': r.id,
        'aria-selected': String(selected),
        'aria-posinset': position + 1,
        'aria-setsize': this.order.length,
        title: reason ? `${reason}: ${explainReason(reason).text}` : undefined,
      },
      h(
        'div',
        { class: 'row-line' },
        h('span', { class: `pill pill-${cls || 'none'}` }, cls || '—'),
        h('span', { class: 'row-tool' }, r.tool),
        r.handoff ? h('span', { class: 'row-handoff' }, `→ ${r.handoff}`) : null,
        r.subject ? h('span', { class: 'row-subject', title: r.subject }, r.subject) : null,
        h('span', { class: 'row-latency' }, `${Math.round(r.latency_ms)} ms`),
      ),
      h(
        'div',
        { class: 'row-line row-sub' },
        h('span', { class: 'row-agent', title: r.source ? `from ${r.source}` : undefined }, r.source ? `${r.agent} · ${r.source}` : r.agent),
        h('span', { class: { 'row-reason': true, 'row-error': !!r.error } }, reason ?? ''),
        h('span', { class: 'row-time' }, clock(r.time)),
      ),
    );
  }

  private onClick(e: Event): void {
    const row = (e.target as HTMLElement).closest('.feed-row') as HTMLElement | null;
    if (row?.dataset.id) {
      this.setSelected(row.dataset.id);
      this.o.onOpen(row.dataset.id);
    }
  }

  private onKey(e: KeyboardEvent): void {
    if (this.order.length === 0) return;
    const rows = this.orderRows;
    const current = this.o.selected ? this.order.findIndex((i) => rows[i]!.id === this.o.selected) : -1;
    let next: number;
    if (e.key === 'ArrowDown') next = Math.min(this.order.length - 1, current + 1);
    else if (e.key === 'ArrowUp') next = Math.max(0, current - 1);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = this.order.length - 1;
    else if (e.key === 'PageDown') next = Math.min(this.order.length - 1, current + Math.floor(this.list.clientHeight / ROW_HEIGHT));
    else if (e.key === 'PageUp') next = Math.max(0, current - Math.floor(this.list.clientHeight / ROW_HEIGHT));
    else if (e.key === 'Enter' && current >= 0) {
      this.o.onOpen(rows[this.order[current]!]!.id);
      e.preventDefault();
      return;
    } else return;
    e.preventDefault();
    const id = rows[this.order[next]!]!.id;
    this.list.scrollTop = scrollToReveal(next, ROW_HEIGHT, this.list.scrollTop, this.list.clientHeight);
    this.setSelected(id);
    this.o.onSelect(id);
    this.renderWindow();
  }
}
