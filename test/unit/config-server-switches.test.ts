/**
 * jevPanel.disabledServers and jevPanel.serverStart (src/config/panel-settings.ts) and the panel messages
 * that change them (src/panel/webview-messages.ts): bad values name the setting or field and the rule.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readPanelSettings, type InspectedValue, type SettingKey } from '../../src/config/panel-settings';
import { parseWebviewMessage } from '../../src/panel/webview-messages';

const read = (values: Partial<Record<SettingKey, InspectedValue>>, trusted = true) =>
  readPanelSettings((key) => values[key], { trusted, judgmentTools: ['jev_step'], homeDir: '/home/u' });

describe('server switches', () => {
  test('defaults: every server enabled, started on demand', () => {
    const s = read({});
    assert.deepEqual(s.disabledServers, []);
    assert.equal(s.serverStart, 'onDemand');
  });

  test('values are read from the trusted workspace, deduplicated', () => {
    const s = read({ disabledServers: { workspaceValue: ['a', 'a', 'b'] }, serverStart: { globalValue: 'onConnect' } });
    assert.deepEqual(s.disabledServers, ['a', 'b']);
    assert.equal(s.serverStart, 'onConnect');
  });

  test('bad values fall back and name the setting and the rule', () => {
    const s = read({ disabledServers: { globalValue: 'a' }, serverStart: { globalValue: 'always' } });
    assert.deepEqual(s.disabledServers, []);
    assert.equal(s.serverStart, 'onDemand');
    assert.deepEqual(s.problems, [
      'jevPanel.disabledServers: must be an array of server names; using every server enabled',
      'jevPanel.serverStart: must be one of onDemand, onConnect; using onDemand',
    ]);
  });

  test('panel messages: setServerEnabled and grantServer are checked field by field', () => {
    assert.ok('message' in parseWebviewMessage({ type: 'setServerEnabled', name: 'files', enabled: false }));
    assert.ok('message' in parseWebviewMessage({ type: 'grantServer', agent: 'editor', server: 'files', mode: 'readOnly' }));
    const bad = parseWebviewMessage({ type: 'grantServer', agent: 'editor', server: 'files', mode: 'write' });
    assert.ok('error' in bad && /"grantServer": mode:/.test(bad.error), JSON.stringify(bad));
    const extra = parseWebviewMessage({ type: 'setServerEnabled', name: 'files', enabled: true, scope: 'user' });
    assert.ok('error' in extra, 'extra fields are refused');
  });
});
