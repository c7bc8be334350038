/**
 * CLI variable names in error texts become editor settings/commands (src/config/editor-wording.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { editorWording } from '../../src/config/editor-wording';

describe('editorWording', () => {
  test('maps each CLI variable to its editor counterpart', () => {
    assert.equal(editorWording('connection refused; check JEV_BASE_URL.'), 'connection refused; check jevPanel.baseUrl.');
    assert.equal(editorWording('HTTP 401: check JEV_API_KEY'), 'HTTP 401: check the API key (Jev: Set API Key)');
    assert.equal(editorWording('TYPESAFE_API_KEY rejected'), 'the API key (Jev: Set API Key) rejected');
    assert.equal(editorWording('after 30000 ms (JEV_TIMEOUT_MS)'), 'after 30000 ms (jevPanel.timeoutMs)');
    assert.equal(editorWording('JEV_SPEND_CAP of 3 reached'), 'jevPanel.spendCap of 3 reached');
    assert.equal(editorWording('unknown model; set JEV_MODEL'), 'unknown model; set jevPanel.model');
  });

  test('replaces every occurrence and only whole names', () => {
    assert.equal(editorWording('JEV_BASE_URL or JEV_BASE_URL'), 'jevPanel.baseUrl or jevPanel.baseUrl');
    assert.equal(editorWording('MY_JEV_BASE_URL_X stays'), 'MY_JEV_BASE_URL_X stays');
    assert.equal(editorWording('JEV_MODELS stays'), 'JEV_MODELS stays');
    assert.equal(editorWording('no variables here'), 'no variables here');
  });
});
