/**
 * Read-only server log text with start-attempt headers (src/registry/server-log.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_LOG_MARKS, markStart, renderServerLog, startHeader, type LogMark } from '../../src/registry/server-log';

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

describe('markStart', () => {
  test('one header per start attempt; a first start reported twice at the same line counts once; old headers age out', () => {
    const marks: LogMark[] = [];
    markStart(marks, 0, 0, 0);
    markStart(marks, 0, 0, 0);
    markStart(marks, 0, 1_000, 1);
    assert.deepEqual(marks.map((m) => [m.at, m.header]), [
      [0, startHeader(0, 0)],
      [0, startHeader(1_000, 1)],
    ]);
    for (let i = 1; i <= MAX_LOG_MARKS + 5; i++) markStart(marks, i, 0, i);
    assert.equal(marks.length, MAX_LOG_MARKS);
    assert.equal(marks.at(-1)!.at, MAX_LOG_MARKS + 5);
  });
});
