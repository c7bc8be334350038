/**
 * Shared helpers of the host suites (bundled into each suite). They run inside the real extension host.
 */
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JevPanelApi } from '../../src/extension/api';

export const EXTENSION_ID = 'jevcp.jev-control-panel';
export const CHAT_FIXTURE_ID = 'jevcp-test.jev-test-chat-model';

/** Every `jevPanel.*` key (relative). */
export const SETTING_KEYS = [
  'provider', 'baseUrl', 'model', 'chatModel', 'thresholds.autoAccept', 'thresholds.reviewAt', 'thresholds.blockAt',
  'timeoutMs', 'spendCap', 'mcpServers', 'disabledServers', 'serverStart', 'agents', 'ledger',
] as const;

/** The extension under test. */
export function extension(): vscode.Extension<JevPanelApi> {
  const ext = vscode.extensions.getExtension<JevPanelApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not loaded as a development extension`);
  return ext;
}

/** Activates the extension (idempotent) and waits for its first configuration. */
export async function activateJev(): Promise<JevPanelApi> {
  const api = await extension().activate();
  assert.ok(api && typeof api.feed === 'function', 'activate() must return the test API in Test mode');
  await api.ready;
  return api;
}

/** Repository root (the extension's folder). */
export function repoRoot(): string {
  return extension().extensionPath;
}

/** Path of the marker MCP server fixture. */
export function markerServerPath(): string {
  return join(repoRoot(), 'test', 'host', 'fixtures', 'marker-server.mjs');
}

/** A server entry for jevPanel.mcpServers running the marker fixture as `name`. */
export function markerServer(name: string, markerDir: string): Record<string, unknown> {
  return { command: process.execPath, args: [markerServerPath(), name], env: { MARKER_DIR: markerDir } };
}

/** Sets a jevPanel setting and waits until the extension has re-read its configuration. */
export async function setSetting(api: JevPanelApi, key: string, value: unknown, target = vscode.ConfigurationTarget.Global): Promise<void> {
  await vscode.workspace.getConfiguration('jevPanel').update(key, value, target);
  await api.refresh();
}

/** Removes every jevPanel value from user (and, when trusted, workspace) settings. */
export async function resetSettings(api: JevPanelApi): Promise<void> {
  const config = vscode.workspace.getConfiguration('jevPanel');
  for (const key of SETTING_KEYS) {
    const v = config.inspect(key);
    if (v?.globalValue !== undefined) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
    if (vscode.workspace.isTrusted && v?.workspaceValue !== undefined) await config.update(key, undefined, vscode.ConfigurationTarget.Workspace);
  }
  await api.refresh();
}

/** Polls `check` every 50 ms until it returns a truthy value; fails with `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => T | Promise<T>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** True once `file` exists. */
export const exists = (file: string) => existsSync(file);

/** An MCP client connected to the extension's endpoint with the definition's headers. */
export async function connectClient(uri: vscode.Uri, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'jev-host-test', version: '0.0.1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(uri.toString()), { requestInit: { headers } }));
  return client;
}

/** The definitions the extension provides, exactly as VS Code asks for them. */
export async function provideDefinitions(api: JevPanelApi): Promise<vscode.McpHttpServerDefinition[]> {
  const token = new vscode.CancellationTokenSource().token;
  const defs = await api.mcp.provideMcpServerDefinitions(token);
  return (defs ?? []) as vscode.McpHttpServerDefinition[];
}

/** Provides, then resolves the definition, as VS Code does right before it connects (starts MCP servers). */
export async function resolveDefinition(api: JevPanelApi): Promise<vscode.McpHttpServerDefinition> {
  const [definition] = await provideDefinitions(api);
  const token = new vscode.CancellationTokenSource().token;
  return (await api.mcp.resolveMcpServerDefinition!(definition!, token)) as vscode.McpHttpServerDefinition;
}

/** The sample step's input (the same shape the "Run Sample Step" command judges). */
export { SAMPLE_STEP_INPUT } from '../../src/tools/sample-step';
