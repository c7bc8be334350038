/**
 * Real git repositories for the commit-gate integration tests, in a temporary directory that is also HOME
 * and the state directory, with a fake System One server in this process (so every git call that may run
 * the hook is an async spawn). Git never reads the machine's configuration here: GIT_CONFIG_GLOBAL points
 * at a file of the sandbox, GIT_CONFIG_NOSYSTEM=1, and inherited GIT_* variables are dropped.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answerAll, noul, score, startFakeSystemOne, type FakeSystemOne } from '../helpers/fake-systemone';
import { CLI, cleanEnv, ensureBuilt } from './mcp-fixtures';

/** The API key the sandbox's jevcp processes get by default (the fake checks nothing, the ledger must not see it). */
export const SANDBOX_KEY = 'sk-hook-test-secret-5e1a';

/** One finished process. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Answers that make jev_gate pass (top review levels, low test gap and blast radius, claims verified). */
export const PASSING = {
  test_gap: score(3, [0.9, 0.05, 0.05]),
  blast_radius: score(3, [0.9, 0.05, 0.05]),
  safe_to_apply: noul(0.95),
};

/** A port on 127.0.0.1 with nothing listening. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

export class GitSandbox {
  private repoCount = 0;

  private constructor(
    readonly dir: string,
    readonly fake: FakeSystemOne,
  ) {}

  /** Builds the CLI if needed, makes the directory and its git config, starts the fake. */
  static async open(prefix: string): Promise<GitSandbox> {
    ensureBuilt();
    const dir = mkdtempSync(join(tmpdir(), prefix));
    writeFileSync(join(dir, 'gitconfig'), '[user]\n\tname = hook test\n\temail = hook@example.invalid\n[commit]\n\tgpgsign = false\n[init]\n\tdefaultBranch = main\n');
    return new GitSandbox(dir, await startFakeSystemOne());
  }

  /** The user's state directory of every process here. */
  get state(): string {
    return join(this.dir, 'state', 'jev-control-panel');
  }

  /** Environment of every git and jevcp process: no JEV_*, no GIT_*, the sandbox's git config and state, the fake upstream. */
  env(extra: Record<string, string> = {}, withBackend = true): Record<string, string> {
    const base = cleanEnv();
    for (const k of Object.keys(base)) if (k.startsWith('GIT_') || k.startsWith('VSCODE_') || k === 'TERM_PROGRAM') delete base[k];
    return {
      ...base,
      HOME: this.dir,
      XDG_STATE_HOME: join(this.dir, 'state'),
      GIT_CONFIG_GLOBAL: join(this.dir, 'gitconfig'),
      GIT_CONFIG_NOSYSTEM: '1',
      ...(withBackend ? { JEV_BASE_URL: this.fake.url, JEV_API_KEY: SANDBOX_KEY, JEV_TIMEOUT_MS: '5000' } : {}),
      ...extra,
    };
  }

  /** Runs `cmd` with `env` (default: the sandbox environment with the fake backend). */
  run(cmd: string, args: string[], cwd: string, env: Record<string, string> = this.env()): Promise<Run> {
    return new Promise((resolve, reject) => {
      const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  /** `node dist/cli.js …` with the sandbox environment plus `extra`. */
  jevcp(cwd: string, args: string[], extra: Record<string, string> = {}, withBackend = true): Promise<Run> {
    return this.run(process.execPath, [CLI, ...args], cwd, this.env(extra, withBackend));
  }

  /** `git commit …` (async: the hook's gate may talk to servers in this process). */
  commit(cwd: string, args: string[], extra: Record<string, string> = {}, withBackend = true): Promise<Run> {
    return this.run('git', ['commit', ...args], cwd, this.env(extra, withBackend));
  }

  /** Synchronous git for setup steps that never run the commit-msg hook. */
  git(cwd: string, ...args: string[]): string {
    const r = spawnSync('git', args, { cwd, env: this.env(), encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  }

  /** A fresh repository (no commit yet unless `initial`), with src/parse.js. */
  makeRepo(initial = true): string {
    const repo = join(this.dir, `repo-${++this.repoCount}`);
    mkdirSync(join(repo, 'src'), { recursive: true });
    writeFileSync(join(repo, 'src', 'parse.js'), 'export const parse = (s) => s.split(",");\n');
    this.git(repo, 'init', '-q');
    if (initial) {
      this.git(repo, 'add', '.');
      this.git(repo, 'commit', '-q', '--no-verify', '-m', 'init');
    }
    return repo;
  }

  /** Stages a small real change (a different one each call). */
  stageChange(repo: string, n = Date.now()): void {
    writeFileSync(join(repo, 'src', 'parse.js'), `export const parse = (s) => (s === "" ? [] : s.split(",")); // ${n}\n`);
    this.git(repo, 'add', 'src/parse.js');
  }

  /** Subject of HEAD. */
  head(repo: string): string {
    return spawnSync('git', ['log', '-1', '--format=%s'], { cwd: repo, env: this.env(), encoding: 'utf8' }).stdout.trim();
  }

  /** Number of commits on HEAD (0 on an unborn branch). */
  commitCount(repo: string): number {
    const r = spawnSync('git', ['rev-list', '--count', 'HEAD'], { cwd: repo, env: this.env(), encoding: 'utf8' });
    return r.status === 0 ? Number(r.stdout.trim()) : 0;
  }

  /** The fake answers so that jev_gate passes. */
  approve(): void {
    this.fake.setAnswerer((req) => answerAll(req.body.questions, PASSING));
  }

  /** The fake's default answers rate test gap and blast radius at the top level → review/escalate. */
  disapprove(): void {
    this.fake.setAnswerer((req) => answerAll(req.body.questions));
  }

  async close(): Promise<void> {
    await this.fake.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
