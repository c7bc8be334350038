/**
 * The in-host MCP endpoint as the editor's agent sees it: the definition VS Code gets, the token, the
 * Host/Origin checks, tools/list and tools/call through the SDK client, the feed, settings and grant changes
 * reaching the client as tools/list_changed (the definition stays), grants, and an external server's tool
 * exposed under a namespaced name.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { JevUriHandler } from '../../../src/extension/uri-handler';
import type { JevPanelApi } from '../../../src/extension/api';
import { rawPost as post, RAW_INITIALIZE } from '../../helpers/raw-http';
import { SAMPLE_STEP_INPUT, activateJev, connectClient, exists, markerServer, provideDefinitions, resetSettings, resolveDefinition, setSetting, waitFor } from '../helpers';

const JUDGMENT_TOOLS = [
  'ask_noul', 'ask_choice', 'ask_score', 'evaluate_policy', 'jev_step', 'jev_coding_loop', 'jev_tool_route',
  'jev_review', 'jev_verify', 'jev_gate', 'jev_screen', 'jev_rank', 'jev_evaluate', 'jev_permit',
];

describe('in-host MCP endpoint', () => {
  let api: JevPanelApi;
  let definition: vscode.McpHttpServerDefinition;
  let client: Client | undefined;

  before(async () => {
    api = await activateJev();
    await resetSettings(api);
  });
  afterEach(async () => {
    await client?.close().catch(() => undefined);
    client = undefined;
  });
  after(async () => {
    await resetSettings(api);
  });

  it('provides one McpHttpServerDefinition on 127.0.0.1 with a bearer token, and resolves it', async () => {
    const defs = await provideDefinitions(api);
    assert.equal(defs.length, 1);
    definition = defs[0]!;
    assert.ok(definition instanceof vscode.McpHttpServerDefinition);
    assert.equal(definition.label, 'Jev Control Panel');
    assert.equal(definition.uri.scheme, 'http');
    assert.match(definition.uri.authority, /^127\.0\.0\.1:\d+$/);
    assert.equal(definition.uri.path, '/mcp');
    assert.match(definition.headers.Authorization ?? '', /^Bearer [A-Za-z0-9_-]{43}$/);
    assert.ok(definition.version);
    const info = api.endpoint();
    assert.ok(info);
    assert.equal(definition.uri.toString(), info.url);
    const token = new vscode.CancellationTokenSource().token;
    const resolved = (await api.mcp.resolveMcpServerDefinition!(definition, token)) as vscode.McpHttpServerDefinition;
    assert.equal(resolved.uri.toString(), info.url);
    assert.equal(resolved.headers.Authorization, `Bearer ${info.token}`);
  });

  it('answers 401 without the token or with a wrong one, 403 for a foreign Host or Origin', async () => {
    const url = new URL(definition.uri.toString());
    const none = await post(url, {}, RAW_INITIALIZE);
    assert.equal(none.status, 401);
    const wrong = await post(url, { authorization: 'Bearer not-the-token' }, RAW_INITIALIZE);
    assert.equal(wrong.status, 401);
    const auth = { authorization: definition.headers.Authorization! };
    const rebinding = await post(url, { ...auth, host: `evil.example:${url.port}` }, RAW_INITIALIZE);
    assert.equal(rebinding.status, 403);
    const origin = await post(url, { ...auth, origin: 'http://evil.example' }, RAW_INITIALIZE);
    assert.equal(origin.status, 403);
    const ok = await post(url, auth, RAW_INITIALIZE);
    assert.equal(ok.status, 200, ok.text);
  });

  it('lists the 14 judgment tools to the SDK client and judges a jev_step call as agent editor, live in the feed', async () => {
    client = await connectClient(definition.uri, definition.headers);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    assert.deepEqual([...tools].sort(), [...JUDGMENT_TOOLS].sort());
    const before = api.feed().length;
    const result = await client.callTool({ name: 'jev_step', arguments: structuredClone(SAMPLE_STEP_INPUT) });
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
    const structured = result.structuredContent as { handoff?: string; action?: string };
    assert.ok(structured.handoff);
    const feed = api.feed();
    assert.equal(feed.length, before + 1);
    const row = feed.at(-1)!;
    assert.equal(row.tool, 'jev_step');
    assert.equal(row.agent, 'editor');
    assert.equal(row.handoff, structured.handoff);
    assert.equal(row.action, structured.action);
    assert.ok(api.getRecord(row.id)?.input, 'the record keeps the request for the detail view');
  });

  it('serves the MCP Apps decision card to a client that announces the UI extension; its link opens the decision panel', async () => {
    client = new Client(
      { name: 'jev-host-ui-test', version: '0.0.1' },
      { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } as never },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(definition.uri.toString()), { requestInit: { headers: definition.headers } }));
    const tools = (await client.listTools()).tools;
    const uri = (tools.find((t) => t.name === 'jev_step')?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
    assert.match(uri ?? '', /^ui:\/\/jev-control-panel\/decision-card-/);
    assert.equal(tools.find((t) => t.name === 'jev_evaluate')?._meta, undefined);
    const read = await client.readResource({ uri: uri! });
    assert.equal(read.contents[0]?.mimeType, 'text/html;profile=mcp-app');
    const result = await client.callTool({ name: 'jev_step', arguments: structuredClone(SAMPLE_STEP_INPUT) });
    const id = (result._meta?.['jevcp/decision'] as { id?: string } | undefined)?.id;
    assert.ok(id && api.getRecord(id), 'the decision the card names is in the feed');
    // The card's "Open in Jev panel" link, as the URI handler receives it.
    new JevUriHandler().handleUri(vscode.Uri.parse(`${vscode.env.uriScheme}://jevcp.jev-control-panel/decision?id=${id}`));
    const panelOpen = () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('jevPanel.decision'));
    await waitFor('the decision panel', panelOpen, 10_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a setting or grant change keeps the definition and reaches a connected client as tools/list_changed', async () => {
    let fired = 0;
    const sub = api.mcp.onDidChangeMcpServerDefinitions!(() => fired++);
    client = await connectClient(definition.uri, definition.headers);
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });
    try {
      await client.listTools();
      await vscode.workspace.getConfiguration('jevPanel').update('thresholds.autoAccept', 0.9, vscode.ConfigurationTarget.Global);
      await waitFor('the new threshold', () => api.status().thresholds.auto_accept === 0.9, 5_000);
      await setSetting(api, 'agents', [{ name: 'editor', tools: ['jev_step'] }]);
      await waitFor('tools/list_changed', () => changes > 0, 5_000);
      assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['jev_step']);
      const [again] = await provideDefinitions(api);
      assert.equal(again!.uri.toString(), definition.uri.toString());
      assert.equal(again!.version, definition.version);
      assert.equal(fired, 0, 'the definition did not change');
    } finally {
      sub.dispose();
      await resetSettings(api);
    }
  });

  it('lists and allows only the tools granted to editor; a denied call names the rule; denied and unknown calls are in the feed and the ledger', async () => {
    const ledger = join(mkdtempSync(join(tmpdir(), 'jev-ledger-')), 'ledger.jsonl');
    await setSetting(api, 'ledger', ledger);
    await setSetting(api, 'agents', [{ name: 'editor', tools: ['jev_*', '!jev_rank'] }]);
    client = await connectClient(definition.uri, definition.headers);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(tools.includes('jev_step'));
    assert.ok(!tools.includes('jev_rank'));
    assert.ok(!tools.includes('ask_noul'));
    const denied = await client.callTool({ name: 'jev_rank', arguments: {} });
    assert.equal(denied.isError, true);
    assert.match(JSON.stringify(denied.content), /may not call jev_rank: denied by \\"!jev_rank\\"/);
    const deniedRow = (await waitFor('the denied call in the feed', () => api.feed().find((r) => r.tool === 'jev_rank' && r.error)))!;
    assert.deepEqual([deniedRow.tool, deniedRow.agent, deniedRow.error], ['jev_rank', 'editor', 'INVALID_INPUT']);
    // An unknown tool is a protocol error (-32602); it is still recorded.
    await assert.rejects(client.callTool({ name: 'everything__echo', arguments: { text: 'x' } }), (err: Error & { code?: number }) => {
      assert.equal(err.code, -32602);
      assert.match(err.message, /Unknown tool: "everything__echo"/);
      return true;
    });
    const unknownRow = (await waitFor('the unknown tool in the feed', () => api.feed().find((r) => r.tool === 'everything__echo')))!;
    assert.deepEqual([unknownRow.tool, unknownRow.agent, unknownRow.error], ['everything__echo', 'editor', 'INVALID_INPUT']);
    await waitFor('both failures in the ledger', () => {
      const ids = existsSync(ledger) ? readFileSync(ledger, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id) : [];
      return ids.includes(deniedRow.id) && ids.includes(unknownRow.id);
    }, 5_000);
    await setSetting(api, 'ledger', undefined);
  });

  it('the panel\'s grant toggle saves jevPanel.agents and the editor\'s tool list follows', async () => {
    await resetSettings(api);
    client = await connectClient(definition.uri, definition.headers);
    await api.toggleGrant('editor', 'jev_rank', false);
    const saved = vscode.workspace.getConfiguration('jevPanel').inspect<{ name: string; tools: string[] }[]>('agents')?.globalValue;
    assert.ok(saved && !saved.find((a) => a.name === 'editor')!.tools.includes('jev_rank'));
    assert.ok(!(await client.listTools()).tools.some((t) => t.name === 'jev_rank'));
    await api.toggleGrant('editor', 'jev_rank', true);
    assert.ok((await client.listTools()).tools.some((t) => t.name === 'jev_rank'));
    // A glob deny keeps the tool denied: the toggle says so instead of saving a no-op.
    await setSetting(api, 'agents', [{ name: 'editor', tools: ['jev_*', '!jev_r*'] }]);
    await assert.rejects(api.toggleGrant('editor', 'jev_rank', true), /jev_rank stays denied: denied by "!jev_r\*"/);
  });

  it('quick successive grant toggles all apply, in order', async () => {
    await resetSettings(api);
    await Promise.all([
      api.toggleGrant('editor', 'jev_rank', false),
      api.toggleGrant('editor', 'jev_gate', false),
      api.toggleGrant('editor', 'jev_tool_route', false),
      api.toggleGrant('editor', 'jev_gate', true),
    ]);
    const editor = api.snapshot().agents.find((a) => a.name === 'editor')!;
    const allowed = (tool: string) => editor.permissions.find((p) => p.tool === tool)?.allowed;
    assert.equal(allowed('jev_rank'), false);
    assert.equal(allowed('jev_tool_route'), false);
    assert.equal(allowed('jev_gate'), true);
    await resetSettings(api);
  });

  it('exposes a granted external tool as <server>__<tool>, capability-checked and recorded', async () => {
    const markers = mkdtempSync(join(tmpdir(), 'jev-markers-'));
    await setSetting(api, 'serverStart', 'onConnect'); // servers start when the editor connects (10-servers tests onDemand)
    await setSetting(api, 'mcpServers', { fixture: markerServer('fixture', markers) });
    await setSetting(api, 'agents', [{ name: 'editor', tools: ['jev_step', 'fixture/echo'] }]);
    await resolveDefinition(api); // VS Code is about to connect: the endpoint starts the servers it exposes
    await waitFor('the fixture server to be spawned', () => exists(join(markers, 'fixture.spawned')), 15_000);
    await waitFor('the fixture server to be ready', () => api.snapshot().servers.find((s) => s.name === 'fixture')?.status === 'ready', 15_000);
    client = await connectClient(definition.uri, definition.headers);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    assert.deepEqual([...tools].sort(), ['fixture__echo', 'jev_step']);
    const result = await client.callTool({ name: 'fixture__echo', arguments: { text: 'hello' } });
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
    // Forwarded as the server sent it: its one text block, no structuredContent (it gave none).
    assert.deepEqual(result, { content: [{ type: 'text', text: JSON.stringify({ echoed: 'hello', server: 'fixture' }) }] });
    const row = api.feed().at(-1)!;
    assert.equal(row.kind, 'execution');
    assert.equal(row.tool, 'fixture/echo');
    assert.equal(row.agent, 'editor');

    // Revoke: the tool disappears and a call is refused before reaching the server.
    await setSetting(api, 'agents', [{ name: 'editor', tools: ['jev_step', '!fixture/*'] }]);
    const after = (await client.listTools()).tools.map((t) => t.name);
    assert.deepEqual(after, ['jev_step']);
    const refused = await client.callTool({ name: 'fixture__echo', arguments: { text: 'again' } });
    assert.equal(refused.isError, true);
    const agents = api.snapshot().agents.find((a) => a.name === 'editor')!;
    const why = agents.permissions.find((p) => p.tool === 'fixture/echo')!;
    assert.equal(why.allowed, false);
    assert.match(why.why, /denied by "!fixture\/\*"/);
  });

  it('restarting the endpoint changes port and token and announces the new definition', async () => {
    const old = api.endpoint()!;
    let fired = 0;
    const sub = api.mcp.onDidChangeMcpServerDefinitions!(() => fired++);
    try {
      await vscode.commands.executeCommand('jevPanel.restartServer', 'jev-control-panel');
      const now = api.endpoint()!;
      assert.notEqual(now.token, old.token);
      await waitFor('the definition change event', () => fired > 0, 5_000);
      const stale = await post(new URL(now.url), { authorization: `Bearer ${old.token}` }, RAW_INITIALIZE);
      assert.equal(stale.status, 401);
      const before = definition.version;
      definition = (await provideDefinitions(api))[0]!;
      assert.equal(definition.uri.toString(), now.url);
      assert.notEqual(definition.version, before, 'a renewed endpoint is a new definition version');
    } finally {
      sub.dispose();
    }
  });
});
