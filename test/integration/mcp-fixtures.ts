/**
 * Shared pieces of the MCP integration tests: a valid input for each of the 14 tools, and a client
 * connected to `node dist/cli.js serve` over real stdio with a controlled environment.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startFakeSystemOne, type FakeSystemOne } from '../helpers/fake-systemone';
import { capture, type Run } from '../helpers/processes';

export const ROOT = join(__dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');

/** Builds dist/cli.js once per test process (scripts/test.mjs builds first; direct runs need it too). */
let built = false;
export function ensureBuilt(): void {
  if (built) return;
  if (!process.env.JEV_TEST || !existsSync(CLI)) execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  built = true;
}

/** A process environment without any backend, ledger or registry settings of the machine running tests. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !/^(JEV_|TYPESAFE_|MCP_)/.test(k)) env[k] = v;
  }
  return { ...env, ...extra };
}

/** A temporary folder and a fake System One server shared by the tests of one file. */
export interface CliSandbox {
  dir: string;
  fake: FakeSystemOne;
  /** Stops the server and removes the folder. */
  close(): Promise<void>;
}

/** Builds dist/cli.js if needed, makes a temporary folder named `prefix…` and starts a fake System One server. */
export async function openSandbox(prefix: string): Promise<CliSandbox> {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const fake = await startFakeSystemOne();
  return {
    dir,
    fake,
    close: async () => {
      await fake.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A connected SDK client and the server's stderr text so far. */
export interface ServerConnection {
  client: Client;
  stderr(): string;
  close(): Promise<void>;
}

/** Spawns `node dist/cli.js serve` with `env` and connects an SDK client over stdio. */
export async function connectServer(env: Record<string, string>): Promise<ServerConnection> {
  ensureBuilt();
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve'], env, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const client = new Client({ name: 'jev-tests', version: '0.0.0' });
  await client.connect(transport);
  return { client, stderr: () => err, close: () => client.close() };
}

const readParser = {
  id: 'read-parser',
  name: 'read_file',
  arguments: { path: 'src/parser.ts' },
  description: 'Read the parser implementation',
  effect: 'read_only',
  authorized: true,
  schema_valid: true,
  preconditions_met: true,
};

const runTests = {
  id: 'run-tests',
  name: 'run_command',
  arguments: { command: 'npm test' },
  description: 'Run the unit tests',
  effect: 'local_write',
  authorized: true,
  schema_valid: true,
  preconditions_met: true,
  failed_attempts: 0,
};

/** One valid input per tool (the 14 tools in discovery order). */
export const VALID_INPUTS: Record<string, Record<string, unknown>> = {
  ask_noul: { state: 'The build finished with 0 failing tests.', instruction: 'Did the build pass?' },
  ask_choice: { state: 'Error: ENOENT config.json', instruction: 'What kind of failure is this?', criteria: { missing_file: 'A file is missing', bad_syntax: 'The file is malformed' } },
  ask_score: { state: 'Production is down for all users.', instruction: 'How urgent is this?', criteria: ['Low', 'Medium', 'High', 'Critical'] },
  evaluate_policy: {
    state: 'All 12 tests pass.',
    questions: { green: { type: 'noul', instructions: 'Do all tests pass?' } },
    policy: { rules: [{ question: 'green', pass: { noul: { min: 0.8 } } }] },
  },
  jev_step: {
    task: 'Fix the parser handling of empty input',
    observation: 'The relevant file is src/parser.ts and has not yet been read.',
    execution: { context_complete: false, failed_attempts: 0 },
    candidates: [readParser, runTests],
  },
  jev_coding_loop: {
    task: 'Fix the parser handling of empty input',
    observation: 'The patch is ready and the parser test command is prepared.',
    execution: { prepared_tool_call: true, context_complete: true, failed_attempts: 0 },
  },
  jev_tool_route: { task: 'Inspect the parser before changing it', observation: 'src/parser.ts not read yet.', candidates: [readParser] },
  jev_review: { request: 'Return {} for empty input', diff: "--- a/p.ts\n+++ b/p.ts\n@@\n+if (input === '') return {};\n", tests: '12 passing' },
  jev_verify: { claims: ['All tests pass.'], evidence: [{ id: 'ci', text: '12 passing, 0 failing' }] },
  jev_gate: {
    request: 'Return {} for empty input',
    diff: "+if (input === '') return {};\n",
    claims: ['Empty input returns an empty object.'],
    evidence: 'Test "empty input" passed.',
  },
  jev_screen: { text: 'The parser fails on empty input; stack trace attached.', purpose: 'parser bug triage' },
  jev_rank: {
    query: 'rotate API keys',
    candidates: [
      { id: 'auth', text: 'Rotate API keys from the account settings page.' },
      { id: 'billing', text: 'Download invoices as PDF.' },
    ],
    top_k: 1,
  },
  jev_evaluate: { state: 'The build is green.', questions: { green: { type: 'noul', instructions: 'Is the build green?' } } },
  jev_permit: {
    request: 'Fix the parser handling of empty input',
    call: { tool: 'Read', input: { file_path: 'src/parser.ts' }, description: 'Read the parser' },
    host: { name: 'claude-code', agent: 'editor', effect: 'read_only', paths_in_workspace: true, permission_mode: 'default' },
  },
};

/** Tool names in discovery order. */
export const TOOL_NAMES = Object.keys(VALID_INPUTS);

export type { Run } from '../helpers/processes';

/** Runs `node dist/cli.js ARGS` (cwd: repo root, env: cleanEnv() unless given), feeding `input` on stdin. */
export function jevcp(args: string[], opts: { env?: Record<string, string>; cwd?: string; input?: string } = {}): Promise<Run> {
  return capture(process.execPath, [CLI, ...args], { cwd: opts.cwd ?? ROOT, env: opts.env ?? cleanEnv(), input: opts.input ?? '' });
}
