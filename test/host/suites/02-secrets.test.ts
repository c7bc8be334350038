/**
 * The API key lives in SecretStorage only: set → used as the bearer of System One requests, never in
 * settings, the ledger or the log; clear → gone.
 */
import * as assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { closedPort } from '../../helpers/raw-http';
import { startFakeSystemOne, type FakeSystemOne } from '../../helpers/fake-systemone';
import { SAMPLE_STEP_INPUT, SETTING_KEYS, activateJev, resetSettings, setSetting } from '../helpers';

const KEY = 'jev-test-key-5e1f0c2a';

describe('API key in SecretStorage', () => {
  let fake: FakeSystemOne;
  before(async () => {
    fake = await startFakeSystemOne();
  });
  after(async () => {
    await vscode.commands.executeCommand('jevPanel.clearApiKey');
    await fake.close();
  });

  it('Set API Key → provider systemone, the key is the bearer of requests and is stored nowhere else', async () => {
    const api = await activateJev();
    await resetSettings(api);
    await vscode.commands.executeCommand('jevPanel.setApiKey', KEY);
    assert.equal(api.status().provider, 'systemone');
    assert.equal(api.status().reason, 'API key set');
    // Send it to the fake server on 127.0.0.1 (never to the default remote URL).
    await setSetting(api, 'baseUrl', fake.url);
    const outcome = await api.call('jev_step', structuredClone(SAMPLE_STEP_INPUT));
    assert.equal(outcome.ok, true, outcome.ok ? '' : `${outcome.error.code}: ${outcome.error.message}`);
    assert.ok(fake.count() >= 1);
    assert.equal(fake.requests.at(-1)!.headers.authorization, `Bearer ${KEY}`);

    const config = vscode.workspace.getConfiguration('jevPanel');
    for (const key of SETTING_KEYS) assert.ok(!JSON.stringify(config.inspect(key) ?? {}).includes(KEY), `jevPanel.${key} holds the key`);
    const record = api.getRecord(outcome.record.id)!;
    assert.ok(!JSON.stringify(record).includes(KEY), 'the ledger record holds the key');
    const ledger = await ledgerText(api);
    assert.ok(!ledger.includes(KEY), 'the ledger file holds the key');
  });

  it('a failing backend shows health error until a call succeeds; a closed port too; the key is never shown', async () => {
    const api = await activateJev();
    await vscode.commands.executeCommand('jevPanel.setApiKey', KEY);
    await setSetting(api, 'baseUrl', fake.url);
    fake.script({ status: 401 });
    const failed = await api.call('jev_step', structuredClone(SAMPLE_STEP_INPUT));
    assert.equal(failed.ok, false);
    assert.equal(api.status().health, 'error');
    assert.match(api.status().message ?? '', /^Last call failed: API_ERROR — /);
    assert.ok(!JSON.stringify(api.status()).includes(KEY));
    assert.match(api.statusBarText(), /\$\(error\)/);
    const ok = await api.call('jev_step', structuredClone(SAMPLE_STEP_INPUT));
    assert.equal(ok.ok, true, ok.ok ? '' : `${ok.error.code}: ${ok.error.message}`);
    assert.notEqual(api.status().health, 'error');
    assert.doesNotMatch(api.statusBarText(), /\$\(error\)/);

    const closed = `http://127.0.0.1:${await closedPort()}`;
    await setSetting(api, 'baseUrl', closed);
    assert.notEqual(api.status().health, 'error', 'a new backend starts without a verdict');
    const dead = await api.call('jev_step', structuredClone(SAMPLE_STEP_INPUT));
    assert.equal(dead.ok, false);
    assert.equal(api.status().health, 'error');
    assert.match(api.status().message ?? '', /^Last call failed: (API_ERROR|TIMEOUT) — /);
    assert.doesNotMatch(api.status().message ?? '', /JEV_|TYPESAFE_/, 'the editor names its settings, not CLI variables');
    await setSetting(api, 'baseUrl', fake.url);
  });

  it('Clear API Key → requests go without a bearer; with no base URL the mock judge is back', async () => {
    const api = await activateJev();
    await vscode.commands.executeCommand('jevPanel.clearApiKey');
    await api.refresh();
    assert.equal(api.status().provider, 'systemone');
    assert.equal(api.status().reason, 'jevPanel.baseUrl set');
    const seen = fake.count();
    const outcome = await api.call('jev_step', structuredClone(SAMPLE_STEP_INPUT));
    assert.equal(outcome.ok, true);
    assert.ok(fake.count() > seen);
    assert.equal(fake.requests.at(-1)!.headers.authorization, undefined);
    await resetSettings(api);
    assert.equal(api.status().provider, 'mock');
  });
});

async function ledgerText(api: { settings(): { ledgerPath?: string } }): Promise<string> {
  const path = api.settings().ledgerPath;
  if (path) return existsSync(path) ? readFileSync(path, 'utf8') : '';
  // Default ledger: find it through the Open Ledger command's document.
  await vscode.commands.executeCommand('jevPanel.openLedger');
  const doc = vscode.window.activeTextEditor?.document;
  assert.ok(doc && doc.uri.fsPath.endsWith('ledger.jsonl'), 'Open Decision Ledger opens the ledger file');
  return doc.getText();
}
