/**
 * MCP Apps decision card over real transports: `jevcp serve` over stdio and `--http` (dist/cli.js as a
 * child process, the mock judge), and the editor's gateway session in process. Two SDK clients per
 * server: one announcing the `io.modelcontextprotocol/ui` extension, one plain. Checks the tool
 * metadata, the `ui://` resource (MIME type, CSP) and that a plain client's result is unchanged.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { CARD_MIME_TYPE, CARD_TOOLS, DECISION_META_KEY, UI_EXTENSION_ID } from '../../src/mcp/app-card';
import { OPEN_DECISION_TOOL, openDecisionTool } from '../../src/mcp/app-tools';
import { createGatewaySession } from '../../src/mcp/gateway';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';
import { MockProvider } from '../../src/providers/mock/provider';
import { ALL_TOOLS } from '../../src/tools';
import { JudgmentService } from '../../src/tools/judgment-service';
import { CLI, cleanEnv, ensureBuilt, ROOT, TOOL_NAMES, VALID_INPUTS } from './mcp-fixtures';
import { DECISION_META_KEY as CARD_SIDE_KEY } from '../../webview/card/card-model';

const UI_CAPS = { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [CARD_MIME_TYPE] } } } as ClientCapabilities;
const EXPECTED_UI = TOOL_NAMES.filter((n) => n !== 'jev_evaluate');
const TOKEN = 'mcp-apps-test-token-5c2d9e-0123456789ab';

interface Pair {
  ui: Client;
  plain: Client;
}

/** The checks every transport must pass. */
function cardChecks(name: string, pair: () => Pair): void {
  describe(name, () => {
    it('tools/list names the card on exactly the 13 decision tools, for both clients', async () => {
      assert.deepEqual([...CARD_TOOLS].sort(), [...EXPECTED_UI].sort());
      for (const client of [pair().ui, pair().plain]) {
        const { tools } = await client.listTools();
        const { resources } = await client.listResources();
        const card = resources.find((r) => r.uri.startsWith('ui://'));
        assert.ok(card, 'the ui:// resource is listed');
        for (const t of tools) {
          const meta = t._meta as { ui?: { resourceUri?: string }; 'ui/resourceUri'?: string } | undefined;
          if (EXPECTED_UI.includes(t.name)) {
            assert.equal(meta?.ui?.resourceUri, card.uri, `${t.name} names the card`);
            assert.equal(meta?.['ui/resourceUri'], card.uri, `${t.name} carries the flat key too`);
          } else assert.equal(meta, undefined, `${t.name} has no UI metadata`);
        }
      }
    });

    it('resources/list and resources/read serve one self-contained HTML view with its MIME type and an empty CSP', async () => {
      const { resources } = await pair().ui.listResources();
      const listed = resources.filter((r) => r.uri.startsWith('ui://'));
      assert.equal(listed.length, 1);
      const entry = listed[0]!;
      assert.match(entry.uri, /^ui:\/\/jev-control-panel\/decision-card-\d+\.\d+\.\d+.*-[0-9a-f]{8}\.html$/);
      assert.equal(entry.mimeType, 'text/html;profile=mcp-app');
      const read = await pair().ui.readResource({ uri: entry.uri });
      assert.equal(read.contents.length, 1);
      const content = read.contents[0] as { uri: string; mimeType: string; text: string; _meta?: { ui?: { csp?: Record<string, string[]> } } };
      assert.equal(content.mimeType, 'text/html;profile=mcp-app');
      assert.match(content.text, /^<!doctype html>/);
      assert.doesNotMatch(content.text, /<script[^>]+src=|<link[^>]+href=/, 'no outside script or stylesheet');
      assert.deepEqual(content._meta?.ui?.csp, { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] });
      const again = await pair().plain.readResource({ uri: entry.uri });
      assert.equal((again.contents[0] as { text: string }).text, content.text, 'the same HTML for every client');
    });

    it('a plain client gets exactly the plain result; a UI client the same text and structuredContent plus the decision', async () => {
      for (const tool of ['jev_step', 'jev_gate', 'ask_choice', 'jev_evaluate']) {
        const plain = (await pair().plain.callTool({ name: tool, arguments: VALID_INPUTS[tool] })) as CallToolResult;
        const ui = (await pair().ui.callTool({ name: tool, arguments: VALID_INPUTS[tool] })) as CallToolResult;
        assert.notEqual(plain.isError, true, `${tool}: ${JSON.stringify(plain.content)}`);
        assert.deepEqual(Object.keys(plain).sort(), ['content', 'structuredContent'], `${tool}: plain result has only content + structuredContent`);
        assert.equal((plain.content[0] as { text: string }).text, JSON.stringify(plain.structuredContent, null, 2));
        assert.deepEqual(ui.content, plain.content, `${tool}: same text`);
        assert.deepEqual(ui.structuredContent, plain.structuredContent, `${tool}: same structuredContent`);
        const decision = ui._meta?.[DECISION_META_KEY] as { id?: string; tool?: string; exchanges?: unknown[]; thresholds?: unknown } | undefined;
        if (tool === 'jev_evaluate') {
          assert.equal(ui._meta, undefined, 'jev_evaluate names no card, so its result stays plain');
          continue;
        }
        assert.match(decision?.id ?? '', /^[0-9a-f-]{36}$/, `${tool}: decision id`);
        assert.equal(decision?.tool, tool);
        assert.ok(Array.isArray(decision?.exchanges) && decision.exchanges.length >= 1, `${tool}: recorded exchanges for the what-if`);
        assert.deepEqual(decision?.thresholds, DEFAULT_FLOORS);
      }
    });

    it('a failure stays a failure: isError, no structuredContent, the decision carries the error', async () => {
      const ui = (await pair().ui.callTool({ name: 'jev_step', arguments: { task: '' } })) as CallToolResult;
      assert.equal(ui.isError, true);
      assert.equal(ui.structuredContent, undefined);
      const decision = ui._meta?.[DECISION_META_KEY] as { error?: { code?: string }; result?: unknown } | undefined;
      assert.equal(decision?.error?.code, 'INVALID_INPUT');
      assert.equal(decision?.result, undefined);
      const plain = (await pair().plain.callTool({ name: 'jev_step', arguments: { task: '' } })) as CallToolResult;
      assert.deepEqual(Object.keys(plain).sort(), ['content', 'isError']);
    });
  });
}

async function clientPair(connect: (client: Client) => Promise<void>): Promise<Pair> {
  const ui = new Client({ name: 'ui-host', version: '0.0.0' }, { capabilities: UI_CAPS });
  const plain = new Client({ name: 'plain-host', version: '0.0.0' });
  await connect(ui);
  await connect(plain);
  return { ui, plain };
}

const env = () => cleanEnv({ JEV_MOCK: '1', HOME: ROOT, JEV_LEDGER: '', JEV_HTTP_TOKEN: TOKEN });

describe('MCP Apps decision card', () => {
  let stdio: Pair;
  let http: Pair;
  let gateway: Pair;
  let child: ChildProcess | undefined;

  before(async () => {
    ensureBuilt();
    stdio = await clientPair((c) => c.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve'], env: env(), stderr: 'pipe' })));
    child = spawn(process.execPath, [CLI, 'serve', '--http', '0'], { cwd: ROOT, env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
    const url = await new Promise<string>((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error(`serve --http did not start; stderr: ${err}`)), 15_000);
      child!.stderr!.on('data', (c: Buffer) => {
        err += c.toString('utf8');
        const m = /at (http:\/\/127\.0\.0\.1:\d+\/mcp) /.exec(err);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
    });
    const headers = { Authorization: `Bearer ${TOKEN}` };
    http = await clientPair((c) => c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } })));
    const service = new JudgmentService({ provider: new MockProvider(), tools: ALL_TOOLS, floors: DEFAULT_FLOORS, model: 'jev-latest' });
    const manifest = { name: 'editor', tools: ['*'] };
    gateway = await clientPair(async (c) => {
      const session = createGatewaySession({ agent: 'editor', service, registry: () => undefined, manifest: () => manifest, floors: () => DEFAULT_FLOORS, record: () => undefined });
      const [a, b] = InMemoryTransport.createLinkedPair();
      await session.server.connect(a);
      session.connected(a);
      await c.connect(b);
    });
  });

  after(async () => {
    for (const p of [stdio, http, gateway]) {
      await p?.ui.close();
      await p?.plain.close();
    }
    child?.kill();
  });

  it('the card and the server use one _meta key', () => assert.equal(CARD_SIDE_KEY, DECISION_META_KEY));

  cardChecks('jevcp serve over stdio', () => stdio);
  cardChecks('jevcp serve --http', () => http);
  cardChecks("the editor's gateway session", () => gateway);
});

describe("the editor's gateway: the card's app-only tool opens a decision in the panel", () => {
  const opened: string[] = [];
  let pair: Pair;
  before(async () => {
    const service = new JudgmentService({ provider: new MockProvider(), tools: ALL_TOOLS, floors: DEFAULT_FLOORS, model: 'jev-latest' });
    pair = await clientPair(async (c) => {
      const session = createGatewaySession({
        agent: 'editor',
        service,
        registry: () => undefined,
        manifest: () => ({ name: 'editor', tools: ['jev_step'] }),
        floors: () => DEFAULT_FLOORS,
        record: () => undefined,
        appTools: [openDecisionTool(async (id) => void opened.push(id))],
      });
      const [a, b] = InMemoryTransport.createLinkedPair();
      await session.server.connect(a);
      session.connected(a);
      await c.connect(b);
    });
  });
  after(async () => {
    await pair?.ui.close();
    await pair?.plain.close();
  });

  it('is listed for the view only (visibility ["app"]), and only to a client that announced MCP Apps', async () => {
    const ui = (await pair.ui.listTools()).tools;
    const tool = ui.find((t) => t.name === OPEN_DECISION_TOOL);
    assert.deepEqual((tool?._meta as { ui?: { visibility?: string[] } } | undefined)?.ui?.visibility, ['app']);
    assert.equal(tool?.annotations?.readOnlyHint, true);
    assert.deepEqual(ui.map((t) => t.name), ['jev_step', OPEN_DECISION_TOOL], 'granted tools first, no grant needed for the app tool');
    const plain = (await pair.plain.listTools()).tools;
    assert.deepEqual(plain.map((t) => t.name), ['jev_step']);
    const refused = (await pair.plain.callTool({ name: OPEN_DECISION_TOOL, arguments: { id: 'abc' } }).catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] }))) as CallToolResult;
    assert.equal(refused.isError, true, 'a plain client cannot call it');
    assert.deepEqual(opened, []);
  });

  it("a decision names the tool (open_tool) and calling it with the decision's id opens that decision", async () => {
    const result = (await pair.ui.callTool({ name: 'jev_step', arguments: VALID_INPUTS.jev_step })) as CallToolResult;
    const decision = result._meta?.[DECISION_META_KEY] as { id: string; open_tool?: string };
    assert.equal(decision.open_tool, OPEN_DECISION_TOOL);
    const open = (await pair.ui.callTool({ name: OPEN_DECISION_TOOL, arguments: { id: decision.id } })) as CallToolResult;
    assert.notEqual(open.isError, true);
    assert.deepEqual(opened, [decision.id]);
    const bad = (await pair.ui.callTool({ name: OPEN_DECISION_TOOL, arguments: { id: '../etc' } })) as CallToolResult;
    assert.equal(bad.isError, true);
    assert.match((bad.content[0] as { text: string }).text, /"id" must be a decision id/);
    assert.deepEqual(opened, [decision.id], 'a bad id opens nothing');
  });
});
