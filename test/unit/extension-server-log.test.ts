/**
 * Read-only server log text with start-attempt headers (src/extension/server-log.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { renderServerLog, startHeader } from '../../src/extension/server-log';

describe('renderServerLog', () => {
  test('puts each start header before the lines of that attempt', () => {
    const text = renderServerLog('files', ['boot 1', 'crash', 'boot 2'], 0, [
      { at: 0, header: 'H1' },
      { at: 2, header: 'H2' },
      { at: 3, header: 'H3' },
    ]);
    assert.deepEqual(text.trimEnd().split('\n').slice(1), ['H1', 'boot 1', 'crash', 'H2', 'boot 2', 'H3']);
    assert.match(text, /^# stderr of MCP server files \(read-only; last 3 lines\)/);
  });

  test('headers of dropped lines collapse into the latest, shown first', () => {
    const text = renderServerLog('s', ['c', 'd'], 5, [
      { at: 0, header: 'H1' },
      { at: 4, header: 'H2' },
      { at: 6, header: 'H3' },
    ]);
    assert.deepEqual(text.trimEnd().split('\n').slice(1), ['H2', 'c', 'H3', 'd']);
    assert.match(text, /5 earlier lines dropped/);
  });

  test('an empty log says so; restart headers name the attempt', () => {
    assert.match(renderServerLog('s', [], 0, []), /\(no stderr output yet\)/);
    assert.equal(startHeader(0, 0), '--- 1970-01-01T00:00:00.000Z start ---');
    assert.equal(startHeader(0, 2), '--- 1970-01-01T00:00:00.000Z start (restart 2) ---');
  });
});
