import type { ServerView, WebviewToHost } from '../src/panel/protocol';
import { codicon, h } from './dom';

/**
 * MCP servers: each with its status and, when it is not ready, the reason (spawn error, exit code,
 * last stderr lines, timeout) in plain sight, its tool count and names, and Restart / Open log, plus Sign in
 * (an OAuth server that needs it) or Sign out (one signed in).
 */

const STATUS_ICON: Record<ServerView['status'], string> = { starting: 'loading', ready: 'pass', error: 'error', stopped: 'circle-slash' };

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
          h('span', { class: 'muted' }, ` ${s.transport} · ${s.status} · ${s.tools.length} ${s.tools.length === 1 ? 'tool' : 'tools'}`),
        ),
        // A ready or starting server's note (e.g. "built in") is information, not an error: styled neutrally.
        s.reason ? h('pre', { class: `server-reason ${s.status === 'error' || s.status === 'stopped' ? 'server-reason-problem' : 'server-reason-note'}` }, s.reason) : null,
        s.tools.length
          ? h('details', { class: 'server-tools' }, h('summary', null, `Tools (${s.tools.length})`), h('ul', null, s.tools.map((t) => h('li', null, h('code', null, t)))))
          : null,
        h(
          'div',
          { class: 'actions' },
          s.auth === 'required' ? h('vscode-button', { icon: 'sign-in', on: { click: () => post({ type: 'signInServer', name: s.name }) } }, 'Sign in') : null,
          h('vscode-button', { secondary: true, icon: 'debug-restart', on: { click: () => post({ type: 'restartServer', name: s.name }) } }, 'Restart'),
          s.auth === 'signed-in' ? h('vscode-button', { secondary: true, icon: 'sign-out', on: { click: () => post({ type: 'signOutServer', name: s.name }) } }, 'Sign out') : null,
          h('vscode-button', { secondary: true, icon: 'output', on: { click: () => post({ type: 'openServerLog', name: s.name }) } }, 'Open log'),
        ),
      ),
    ),
  );
}
