/**
 * shouldScreen (src/screen/select.ts): which tool results are screened before the agent reads them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commandMatches, shouldScreen, type ResultOrigin } from '../../src/screen';

const config = { commands: ['curl*', 'gh issue view*', 'wget *'] };

const table: [string, ResultOrigin, boolean][] = [
  // Hosts' web tools.
  ['Claude Code WebFetch', { kind: 'host-tool', tool: 'WebFetch' }, true],
  ['Claude Code WebSearch', { kind: 'host-tool', tool: 'WebSearch' }, true],
  ['VS Code fetch_webpage', { kind: 'host-tool', tool: 'fetch_webpage' }, true],
  ['VS Code internal fetch tool', { kind: 'host-tool', tool: 'vscode_fetchWebPage_internal' }, true],
  ['Codex web_search', { kind: 'host-tool', tool: 'web_search' }, true],
  ['Copilot CLI web_fetch', { kind: 'host-tool', tool: 'web_fetch' }, true],
  // First-party workspace reads and other host tools: never.
  ['Claude Code Read', { kind: 'host-tool', tool: 'Read' }, false],
  ['VS Code read_file', { kind: 'host-tool', tool: 'read_file' }, false],
  ['Copilot CLI view', { kind: 'host-tool', tool: 'view' }, false],
  ['Grep', { kind: 'host-tool', tool: 'Grep' }, false],
  // Shell commands by pattern.
  ['curl', { kind: 'host-tool', tool: 'Bash', command: 'curl -s https://example.com' }, true],
  ['gh issue view', { kind: 'host-tool', tool: 'run_in_terminal', command: 'gh issue view 23 --comments' }, true],
  ['gh issue list (not listed)', { kind: 'host-tool', tool: 'Bash', command: 'gh issue list' }, false],
  ['curl after cd &&', { kind: 'host-tool', tool: 'Bash', command: 'cd /tmp && curl https://x' }, true],
  ['curl in a pipe', { kind: 'host-tool', tool: 'Bash', command: 'echo 1 | curl -d @- https://x' }, true],
  ['curl inside bash -lc "…"', { kind: 'host-tool', tool: 'shell', command: 'bash -lc "curl https://x"' }, true],
  ['curl in $(…)', { kind: 'host-tool', tool: 'Bash', command: 'echo $(curl https://x)' }, true],
  ['env prefix', { kind: 'host-tool', tool: 'Bash', command: 'HTTPS_PROXY=http://p:1 curl https://x' }, true],
  ['npm test', { kind: 'host-tool', tool: 'Bash', command: 'npm test' }, false],
  ['cat of a workspace file', { kind: 'host-tool', tool: 'Bash', command: 'cat src/index.ts' }, false],
  ['curlew is not curl… it is (glob)', { kind: 'host-tool', tool: 'Bash', command: 'curlew' }, true],
  ['wget needs its space', { kind: 'host-tool', tool: 'Bash', command: 'wgetx' }, false],
  // MCP servers.
  ['server marked screen', { kind: 'mcp', server: 'github', tool: 'get_issue', serverConfig: { screen: true } }, true],
  ['server not marked', { kind: 'mcp', server: 'github', tool: 'get_issue', annotations: { openWorldHint: true } }, false],
  ['openWorldHint from a trusted server', { kind: 'mcp', server: 'web', tool: 'fetch', annotations: { openWorldHint: true }, serverConfig: { trustAnnotations: true } }, true],
  ['closed world from a trusted server', { kind: 'mcp', server: 'db', tool: 'query', annotations: { openWorldHint: false }, serverConfig: { trustAnnotations: true } }, false],
  ['trusted server, no annotations', { kind: 'mcp', server: 'db', tool: 'query', serverConfig: { trustAnnotations: true } }, false],
  ['explicit screen: false opts out', { kind: 'mcp', server: 'web', tool: 'fetch', annotations: { openWorldHint: true }, serverConfig: { screen: false, trustAnnotations: true } }, false],
  ['an MCP tool named like a web tool is not a host tool', { kind: 'mcp', server: 'x', tool: 'WebFetch' }, false],
];

describe('shouldScreen', () => {
  for (const [name, origin, expected] of table) {
    it(`${name} → ${expected ? 'screen' : 'no screen'}`, () => assert.equal(shouldScreen(origin, config), expected));
  }

  it('screens no shell command without patterns', () => {
    assert.equal(shouldScreen({ kind: 'host-tool', tool: 'Bash', command: 'curl https://x' }), false);
    assert.equal(shouldScreen({ kind: 'host-tool', tool: 'WebFetch' }), true);
  });

  it('patterns are literal but for *', () => {
    assert.equal(commandMatches('gh issue view 1', ['gh.issue*']), false);
    assert.equal(commandMatches('a+b run', ['a+b *']), true);
    assert.equal(commandMatches('anything', ['*']), true);
  });
});
