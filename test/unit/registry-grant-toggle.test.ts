/**
 * The panel's grant toggle (toggleGrant in src/registry/manifest.ts) against the registry's real grant rule (decideGrant).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decideGrant, toggleGrant, type DecideTool } from '../../src/registry/manifest';

const decideFor = (tool: string): DecideTool => (tools) => {
  const slash = tool.indexOf('/');
  const ref = slash > 0 ? { id: tool, name: tool.slice(slash + 1), server: tool.slice(0, slash), bareOwner: true } : { id: tool, name: tool, bareOwner: true };
  return decideGrant({ name: 'editor', tools: [...tools] }, ref);
};

describe('toggleGrant', () => {
  test('off removes a literal grant; on adds it back', () => {
    assert.deepEqual(toggleGrant(['jev_step', 'jev_gate'], 'jev_gate', false, decideFor('jev_gate')), { grants: ['jev_step'] });
    assert.deepEqual(toggleGrant(['jev_step'], 'jev_gate', true, decideFor('jev_gate')), { grants: ['jev_step', 'jev_gate'] });
  });

  test('off under a glob adds a deny rule; on removes that deny rule without adding a duplicate allow', () => {
    assert.deepEqual(toggleGrant(['jev_*'], 'jev_gate', false, decideFor('jev_gate')), { grants: ['jev_*', '!jev_gate'] });
    assert.deepEqual(toggleGrant(['jev_*', '!jev_gate'], 'jev_gate', true, decideFor('jev_gate')), { grants: ['jev_*'] });
  });

  test('qualified external tools work the same way', () => {
    assert.deepEqual(toggleGrant(['files/*'], 'files/write_file', false, decideFor('files/write_file')), { grants: ['files/*', '!files/write_file'] });
    assert.deepEqual(toggleGrant([], 'files/read_file', true, decideFor('files/read_file')), { grants: ['files/read_file'] });
  });

  test('a glob deny that keeps the tool denied is reported, not saved', () => {
    const r = toggleGrant(['files/*', '!files/*'], 'files/read_file', true, decideFor('files/read_file'));
    assert.ok('error' in r);
    assert.match(r.error, /files\/read_file stays denied: denied by "!files\/\*"/);
  });

  test('toggling to the current state changes nothing', () => {
    assert.deepEqual(toggleGrant(['jev_step'], 'jev_step', true, decideFor('jev_step')), { grants: ['jev_step'] });
    assert.deepEqual(toggleGrant([], 'jev_step', false, decideFor('jev_step')), { grants: [] });
  });
});
