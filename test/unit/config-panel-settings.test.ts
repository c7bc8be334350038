/**
 * Validation of the extension's settings (src/config/panel-settings.ts): Workspace Trust scoping and
 * validation with fallbacks.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readPanelSettings, type InspectedValue, type PanelSettings, type SettingKey } from '../../src/config/panel-settings';

const TOOLS = ['jev_step', 'jev_gate'];

function read(values: Partial<Record<SettingKey, InspectedValue>>, trusted = true): PanelSettings {
  return readPanelSettings((key) => values[key], { trusted, judgmentTools: TOOLS, homeDir: '/home/u' });
}

describe('readPanelSettings', () => {
  test('defaults: auto, jev-latest, floors 0.8/0.5/0.75, 30 s, no cap, no servers, editor granted the judgment tools', () => {
    const s = read({});
    assert.equal(s.provider, 'auto');
    assert.equal(s.model, 'jev-latest');
    assert.deepEqual(s.floors, { auto_accept: 0.8, review_at: 0.5, block_at: 0.75 });
    assert.equal(s.timeoutMs, 30_000);
    assert.equal(s.spendCap, undefined);
    assert.deepEqual(s.servers, []);
    assert.deepEqual(s.agents, [{ name: 'editor', tools: TOOLS }]);
    assert.deepEqual(s.problems, []);
  });

  test('trusted: workspace folder beats workspace beats user; servers remember their scope', () => {
    const s = read({
      'thresholds.autoAccept': { globalValue: 0.9, workspaceValue: 0.85, workspaceFolderValue: 0.95 },
      mcpServers: { globalValue: { u: { command: 'u' } }, workspaceValue: { w: { command: 'w' } } },
    });
    assert.equal(s.floors.auto_accept, 0.95);
    assert.deepEqual(s.servers.map((x) => `${x.name}:${x.scope}`), ['w:workspace']);
  });

  test('untrusted: every workspace value is ignored and reported; user values still apply', () => {
    const s = read(
      {
        provider: { workspaceValue: 'mock' },
        baseUrl: { workspaceValue: 'https://attacker.example' },
        'thresholds.autoAccept': { globalValue: 0.9, workspaceValue: 0.05 },
        mcpServers: { globalValue: { mine: { command: 'node' } }, workspaceFolderValue: { theirs: { command: 'sh' } } },
        agents: { workspaceValue: [{ name: 'editor', tools: ['*'] }] },
        ledger: { workspaceValue: '/tmp/elsewhere.jsonl' },
      },
      false,
    );
    assert.equal(s.trusted, false);
    assert.equal(s.provider, 'auto');
    assert.equal(s.baseUrl, undefined);
    assert.equal(s.floors.auto_accept, 0.9);
    assert.deepEqual(s.servers.map((x) => `${x.name}:${x.scope}`), ['mine:user']);
    assert.deepEqual(s.agents, [{ name: 'editor', tools: TOOLS }]);
    assert.equal(s.ledgerPath, undefined);
    assert.deepEqual([...s.ignoredWorkspaceKeys].sort(), ['agents', 'baseUrl', 'ledger', 'mcpServers', 'provider', 'thresholds.autoAccept']);
  });

  test('bad values fall back to safe defaults with a problem naming the key and the rule', () => {
    const s = read({
      provider: { globalValue: 'gpt' },
      'thresholds.autoAccept': { globalValue: 1.5 },
      'thresholds.reviewAt': { globalValue: 0.9, defaultValue: 0.5 },
      'thresholds.blockAt': { globalValue: 0.1 },
      timeoutMs: { globalValue: -5 },
      spendCap: { globalValue: 2.5 },
      baseUrl: { globalValue: 'http://example.com' },
      ledger: { globalValue: 'relative/ledger.jsonl' },
    });
    assert.equal(s.provider, 'auto');
    assert.deepEqual(s.floors, { auto_accept: 0.8, review_at: 0.5, block_at: 0.75 });
    assert.equal(s.timeoutMs, 30_000);
    assert.equal(s.spendCap, undefined);
    assert.equal(s.baseUrl, undefined);
    assert.equal(s.ledgerPath, undefined);
    const text = s.problems.join('\n');
    for (const key of ['provider', 'thresholds.autoAccept', 'thresholds.reviewAt', 'thresholds.blockAt', 'timeoutMs', 'spendCap', 'baseUrl', 'ledger']) {
      assert.match(text, new RegExp(`jevPanel\\.${key.replace('.', '\\.')}`), `no problem names ${key}`);
    }
    assert.match(text, /plain http only for localhost/);
  });

  test('a model ending in +mock is a problem (the suffix marks the mock judge), and the default model is used', () => {
    const s = read({ model: { globalValue: 'jev-latest+mock' } });
    assert.equal(s.model, 'jev-latest');
    assert.match(s.problems.join('\n'), /jevPanel\.model: must not end in "\+mock"/);
  });

  test('a base URL on a port fetch refuses is a problem naming jevPanel.baseUrl, not a later API error', () => {
    const s = read({ baseUrl: { globalValue: 'http://127.0.0.1:6000' } });
    assert.equal(s.baseUrl, undefined);
    assert.match(s.problems.join('\n'), /jevPanel\.baseUrl uses port 6000, which fetch refuses/);
    assert.equal(read({ baseUrl: { globalValue: 'http://127.0.0.1:6001' } }).baseUrl, 'http://127.0.0.1:6001');
  });

  test('servers and agents are validated one by one: a bad entry is skipped with its field, the rest kept', () => {
    const s = read({
      mcpServers: { globalValue: { good: { command: 'node', args: ['s.js'] }, 'bad name': { command: 'x' }, nourl: { type: 'http' }, web: { url: 'http://remote.example/mcp' } } },
      agents: { globalValue: [{ name: 'editor', tools: ['jev_*', '!jev_gate'] }, { name: 'ci', tools: ['!'] }, { name: 'editor', tools: [] }] },
    });
    assert.deepEqual(s.servers.map((x) => x.name), ['good']);
    assert.deepEqual(s.agents, [{ name: 'editor', tools: ['jev_*', '!jev_gate'] }]);
    const text = s.problems.join('\n');
    assert.match(text, /jevPanel\.mcpServers\.bad name: server names/);
    assert.match(text, /jevPanel\.mcpServers\.nourl/);
    assert.match(text, /jevPanel\.mcpServers\.web.*loopback/);
    assert.match(text, /jevPanel\.agents\[1\]\.tools\[0\]/);
    assert.match(text, /jevPanel\.agents\[2\]\.name: duplicate agent "editor"/);
  });

  test("an agent's screen setting is read with the config file's rules", () => {
    const s = read({ agents: { globalValue: [{ name: 'editor', tools: ['*'], screen: 'strict' }, { name: 'ci', tools: [], screen: true }] } });
    assert.deepEqual(s.agents, [{ name: 'editor', tools: ['*'], screen: 'strict' }]);
    assert.match(s.problems.join('\n'), /jevPanel\.agents\[1\]\.screen: must be false, "strict" or an object \{mode, commands\}; agent skipped/);
  });

  test('the ledger path may start with ~/ and must be absolute', () => {
    assert.equal(read({ ledger: { globalValue: '~/jev/ledger.jsonl' } }).ledgerPath, '/home/u/jev/ledger.jsonl');
    assert.equal(read({ ledger: { globalValue: '/var/jev.jsonl' } }).ledgerPath, '/var/jev.jsonl');
  });

  test('gatewayMaxResultBytes: default 1 MiB; a value within 4 096 – 8 388 608 is kept; another is a problem', () => {
    assert.equal(read({}).gatewayMaxResultBytes, 1_048_576);
    assert.equal(read({ gatewayMaxResultBytes: { globalValue: 200_000 } }).gatewayMaxResultBytes, 200_000);
    const bad = read({ gatewayMaxResultBytes: { globalValue: 100 } });
    assert.equal(bad.gatewayMaxResultBytes, 1_048_576);
    assert.match(bad.problems.join('\n'), /jevPanel\.gatewayMaxResultBytes: must be an integer number of bytes from 4096 to 8388608; using 1048576/);
  });

  test('a spend cap of 0 or null means no cap; a positive integer is kept', () => {
    assert.equal(read({ spendCap: { globalValue: 0 } }).spendCap, undefined);
    assert.equal(read({ spendCap: { globalValue: null } }).spendCap, undefined);
    assert.equal(read({ spendCap: { globalValue: 25 } }).spendCap, 25);
  });
});
