/**
 * Where the guard is on (src/guard/install/overview.ts), as the panel's status and Agents view show it:
 * read from the real hook files an install wrote, with the agent each hook runs as and the rules in force.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { installGuard, uninstallGuard } from '../../src/guard/install/install';
import { guardPlaces, hookAgents } from '../../src/guard/install/overview';
import { guardCases } from '../helpers/guard-workspace';

const setup = guardCases('jev-guard-overview-');
const paths = { nodePath: '/usr/bin/node', cliPath: '/opt/jev/dist/cli.js' };

describe('guard overview', () => {
  it('is empty with no hook installed, and lists each host and scope an install wrote', async () => {
    const s = setup();
    assert.deepEqual(await guardPlaces(s.workspace, s.env, s.state, s.home), []);
    await installGuard({ host: 'vscode', scope: 'project', workspace: s.workspace, env: s.env, state: s.state, ...paths });
    await installGuard({ host: 'claude-code', scope: 'user', workspace: s.workspace, env: s.env, state: s.state, ...paths, agent: 'reviewer' });
    assert.deepEqual(await guardPlaces(s.workspace, s.env, s.state, s.home), [
      { host: 'claude-code', label: 'Claude Code', scope: 'user', file: join('~', '.claude', 'settings.json'), agent: 'reviewer' },
      { host: 'vscode', label: "VS Code's agent", scope: 'project', file: join('.github', 'hooks', 'jev-guard.json'), agent: 'vscode' },
    ]);
    await uninstallGuard({ host: 'vscode', scope: 'project', workspace: s.workspace, env: s.env, state: s.state });
    assert.deepEqual((await guardPlaces(s.workspace, s.env, s.state, s.home)).map((p) => p.host), ['claude-code']);
  });

  it('a hook file that is not JSON counts as off', async () => {
    const s = setup();
    mkdirSync(join(s.workspace, '.codex'));
    writeFileSync(join(s.workspace, '.codex', 'hooks.json'), '{ not json');
    assert.deepEqual(await guardPlaces(s.workspace, s.env, s.state, s.home), []);
  });

  it('hook agents carry their grants and the rules, the shipped defaults included', async () => {
    const s = setup();
    mkdirSync(join(s.workspace, '.jev'));
    writeFileSync(
      join(s.workspace, '.jev', 'config.json'),
      JSON.stringify({ agents: [{ name: 'vscode', tools: ['Read', 'Bash'] }], permissions: { allow: ['Bash(git status*)'], deny: ['Bash(git push --force*)'] } }),
    );
    const places = [
      { host: 'vscode' as const, label: "VS Code's agent", scope: 'project' as const, file: 'x', agent: 'vscode' },
      { host: 'codex' as const, label: 'Codex', scope: 'user' as const, file: 'y', agent: 'codex' },
    ];
    const agents = await hookAgents(places, s.workspace);
    assert.deepEqual(agents.map((a) => [a.name, a.hosts, a.grants]), [
      ['vscode', ["VS Code's agent"], ['Read', 'Bash']],
      ['codex', ['Codex'], null],
    ]);
    assert.deepEqual(agents[0]!.rules, { allow: ['Bash(git status*)', 'Read(./**)'], ask: ['Read(./**/.env)', 'Read(./**/.env.*)'], deny: ['Bash(git push --force*)'] });
  });

  it('a broken config is named on every hook agent, which then shows no rules', async () => {
    const s = setup();
    mkdirSync(join(s.workspace, '.jev'));
    writeFileSync(join(s.workspace, '.jev', 'config.json'), JSON.stringify({ permissions: { allow: [3] } }));
    const [agent] = await hookAgents([{ host: 'vscode', label: "VS Code's agent", scope: 'project', file: 'x', agent: 'vscode' }], s.workspace);
    assert.match(agent!.problem ?? '', /permissions\.allow\[0\]/);
    assert.deepEqual(agent!.rules, { allow: [], ask: [], deny: [] });
  });
});
