import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpServer } from '../../src/mcp/server';
import { MockProvider } from '../../src/providers/mock/provider';
import { ALL_TOOLS } from '../../src/tools/index';
import { JudgmentService } from '../../src/tools/judgment-service';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';

// The factory must work on the SDK's Streamable HTTP transport as it is: that transport exposes
// onmessage as an accessor forwarding to an inner transport, which the raw-arguments tap must keep.
test('createMcpServer answers over the SDK Streamable HTTP transport without adapters', async () => {
  const service = new JudgmentService({ provider: new MockProvider(), tools: ALL_TOOLS, floors: DEFAULT_FLOORS, model: 'jev-latest' });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), enableJsonResponse: true });
  const server = createMcpServer(service);
  await server.connect(transport);
  const http = createServer((req, res) => void transport.handleRequest(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  after(() => http.close());
  const { port } = http.address() as AddressInfo;

  const client = new Client({ name: 'test', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  const { tools } = await client.listTools();
  assert.equal(tools.length, 14, 'all 14 tools are listed over HTTP');
  const proto = JSON.parse('{"task":"t","observation":"o","__proto__":{"x":1}}');
  const rejected = await client.callTool({ name: 'jev_step', arguments: proto });
  assert.equal(rejected.isError, true, 'a top-level __proto__ argument is still seen and rejected over HTTP');
  assert.match(JSON.stringify(rejected.content), /__proto__/);
  const ok = await client.callTool({ name: 'jev_coding_loop', arguments: { task: 'Fix the parser', observation: 'Tests pass.' } });
  assert.equal(ok.isError, undefined);
  assert.deepEqual(JSON.parse((ok.content as Array<{ text: string }>)[0]!.text), ok.structuredContent);
  await client.close();
  await server.close();
});
