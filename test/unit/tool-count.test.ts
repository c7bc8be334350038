/** More than 128 tools for one agent is warned, naming the servers that contribute most (src/registry/tool-count.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toolCountWarning, VSCODE_TOOL_LIMIT } from '../../src/registry/tool-count';

const ids = (server: string, n: number) => Array.from({ length: n }, (_, i) => `${server}/t${i}`);
const judgment = Array.from({ length: 13 }, (_, i) => `jev_${i}`);

describe('tool count warning', () => {
  it('153 tools: warns, naming the biggest contributors first', () => {
    const tools = [...judgment, ...ids('github', 42), ...ids('everything', 98)];
    assert.equal(tools.length, 153);
    assert.equal(
      toolCountWarning('coder', tools),
      'agent "coder" is offered 153 tools; VS Code\'s agents degrade past 128: narrow the grants of everything (98 tools), github (42), judgment tools (13)',
    );
  });
  it('at the limit: no warning', () => {
    assert.equal(VSCODE_TOOL_LIMIT, 128);
    assert.equal(toolCountWarning('coder', [...judgment, ...ids('x', 115)]), undefined);
    assert.match(toolCountWarning('coder', [...judgment, ...ids('x', 116)]) ?? '', /offered 129 tools/);
  });
});
