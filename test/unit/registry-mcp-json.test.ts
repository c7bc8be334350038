/**
 * Import of VS Code's .vscode/mcp.json into jevPanel.mcpServers (src/registry/mcp-json.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { importMcpJson, stripJsonc } from '../../src/registry/mcp-json';

describe('importMcpJson', () => {
  test('strips comments and trailing commas, but not inside strings', () => {
    const text = '{\n // c\n "a": "http://x//y", /* b */ "b": [1, 2,],\n}';
    assert.deepEqual(JSON.parse(stripJsonc(text)), { a: 'http://x//y', b: [1, 2] });
  });

  test('converts runnable servers, substitutes ${workspaceFolder} and ${userHome}, skips what it cannot run', () => {
    const text = `{
      "servers": {
        "fs": { "type": "stdio", "command": "npx", "args": ["-y", "server-fs", "\${workspaceFolder}"], "envFile": "x.env" },
        "home": { "command": "\${userHome}/bin/srv" },
        "web": { "type": "http", "url": "https://mcp.example/mcp", "headers": { "X-Team": "a" } },
        "old": { "type": "sse", "url": "https://mcp.example/sse" },
        "keyed": { "url": "https://mcp.example/mcp", "headers": { "Authorization": "Bearer \${input:key}" } },
        "plain": { "url": "http://mcp.example/mcp" },
        "bad name": { "command": "x" }
      },
      "inputs": [],
    }`;
    const r = importMcpJson(text, { workspaceFolder: '/w', userHome: '/home/u' });
    assert.deepEqual(r.servers, {
      fs: { type: 'stdio', command: 'npx', args: ['-y', 'server-fs', '/w'] },
      home: { command: '/home/u/bin/srv' },
      web: { type: 'http', url: 'https://mcp.example/mcp', headers: { 'X-Team': 'a' } },
    });
    const skipped = r.skipped.join('\n');
    assert.match(skipped, /^old: the SSE transport is not supported/m);
    assert.match(skipped, /^keyed: uses \$\{input:key\}/m);
    assert.match(skipped, /^plain: .*loopback/m);
    assert.match(skipped, /^bad name: server names/m);
  });

  test('names the problem when the file is not JSON or has no servers', () => {
    assert.throws(() => importMcpJson('{', {}), /mcp.json is not valid JSON/);
    assert.throws(() => importMcpJson('{"mcpServers": {}}', {}), /no "servers" object/);
  });
});
