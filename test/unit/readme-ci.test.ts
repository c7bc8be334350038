/** The README's CI workflow runs the gate from a checkout: the package is not on npm, so `npx` would fetch a stranger's code. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

test('the CI workflow builds jevcp from a checkout and never runs it through npx', () => {
  const workflow = README.slice(README.indexOf('# .github/workflows/jev-gate.yml'));
  const yaml = workflow.slice(0, workflow.indexOf('```'));
  assert.doesNotMatch(yaml, /npx/);
  assert.match(yaml, /npm ci && npm run build/);
  assert.match(yaml, /node \.jevcp\/dist\/cli\.js gate/);
  assert.match(README, /not published on npm/);
});
