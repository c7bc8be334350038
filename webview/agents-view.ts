import type { AgentView, WebviewToHost } from '../src/panel/protocol';
import { breakable, codicon, h } from './dom';
import { agentNote } from '../src/panel/agent-notes';

/**
 * Agents and grants: each agent's grant rules, manifest warnings, and for every tool the effective
 * permission with the rule that decided it ("why"). A checkbox per tool asks the host to grant or
 * revoke exactly that tool (`toggleGrant` with the tool id as the grant); the host owns the manifest and
 * answers with fresh `agents`, so the checkbox always shows the effective permission, not a wish.
 * An allow rule (also a glob such as "jev_*") can be removed (`toggleGrant` with that rule and enabled
 * false); a deny rule ("!tool") is lifted by ticking the tool, which the host turns into removing the deny.
 * Per server, "Grant all" grants every tool of it and "Grant read-only" exactly the tools whose
 * annotations say readOnlyHint (marked "read-only" in the table), revoking its others.
 */

export function renderAgents(agents: readonly AgentView[] | undefined, post: (m: WebviewToHost) => void): HTMLElement {
  if (!agents) return h('div', { class: 'muted pad' }, 'Waiting for the extension…');
  if (agents.length === 0) return h('div', { class: 'muted pad' }, 'No agents are configured (jevPanel.agents).');
  return h(
    'ul',
    { class: 'agents', id: 'agents' },
    agents.map((a) =>
      a.hook ? renderHookAgent(a, a.hook) : h(
        'li',
        { class: 'agent', 'data-agent': a.name },
        h('div', { class: 'agent-head' }, codicon('person'), h('span', { class: 'agent-name' }, a.name)),
        agentNote(a.name) ? h('p', { class: 'agent-note muted' }, agentNote(a.name)) : null,
        a.warnings.length ? h('ul', { class: 'warnings' }, a.warnings.map((w) => h('li', { class: 'warning-text' }, codicon('warning'), ' ', w))) : null,
        h(
          'div',
          { class: 'grants' },
          h('span', { class: 'label' }, 'Grants '),
          a.grants.length
            ? a.grants.map((g) => grantChip(a.name, g, post))
            : h('span', { class: 'muted' }, 'none'),
        ),
        serverShortcuts(a, post),
        h(
          'div',
          { class: 'table-scroll' },
          h(
            'table',
            { class: 'permissions stack' },
            h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Allowed'), h('th', { scope: 'col' }, 'Tool'), h('th', { scope: 'col' }, 'Why'))),
            h(
              'tbody',
              null,
              a.permissions.map((p) =>
                h(
                  'tr',
                  { class: { denied: !p.allowed }, 'data-tool': p.tool },
                  h(
                    'td',
                    { class: 'allowed', 'data-label': 'Allowed' },
                    h('vscode-checkbox', {
                      'aria-label': `${p.allowed ? 'Revoke' : 'Grant'} ${p.tool} for ${a.name}`,
                      props: { checked: p.allowed },
                      on: {
                        change: (e) => post({ type: 'toggleGrant', agent: a.name, grant: p.tool, enabled: (e.target as HTMLInputElement).checked }),
                      },
                    }),
                  ),
                  h(
                    'td',
                    { class: 'tool', 'data-label': 'Tool' },
                    h('code', null, breakable(p.tool)),
                    p.readOnly ? h('span', { class: 'muted', title: 'annotations: readOnlyHint' }, ' read-only') : null,
                  ),
                  h('td', { class: 'why', 'data-label': 'Why' }, breakable(p.why)),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

/** "Grant all" / "Grant read-only" per server whose tools the agent sees (tool ids `server/tool`). */
function serverShortcuts(a: AgentView, post: (m: WebviewToHost) => void): HTMLElement | null {
  const servers = new Map<string, { tools: number; readOnly: number }>();
  for (const p of a.permissions) {
    const slash = p.tool.indexOf('/');
    if (slash <= 0) continue;
    const entry = servers.get(p.tool.slice(0, slash)) ?? { tools: 0, readOnly: 0 };
    entry.tools++;
    if (p.readOnly) entry.readOnly++;
    servers.set(p.tool.slice(0, slash), entry);
  }
  if (servers.size === 0) return null;
  return h(
    'ul',
    { class: 'server-grants' },
    [...servers].map(([server, n]) =>
      h(
        'li',
        { 'data-server': server },
        h('code', null, server),
        ' ',
        h('vscode-button', { secondary: true, on: { click: () => post({ type: 'grantServer', agent: a.name, server, mode: 'all' }) } }, `Grant all (${n.tools})`),
        ' ',
        h(
          'vscode-button',
          {
            secondary: true,
            title: 'Grants the tools whose annotations say readOnlyHint and revokes the others',
            disabled: n.readOnly === 0,
            on: { click: () => post({ type: 'grantServer', agent: a.name, server, mode: 'readOnly' }) },
          },
          `Grant read-only (${n.readOnly} with readOnlyHint)`,
        ),
      ),
    ),
  );
}

/** One grant rule as a chip; allow rules get a remove button (deny rules are lifted from the tool table). */
function grantChip(agent: string, g: string, post: (m: WebviewToHost) => void): HTMLElement {
  const deny = g.startsWith('!');
  return h(
    'span',
    { class: { chip: true, deny } },
    h('code', null, breakable(g)),
    deny
      ? null
      : h(
          'button',
          {
            class: 'chip-remove',
            title: `Remove grant ${g}`,
            'aria-label': `Remove grant ${g}`,
            on: { click: () => post({ type: 'toggleGrant', agent, grant: g, enabled: false }) },
          },
          codicon('close'),
        ),
  );
}

/**
 * An agent a guard hook runs as (Claude Code, VS Code's agent, Codex…): which hosts, its grants from
 * `.jev/config.json` (read-only here: the hook reads that file), and the permission rules every call meets
 * before it is judged.
 */
function renderHookAgent(a: AgentView, hook: NonNullable<AgentView['hook']>): HTMLElement {
  const chips = (rules: string[]) => (rules.length ? rules.map((r) => h('span', { class: 'chip' }, h('code', null, breakable(r)))) : h('span', { class: 'muted' }, 'none'));
  return h(
    'li',
    { class: 'agent hook-agent', 'data-agent': a.name, 'data-hook': 'true' },
    h('div', { class: 'agent-head' }, codicon('shield'), h('span', { class: 'agent-name' }, a.name), h('span', { class: 'muted' }, ` · guard hook of ${hook.hosts.join(', ')}`)),
    hook.problem
      ? h('ul', { class: 'warnings' }, h('li', { class: 'warning-text' }, codicon('warning'), ' ', `${hook.problem} (the hook asks you for every call until this is fixed)`))
      : null,
    h(
      'div',
      { class: 'grants' },
      h('span', { class: 'label' }, 'Grants '),
      hook.granted ? chips(a.grants) : h('span', { class: 'muted' }, 'not limited: .jev/config.json names no such agent, so every tool goes to the rules and the judge'),
    ),
    (['deny', 'ask', 'allow'] as const).map((kind) =>
      h('div', { class: 'grants', 'data-rules': kind }, h('span', { class: 'label' }, `${kind[0]!.toUpperCase()}${kind.slice(1)} by rule `), chips(hook.rules[kind])),
    ),
    h('p', { class: 'agent-note muted' }, 'Grants and rules live in .jev/config.json; a call no rule settles is judged by jev_permit, and only read-only or local writes are ever allowed without you.'),
  );
}
