/**
 * The editor's MCP server definition across endpoint renewals (src/extension/mcp-definitions.ts with
 * src/mcp/definition-renewals.ts), against a fake of the vscode API surface it uses (EventEmitter,
 * McpHttpServerDefinition, Uri) and a fake runtime: the first endpoint keeps the extension's version (VS Code
 * keeps its cached tools across a window reload); a restart of the endpoint and a reloaded runtime fire
 * onDidChangeMcpServerDefinitions and the next definition has a new version; an endpoint renewed unannounced
 * is caught at resolve.
 */
import assert from 'node:assert/strict';
import Module from 'node:module';
import { describe, it } from 'node:test';

class FakeEmitter<T> {
  private listeners: Array<(e: T) => void> = [];
  readonly event = (l: (e: T) => void) => {
    this.listeners.push(l);
    return { dispose: () => (this.listeners = this.listeners.filter((x) => x !== l)) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}
class FakeDefinition {
  constructor(readonly label: string, public uri: { s: string }, public headers: Record<string, string>, readonly version?: string) {}
}
const fakeVscode = { EventEmitter: FakeEmitter, McpHttpServerDefinition: FakeDefinition, Uri: { parse: (s: string) => ({ s, toString: () => s }) } };
// mcp-definitions.ts imports `vscode` at run time; only the extension host provides it.
const load = (Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown })._load;
(Module as unknown as { _load: typeof load })._load = (request, ...rest) => (request === 'vscode' ? fakeVscode : load(request, ...rest));
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the hook above
const { JevMcpDefinitions } = require('../../src/extension/mcp-definitions') as typeof import('../../src/extension/mcp-definitions');

/** A runtime whose endpoint can be renewed (new port and token), announcing it as JevRuntime.restartServer does. */
class FakeRuntime {
  private port: number;
  readonly changed = new FakeEmitter<void>();
  readonly onDidChangeDefinitions = this.changed.event;
  readonly endpoint = { definitionVersion: '0.1.0' };
  constructor(port: number) {
    this.port = port;
  }
  ensureEndpoint() {
    return Promise.resolve({ url: `http://127.0.0.1:${this.port}/mcp`, port: this.port, token: `token-${this.port}` });
  }
  renew(announce: boolean): void {
    this.port++;
    if (announce) this.changed.fire();
  }
}

class FakeCore {
  runtime: FakeRuntime;
  private listeners: Array<(r: FakeRuntime) => void> = [];
  constructor(port: number) {
    this.runtime = new FakeRuntime(port);
  }
  onLoaded(l: (r: FakeRuntime) => void): void {
    this.listeners.push(l);
    l(this.runtime);
  }
  get() {
    return Promise.resolve(this.runtime);
  }
  reload(port: number): void {
    this.runtime = new FakeRuntime(port);
    for (const l of this.listeners) l(this.runtime);
  }
}

async function setup(port = 4000) {
  const core = new FakeCore(port);
  const defs = new JevMcpDefinitions(core as never);
  let fired = 0;
  defs.onDidChangeMcpServerDefinitions(() => fired++);
  const provide = async () => (await defs.provideMcpServerDefinitions())[0] as unknown as FakeDefinition;
  return { core, defs, provide, fired: () => fired };
}

describe('the MCP server definition follows endpoint renewals', () => {
  it('the first endpoint keeps the extension version; provided again unchanged, it stays', async () => {
    const { provide, fired } = await setup();
    const first = await provide();
    assert.equal(first.version, '0.1.0');
    assert.equal((await provide()).version, '0.1.0');
    assert.equal(fired(), 0);
  });

  it('a restart of the endpoint fires the event and the next definition has a new version and address', async () => {
    const { core, provide, fired } = await setup();
    const first = await provide();
    core.runtime.renew(true);
    assert.equal(fired(), 1);
    const second = await provide();
    assert.notEqual(second.version, first.version);
    assert.equal(second.uri.s, 'http://127.0.0.1:4001/mcp');
    core.runtime.renew(true);
    const third = await provide();
    assert.ok(![first.version, second.version].includes(third.version), `${third.version} is new`);
  });

  it('a reloaded runtime (a new endpoint) fires the event and gets a new version', async () => {
    const { core, provide, fired } = await setup();
    const first = await provide();
    core.reload(5000);
    assert.equal(fired(), 1);
    const second = await provide();
    assert.notEqual(second.version, first.version);
    assert.equal(second.headers.Authorization, 'Bearer token-5000');
  });

  it('an endpoint renewed without an announcement is caught at resolve: address updated, event fired, new version', async () => {
    const { core, defs, provide, fired } = await setup();
    const first = await provide();
    core.runtime.renew(false);
    const resolved = (await defs.resolveMcpServerDefinition(first as never)) as unknown as FakeDefinition;
    assert.equal(resolved.uri.s, 'http://127.0.0.1:4001/mcp');
    assert.equal(fired(), 1);
    assert.notEqual((await provide()).version, first.version);
  });
});
