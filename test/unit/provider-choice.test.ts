/**
 * The extension's backend choice (src/providers/choice.ts): the auto rule (key → base URL → allowed chat
 * model → mock with a warning), explicit providers failing closed, and chat model names.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readPanelSettings, type PanelSettings } from '../../src/config/panel-settings';
import { chooseProvider } from '../../src/providers/choice';
import { matchesChatModel, type ChatModelInfo } from '../../src/providers/vscode-lm/model';

describe('chooseProvider', () => {
  const model: ChatModelInfo = { vendor: 'copilot', family: 'gpt-4o', id: 'gpt-4o-2024', name: 'GPT-4o' };
  const base = (over: Partial<PanelSettings> = {}): PanelSettings => ({ ...readPanelSettings(() => undefined, { trusted: true, judgmentTools: [] }), ...over });

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
