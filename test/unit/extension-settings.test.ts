/**
 * The extension's settings reader and provider choice (no `vscode`): Workspace Trust scoping, validation
 * with fallbacks, and the auto rule (key → base URL → allowed chat model → mock with a warning).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chooseProvider, matchesChatModel, type ChatModelInfo } from '../../src/extension/provider-choice';
import { readPanelSettings, type InspectedValue, type PanelSettings, type SettingKey } from '../../src/extension/settings';

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

  test('the ledger path may start with ~/ and must be absolute', () => {
    assert.equal(read({ ledger: { globalValue: '~/jev/ledger.jsonl' } }).ledgerPath, '/home/u/jev/ledger.jsonl');
    assert.equal(read({ ledger: { globalValue: '/var/jev.jsonl' } }).ledgerPath, '/var/jev.jsonl');
  });

  test('a spend cap of 0 or null means no cap; a positive integer is kept', () => {
    assert.equal(read({ spendCap: { globalValue: 0 } }).spendCap, undefined);
    assert.equal(read({ spendCap: { globalValue: null } }).spendCap, undefined);
    assert.equal(read({ spendCap: { globalValue: 25 } }).spendCap, 25);
  });
});

describe('chooseProvider', () => {
  const model: ChatModelInfo = { vendor: 'copilot', family: 'gpt-4o', id: 'gpt-4o-2024', name: 'GPT-4o' };
  const base = (over: Partial<PanelSettings> = {}) => ({ ...read({}), ...over });

  test('auto: key → systemone, else base URL → systemone', () => {
    assert.deepEqual(chooseProvider({ settings: base(), hasApiKey: true, chatModels: [model] }), { kind: 'systemone', reason: 'API key set' });
    const url = chooseProvider({ settings: base({ baseUrl: 'http://localhost:11434' }), hasApiKey: false, chatModels: [model] });
    assert.equal(url.kind, 'systemone');
    assert.equal(url.reason, 'jevPanel.baseUrl set');
  });

  test('auto: a chat model is used only once the user allowed it; until then the mock, with a warning naming it', () => {
    const pending = chooseProvider({ settings: base(), hasApiKey: false, chatModels: [model] });
    assert.equal(pending.kind, 'mock');
    assert.match(pending.warning!, /copilot\/gpt-4o is available: run "Jev: Use Editor Chat Model"/);
    const allowed = chooseProvider({ settings: base(), hasApiKey: false, chatModels: [model], allowedChatModel: 'copilot/gpt-4o' });
    assert.equal(allowed.kind, 'vscode-lm');
    assert.equal(allowed.chatModel, model);
    const other = chooseProvider({ settings: base(), hasApiKey: false, chatModels: [model], allowedChatModel: 'copilot/o1' });
    assert.equal(other.kind, 'mock');
  });

  test('auto with nothing: the mock judge and a warning that says what to do', () => {
    const c = chooseProvider({ settings: base(), hasApiKey: false, chatModels: [] });
    assert.equal(c.kind, 'mock');
    assert.equal(c.reason, 'no backend configured');
    assert.match(c.warning!, /Mock judge in use.*Set API Key/);
    assert.equal(c.error, undefined);
  });

  test('explicit providers never fall back to the mock: a missing key/URL or chat model is an error', () => {
    const s1 = chooseProvider({ settings: base({ provider: 'systemone' }), hasApiKey: false, chatModels: [] });
    assert.equal(s1.kind, 'systemone');
    assert.match(s1.error!, /no API key is stored and jevPanel.baseUrl is not set/);
    const o1 = chooseProvider({ settings: base({ provider: 'openai' }), hasApiKey: false, chatModels: [] });
    assert.ok(o1.error);
    const lm = chooseProvider({ settings: base({ provider: 'vscode-lm', chatModel: 'acme/none' }), hasApiKey: true, chatModels: [model] });
    assert.equal(lm.kind, 'vscode-lm');
    assert.match(lm.error!, /no editor chat model matches jevPanel.chatModel "acme\/none"/);
    const lmOk = chooseProvider({ settings: base({ provider: 'vscode-lm', chatModel: 'copilot/gpt-4o' }), hasApiKey: false, chatModels: [model] });
    assert.equal(lmOk.error, undefined);
    assert.equal(lmOk.chatModel, model);
    const mock = chooseProvider({ settings: base({ provider: 'mock' }), hasApiKey: true, chatModels: [model] });
    assert.equal(mock.kind, 'mock');
    assert.ok(mock.warning);
  });

  test('a chat model is named by vendor/family, vendor/id, family or id', () => {
    for (const name of ['copilot/gpt-4o', 'copilot/gpt-4o-2024', 'gpt-4o', 'gpt-4o-2024']) assert.ok(matchesChatModel(model, name), name);
    assert.equal(matchesChatModel(model, 'other/gpt-4o'), false);
  });
});
