/**
 * `jevcp serve --agent NAME` end to end, on stdio and on `--http`: the built dist/cli.js as a child
 * process with a `.jev/config.json` naming a real npm MCP server (@modelcontextprotocol/server-memory),
 * the SDK client on the other side, a real JSONL ledger. NAME sees its granted judgment tools and its
 * granted external tools as `<server>__<tool>`; an ungranted call is refused before it reaches the server
 * and recorded; without `--agent` the 14 judgment tools stay. MCP_ORACLE=1 adds the oracle server.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { drawOmen } from '../../src/registry/oracle';
import { capture } from '../helpers/processes';
import { CLI, cleanEnv, ensureBuilt, ROOT, TOOL_NAMES, VALID_INPUTS } from './mcp-fixtures';

const MEMORY = join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
const GRANTED = ['jev_step', 'memory__create_entities', 'memory__read_graph'];

let scratch: string;
const clients: Client[] = [];
const children: ChildProcess[] = [];

function ledgerLines(path: string): Array<Record<string, any>> {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
}

/** A project folder whose config grants `coder` jev_step and two of the memory server's tools. */
function project(name: string): { dir: string; ledger: string; memoryFile: string } {
  const dir = join(scratch, name);
  mkdirSync(join(dir, '.jev'), { recursive: true });
  const memoryFile = join(dir, 'memory.jsonl');
  writeFileSync(
    join(dir, '.jev', 'config.json'),
    JSON.stringify({
      agents: [
        { name: 'coder', tools: ['jev_step', 'memory/create_entities', 'memory/read_graph'] },
        { name: 'reviewer', tools: ['jev_review'] },
      ],
      servers: { memory: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: memoryFile } } },
    }),
  );
  return { dir, ledger: join(dir, 'ledger.jsonl'), memoryFile };
}

async function stdioClient(dir: string, args: string[], env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  ensureBuilt();
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', ...args], cwd: dir, env, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const client = new Client({ name: 'serve-agent-test', version: '0' });
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => err };
}

/** Spawns `jevcp serve --http 0 …` in `dir`; resolves with a connected SDK client once the notice is printed. */
async function httpClient(dir: string, args: string[], env: Record<string, string>): Promise<{ client: Client; child: ChildProcess; exited: Promise<number | null> }> {
  ensureBuilt();
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '0', ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  let err = '';
  const { url, token } = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve --http did not start; stderr: ${err}`)), 20_000);
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString('utf8');
      const u = /at (http:\/\/127\.0\.0\.1:\d+\/mcp) /.exec(err);
      const t = /^Authorization: Bearer (.+)$/m.exec(err);
      if (u && t) {
        clearTimeout(timer);
        resolve({ url: u[1]!, token: t[1]! });
      }
    });
    void exited.then((code) => reject(new Error(`serve --http exited ${code}; stderr: ${err}`)));
  });
  const client = new Client({ name: 'serve-agent-http-test', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  clients.push(client);
  return { client, child, exited };
}

const entity = (name: string) => ({ entities: [{ name, entityType: 'module', observations: [`${name} fails on empty input`] }] });

/** The checks both transports must pass for agent `coder`. */
async function checkCoder(client: Client, ledger: string, memoryFile: string, tag: string): Promise<void> {
  const names = (await client.listTools()).tools.map((t) => t.name).sort();
  assert.deepEqual(names, GRANTED);

  const created = (await client.callTool({ name: 'memory__create_entities', arguments: entity(`parser-${tag}`) })) as CallToolResult;
  assert.notEqual(created.isError, true, JSON.stringify(created.content));
  assert.ok(created.structuredContent);
  const graph = (await client.callTool({ name: 'memory__read_graph', arguments: {} })) as CallToolResult;
  assert.match(JSON.stringify(graph.structuredContent), new RegExp(`parser-${tag}`));

  // Not granted: refused by the capability check before the memory server sees it (the entity stays).
  const before = readFileSync(memoryFile, 'utf8');
  const refused = (await client.callTool({ name: 'memory__delete_entities', arguments: { entityNames: [`parser-${tag}`] } })) as CallToolResult;
  assert.equal(refused.isError, true);
  assert.match(JSON.stringify(refused.content), /may not call memory\/delete_entities: no grant of agent \\"coder\\" matches/);
  assert.equal(readFileSync(memoryFile, 'utf8'), before);
  const denied = (await client.callTool({ name: 'ask_noul', arguments: {} })) as CallToolResult;
  assert.equal(denied.isError, true);
  assert.match(JSON.stringify(denied.content), /may not call ask_noul/);
  await assert.rejects(client.callTool({ name: 'memory__no_such_tool', arguments: {} }), (err: { code?: number }) => err.code === -32602);

  const step = (await client.callTool({ name: 'jev_step', arguments: structuredClone(VALID_INPUTS.jev_step!) })) as CallToolResult;
  assert.notEqual(step.isError, true, JSON.stringify(step.content));

  // Every call is in the ledger as agent coder: two executions, the three refusals (not granted external,
  // not granted judgment tool, unknown name), the judgment.
  const expected = [
    'execution:memory/create_entities:ok',
    'execution:memory/read_graph:ok',
    'execution:memory/delete_entities:error',
    'execution:ask_noul:error',
    'execution:memory__no_such_tool:error',
    'decision:jev_step:ok',
  ];
  let lines: Array<Record<string, any>> = [];
  for (let i = 0; i < 50 && lines.length < expected.length; i++) {
    lines = ledgerLines(ledger).filter((r) => r.agent === 'coder');
    if (lines.length < expected.length) await new Promise((r) => setTimeout(r, 50));
  }
  const rows = lines.map((r) => `${r.kind}:${r.tool}:${r.error ? 'error' : 'ok'}`);
  assert.deepEqual(rows.slice(-expected.length), expected);
  assert.match(JSON.stringify(lines.at(-4)!.error), /may not call/);
}

before(() => {
  scratch = mkdtempSync(join(tmpdir(), 'jev-serve-agent-'));
});

after(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe('jevcp serve --agent over stdio', () => {
  it('serves coder its granted judgment and memory tools, refuses the rest, records every call', async () => {
    const p = project('stdio');
    const { client, stderr } = await stdioClient(p.dir, ['--agent', 'coder'], cleanEnv({ JEV_MOCK: '1', JEV_LEDGER: p.ledger }));
    await checkCoder(client, p.ledger, p.memoryFile, 'stdio');
    assert.doesNotMatch(stderr(), /warning/, 'no grant warnings: jev_step and the memory tools are known');
  });

  it('without --agent, the 14 judgment tools and no external ones', async () => {
    const p = project('plain');
    const { client } = await stdioClient(p.dir, [], cleanEnv({ JEV_MOCK: '1' }));
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), TOOL_NAMES);
  });

  it('MCP_ORACLE=1 adds the oracle server: a granted oracle__oracle draws the same omen as in-process', async () => {
    const dir = join(scratch, 'oracle');
    mkdirSync(join(dir, '.jev'), { recursive: true });
    writeFileSync(join(dir, '.jev', 'config.json'), JSON.stringify({ agents: [{ name: 'teller', tools: ['oracle'] }] }));
    const ledger = join(dir, 'ledger.jsonl');
    const { client } = await stdioClient(dir, ['--agent', 'teller'], cleanEnv({ JEV_MOCK: '1', MCP_ORACLE: '1', JEV_LEDGER: ledger }));
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['oracle__oracle']);
    const r = (await client.callTool({ name: 'oracle__oracle', arguments: { seed: 'grove' } })) as CallToolResult;
    assert.deepEqual(r.structuredContent, drawOmen('grove'));
    for (let i = 0; i < 50 && !ledgerLines(ledger).length; i++) await new Promise((res) => setTimeout(res, 50));
    assert.equal(ledgerLines(ledger).at(-1)!.tool, 'oracle/oracle');
  });

  it('an unknown agent exits 2 naming the known ones; --config without --agent exits 2', async () => {
    const p = project('unknown');
    const r = await capture(process.execPath, [CLI, 'serve', '--agent', 'nobody'], { cwd: p.dir, env: cleanEnv({ JEV_MOCK: '1' }), input: '' });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--agent: no agent "nobody" in .*config\.json; agents: coder, reviewer/);
    assert.equal(r.stdout, '');
    const c = await capture(process.execPath, [CLI, 'serve', '--config', 'x.json'], { cwd: p.dir, env: cleanEnv({ JEV_MOCK: '1' }), input: '' });
    assert.equal(c.code, 2);
    assert.match(c.stderr, /--config needs --agent NAME/);
  });
});

describe('jevcp serve --agent --http', () => {
  it('serves the same to an HTTP client; SIGTERM then exits 0', async () => {
    const p = project('http');
    const { client, child, exited } = await httpClient(p.dir, ['--agent', 'coder'], cleanEnv({ JEV_MOCK: '1', JEV_LEDGER: p.ledger }));
    await checkCoder(client, p.ledger, p.memoryFile, 'http');
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  });
});
