/**
 * ToolRegistry.reconfigure with real stdio servers: an unchanged server keeps its process (same PID), a
 * changed one gets a new connection and the old child is gone, a removed one is closed; remembered tool
 * lists resolve before a server starts, and the first call starts it on demand.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ToolRegistry } from '../../src/registry/registry';
import type { NamedServer } from '../../src/registry/servers';
import { alive } from '../helpers/processes';

const root = join(__dirname, '..', '..');
const EVERYTHING = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const everything = (name: string, extra: string[] = []): NamedServer => ({ name, source: 'config', config: { command: process.execPath, args: [EVERYTHING, 'stdio', ...extra] } });
const manifest = { name: 'agent', tools: ['*/*'] };

describe('ToolRegistry.reconfigure (real stdio servers)', () => {
  const registries: ToolRegistry[] = [];
  after(async () => {
    await Promise.all(registries.map((r) => r.shutdown()));
  });

  it('keeps the unchanged server running, replaces the changed one, closes the removed one', async () => {
    const registry = new ToolRegistry({ servers: [everything('keep'), everything('change'), everything('drop')] });
    registries.push(registry);
    const views = await registry.start();
    for (const v of views) assert.equal(v.status.state, 'ready', `${v.name}: ${v.status.reason}`);
    const pid = (name: string) => registry.server(name)!.status.pid!;
    const [keepPid, changePid, dropPid] = [pid('keep'), pid('change'), pid('drop')];
    const keepConnection = registry.server('keep');
    registry.rememberTools('change', [{ name: 'ghost', description: 'remembered for the old configuration', inputSchema: { type: 'object' } }]);

    const diff = await registry.reconfigure([everything('keep'), everything('change', ['--changed']), everything('new')]);
    assert.deepEqual(diff, { added: ['new'], changed: ['change'], removed: ['drop'], unchanged: ['keep'] });
    assert.equal(registry.server('keep'), keepConnection, 'the unchanged server keeps its connection');
    assert.equal(pid('keep'), keepPid, 'the unchanged server keeps its process');
    assert.equal(registry.server('keep')!.status.state, 'ready');
    assert.equal(alive(changePid), false, 'the changed server’s old process is gone');
    assert.equal(alive(dropPid), false, 'the removed server’s process is gone');
    assert.equal(registry.server('drop'), undefined);
    assert.equal(registry.server('change')!.toolsKnown, false, 'the changed server is a new connection, not started by reconfigure');
    assert.deepEqual(registry.servers.map((c) => c.name), ['keep', 'change', 'new']);
    assert.equal(registry.has('change/ghost'), false, 'a changed configuration forgets the tools remembered for the old one');
    // The kept one still answers.
    const echoed = await registry.call('agent', manifest, 'keep/echo', { message: 'still here' });
    assert.match(JSON.stringify(echoed), /still here/);
  });

  it('refuses duplicate names and changes nothing', async () => {
    const registry = new ToolRegistry({ servers: [everything('one')] });
    registries.push(registry);
    await assert.rejects(registry.reconfigure([everything('a'), everything('a')]), /configured twice/);
    assert.deepEqual(registry.servers.map((c) => c.name), ['one']);
  });

  it('offers remembered tools before the server starts; the first call starts it', async () => {
    const registry = new ToolRegistry({ servers: [everything('lazy')] });
    registries.push(registry);
    const connection = registry.server('lazy')!;
    assert.equal(registry.has('lazy/echo'), false);
    registry.rememberTools('lazy', [{ name: 'echo', description: 'remembered echo', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }]);
    assert.equal(registry.resolve('lazy/echo')?.description, 'remembered echo');
    assert.deepEqual(registry.grantWarnings([{ name: 'a', tools: ['lazy/echo'] }]), []);
    assert.equal(connection.status.pid, undefined, 'nothing was spawned to list the remembered tools');
    const result = await registry.call('agent', manifest, 'lazy/echo', { message: 'on demand' });
    assert.match(JSON.stringify(result), /on demand/);
    assert.equal(connection.status.state, 'ready');
    assert.notEqual(registry.resolve('lazy/echo')?.description, 'remembered echo', 'the server’s own list replaces the remembered one');
  });
});
