/**
 * `jevcp guard install|uninstall` (src/guard/install/): each host's configuration file, merged with the
 * hooks already there, idempotent, and undone exactly: byte for byte when the file is as the install left
 * it, our entries only when someone edited it since.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { guardStatus, installGuard, uninstallGuard } from '../../src/guard/install/install';
import type { HostName } from '../../src/guard/types';
import { guardCases } from '../helpers/guard-workspace';

const setup = guardCases('jev-guard-install-');

const opts = (s: ReturnType<typeof setup>, host: HostName, scope: 'project' | 'user' = 'project') => ({ host, scope, workspace: s.workspace, env: s.env, state: s.state });
const paths = { nodePath: '/usr/bin/node', cliPath: '/opt/jev/dist/cli.js' };

// A Claude settings file with other hooks and settings, in its own formatting (tabs, no final newline).
const CLAUDE_SETTINGS = '{\n\t"permissions": {"allow": ["Bash(npm test)"]},\n\t"hooks": {\n\t\t"PreToolUse": [\n\t\t\t{"matcher": "Bash", "hooks": [{"type": "command", "command": "./audit.sh"}]}\n\t\t],\n\t\t"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]\n\t}\n}';

describe('claude-code', () => {
  it('merges into .claude/settings.json after the hooks there, idempotently, and restores the bytes', async () => {
    const s = setup();
    const file = join(s.workspace, '.claude', 'settings.json');
    mkdirSync(join(s.workspace, '.claude'));
    writeFileSync(file, CLAUDE_SETTINGS);
    const r = await installGuard({ ...opts(s, 'claude-code'), ...paths });
    assert.equal(r.action, 'installed');
    const cfg = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(cfg.hooks.PreToolUse.length, 2);
    assert.equal(cfg.hooks.PreToolUse[0].hooks[0].command, './audit.sh');
    assert.deepEqual(cfg.hooks.PreToolUse[1], { matcher: '*', hooks: [{ type: 'command', command: "'/usr/bin/node' '/opt/jev/dist/cli.js' guard --host claude-code", timeout: 60 }] });
    assert.deepEqual(cfg.hooks.PostToolUse, [
      { matcher: 'Bash|WebFetch|WebSearch|mcp__.*', hooks: [{ type: 'command', command: "'/usr/bin/node' '/opt/jev/dist/cli.js' guard --host claude-code", timeout: 60 }] },
    ]);
    assert.deepEqual(cfg.permissions, { allow: ['Bash(npm test)'] });
    assert.match(readFileSync(file, 'utf8'), /\n\t"hooks"/, 'keeps the file\'s indentation');
    assert.equal((await installGuard({ ...opts(s, 'claude-code'), ...paths })).action, 'unchanged');
    assert.equal((await guardStatus(opts(s, 'claude-code'))).installed, true);
    const u = await uninstallGuard(opts(s, 'claude-code'));
    assert.equal(u.action, 'restored');
    assert.equal(readFileSync(file, 'utf8'), CLAUDE_SETTINGS);
    assert.equal((await uninstallGuard(opts(s, 'claude-code'))).action, 'not-installed');
  });

  it('an update (another agent) keeps the original bytes for the uninstall', async () => {
    const s = setup();
    const file = join(s.workspace, '.claude', 'settings.json');
    mkdirSync(join(s.workspace, '.claude'));
    writeFileSync(file, CLAUDE_SETTINGS);
    await installGuard({ ...opts(s, 'claude-code'), ...paths });
    assert.equal((await installGuard({ ...opts(s, 'claude-code'), ...paths, agent: 'reviewer' })).action, 'updated');
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).hooks.PreToolUse.length, 2);
    await uninstallGuard(opts(s, 'claude-code'));
    assert.equal(readFileSync(file, 'utf8'), CLAUDE_SETTINGS);
  });

  it('edited since the install: only our entry goes, the edit stays', async () => {
    const s = setup();
    const file = join(s.workspace, '.claude', 'settings.json');
    mkdirSync(join(s.workspace, '.claude'));
    writeFileSync(file, CLAUDE_SETTINGS);
    await installGuard({ ...opts(s, 'claude-code'), ...paths });
    const cfg = JSON.parse(readFileSync(file, 'utf8'));
    cfg.model = 'sonnet';
    writeFileSync(file, JSON.stringify(cfg, null, '\t'));
    assert.equal((await uninstallGuard(opts(s, 'claude-code'))).action, 'removed');
    const after = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(after.model, 'sonnet');
    assert.deepEqual(after.hooks, JSON.parse(CLAUDE_SETTINGS).hooks);
  });

  it('no file before: uninstall removes the file and the folders it created; user scope goes to ~/.claude', async () => {
    const s = setup();
    await installGuard({ ...opts(s, 'claude-code', 'user'), ...paths });
    assert.equal(existsSync(join(s.home, '.claude', 'settings.json')), true);
    await uninstallGuard(opts(s, 'claude-code', 'user'));
    assert.equal(existsSync(join(s.home, '.claude')), false);
  });

  it('refuses a settings file that is not JSON, changing nothing', async () => {
    const s = setup();
    mkdirSync(join(s.workspace, '.claude'));
    writeFileSync(join(s.workspace, '.claude', 'settings.json'), '{ oops');
    await assert.rejects(installGuard({ ...opts(s, 'claude-code'), ...paths }), /not valid JSON.*nothing was changed/);
    assert.equal(readFileSync(join(s.workspace, '.claude', 'settings.json'), 'utf8'), '{ oops');
  });
});

describe('codex, vscode, copilot-cli', () => {
  it('codex: PreToolUse and PermissionRequest on Bash, PostToolUse on Bash, web search and MCP, in .codex/hooks.json beside other hooks; round trip', async () => {
    const s = setup();
    const file = join(s.workspace, '.codex', 'hooks.json');
    mkdirSync(join(s.workspace, '.codex'));
    const before = JSON.stringify({ hooks: { SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'echo hi' }] }] } }, null, 2) + '\n';
    writeFileSync(file, before);
    await installGuard({ ...opts(s, 'codex'), ...paths });
    const cfg = JSON.parse(readFileSync(file, 'utf8'));
    assert.deepEqual(Object.keys(cfg.hooks), ['SessionStart', 'PreToolUse', 'PermissionRequest', 'PostToolUse']);
    assert.equal(cfg.hooks.PermissionRequest[0].matcher, 'Bash');
    assert.equal(cfg.hooks.PostToolUse[0].matcher, 'Bash|web_search|mcp__.*');
    await uninstallGuard(opts(s, 'codex'));
    assert.equal(readFileSync(file, 'utf8'), before);
  });

  it('vscode: its own file in .github/hooks/, other hook files untouched; refuses a foreign file of that name', async () => {
    const s = setup();
    mkdirSync(join(s.workspace, '.github', 'hooks'), { recursive: true });
    writeFileSync(join(s.workspace, '.github', 'hooks', 'lint.json'), '{"hooks":{}}');
    await installGuard({ ...opts(s, 'vscode'), ...paths });
    const cfg = JSON.parse(readFileSync(join(s.workspace, '.github', 'hooks', 'jev-guard.json'), 'utf8'));
    const entry = { type: 'command', command: "'/usr/bin/node' '/opt/jev/dist/cli.js' guard --host vscode", timeout: 30 };
    assert.deepEqual(cfg, { hooks: { UserPromptSubmit: [entry], PreToolUse: [entry], PostToolUse: [entry] } });
    await uninstallGuard(opts(s, 'vscode'));
    assert.equal(existsSync(join(s.workspace, '.github', 'hooks', 'jev-guard.json')), false);
    assert.equal(readFileSync(join(s.workspace, '.github', 'hooks', 'lint.json'), 'utf8'), '{"hooks":{}}');
    writeFileSync(join(s.workspace, '.github', 'hooks', 'jev-guard.json'), '{"hooks":{"Stop":[]}}');
    await assert.rejects(installGuard({ ...opts(s, 'vscode'), ...paths }), /not the Jev guard's file/);
  });

  it('copilot-cli: version 1 file with preToolUse/bash/timeoutSec; user scope refused', async () => {
    const s = setup();
    await installGuard({ ...opts(s, 'copilot-cli'), ...paths });
    const cfg = JSON.parse(readFileSync(join(s.workspace, '.github', 'hooks', 'jev-guard-copilot-cli.json'), 'utf8'));
    assert.deepEqual(cfg, { version: 1, hooks: { preToolUse: [{ type: 'command', bash: "'/usr/bin/node' '/opt/jev/dist/cli.js' guard --host copilot-cli", timeoutSec: 30 }] } });
    await uninstallGuard(opts(s, 'copilot-cli'));
    assert.equal(existsSync(join(s.workspace, '.github')), false, 'the folders the install created are gone');
    await assert.rejects(installGuard({ ...opts(s, 'copilot-cli', 'user'), ...paths }), /only --scope project/);
  });

  it('relative node or CLI paths are refused', async () => {
    const s = setup();
    await assert.rejects(installGuard({ ...opts(s, 'vscode'), nodePath: 'node', cliPath: paths.cliPath }), /nodePath must be an absolute path/);
  });
});
