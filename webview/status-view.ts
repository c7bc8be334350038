import type { BackendStatus, GuardPlaceView, WebviewToHost } from '../src/panel/protocol';
import { breakableUrl, codicon, h } from './dom';
import { thresholdsText } from './whatif-model';
import { countOf } from '../src/panel/numbers';

/**
 * Backend status: provider, model, why it was chosen, health (the mock-judge warning as a banner that
 * is never hidden), calibration, spend used/cap and the floors in force, plus the actions a user needs
 * to change any of it.
 */

const HEALTH_ICON: Record<BackendStatus['health'], string> = { ok: 'pass', warning: 'warning', error: 'error' };

/** The banner shown above everything when health is not ok (mock judge, broken key, …); null when ok. */
export function renderHealthBanner(status: BackendStatus | undefined): HTMLElement | null {
  if (!status || status.health === 'ok') return null;
  const fallback =
    status.provider === 'mock'
      ? 'Mock judge: answers come from deterministic keyword heuristics, not a real model. Configure a backend before trusting decisions.'
      : 'The judgment backend needs attention.';
  return h(
    'div',
    { class: `banner banner-${status.health}`, role: status.health === 'error' ? 'alert' : 'status', id: 'health-banner' },
    codicon(HEALTH_ICON[status.health]),
    h('span', { class: 'banner-text' }, status.message ?? fallback),
  );
}

/** "3 / 100 attempts", or "3 attempts (no cap)". */
export function spendText(spend: BackendStatus['spend']): string {
  return spend.cap === undefined ? `${countOf(spend.used, 'attempt')} (no cap)` : `${spend.used} / ${countOf(spend.cap, 'attempt')}`;
}

/**
 * The Thresholds row's value for the tool whose decision is shown (`tool`, undefined when none is):
 * the floors that tool reads, then, muted, the ones it does not read with the tools that do.
 */
function thresholdsValue(thresholds: BackendStatus['thresholds'], tool: string | undefined): (Node | string)[] {
  const t = thresholdsText(thresholds, tool);
  if (tool === undefined) return [t.read];
  return [
    t.read ? `${t.read} (read by ${tool})` : `none read by ${tool}`,
    t.other ? h('div', { class: 'muted', 'data-key': 'thresholds-other' }, t.other) : '',
  ];
}

/**
 * The Guard row's value: where the permission guard's hook is on (host and file), and a link that turns it
 * on or off for VS Code's agent in this workspace (the editor's commands, which ask first).
 */
export function guardValue(places: GuardPlaceView[] | undefined, post: (m: WebviewToHost) => void): (Node | string)[] {
  const link = (label: string, command: 'guardOn' | 'guardOff') =>
    h('a', { href: '#', class: 'inline-action', 'data-key': command, on: { click: (e: Event) => (e.preventDefault(), post({ type: 'command', command })) } }, label);
  const list = places ?? [];
  const vscodeOn = list.some((p) => p.host === 'vscode' && p.scope === 'project');
  const where = list.length ? `on for ${list.map((p) => `${p.label} (${p.file})`).join(', ')}` : 'off: agents run their tools without asking Jev';
  return [h('span', { 'data-key': 'guard-places' }, where), ' ', vscodeOn ? link('Turn off for VS Code\'s agent', 'guardOff') : link('Turn on for VS Code\'s agent', 'guardOn')];
}

/**
 * The status grid and its actions. `post` sends a command to the host; `shownTool` is the tool of the
 * decision shown below (its detail), so the thresholds named are the ones that tool reads.
 */
export function renderStatus(status: BackendStatus | undefined, post: (m: WebviewToHost) => void, shownTool?: string): HTMLElement {
  if (!status) return h('div', { class: 'status muted', id: 'status' }, 'Waiting for the extension…');
  const row = (label: string, ...value: (Node | string)[]) => [h('dt', null, label), h('dd', null, ...value)];
  const spendRatio = status.spend.cap ? Math.min(1, status.spend.used / status.spend.cap) : 0;
  const meter = status.spend.cap
    ? h('span', {
        class: { meter: true, 'meter-high': spendRatio >= 0.8 },
        role: 'meter',
        'aria-valuemin': 0,
        'aria-valuemax': status.spend.cap,
        'aria-valuenow': status.spend.used,
        'aria-label': 'spend',
      })
    : null;
  if (meter) {
    const fill = h('span', { class: 'meter-fill' });
    fill.style.width = `${(spendRatio * 100).toFixed(1)}%`;
    meter.appendChild(fill);
  }
  const button = (label: string, icon: string, message: WebviewToHost, secondary = true) =>
    h('vscode-button', { icon, secondary, on: { click: () => post(message) } }, label);
  return h(
    'div',
    { class: 'status', id: 'status' },
    h(
      'dl',
      { class: 'kv' },
      row('Backend', h('span', { class: `health health-${status.health}` }, codicon(HEALTH_ICON[status.health], status.health), ` ${status.provider} · ${status.model}`)),
      row('Why', status.reason),
      row('Guard', ...guardValue(status.guard, post)),
      row('Calibrated', status.calibrated ? 'yes' : 'no — probabilities are not calibrated'),
      row('Spend', spendText(status.spend), meter ?? ''),
      row('Thresholds', ...thresholdsValue(status.thresholds, shownTool)),
      status.endpoint ? row('MCP endpoint', h('code', { class: 'endpoint' }, breakableUrl(status.endpoint))) : [],
    ),
    h(
      'div',
      { class: 'actions' },
      button('Run sample step', 'play', { type: 'runSampleStep' }, false),
      button('Set API key', 'key', { type: 'command', command: 'setApiKey' }),
      button('Settings', 'settings-gear', { type: 'command', command: 'openSettings' }),
      button('Open ledger', 'output', { type: 'command', command: 'openLedger' }),
    ),
  );
}
