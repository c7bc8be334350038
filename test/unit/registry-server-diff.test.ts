/** diffServers / grantServerTools: the pure rules behind re-imports and the per-server grant shortcuts. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decideGrant, refOfName } from '../../src/registry/manifest';
import { planImport } from '../../src/registry/mcp-json';
import { diffServers, sameServerConfig } from '../../src/registry/server-diff';
import { grantServerTools, type ServerToolRef } from '../../src/registry/server-grants';

describe('diffServers', () => {
  it('sorts names into added, changed, removed and unchanged; key order is no change', () => {
    const before = { a: { command: 'x', args: ['1'] }, b: { command: 'y' }, c: { url: 'https://e.example/mcp' } };
    const after = { b: { command: 'y' }, a: { args: ['2'], command: 'x' }, d: { command: 'z' } };
    assert.deepEqual(diffServers(before, after), { added: ['d'], changed: ['a'], removed: ['c'], unchanged: ['b'] });
    assert.equal(sameServerConfig({ command: 'x', env: { A: '1', B: '2' } }, { env: { B: '2', A: '1' }, command: 'x' }), true);
    assert.equal(sameServerConfig({ command: 'x', args: ['1', '2'] }, { command: 'x', args: ['2', '1'] }), false);
  });
});

describe('grantServerTools', () => {
  const tools: ServerToolRef[] = [
    { id: 'files/read_file', readOnly: true },
    { id: 'files/list', readOnly: true },
    { id: 'files/write_file', readOnly: false },
  ];
  const decide = (grants: readonly string[], tool: string) => decideGrant({ name: 'a', tools: [...grants] }, refOfName(tool));

  it('all: drops the server’s denies and single grants, adds server/*', () => {
    const r = grantServerTools(['jev_step', 'files/list', '!files/write_file'], 'files', tools, 'all', decide);
    assert.deepEqual(r, { grants: ['jev_step', 'files/*'] });
  });

  it('all: a deny elsewhere that still wins is reported, not saved', () => {
    const r = grantServerTools(['!*/write_file'], 'files', tools, 'all', decide);
    assert.ok('error' in r && /files\/write_file stays denied/.test(r.error), JSON.stringify(r));
  });

  it('readOnly: grants exactly the readOnlyHint tools and revokes the rest', () => {
    const r = grantServerTools(['files/*'], 'files', tools, 'readOnly', decide);
    assert.ok('grants' in r, JSON.stringify(r));
    for (const t of tools) assert.equal(decide(r.grants, t.id).allowed, t.readOnly, t.id);
  });

  it('readOnly: unknown tools or none read-only is an error naming the server', () => {
    assert.match((grantServerTools([], 'files', [], 'readOnly', decide) as { error: string }).error, /tools of server "files" are not known yet/);
    assert.match((grantServerTools([], 'files', [{ id: 'files/w', readOnly: false }], 'readOnly', decide) as { error: string }).error, /marks none of its 1 tools read-only/);
  });
});

describe('planImport', () => {
  it('adds and replaces imported servers, removes only what the last import wrote, keeps hand-added ones', () => {
    const existing = { keep: { command: 'k' }, change: { command: 'c' }, drop: { command: 'd' }, mine: { command: 'm' } };
    const { next, diff } = planImport(existing, ['keep', 'change', 'drop'], { keep: { command: 'k' }, change: { command: 'c2' }, fresh: { command: 'f' } });
    assert.deepEqual(Object.keys(next).sort(), ['change', 'fresh', 'keep', 'mine']);
    assert.deepEqual(diff, { added: ['fresh'], changed: ['change'], removed: ['drop'], unchanged: ['keep', 'mine'] });
  });
});
