import type { ServerView, WebviewToHost } from '../src/panel/protocol';
import { codicon, h } from './dom';

/**
 * MCP servers: each with its status and, when it is not ready, the reason (spawn error, exit code,
 * last stderr lines, timeout) in plain sight, its tool count and names, and Restart / Open log, plus Sign in
 * (an OAuth server that needs it) or Sign out (one signed in), and an Enabled switch per configured server
 * (a disabled one is never started and offers no tools). Only `error` is drawn as a problem: a server not
 * started yet, stopped or disabled is a state, not a fault.
 */

const STATUS_ICON: Record<ServerView['status'], string> = {
  starting: 'loading',
  ready: 'pass',
  error: 'error',
  stopped: 'circle-slash',
  'not-started': 'circle-large-outline',
  disabled: 'circle-slash',
};
const STATUS_TEXT: Record<ServerView['status'], string> = { starting: 'starting', ready: 'ready', error: 'error', stopped: 'stopped', 'not-started': 'not started', disabled: 'disabled' };

export function renderServers(servers: readonly ServerView[] | undefined, post: (m: WebviewToHost) => void): HTMLElement {
  if (!servers) return h('div', { class: 'muted pad' }, 'Waiting for the extension…');
  if (servers.length === 0) {
    return h(
      'div',
      { class: 'empty pad' },
      h('p', null, 'No MCP servers are configured. Add them in the jevPanel.mcpServers setting, or import .vscode/mcp.json.'),
      h('vscode-button', { icon: 'cloud-download', on: { click: () => post({ type: 'command', command: 'importMcpJson' }) } }, 'Import .vscode/mcp.json'),
    );
  }
  return h(
    'ul',
    { class: 'servers', id: 'servers' },
    servers.map((s) =>
      h(
        'li',
        { class: `server server-${s.status}`, 'data-server': s.name },
        h(
          'div',
          { class: 'server-head' },
          h('span', { class: `status-dot status-${s.status}` }, codicon(STATUS_ICON[s.status], s.status)),
          h('span', { class: 'server-name' }, s.name),
          h('span', { class: 'muted' }, ` ${s.transport} · ${STATUS_TEXT[s.status]} · ${s.tools.length} ${s.tools.length === 1 ? 'tool' : 'tools'}`),
        ),
        // A ready or starting server's note (e.g. "built in") is information, not an error: styled neutrally.
        s.reason ? h('pre', { class: `server-reason ${s.status === 'error' ? 'server-reason-problem' : 'server-reason-note'}` }, s.reason) : null,
        s.warning ? h('div', { class: 'warning-text server-warning' }, codicon('warning'), ' ', s.warning) : null,
        s.tools.length
          ? h('details', { class: 'server-tools' }, h('summary', null, `Tools (${s.tools.length})`), h('ul', null, s.tools.map((t) => h('li', null, h('code', null, t)))))
          : null,
        h(
          'div',
          { class: 'actions' },
          s.enabled === undefined
            ? null
            : h(
                'vscode-checkbox',
                {
                  class: 'server-enabled',
                  'aria-label': `${s.enabled ? 'Disable' : 'Enable'} MCP server ${s.name}`,
                  props: { checked: s.enabled },
                  on: { change: (e) => post({ type: 'setServerEnabled', name: s.name, enabled: (e.target as HTMLInputElement).checked }) },
                },
                'Enabled',
              ),
          s.auth === 'required' ? h('vscode-button', { icon: 'sign-in', on: { click: () => post({ type: 'signInServer', name: s.name }) } }, 'Sign in') : null,
          s.status === 'disabled' ? null : h('vscode-button', { secondary: true, icon: 'debug-restart', on: { click: () => post({ type: 'restartServer', name: s.name }) } }, s.status === 'not-started' && s.enabled !== undefined ? 'Start' : 'Restart'),
          s.auth === 'signed-in' ? h('vscode-button', { secondary: true, icon: 'sign-out', on: { click: () => post({ type: 'signOutServer', name: s.name }) } }, 'Sign out') : null,
          h('vscode-button', { secondary: true, icon: 'output', on: { click: () => post({ type: 'openServerLog', name: s.name }) } }, 'Open log'),
        ),
      ),
    ),
  );
}
