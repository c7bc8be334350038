/**
 * The content screen behind the editor's endpoint, wired as src/extension/runtime.ts wires it: the real
 * Streamable HTTP endpoint (src/mcp/http-endpoint.ts) serving gateway sessions for agent `editor`, one
 * screener judging through the editor's JudgmentService on a fake System One, real MCP servers behind it
 * (test/fixtures/servers/planted.mjs and @modelcontextprotocol/server-everything), the SDK's HTTP client in
 * front. A blocked result never reaches the client, a review carries its warning first, an ordinary result
 * passes byte for byte, and the feed (the runtime's `record`) keeps the raw result of a withheld one.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { DecisionRecord } from '../../src/ledger/record';
import { createGatewaySession } from '../../src/mcp/gateway';
import { McpHttpEndpoint, type EndpointInfo } from '../../src/mcp/http-endpoint';
import { createGatewayScreener } from '../../src/mcp/screen-result';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';
import { SpendCap } from '../../src/providers/spend-cap';
import { SystemOneProvider } from '../../src/providers/systemone';
import { ToolRegistry } from '../../src/registry/registry';
import type { NamedServer, ServerScreenSetting } from '../../src/registry/servers';
import { ALL_TOOLS } from '../../src/tools';
import { JudgmentService } from '../../src/tools/judgment-service';
import { startFakeSystemOne, type FakeSystemOne } from '../helpers/fake-systemone';
import { PLANTED_WORDS, plantedScreenAnswerer, screenedState } from '../helpers/screen-judge';
import { ROOT } from './mcp-fixtures';

const PLANTED_SERVER = join(ROOT, 'test/fixtures/servers/planted.mjs');
const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const server = (name: string, script: string, screen?: ServerScreenSetting, args: string[] = []): NamedServer => ({
  name,
  source: 'config',
  config: { command: process.execPath, args: [script, ...args], ...(screen === undefined ? {} : { screen }) },
});

let fake: FakeSystemOne;
let registry: ToolRegistry;
let endpoint: McpHttpEndpoint;
let info: EndpointInfo;
let client: Client;
/** The editor's ledger and feed: every record the service or the gateway made. */
const records: DecisionRecord[] = [];

const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const texts = (r: CallToolResult) => (r.content ?? []).map((b) => (b.type === 'text' ? b.text : `<${b.type}>`));
const screenRequests = () => fake.requests.filter((r) => screenedState(r) !== '');

before(async () => {
  fake = await startFakeSystemOne({
    answerer: plantedScreenAnswerer,
  });
  const service = new JudgmentService({
    provider: new SystemOneProvider({ baseUrl: fake.url, apiKey: 'sk-editor-screen-test-1', spendCap: new SpendCap() }),
    tools: ALL_TOOLS,
    floors: DEFAULT_FLOORS,
    model: 'jev-latest',
    onRecord: (r) => records.push(r),
  });
  registry = new ToolRegistry({
    servers: [
      server('planted', PLANTED_SERVER, true),
      server('quiet', PLANTED_SERVER),
      server('everything', EVERYTHING, true, ['stdio']),
      server('plain', EVERYTHING, undefined, ['stdio']),
    ],
  });
  const screener = createGatewayScreener(service, 'editor');
  endpoint = new McpHttpEndpoint({
    createSession: () =>
      createGatewaySession({
        agent: 'editor',
        service,
        registry: () => registry,
        manifest: () => ({ name: 'editor', tools: ['planted/*', 'quiet/*', 'everything/echo', 'plain/echo'] }),
        floors: () => DEFAULT_FLOORS,
        record: (r) => records.push(r),
        screener,
        card: null,
      }),
  });
  info = await endpoint.start();
  client = new Client({ name: 'editor-screen-test', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(info.url), { requestInit: { headers: { Authorization: `Bearer ${info.token}` } } }));
});

after(async () => {
  await client?.close().catch(() => undefined);
  await endpoint?.stop();
  await registry?.shutdown();
  await fake?.close();
});

describe("the editor's endpoint screens the results of servers marked \"screen\"", () => {
  it('a planted instruction is withheld: isError, none of its words, no structuredContent; the feed keeps the raw result', async () => {
    const r = await call('planted__page', { url: 'https://example.com/notes' });
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent, undefined);
    assert.doesNotMatch(JSON.stringify(r), PLANTED_WORDS);
    assert.match(texts(r)[0]!, /^\[jevcp: result withheld\] The result of planted\/page was withheld/);
    const meta = r._meta?.['jevcp/screen'] as { kind: string; decision_ids: string[]; record_id: string };
    assert.equal(meta.kind, 'block');
    const execution = records.find((x) => x.id === meta.record_id)!;
    assert.equal(execution.tool, 'planted/page');
    assert.match(JSON.stringify(execution), PLANTED_WORDS, 'a person can read what was withheld');
    const decision = records.find((x) => x.id === meta.decision_ids[0])!;
    assert.equal(decision.tool, 'jev_screen');
    assert.equal(decision.agent, 'editor');
  });

  it('a suspicious result comes with the warning first, then the content unchanged', async () => {
    const quiet = await call('quiet__forum');
    const r = await call('planted__forum');
    assert.notEqual(r.isError, true);
    assert.match(texts(r)[0]!, /^\[jevcp: screen warning\] jev_screen found this result of planted\/forum suspicious/);
    assert.deepEqual(r.content?.slice(1), quiet.content);
  });

  it('an ordinary result (server-everything) passes byte for byte, judged once per distinct content', async () => {
    const before = screenRequests().length;
    const message = 'héllo "world"\n日本';
    const echo = await call('everything__echo', { message });
    const plain = await call('plain__echo', { message });
    assert.equal(JSON.stringify(echo), JSON.stringify(plain));
    assert.equal(screenRequests().length, before + 1);
    assert.equal(JSON.stringify(await call('everything__echo', { message })), JSON.stringify(plain));
    assert.equal(screenRequests().length, before + 1, 'the same content again costs no request');
  });
});
