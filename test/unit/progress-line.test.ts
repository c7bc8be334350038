/** progressText / progressPrinter (src/cli/progress-line.ts): what `jevcp step --execute` prints while a call runs. */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { progressPrinter, progressText } from '../../src/cli/progress-line';

test('progress text: amount of total with a floored percent, the message after a dash', () => {
  assert.equal(progressText({ progress: 12, total: 80, message: 'compiling' }), '12/80 (15 %) — compiling');
  assert.equal(progressText({ progress: 3 }), '3');
  assert.equal(progressText({ progress: 5, total: 0, message: '  ' }), '5', 'no total of 0, no blank message');
  assert.equal(progressText({ progress: 120, total: 100 }), '120/100 (100 %)', 'a server overshooting its total never reads above 100 %');
});

test('at most one line a second, the first at once; control characters in a message are escaped', () => {
  let now = 10_000;
  const out: string[] = [];
  const print = progressPrinter({ write: (t) => out.push(t) }, 'srv__build', () => now);
  print({ progress: 1, total: 4, message: 'a\u001b[2Jb' });
  now += 400;
  print({ progress: 2, total: 4 });
  now += 600;
  print({ progress: 3, total: 4 });
  assert.deepEqual(out, ['jevcp: progress of srv__build: 1/4 (25 %) — a\\x1b[2Jb\n', 'jevcp: progress of srv__build: 3/4 (75 %)\n']);
});
