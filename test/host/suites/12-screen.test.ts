/**
 * What the editor's agent reads through Jev's endpoint, screened inside the real extension host: servers from
 * jevPanel.mcpServers marked `screen` (test/fixtures/servers/planted.mjs), the editor's judge on a fake System
 * One (jevPanel.baseUrl), the SDK's HTTP client on the definition VS Code gets. A planted instruction is
 * withheld (content and structuredContent), a suspicious result carries its warning first, an ordinary one
 * passes byte for byte, the judge down gives a warning (or, strict, withholds), and the feed shows the screen.
 */
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { JevPanelApi } from '../../../src/extension/api';
import { closedPort } from '../../helpers/raw-http';
import { startFakeSystemOne, type FakeSystemOne } from '../../helpers/fake-systemone';
import { PLANTED_WORDS, plantedScreenAnswerer, screenedState } from '../../helpers/screen-judge';
import { activateJev, connectClient, repoRoot, resetSettings, resolveDefinition, setSetting, waitFor } from '../helpers';


const planted = (screen?: true | 'strict') => ({
  command: process.execPath,
  args: [join(repoRoot(), 'test', 'fixtures', 'servers', 'planted.mjs')],
  ...(screen === undefined ? {} : { screen }),
});

describe("the editor's endpoint screens what the agent reads", () => {
  let api: JevPanelApi;
  let fake: FakeSystemOne;
  let client: Client | undefined;

  const connect = async () => {
    await client?.close().catch(() => undefined);
    const definition: vscode.McpHttpServerDefinition = await resolveDefinition(api);
    for (const name of ['web', 'strictweb', 'quiet']) {
      await waitFor(`server ${name} to be ready`, () => api.snapshot().servers.find((s) => s.name === name)?.status === 'ready', 20_000);
    }
    client = await connectClient(definition.uri, definition.headers);
    return client;
  };
  const call = async (name: string) => (await client!.callTool({ name, arguments: { url: 'https://example.com/notes' } })) as CallToolResult;
  const texts = (r: CallToolResult) => (r.content ?? []).map((b) => (b.type === 'text' ? b.text : `<${b.type}>`));
  const screenRequests = () => fake.requests.filter((r) => screenedState(r) !== '').length;

  before(async () => {
    fake = await startFakeSystemOne({
      answerer: plantedScreenAnswerer,
    });
    api = await activateJev();
    await resetSettings(api);
    await setSetting(api, 'baseUrl', fake.url);
    await setSetting(api, 'serverStart', 'onConnect');
    await setSetting(api, 'mcpServers', { web: planted(true), strictweb: planted('strict'), quiet: planted() });
    await setSetting(api, 'agents', [{ name: 'editor', tools: ['jev_step', 'web/*', 'strictweb/*', 'quiet/*'] }]);
    await connect();
  });
  after(async () => {
    await client?.close().catch(() => undefined);
    await resetSettings(api);
    await fake.close();
  });

  it('withholds a planted instruction: isError, none of its words, no structuredContent; the feed shows the screen and keeps the raw result', async () => {
    const r = await call('web__page');
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent, undefined);
    assert.doesNotMatch(JSON.stringify(r), PLANTED_WORDS);
    assert.match(texts(r)[0]!, /^\[jevcp: result withheld\] The result of web\/page was withheld/);
    const meta = r._meta?.['jevcp/screen'] as { kind: string; decision_ids: string[]; record_id: string };
    assert.equal(meta.kind, 'block');
    const screenRow = api.feed().find((row) => row.id === meta.decision_ids[0]);
    assert.ok(screenRow, 'the screen decision is in the feed');
    assert.equal(screenRow.tool, 'jev_screen');
    assert.equal(screenRow.agent, 'editor');
    assert.equal(screenRow.action, 'escalate');
    assert.match(screenRow.subject ?? '', /injection/);
    assert.match(JSON.stringify(api.getRecord(meta.record_id)), PLANTED_WORDS, 'a person can read what was withheld');
  });

  it('puts the warning before a suspicious result, whose content follows unchanged', async () => {
    const quiet = await call('quiet__forum');
    const r = await call('web__forum');
    assert.notEqual(r.isError, true);
    assert.match(texts(r)[0]!, /^\[jevcp: screen warning\] jev_screen found this result of web\/forum suspicious/);
    assert.deepEqual(r.content?.slice(1), quiet.content);
  });

  it('passes an ordinary result byte for byte, and the same content again costs no request', async () => {
    const plain = await call('quiet__notes');
    const before = screenRequests();
    const screened = await call('web__notes');
    assert.equal(JSON.stringify(screened), JSON.stringify(plain));
    assert.equal(screenRequests(), before + 1);
    assert.equal(JSON.stringify(await call('web__notes')), JSON.stringify(plain));
    assert.equal(screenRequests(), before + 1);
  });

  it('with the judge down, a screened result is never passed as screened: a warning first, or withheld when strict', async () => {
    await setSetting(api, 'baseUrl', `http://127.0.0.1:${await closedPort()}`);
    const warned = await call('web__web_note'); // content not judged before: the cache cannot answer
    assert.notEqual(warned.isError, true);
    assert.match(texts(warned)[0]!, /^\[jevcp: not screened\] This result of web\/web_note could not be screened: /);
    const withheld = await call('strictweb__web_note');
    assert.equal(withheld.isError, true);
    assert.equal(withheld.structuredContent, undefined);
    assert.match(texts(withheld)[0]!, /^\[jevcp: result withheld\]/);
    await setSetting(api, 'baseUrl', fake.url);
  });
});
