#!/usr/bin/env node
// Load on the Streamable HTTP endpoint, measured in one run against one real `jevcp serve --http 0`
// process (mock judge, JEV_LEDGER on): for each N, N concurrent SDK clients each make M jev_step calls
// one after another, then end their session (DELETE). Each call carries a unique task text, so the ledger
// can be matched call by call.
//
// Printed per N: calls lost (goal 0: a call that got no result, a protocol error or a transport error),
// ledger records vs calls (goal: exactly equal, every call's record once), initializes refused with 503
// (the client waits Retry-After and tries again: a refusal is not a loss), p50/p99 latency of one call,
// throughput, and the ratios to the N=1 row measured first in the same run.
//
// Options: --clients LIST (1,10,50,200), --calls M (20), --json. Needs a build (`npm run bench` builds first).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli.js');
if (!existsSync(cli)) {
  console.error('bench: dist/cli.js is missing; run `npm run bench` (it builds first).');
  process.exit(2);
}

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : process.argv[i + 1];
}
const CLIENTS = String(option('clients', '1,10,50,200')).split(',').map(Number);
const CALLS = Number(option('calls', 20));
if (CLIENTS.some((n) => !Number.isInteger(n) || n < 1) || !Number.isInteger(CALLS) || CALLS < 1) {
  console.error('bench: --clients takes a comma-separated list of integers ≥ 1, --calls an integer ≥ 1');
  process.exit(2);
}
const JSON_OUT = process.argv.includes('--json');
/** Longest wait for one round, ms (a stuck round is a failure, not a hang). */
const ROUND_LIMIT_MS = 300_000;

/** Environment without any backend/ledger settings of the machine. */
function cleanEnv(extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(JEV_|TYPESAFE_|MCP_)/.test(k)) env[k] = v;
  return { ...env, ...extra };
}

/** Starts `jevcp serve --http 0`; resolves with its URL and token once the start-up notice is printed. */
function serve(env) {
  const child = spawn(process.execPath, [cli, 'serve', '--http', '0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve --http did not start; stderr: ${err}`)), 15_000);
    child.stderr.on('data', (c) => {
      err += c.toString('utf8');
      const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp) /.exec(err);
      const token = /^Authorization: Bearer (.+)$/m.exec(err);
      if (url && token) {
        clearTimeout(timer);
        resolve({ child, url: url[1], token: token[1], stderr: () => err });
      }
    });
    child.on('exit', (code) => reject(new Error(`serve --http exited ${code}; stderr: ${err}`)));
  });
}

function stepInput(task) {
  return {
    task,
    observation: "TypeError: Cannot read properties of undefined (reading 'split') at parseConfig (src/parser.ts:14:22); 1 failing.",
    execution: { context_complete: true, failed_attempts: 0 },
    candidates: [
      { id: 'read', name: 'read_file', arguments: { path: 'src/parser.ts' }, description: 'Read the parser', effect: 'read_only', authorized: true, schema_valid: true, preconditions_met: true },
      { id: 'test', name: 'run_command', arguments: { command: 'npm test' }, description: 'Run the tests', effect: 'local_write', authorized: true, schema_valid: true, preconditions_met: true },
    ],
  };
}

/**
 * Connects one client, waiting out 503 refusals (the endpoint's Retry-After, read through the fetch the
 * transport uses). Returns the client and the number of refusals it met.
 */
async function connect(server, deadline) {
  let refused = 0;
  for (;;) {
    let retryAfter;
    const fetchSeeing503 = async (input, init) => {
      const res = await fetch(input, init);
      if (res.status === 503) retryAfter = Number(res.headers.get('retry-after'));
      return res;
    };
    const client = new Client({ name: 'jev-http-load', version: '0.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${server.token}` } }, fetch: fetchSeeing503 });
    try {
      await client.connect(transport);
      return { client, transport, refused };
    } catch (err) {
      await client.close().catch(() => undefined);
      if (retryAfter === undefined || Date.now() > deadline) throw err;
      refused++;
      await sleep(Math.max(1, retryAfter) * 1000);
    }
  }
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted, f) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(f * sorted.length) - 1))];
}

function ledgerTasks(path) {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((r) => r.tool === 'jev_step')
    .map((r) => r.input?.task);
}

async function round(server, ledger, n) {
  const deadline = Date.now() + ROUND_LIMIT_MS;
  const tasks = [];
  const latencies = [];
  let lost = 0;
  let refused = 0;
  const errors = new Map();
  const before = ledgerTasks(ledger).length;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: n }, async (_, c) => {
      let conn;
      try {
        conn = await connect(server, deadline);
        refused += conn.refused;
      } catch (err) {
        lost += CALLS;
        errors.set(String(err?.message ?? err).slice(0, 120), (errors.get(String(err?.message ?? err).slice(0, 120)) ?? 0) + 1);
        return;
      }
      for (let i = 0; i < CALLS; i++) {
        const task = `load N=${n} client ${c} call ${i}: fix the parser`;
        tasks.push(task);
        const t = performance.now();
        try {
          const r = await conn.client.callTool({ name: 'jev_step', arguments: stepInput(task) });
          if (r.isError || !r.structuredContent) throw new Error(`isError: ${r.content?.[0]?.text?.slice(0, 100)}`);
          latencies.push(performance.now() - t);
        } catch (err) {
          lost++;
          const key = String(err?.message ?? err).slice(0, 120);
          errors.set(key, (errors.get(key) ?? 0) + 1);
        }
      }
      await conn.transport.terminateSession().catch(() => undefined);
      await conn.client.close().catch(() => undefined);
    }),
  );
  const wall = performance.now() - t0;
  // Ledger appends are asynchronous: wait until every record is there (or stops arriving).
  let recorded = [];
  for (let last = -1, still = 0; still < 10; ) {
    recorded = ledgerTasks(ledger).slice(before);
    if (recorded.length >= tasks.length) break;
    still = recorded.length === last ? still + 1 : 0;
    last = recorded.length;
    await sleep(100);
  }
  const counts = new Map();
  for (const t of recorded) counts.set(t, (counts.get(t) ?? 0) + 1);
  const missing = tasks.filter((t) => !counts.has(t)).length;
  const duplicated = [...counts.values()].filter((k) => k > 1).length;
  const foreign = [...counts.keys()].filter((t) => !tasks.includes(t)).length;
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    clients: n,
    calls: n * CALLS,
    ok: latencies.length,
    lost,
    records: recorded.length,
    missing,
    duplicated,
    foreign,
    refused503: refused,
    p50: sorted.length ? percentile(sorted, 0.5) : NaN,
    p99: sorted.length ? percentile(sorted, 0.99) : NaN,
    throughput: (latencies.length / wall) * 1000,
    wallMs: wall,
    errors: Object.fromEntries(errors),
  };
}

const dir = mkdtempSync(join(tmpdir(), 'jev-http-load-'));
const ledger = join(dir, 'ledger.jsonl');
let server;
let failed;
try {
  server = await serve(cleanEnv({ JEV_MOCK: '1', JEV_LEDGER: ledger }));
  const rows = [];
  for (const n of CLIENTS) rows.push(await round(server, ledger, n));
  const base = rows[0];
  if (JSON_OUT) console.log(JSON.stringify({ calls_per_client: CALLS, rows }, null, 2));
  else {
    console.log(`Streamable HTTP load: N clients × ${CALLS} jev_step calls each on \`jevcp serve --http\` (mock judge, JSONL ledger), one process, one run`);
    console.log('     N   calls  lost  records  every-id-once  503s      p50 ms     p99 ms   calls/s   p50 ×N=' + base.clients + '  calls/s ×N=' + base.clients);
    for (const r of rows) {
      const once = r.records === r.calls && r.missing === 0 && r.duplicated === 0 && r.foreign === 0;
      console.log(
        `${String(r.clients).padStart(6)} ${String(r.calls).padStart(7)} ${String(r.lost).padStart(5)} ${String(r.records).padStart(8)}  ${(once ? 'yes' : `NO (${r.missing} missing, ${r.duplicated} twice)`).padEnd(13)} ${String(r.refused503).padStart(5)} ${r.p50.toFixed(2).padStart(11)} ${r.p99.toFixed(2).padStart(10)} ${r.throughput.toFixed(0).padStart(9)} ${(r.p50 / base.p50).toFixed(2).padStart(11)} ${(r.throughput / base.throughput).toFixed(2).padStart(14)}`,
      );
      for (const [e, k] of Object.entries(r.errors)) console.log(`        ${k}× ${e}`);
    }
    console.log('goals: lost 0; records = calls with every call recorded exactly once.');
  }
  failed = rows.some((r) => r.lost > 0 || r.records !== r.calls || r.missing > 0 || r.duplicated > 0);
} catch (err) {
  console.error(`bench: ${err?.stack ?? err}`);
  failed = true;
} finally {
  server?.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
