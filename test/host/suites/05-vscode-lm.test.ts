/**
 * The vscode-lm provider judging through a chat model that a test-only extension registers in this host
 * (vscode.lm.registerLanguageModelChatProvider, vendor "jev-test"), including malformed replies.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { JevPanelApi } from '../../../src/extension/api';
import { CHAT_FIXTURE_ID, SAMPLE_STEP_INPUT, activateJev, resetSettings, setSetting, waitFor } from '../helpers';

interface ChatFixture {
  setReply(fn: (prompt: string) => string | Promise<string>): void;
  prompts: string[];
}

/** A well-formed distribution for whatever options the prompt lists: the first option gets `top`. */
function goodReply(prompt: string, top = 0.9): string {
  if (/\nyes( — .*)?\nno( — .*)?\n/.test(`${prompt}\n`) || /"yes": 0\.8/.test(prompt)) return JSON.stringify({ yes: top, no: 1 - top });
  const labels = [...prompt.matchAll(/^(\d+)\) /gm)].map((m) => m[1]!);
  if (labels.length === 0) return '{"yes": 1, "no": 0}'; // e.g. the permission probe of "Use Editor Chat Model"
  const rest = (1 - top) / Math.max(1, labels.length - 1);
  return '```json\n' + JSON.stringify(Object.fromEntries(labels.map((l, i) => [l, i === 0 ? top : rest]))) + '\n```';
}

describe('vscode-lm provider', () => {
  let api: JevPanelApi;
  let chat: ChatFixture;

  before(async () => {
    api = await activateJev();
    const fixture = vscode.extensions.getExtension<ChatFixture>(CHAT_FIXTURE_ID);
    assert.ok(fixture, 'the test chat-model extension is loaded');
    chat = await fixture.activate();
    await waitFor('the test chat model to be listed', async () => (await vscode.lm.selectChatModels({ vendor: 'jev-test' })).length > 0);
    await resetSettings(api);
  });
  after(async () => {
    await resetSettings(api);
  });

  it('provider auto without a key: the mock answers, and the panel points at the available chat model', async () => {
    const status = api.status();
    assert.equal(status.provider, 'mock');
    assert.match(status.message ?? '', /jev-test\/scripted-1 is available/);
  });

  it('judges jev_step through the chat model: model vscode-lm:<vendor>/<family>, uncalibrated, validated answers', async () => {
    await setSetting(api, 'provider', 'vscode-lm');
    await setSetting(api, 'chatModel', 'jev-test/scripted-1');
    const status = api.status();
    assert.equal(status.provider, 'vscode-lm');
    assert.equal(status.model, 'vscode-lm:jev-test/scripted-1');
    assert.equal(status.calibrated, false);
    chat.setReply((p) => goodReply(p));
    const seen = chat.prompts.length;
    const outcome = await api.call('jev_step', structuredClone(SAMPLE_STEP_INPUT));
    assert.equal(outcome.ok, true, outcome.ok ? '' : `${outcome.error.code}: ${outcome.error.message}`);
    assert.equal(outcome.record.provider, 'vscode-lm');
    assert.equal(outcome.record.response?.model, 'vscode-lm:jev-test/scripted-1');
    const asked = chat.prompts.slice(seen);
    assert.equal(asked.length, Object.keys(outcome.record.questions ?? {}).length, 'one chat request per question');
    assert.ok(asked.every((p) => p.includes('parseConfig') && p.includes('Reply with only a JSON object')));
    for (const answer of Object.values(outcome.record.response!.answers)) {
      if (answer.type === 'noul') assert.ok(Math.abs(answer.noul - 0.9) < 1e-9 || Math.abs(answer.noul - 0.1) < 1e-9 || answer.noul >= 0);
      else assert.ok(Math.abs(Object.values(answer.probabilities).reduce((a, b) => a + b, 0) - 1) < 1e-9);
    }
  });

  it('a malformed reply is INVALID_RESPONSE, never an answer and never auto', async () => {
    for (const reply of ['I would pick the first option.', '{"1": 0.7, "9": 0.3}', '{"1": -1}', '{}']) {
      chat.setReply((p) => (/^1\) /m.test(p) || /\nyes/.test(p) ? reply : goodReply(p)));
      const outcome = await api.call('jev_step', structuredClone(SAMPLE_STEP_INPUT));
      assert.equal(outcome.ok, false, `reply ${JSON.stringify(reply)} was accepted`);
      if (!outcome.ok) assert.equal(outcome.error.code, 'INVALID_RESPONSE', `${reply}: ${outcome.error.message}`);
      assert.equal(outcome.record.result, undefined);
      const row = api.feed().at(-1)!;
      assert.equal(row.error, 'INVALID_RESPONSE');
      assert.equal(row.action, undefined);
    }
  });

  it('a chat model that throws is an API error, not an answer', async () => {
    chat.setReply(() => {
      throw new Error('model exploded');
    });
    const outcome = await api.call('ask_noul', { state: 'The build is green.', instruction: 'Is the build green?' });
    assert.equal(outcome.ok, false);
    if (!outcome.ok) assert.ok(['API_ERROR', 'CONFIG_ERROR'].includes(outcome.error.code), outcome.error.code);
  });

  it('a chat model that hangs (ignoring cancellation) fails with TIMEOUT at the call deadline', async () => {
    await setSetting(api, 'timeoutMs', 1_500);
    chat.setReply(() => new Promise<string>(() => undefined));
    const started = Date.now();
    const outcome = await api.call('ask_noul', { state: 'The build is green.', instruction: 'Is the build green?' });
    const took = Date.now() - started;
    assert.equal(outcome.ok, false);
    if (!outcome.ok) assert.equal(outcome.error.code, 'TIMEOUT');
    assert.ok(took >= 1_400 && took < 5_000, `took ${took} ms`);
    await setSetting(api, 'timeoutMs', undefined);
  });

  it('"Jev: Use Editor Chat Model" (a user action) lets provider auto judge with it', async () => {
    await resetSettings(api);
    chat.setReply((p) => goodReply(p));
    const allowed = await vscode.commands.executeCommand('jevPanel.useChatModel', 'jev-test/scripted-1');
    assert.equal(allowed, true);
    const status = api.status();
    assert.equal(status.provider, 'vscode-lm');
    assert.match(status.reason, /allowed by you/);
    const outcome = await api.call('ask_noul', { state: 'The build is green: 42 tests pass.', instruction: 'Is the build green?' });
    assert.equal(outcome.ok, true, outcome.ok ? '' : outcome.error.message);
    assert.equal(outcome.record.response?.model, 'vscode-lm:jev-test/scripted-1');
    // Leave the host judging with the mock again for any later suite.
    await setSetting(api, 'provider', 'mock');
  });
});
