/**
 * Shared pieces of the commit-gate host suites: fake System One answers that pass or fail jev_gate, real
 * temporary git repositories opened in VS Code's Git extension, the SCM input box, and git run as a
 * terminal would run it (async: the hook it starts calls back into this extension host).
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { GitExtension, Repository } from '../../src/extension/gate/git-api';
import { answerAll, score, type RecordedRequest } from '../helpers/fake-systemone';

const LOW = (levels: string[]) => score(levels, [0.9, 0.05, 0.05]);

/** Answers that pass the gate: confident good review, every claim verified (or `claimOverride(i)` for claim i). */
export function approve(req: RecordedRequest, claimOverride?: (i: number) => unknown): unknown {
  const q = req.body.questions as Record<string, { criteria: string[] }>;
  const overrides: Record<string, unknown> = { test_gap: LOW(q.test_gap!.criteria), blast_radius: LOW(q.blast_radius!.criteria) };
  if (claimOverride) for (const id of Object.keys(q).filter((k) => k.startsWith('claim_'))) overrides[id] = claimOverride(Number(id.slice(6)));
  return answerAll(req.body.questions, overrides, { model: 'fake-judge' });
}

/** A claim verdict distribution with `top` at `p`. */
export const dist = (top: string, p: number) => Object.fromEntries(['verified', 'contradicted', 'unsupported'].map((o) => [o, o === top ? p : (1 - p) / 2]));

/** Synchronous git for steps that never run a commit hook. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
}

/** Number of commits on HEAD. */
export const commits = (dir: string) => Number(git(dir, 'rev-list', '--count', 'HEAD').trim());

/** A temporary repository with one commit (math.js), opened in the Git extension. */
export async function openGitRepository(prefix: string): Promise<{ dir: string; repo: Repository }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Jev Test');
  git(dir, 'config', 'user.email', 'jev@example.invalid');
  git(dir, 'config', 'commit.gpgsign', 'false');
  writeFileSync(join(dir, 'math.js'), 'export function add(a, b) {\n  return a + b;\n}\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'init');
  const gitExt = vscode.extensions.getExtension<GitExtension>('vscode.git')!;
  const exports = gitExt.isActive ? gitExt.exports : await gitExt.activate();
  const repo = await exports.getAPI(1).openRepository(vscode.Uri.file(dir));
  assert.ok(repo, 'the Git extension opens the temporary repository');
  return { dir, repo };
}

/**
 * Writes `message` into the SCM input box and waits until it has stayed there for 300 ms: the box is synced
 * with the workbench, and a late echo of an earlier value could otherwise replace it under load.
 */
export async function setMessage(repo: Repository, message: string): Promise<void> {
  repo.inputBox.value = message;
  let stableSince = Date.now();
  const end = Date.now() + 10_000;
  while (Date.now() - stableSince < 300) {
    if (Date.now() > end) assert.fail(`the SCM input box did not keep ${JSON.stringify(message)}`);
    await new Promise((r) => setTimeout(r, 50));
    if (repo.inputBox.value !== message) {
      repo.inputBox.value = message;
      stableSince = Date.now();
    }
  }
}

/**
 * `git commit …` as from a terminal outside the editor: the extension host's environment without what VS
 * Code's Git extension and terminals add (VSCODE_GIT_*, TERM_PROGRAM) and without JEV_* (no CLI backend).
 */
export function terminalCommit(dir: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(VSCODE_GIT_|JEV_|TYPESAFE_)/.test(k) && k !== 'TERM_PROGRAM') env[k] = v;
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['commit', ...args], { cwd: dir, env: { ...env, GIT_TERMINAL_PROMPT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}
