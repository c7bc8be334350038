/**
 * `jevcp` robustness, end to end with the built dist/cli.js: closed output pipes, file errors, deep JSON,
 * exit codes, ledger write failures, evidence commands with background processes, terminal escapes in
 * human output, and `--json` errors.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CLI, cleanEnv, ensureBuilt, ROOT } from './mcp-fixtures';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function jevcp(args: string[], opts: { env?: Record<string, string>; cwd?: string; input?: string } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd ?? ROOT, env: opts.env ?? cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}

/** Runs `script` in bash (for pipelines); the shell function `J` runs the CLI. */
function sh(script: string, env: Record<string, string> = cleanEnv()): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `J() { "$NODE_BIN" "$CLI_JS" "$@"; }\n${script}`], { cwd: ROOT, env: { ...env, NODE_BIN: process.execPath, CLI_JS: CLI }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const EXAMPLE = join(ROOT, 'examples', 'parser-fix.jev.json');

let dir: string;
/** A ledger with many real records (well beyond a pipe buffer as JSON). */
let bigLedger: string;
before(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'jevcp-robust-'));
  const seed = join(dir, 'seed.jsonl');
  const r = await jevcp(['step', EXAMPLE], { env: cleanEnv({ JEV_LEDGER: seed }) });
  assert.equal(r.code, 0, r.stderr);
  const line = readFileSync(seed, 'utf8').trim();
  const record = JSON.parse(line) as { id: string };
  bigLedger = join(dir, 'big.jsonl');
  const lines: string[] = [];
  for (let i = 0; i < 400; i++) lines.push(JSON.stringify({ ...record, id: `${record.id.slice(0, 28)}${String(i).padStart(8, '0')}` }));
  writeFileSync(bigLedger, `${lines.join('\n')}\n`);
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('closed output pipes (EPIPE)', () => {
  it('ledger show --json | head -c 10: quiet, exit code of the command (0)', async () => {
    const r = await sh(`J ledger show --json --file ${JSON.stringify(bigLedger)} | head -c 10 >/dev/null; echo "rc=\${PIPESTATUS[0]}" >&2`);
    assert.doesNotMatch(r.stderr, /EPIPE|Unhandled|node:events/, r.stderr);
    assert.match(r.stderr, /^rc=0$/m);
  });

  it('step | a reader that exits at once: quiet, exit 0; errors keep their exit code', async () => {
    const ok = await sh(`J step ${JSON.stringify(EXAMPLE)} 2>&1 | true; echo "rc=\${PIPESTATUS[0]}" >&2`);
    assert.doesNotMatch(ok.stderr, /EPIPE|Unhandled|node:events/, ok.stderr);
    assert.match(ok.stderr, /^rc=0$/m);
    const bad = await sh(`J step /nonexistent.jev.json 2>&1 | true; echo "rc=\${PIPESTATUS[0]}" >&2`);
    assert.doesNotMatch(bad.stderr, /EPIPE|Unhandled|node:events/, bad.stderr);
    assert.match(bad.stderr, /^rc=2$/m);
  });
});
