import type { Floors } from '../src/policy/thresholds';
import { EMPTY_FILTERS, type FeedFilters } from './feed-model';
import { toSlider } from './whatif-model';

/**
 * The UI state that survives hiding and reloading the view (webview setState/getState): tab, feed
 * filters and scroll, the selected decision and whether its detail is open, and the what-if slider
 * values of that decision. Pure: `restoreUiState` accepts anything and returns a valid state.
 */

export type Tab = 'decisions' | 'servers' | 'agents';
export const TABS: readonly Tab[] = ['decisions', 'servers', 'agents'];

export interface UiState {
  v: 1;
  tab: Tab;
  filters: FeedFilters;
  /** Feed scroll position, px. */
  scrollTop: number;
  /** Selected decision id (highlighted in the feed). */
  selected?: string;
  /** Sidebar: the selected decision's detail replaces the feed. */
  detailOpen: boolean;
  /** What-if floors of the selected decision, when the user moved a slider. */
  whatIf?: { id: string; floors: Floors };
  /** Collapsed sections by name (e.g. "status", "raw-request"). */
  collapsed: string[];
  /**
   * Decision panel: the decision its document named (`data-decision-id`) when that was last applied. A
   * document shown again after being hidden still names the decision it was created for; the state then
   * keeps the one selected since.
   */
  docDecision?: string;
}

export function initialUiState(): UiState {
  return { v: 1, tab: 'decisions', filters: { ...EMPTY_FILTERS }, scrollTop: 0, detailOpen: false, collapsed: [] };
}

const str = (v: unknown, max = 500) => (typeof v === 'string' ? v.slice(0, max) : '');

/** A valid UiState from whatever getState() returned (undefined, an older shape, garbage). */
export function restoreUiState(saved: unknown): UiState {
  const s = initialUiState();
  if (typeof saved !== 'object' || saved === null) return s;
  const o = saved as Record<string, unknown>;
  if (o.v !== 1) return s;
  if (TABS.includes(o.tab as Tab)) s.tab = o.tab as Tab;
  const f = (o.filters ?? {}) as Record<string, unknown>;
  s.filters = { tool: str(f.tool), agent: str(f.agent), action: str(f.action), text: str(f.text) };
  if (typeof o.scrollTop === 'number' && Number.isFinite(o.scrollTop) && o.scrollTop >= 0) s.scrollTop = o.scrollTop;
  if (typeof o.selected === 'string' && o.selected) s.selected = o.selected;
  s.detailOpen = o.detailOpen === true && s.selected !== undefined;
  const w = o.whatIf as { id?: unknown; floors?: Record<string, unknown> } | undefined;
  if (w && typeof w.id === 'string' && w.floors && typeof w.floors === 'object') {
    const fl = w.floors;
    if (['auto_accept', 'review_at', 'block_at'].every((k) => typeof fl[k] === 'number')) {
      s.whatIf = {
        id: w.id,
        floors: { auto_accept: toSlider(fl.auto_accept as number), review_at: toSlider(fl.review_at as number), block_at: toSlider(fl.block_at as number) },
      };
    }
  }
  if (typeof o.docDecision === 'string' && o.docDecision) s.docDecision = o.docDecision;
  if (Array.isArray(o.collapsed)) s.collapsed = o.collapsed.filter((x): x is string => typeof x === 'string').slice(0, 50);
  return s;
}
