import type { AgentView, BackendStatus, DecisionRecord, FeedProgress, HostToWebview, ServerView, WebviewToHost } from '../src/panel/protocol';
import type { Floors } from '../src/policy/thresholds';
import { renderAgents } from './agents-view';
import './components';
import { renderDetail } from './detail-view';
import { h, replaceChildren } from './dom';
import { FeedStore } from './feed-model';
import { FeedView } from './feed-view';
import { connectHost, type HostPort } from './host';
import { renderServers } from './servers-view';
import { renderHealthBanner, renderStatus } from './status-view';
import { TABS, restoreUiState, type UiState } from './ui-state';
import { loadWhatIf } from './whatif-loader';

/**
 * The panel webview. The host is the source of truth: on load the webview restores its UI state
 * (getState), says `ready`, and renders the snapshot the host answers with; live rows arrive as
 * `feedAppend`. The same bundle serves the activity-bar view (`<body data-view="sidebar">`) and the
 * decision editor panel (`<body data-view="decision" data-decision-id="…">`).
 */

/** Records kept for detail views (most recently used). */
const RECORD_CACHE = 64;
/** How long to wait for a requested record before saying it is unavailable, ms. */
const RECORD_WAIT_MS = 8000;

class App {
  private ui: UiState;
  private readonly store = new FeedStore();
  private status?: BackendStatus;
  private servers?: ServerView[];
  /** Registry calls still running with their last progress (above the feed). */
  private running: FeedProgress[] = [];
  private agents?: AgentView[];
  private readonly records = new Map<string, DecisionRecord>();
  private readonly missing = new Map<string, string>();
  private readonly mode: 'sidebar' | 'decision';
  private readonly root: HTMLElement;
  private readonly bannerSlot = h('div', { class: 'banner-slot' });
  private readonly statusSlot = h('div', { class: 'status-slot' });
  private readonly decisionsPanel = h('div', { class: 'decisions-panel' });
  private readonly serversSlot = h('div', { class: 'servers-slot' });
  private readonly agentsSlot = h('div', { class: 'agents-slot' });
  private readonly counts = { decisions: h('vscode-badge', { variant: 'counter' }, '0'), servers: h('vscode-badge', { variant: 'counter', class: 'hidden' }, '') };
  private feed?: FeedView;
  /** Tool of the decision whose detail is shown, if any: the status names the thresholds it reads. */
  private shownTool?: string;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private appendFrame = 0;
  private waitTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly host: HostPort) {
    this.ui = restoreUiState(host.getState());
    const body = document.body;
    this.mode = body.dataset.view === 'decision' ? 'decision' : 'sidebar';
    // The document's decision applies once: shown again after being hidden, the panel keeps the decision
    // selected since (by a lens, a hover, the feed), which the state holds.
    const docId = body.dataset.decisionId;
    if (this.mode === 'decision' && docId && this.ui.docDecision !== docId) {
      this.ui.selected = docId;
      this.ui.detailOpen = true;
      this.ui.docDecision = docId;
      this.save();
    }
    this.root = h('div', { class: `app view-${this.mode}`, id: 'app' });
    body.appendChild(this.root);
    this.layout();
    host.onMessage((m) => this.onMessage(m));
    host.post({ type: 'ready' });
    if (this.ui.detailOpen && this.ui.selected) this.openDetail(this.ui.selected);
    // Fetch the what-if code once the first paint is done, so opening a decision is instant.
    setTimeout(() => void loadWhatIf().catch(() => undefined), 300);
  }

  private post = (m: WebviewToHost) => this.host.post(m);

  private layout(): void {
    if (this.mode === 'decision') {
      replaceChildren(this.root, this.bannerSlot, this.decisionsPanel);
      this.renderDecisions();
      return;
    }
    const tabIndex = TABS.indexOf(this.ui.tab);
    const header = (label: string, id: string, badge?: HTMLElement) => h('vscode-tab-header', { slot: 'header', 'data-tab': id }, label, badge ? [' ', badge] : null);
    const tabs = h(
      'vscode-tabs',
      {
        'selected-index': tabIndex,
        id: 'tabs',
        on: {
          'vsc-tabs-select': (e) => {
            const i = (e as CustomEvent<{ selectedIndex: number }>).detail.selectedIndex;
            this.ui.tab = TABS[i] ?? 'decisions';
            this.save();
          },
        },
      },
      header('Decisions', 'tab-decisions', this.counts.decisions),
      header('Servers', 'tab-servers', this.counts.servers),
      header('Agents', 'tab-agents'),
      h('vscode-tab-panel', { id: 'panel-decisions' }, this.decisionsPanel),
      h('vscode-tab-panel', { id: 'panel-servers' }, this.serversSlot),
      h('vscode-tab-panel', { id: 'panel-agents' }, this.agentsSlot),
    );
    const statusOpen = !this.ui.collapsed.includes('status');
    const statusBox = h(
      'vscode-collapsible',
      {
        heading: 'Backend',
        open: statusOpen,
        id: 'status-box',
        on: {
          'vsc-collapsible-toggle': (e) => {
            const open = (e as CustomEvent<{ open: boolean }>).detail.open;
            this.ui.collapsed = open ? this.ui.collapsed.filter((c) => c !== 'status') : [...this.ui.collapsed, 'status'];
            this.save();
          },
        },
      },
      this.statusSlot,
    );
    replaceChildren(this.root, this.bannerSlot, statusBox, tabs);
    this.renderStatus();
    this.renderDecisions();
    this.renderServers();
    this.renderAgents();
  }

  private onMessage(m: HostToWebview): void {
    switch (m.type) {
      case 'snapshot':
        this.status = m.snapshot.status;
        this.store.replace(m.snapshot.feed ?? []);
        this.servers = m.snapshot.servers;
        this.agents = m.snapshot.agents;
        this.renderStatus();
        this.feed?.refresh();
        this.renderCounts();
        this.renderServers();
        this.renderAgents();
        if (!this.feed && !this.ui.detailOpen) this.renderDecisions();
        break;
      case 'feedAppend':
        this.store.append(m.rows ?? []);
        // Bursts of rows re-filter once per frame.
        if (!this.appendFrame) {
          this.appendFrame = requestAnimationFrame(() => {
            this.appendFrame = 0;
            this.feed?.refresh();
            this.renderCounts();
          });
        }
        break;
      case 'feedProgress':
        this.running = m.running ?? [];
        this.feed?.setRunning(this.running);
        break;
      case 'status':
        this.status = m.status;
        this.renderStatus();
        break;
      case 'servers':
        this.servers = m.servers;
        this.renderServers();
        break;
      case 'agents':
        this.agents = m.agents;
        this.renderAgents();
        break;
      case 'record':
        if (!m.record || typeof m.record.id !== 'string') break;
        this.remember(m.record);
        if (this.ui.detailOpen && this.ui.selected === m.record.id) this.renderDecisions();
        break;
      case 'recordMissing':
        this.missing.set(m.id, m.reason);
        if (this.ui.detailOpen && this.ui.selected === m.id) this.renderDecisions();
        break;
      case 'select':
        this.openDetail(m.id);
        break;
    }
  }

  private remember(record: DecisionRecord): void {
    this.records.delete(record.id);
    this.records.set(record.id, record);
    this.missing.delete(record.id);
    while (this.records.size > RECORD_CACHE) this.records.delete(this.records.keys().next().value as string);
  }

  private renderCounts(): void {
    this.counts.decisions.textContent = String(this.store.size);
    const bad = this.servers?.filter((s) => s.status === 'error').length ?? 0;
    this.counts.servers.textContent = bad ? String(bad) : '';
    this.counts.servers.classList.toggle('hidden', bad === 0);
  }

  private renderStatus(): void {
    replaceChildren(this.bannerSlot, renderHealthBanner(this.status));
    if (this.mode === 'sidebar') {
      replaceChildren(this.statusSlot, renderStatus(this.status, this.post, this.shownTool));
      const box = document.getElementById('status-box');
      if (box && this.status) box.setAttribute('description', `${this.status.provider} · ${this.status.model}`);
    }
  }

  private renderServers(): void {
    if (this.mode === 'sidebar') replaceChildren(this.serversSlot, renderServers(this.servers, this.post));
    this.renderCounts();
  }

  private renderAgents(): void {
    if (this.mode === 'sidebar') replaceChildren(this.agentsSlot, renderAgents(this.agents, this.post));
  }

  /** Decisions tab (sidebar) or the whole panel (decision view): the feed, or one decision's detail. */
  private renderDecisions(): void {
    clearTimeout(this.waitTimer);
    const id = this.ui.selected;
    const tool = this.ui.detailOpen && id ? this.records.get(id)?.tool : undefined;
    if (tool !== this.shownTool) {
      this.shownTool = tool;
      if (this.status) this.renderStatus();
    }
    if (this.ui.detailOpen && id) {
      const record = this.records.get(id);
      if (!record) {
        const why = this.missing.get(id);
        replaceChildren(
          this.decisionsPanel,
          h(
            'div',
            { class: 'pad', id: 'detail-pending' },
            this.mode === 'sidebar' ? h('vscode-button', { secondary: true, icon: 'arrow-left', on: { click: () => this.closeDetail() } }, 'Feed') : null,
            h('p', { class: why ? 'error-text' : 'muted' }, why ? `Decision ${id} is not available: ${why}` : `Loading decision ${id}…`),
          ),
        );
        if (!why) {
          this.waitTimer = setTimeout(() => {
            if (!this.records.has(id) && !this.missing.has(id)) {
              this.missing.set(id, 'the extension did not send it (it may have left the ledger)');
              if (this.ui.selected === id && this.ui.detailOpen) this.renderDecisions();
            }
          }, RECORD_WAIT_MS);
        }
        return;
      }
      const detail = renderDetail({
        record,
        view: this.mode,
        whatIfFloors: this.ui.whatIf?.id === id ? this.ui.whatIf.floors : undefined,
        onWhatIf: (floors: Floors | undefined) => {
          this.ui.whatIf = floors ? { id, floors } : undefined;
          this.save();
        },
        onBack: () => this.closeDetail(),
        onOpenInEditor: () => this.post({ type: 'openDecision', id }),
        toggled: this.ui.collapsed,
        onToggle: (section) => {
          this.ui.collapsed = this.ui.collapsed.includes(section) ? this.ui.collapsed.filter((c) => c !== section) : [...this.ui.collapsed, section];
          this.save();
        },
      });
      replaceChildren(this.decisionsPanel, detail);
      return;
    }
    if (this.mode === 'decision') {
      replaceChildren(this.decisionsPanel, h('p', { class: 'muted pad' }, 'No decision selected.'));
      return;
    }
    this.feed?.dispose();
    this.feed = new FeedView({
      store: this.store,
      running: this.running,
      filters: this.ui.filters,
      scrollTop: this.ui.scrollTop,
      selected: this.ui.selected,
      onFilters: (filters) => {
        this.ui.filters = filters;
        this.save();
      },
      onScroll: (top) => {
        this.ui.scrollTop = top;
        this.save();
      },
      onOpen: (rowId) => this.openDetail(rowId),
      onSelect: (rowId) => {
        this.ui.selected = rowId;
        this.save();
      },
    });
    replaceChildren(this.decisionsPanel, this.feed.el);
    // The list needs layout before its scroll position applies.
    requestAnimationFrame(() => this.feed && (this.feed.el.querySelector('.feed-list')!.scrollTop = this.ui.scrollTop));
  }

  private openDetail(id: string): void {
    if (this.ui.selected !== id && this.ui.whatIf?.id !== id) this.ui.whatIf = undefined;
    this.ui.selected = id;
    this.ui.detailOpen = true;
    if (this.mode === 'sidebar' && this.ui.tab !== 'decisions') {
      this.ui.tab = 'decisions';
      document.getElementById('tabs')?.setAttribute('selected-index', '0');
    }
    this.feed?.dispose();
    this.feed = undefined;
    if (!this.records.has(id)) {
      this.missing.delete(id);
      this.post({ type: 'getRecord', id });
    }
    this.save();
    this.renderDecisions();
  }

  private closeDetail(): void {
    this.ui.detailOpen = false;
    this.save();
    this.renderDecisions();
    this.feed?.focus();
  }

  private save(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.host.setState(this.ui), 150);
  }
}

function start(): void {
  let host: HostPort;
  try {
    host = connectHost();
  } catch (err) {
    document.body.appendChild(h('p', { class: 'error-text' }, err instanceof Error ? err.message : String(err)));
    return;
  }
  new App(host);
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
