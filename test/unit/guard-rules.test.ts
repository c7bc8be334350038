/**
 * Permission rules (src/guard/rules.ts, permissions.ts) and grants (grants.ts) before any judgment:
 * Claude Code's rule syntax, deny beats ask beats allow, compound commands, path globs against the
 * workspace, domains, config validation naming the field, the defaults, the agent's grants.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compilePermissions, decideByRules, DEFAULT_PERMISSIONS, parsePermissions } from '../../src/guard/permissions';
import { checkGrant } from '../../src/guard/grants';
import { parseRule, ruleMatches, ruleProblem } from '../../src/guard/rules';
import { parseJevConfig } from '../../src/registry/config-file';
import type { CallFacts } from '../../src/guard/types';

const ROOT = '/ws/project';
const bash = (command: string): CallFacts => ({ ruleTool: 'Bash', command, paths: [], urls: [] });
const file = (ruleTool: string, ...paths: string[]): CallFacts => ({ ruleTool, paths, urls: [] });
const allows = (rule: string, facts: CallFacts, hostTool = facts.ruleTool) => ruleMatches(parseRule(rule), facts, hostTool, ROOT, 'allow');
const fires = (rule: string, facts: CallFacts, hostTool = facts.ruleTool) => ruleMatches(parseRule(rule), facts, hostTool, ROOT, 'any');

describe('rule syntax', () => {
  it('Bash: exact, glob, :* prefix on a word boundary', () => {
    assert.equal(allows('Bash(npm test)', bash('npm test')), true);
    assert.equal(allows('Bash(npm test)', bash('npm test --watch')), false);
    assert.equal(allows('Bash(git status*)', bash('git status --short')), true);
    assert.equal(allows('Bash(npm run test:*)', bash('npm run test -- --grep x')), true);
    assert.equal(allows('Bash(npm run test:*)', bash('npm run testing')), false);
    assert.equal(allows('Bash', bash('anything at all')), true);
  });

  it('Bash: a compound command must be allowed part by part; deny fires on any part; substitutions are never allowed', () => {
    assert.equal(allows('Bash(git status*)', bash('git status && rm -rf /')), false);
    assert.equal(fires('Bash(rm -rf*)', bash('git status && rm -rf /')), true);
    assert.equal(fires('Bash(rm -rf*)', bash('echo ok; rm -rf build')), true);
    assert.equal(allows('Bash(echo *)', bash('echo $(cat ~/.ssh/id_rsa)')), false);
    assert.equal(allows('Bash(echo *)', bash('echo hi > /etc/hosts')), false);
  });

  it('Read/Edit: paths against the workspace, // absolute, families of tools', () => {
    assert.equal(allows('Read(./**)', file('Read', '/ws/project/src/a.ts')), true);
    assert.equal(allows('Read(./**)', file('Grep', '/ws/project')), true);
    assert.equal(allows('Read(./**)', file('Read', '/etc/passwd')), false);
    assert.equal(allows('Read(./**)', file('Read', '/ws/project-other/x')), false);
    assert.equal(allows('Edit(src/**)', file('Write', '/ws/project/src/deep/b.ts')), true);
    assert.equal(allows('Edit(src/*.ts)', file('Edit', '/ws/project/src/deep/b.ts')), false);
    assert.equal(allows('Write(//tmp/**)', file('Write', '/tmp/x.txt')), true);
    assert.equal(fires('Read(./**/.env)', file('Read', '/ws/project/.env')), true);
    assert.equal(fires('Read(./**/.env)', file('Read', '/ws/project/app/.env')), true);
    assert.equal(allows('Read(./**)', file('Read', '/ws/project/a.ts', '/etc/shadow')), false, 'an allow rule must cover every path');
    assert.equal(fires('Read(//etc/**)', file('Read', '/ws/project/a.ts', '/etc/shadow')), true);
  });

  it('WebFetch domains and MCP names', () => {
    const fetch = (url: string): CallFacts => ({ ruleTool: 'WebFetch', paths: [], urls: [url] });
    assert.equal(allows('WebFetch(domain:example.com)', fetch('https://example.com/a')), true);
    assert.equal(allows('WebFetch(domain:example.com)', fetch('https://evil.example.com.attacker.net/')), false);
    assert.equal(allows('WebFetch(domain:*.example.com)', fetch('https://docs.example.com/')), true);
    const mcp: CallFacts = { ruleTool: 'mcp__github__create_issue', paths: [], urls: [] };
    assert.equal(allows('mcp__github__*', mcp), true);
    assert.equal(allows('mcp__github', mcp), true);
    assert.equal(allows('mcp__gitlab', mcp), false);
    assert.equal(allows('run_in_terminal', bash('ls'), 'run_in_terminal'), true, 'a bare rule may name the host tool');
  });

  it('bad rules are named', () => {
    assert.match(ruleProblem('Bash(')!, /parentheses/);
    assert.match(ruleProblem('Bash()')!, /must not be empty/);
    assert.match(ruleProblem('mcp__x__y(foo)')!, /specifier applies to/);
    assert.match(ruleProblem('WebFetch(example.com)')!, /domain:/);
    assert.match(ruleProblem(3)!, /non-empty string/);
  });
});

describe('permissions block', () => {
  it('deny beats ask beats allow; no rule → undefined (judgment)', () => {
    const rules = compilePermissions(parsePermissions({ allow: ['Bash(git *)'], ask: ['Bash(git push*)'], deny: ['Bash(git push --force*)'] }));
    assert.deepEqual(decideByRules(rules, bash('git log'), 'Bash', ROOT), { decision: 'allow', rule: 'Bash(git *)' });
    assert.deepEqual(decideByRules(rules, bash('git push origin main'), 'Bash', ROOT), { decision: 'ask', rule: 'Bash(git push*)' });
    assert.deepEqual(decideByRules(rules, bash('git push --force origin main'), 'Bash', ROOT), { decision: 'deny', rule: 'Bash(git push --force*)' });
    assert.equal(decideByRules(rules, bash('npm publish'), 'Bash', ROOT), undefined);
  });

  it('defaults allow reading in the workspace and ask before .env; "defaults": false drops them', () => {
    const d = compilePermissions(parsePermissions(undefined));
    assert.equal(decideByRules(d, file('Read', '/ws/project/src/a.ts'), 'Read', ROOT)?.decision, 'allow');
    assert.equal(decideByRules(d, file('Read', '/ws/project/.env.local'), 'Read', ROOT)?.decision, 'ask');
    assert.equal(decideByRules(d, file('Write', '/ws/project/src/a.ts'), 'Write', ROOT), undefined);
    const none = compilePermissions(parsePermissions({ defaults: false }));
    assert.equal(decideByRules(none, file('Read', '/ws/project/src/a.ts'), 'Read', ROOT), undefined);
    assert.deepEqual(DEFAULT_PERMISSIONS.allow, ['Read(./**)']);
  });

  it('.jev/config.json validates the block naming the field and the rule', () => {
    assert.throws(() => parseJevConfig({ permissions: { allow: ['Bash(git status*)', 'Bash git'] } }, '.jev/config.json'), /\.jev\/config\.json: permissions\.allow\[1\] "Bash git": the tool part/);
    assert.throws(() => parseJevConfig({ permissions: { allow: 'Read' } }, 'c'), /permissions\.allow: must be an array/);
    assert.throws(() => parseJevConfig({ permissions: { permit: [] } }, 'c'), /permissions: unknown field permit/);
    assert.deepEqual(parseJevConfig({ permissions: { deny: ['Bash(rm*)'] } }, 'c').permissions, { allow: [], ask: [], deny: ['Bash(rm*)'], defaults: true });
    assert.equal('permissions' in parseJevConfig({ agents: [] }, 'c'), false);
  });
});

describe('grants', () => {
  const manifest = { name: 'claude-code', tools: ['Read', 'Bash', 'mcp__github__*', '!mcp__github__delete_*'] };
  it('a tool outside the grants, or denied by one, is a violation; host and rule names both count', () => {
    assert.equal(checkGrant(manifest, ['Bash', 'Bash']).allowed, true);
    assert.equal(checkGrant(manifest, ['run_in_terminal', 'Bash']).allowed, true);
    assert.equal(checkGrant(manifest, ['mcp__github__create_issue', 'mcp__github__create_issue']).allowed, true);
    const del = checkGrant(manifest, ['mcp__github__delete_repo']);
    assert.equal(del.allowed, false);
    assert.match((del as { reason: string }).reason, /denied by "!mcp__github__delete_\*"/);
    assert.equal(checkGrant(manifest, ['Write']).allowed, false);
  });
});

describe("the guard's config reader (no zod)", () => {
  it('agents and permissions validated naming the file and field; servers\' launch fields left to the registry', async () => {
    const { parseGuardConfig } = await import('../../src/guard/config');
    assert.throws(() => parseGuardConfig({ agents: [{ name: 'a', tools: ['Read', '!'] }] }, '.jev/config.json'), /\.jev\/config\.json: agents\[0\]\.tools\[1\]: a deny rule must name/);
    assert.throws(() => parseGuardConfig({ agents: [{ name: ' bad', tools: [] }] }, 'c'), /agents\[0\]\.name/);
    assert.throws(() => parseGuardConfig({ permissions: { ask: ['Bash()'] } }, 'c'), /c: permissions\.ask\[0\]/);
    // A server's launch fields are the registry's to check; an entry that is not an object, and its screen fields, are named here too.
    assert.deepEqual(parseGuardConfig({ servers: { x: { command: 'anything', args: [1] } }, agents: [{ name: 'codex', tools: ['Bash'] }] }, 'c'), { agents: [{ name: 'codex', tools: ['Bash'] }] });
    assert.throws(() => parseGuardConfig({ servers: { x: 'anything' } }, 'c'), /c: servers\.x: must be an object/);
  });
});
