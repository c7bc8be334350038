/**
 * jev_step with host-prepared candidates, through the `jevcp step FILE --agent NAME
 * [--execute]` command module: a real @modelcontextprotocol/server-filesystem on a temporary folder, a
 * `.jev/config.json` with agents and the server, and a fake System One upstream on 127.0.0.1 that answers
 * "the first eligible call, confident and suitable" (or "none"). Arguments that break the real inputSchema
 * are blocked `arguments_not_validated` although the caller claimed `schema_valid: true`; an ungranted tool
 * is blocked `not_authorized`; effects come from annotations; `--execute` runs only an accepted call and
 * records it in the ledger linked to the decision.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { stepAgentCommand } from '../../src/cli/commands/step-agent';
import { serversCommand } from '../../src/cli/commands/servers';
import type { CliIO } from '../../src/cli/io';
import type { Answer, SystemOneRequest } from '../../src/judgment/types';
import type { DecisionRecord } from '../../src/ledger/record';
import { confidenceFromProbabilities } from '../../src/policy/distribution';
import { choice, noul, score, startFakeSystemOne, type FakeSystemOne } from '../helpers/fake-systemone';

const root = join(__dirname, '..', '..');
const FILESYSTEM = join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

function pickOf(options: string[], pick: string, peak: number): Answer {
  const rest = (1 - peak) / (options.length - 1);
  const probabilities = Object.fromEntries(options.map((o) => [o, o === pick ? peak : rest]));
  return choice(pick, confidenceFromProbabilities(probabilities), probabilities);
}

/** Coding-loop answers that route to tools, plus the selection: first eligible call (or none). */
function answers(request: SystemOneRequest, pick: 'first' | 'none'): Record<string, Answer> {
  const n = Object.keys(request.questions).filter((k) => k.startsWith('suitable_')).length;
  const loop: Record<string, Answer> = {
    next: pickOf(['continue', 'retry', 'ask_user', 'stop'], 'continue', 0.97),
    model_tier: pickOf(['cheap', 'standard', 'reasoning'], 'standard', 0.97),
    focus: pickOf(['edit', 'search', 'test', 'read', 'plan'], 'read', 0.9),
    risk: score(3, [0.95, 0.04, 0.01], 0.925),
    done_enough: noul(0.2),
    needs_more_context: noul(0.05),
    needs_generation: noul(0.95),
    tests_likely_fail: noul(0.3),
  };
  if (n === 0) return loop;
  const options = ['none', ...Array.from({ length: n }, (_, i) => `call_${i}`)];
  const suitable = Object.fromEntries(Array.from({ length: n }, (_, i) => [`suitable_${i}`, noul(0.95)]));
  return { ...loop, selected: pickOf(options, pick === 'first' ? 'call_0' : 'none', 0.97), ...suitable };
}

function memoryIO(cwd: string, env: Record<string, string>): { io: CliIO; out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c));
  stderr.on('data', (c) => (err += c));
  return { io: { stdout, stderr, stdin: new PassThrough(), env, cwd }, out: () => out, err: () => err };
}

function ledgerRecords(path: string): DecisionRecord[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as DecisionRecord);
}

describe('jevcp step --agent: host-prepared candidates, judged, executed only when accepted', () => {
  let ws: string;
  let data: string;
  let upstream: FakeSystemOne;
  let pick: 'first' | 'none' = 'first';
  let env: Record<string, string>;
  const ledger = () => join(ws, 'ledger.jsonl');

  before(async () => {
    ws = mkdtempSync(join(tmpdir(), 'jev-step-agent-'));
    data = join(ws, 'data');
    mkdirSync(data);
    writeFileSync(join(data, 'notes.txt'), 'parseConfig throws on empty input\n');
    mkdirSync(join(ws, '.jev'));
    writeFileSync(
      join(ws, '.jev', 'config.json'),
      JSON.stringify({
        agents: [
          { name: 'reader', tools: ['files/*', '!files/write_file', '!files/move_file'] },
          { name: 'nobody', tools: [] },
        ],
        servers: { files: { command: process.execPath, args: [FILESYSTEM, data] } },
      }),
    );
    upstream = await startFakeSystemOne();
    upstream.setAnswerer((req) => ({ model: `${req.body.model}`, usage: { input_tokens: 10, output_tokens: 10 }, answers: answers(req.body, pick) }));
    env = { PATH: process.env.PATH ?? '', JEV_BASE_URL: upstream.url, JEV_LEDGER: ledger() };
  });

  after(async () => {
    await upstream?.close();
    rmSync(ws, { recursive: true, force: true });
  });

  const request = (candidates: unknown[]) => {
    const file = join(ws, `turn-${Math.random().toString(36).slice(2)}.jev.json`);
    writeFileSync(file, JSON.stringify({ tool: 'jev_step', task: 'Find why parseConfig throws on empty input', observation: 'Nothing read yet.', candidates }));
    return file;
  };

  it('blocks schema-breaking and ungranted calls by host facts, takes effects from annotations, and executes the accepted call', async () => {
    pick = 'first';
    const before = ledgerRecords(ledger()).length;
    const file = request([
      { id: 'read', name: 'read_text_file', arguments: { path: join(data, 'notes.txt') }, description: 'Read the notes', preconditions_met: true },
      { id: 'write', name: 'files/write_file', arguments: { path: join(data, 'out.txt') }, description: 'Write a file', schema_valid: true, authorized: true, effect: 'read_only', preconditions_met: true },
      { id: 'move', name: 'move_file', arguments: { source: join(data, 'notes.txt'), destination: join(data, 'moved.txt') }, description: 'Move the notes', schema_valid: true, authorized: true, preconditions_met: true },
    ]);
    const { io, out, err } = memoryIO(ws, env);
    const code = await stepAgentCommand([file, '--agent', 'reader', '--execute', '--json'], io);
    assert.equal(code, 0, err());
    const printed = JSON.parse(out());
    const result = printed.result;
    assert.deepEqual(result.blocked_candidates, [
      { id: 'write', reason_codes: ['not_authorized', 'arguments_not_validated'] },
      { id: 'move', reason_codes: ['not_authorized'] },
    ]);
    assert.equal(result.handoff, 'execute_tool');
    assert.equal(result.action, 'auto');
    assert.deepEqual(result.call, { candidate_id: 'read', name: 'files/read_text_file', arguments: { path: join(data, 'notes.txt') } });
    assert.deepEqual(
      printed.facts.map((f: any) => [f.id, f.tool, f.schema_valid.value, f.authorized.value, f.effect.value]),
      [
        ['read', 'files/read_text_file', true, true, 'read_only'],
        ['write', 'files/write_file', false, false, 'destructive'],
        ['move', 'files/move_file', true, false, 'destructive'],
      ],
    );
    assert.match(printed.facts[1].schema_valid.detail, /must have required property 'content'/);
    // The accepted call ran through the registry, and the ledger links it to the decision.
    assert.equal(printed.execution.executed, true);
    assert.equal(printed.execution.ok, true);
    assert.match(JSON.stringify(printed.execution.result), /parseConfig throws on empty input/);
    const records = ledgerRecords(ledger()).slice(before);
    assert.deepEqual(records.map((r) => [r.kind, r.tool, r.agent]), [
      ['decision', 'jev_step', 'reader'],
      ['execution', 'files/read_text_file', 'reader'],
    ]);
    assert.equal(records[1].decision_id, records[0].id);
    assert.equal(records[0].id, printed.decision_id);
    assert.deepEqual(records[1].input, { path: join(data, 'notes.txt') });
    assert.equal(existsSync(join(data, 'moved.txt')), false);
    // What the judge saw: only the eligible candidate, under its qualified id, never raw arguments.
    const sent = upstream.requests.at(-1)!.body.state.candidates;
    assert.deepEqual(sent.map((c: any) => [c.id, c.name, c.effect]), [['read', 'files/read_text_file', 'read_only']]);
    assert.ok(!JSON.stringify(sent).includes('notes.txt'), `raw arguments reached the judge: ${JSON.stringify(sent)}`);
  });

  it('does not execute when the decision does not accept a call (exit 1, nothing recorded as executed)', async () => {
    pick = 'none';
    const before = ledgerRecords(ledger()).length;
    const dir = join(data, 'made-by-agent');
    const file = request([{ id: 'mkdir', name: 'create_directory', arguments: { path: dir }, description: 'Create a folder', preconditions_met: true }]);
    const { io, out, err } = memoryIO(ws, env);
    const code = await stepAgentCommand([file, '--agent', 'reader', '--execute'], io);
    assert.equal(code, 1, err());
    assert.match(out(), /not executed: handoff is "gather_context", not "execute_tool"|not executed: action is/);
    assert.match(out(), /effect +local_write — from the tool's annotations/);
    assert.equal(existsSync(dir), false);
    assert.deepEqual(ledgerRecords(ledger()).slice(before).map((r) => r.kind), ['decision']);
  });

  it('the mock judge\'s verdict never runs a tool, even with --execute', async () => {
    const before = ledgerRecords(ledger()).length;
    const file = request([{ id: 'read', name: 'read_text_file', arguments: { path: join(data, 'notes.txt') }, description: 'Read the notes', preconditions_met: true }]);
    const { io, out, err } = memoryIO(ws, { ...env, JEV_MOCK: '1' });
    const code = await stepAgentCommand([file, '--agent', 'reader', '--execute', '--json'], io);
    assert.equal(code, 1, err());
    const printed = JSON.parse(out()) as { execution: { executed: boolean; reason: string } };
    assert.deepEqual(printed.execution, { executed: false, reason: printed.execution.reason });
    assert.match(printed.execution.reason, /mock judge decided .* nothing runs; configure a backend/);
    assert.deepEqual(ledgerRecords(ledger()).slice(before).map((r) => [r.kind, r.provider]), [['decision', 'mock']]);
  });

  it('without --execute, an accepted call is reported but not run', async () => {
    pick = 'first';
    const dir = join(data, 'not-without-execute');
    const file = request([{ id: 'mkdir', name: 'create_directory', arguments: { path: dir }, description: 'Create a folder', preconditions_met: true }]);
    const { io, out, err } = memoryIO(ws, env);
    const code = await stepAgentCommand([file, '--agent', 'reader'], io);
    assert.equal(code, 0, err());
    assert.match(out(), /handoff +execute_tool/);
    assert.equal(existsSync(dir), false);
  });

  it('an agent without grants gets every candidate blocked not_authorized and nothing runs', async () => {
    pick = 'first';
    const file = request([{ id: 'read', name: 'read_text_file', arguments: { path: join(data, 'notes.txt') }, description: 'Read', authorized: true, schema_valid: true, preconditions_met: true }]);
    const { io, out } = memoryIO(ws, env);
    const code = await stepAgentCommand([file, '--agent', 'nobody', '--execute', '--json'], io);
    assert.equal(code, 1);
    const printed = JSON.parse(out());
    assert.deepEqual(printed.result.blocked_candidates, [{ id: 'read', reason_codes: ['not_authorized'] }]);
    assert.equal(printed.execution.executed, false);
  });

  it('a call the request leaves without preconditions_met is blocked, and the host facts and the output say why', async () => {
    pick = 'first';
    const file = request([{ id: 'read', name: 'read_text_file', arguments: { path: join(data, 'notes.txt') }, description: 'Read', failed_attempts: 1 }]);
    const { io, out } = memoryIO(ws, env);
    const code = await stepAgentCommand([file, '--agent', 'reader', '--execute'], io);
    assert.equal(code, 1, 'not executed');
    assert.match(out(), /blocked +read \(preconditions_not_met\)/);
    assert.match(out(), /preconditions_met NO — not set in the request \(only true makes a call eligible\)/);
    assert.match(out(), /failed_attempts 1 — from the request \(a call is blocked at 2\)/);
    assert.match(out(), /^not executed: /m);
  });

  it('rejects an unknown agent and a bad config with exit 2, naming the field', async () => {
    const file = request([]);
    const a = memoryIO(ws, env);
    assert.equal(await stepAgentCommand([file, '--agent', 'ghost'], a.io), 2);
    assert.match(a.err(), /no agent "ghost" in .*config\.json; agents: reader, nobody/);
    const badConfig = join(ws, 'bad.json');
    writeFileSync(badConfig, JSON.stringify({ agents: [{ name: 'x', tools: ['!'] }] }));
    const b = memoryIO(ws, env);
    assert.equal(await stepAgentCommand([file, '--agent', 'x', '--config', badConfig], b.io), 2);
    assert.match(b.err(), /CONFIG_ERROR: .*bad\.json: agents\[0\]\.tools\[0\]: a deny rule must name a tool or glob after "!"/);
  });

  it('jevcp servers lists status, tools and effective grants', async () => {
    const { io, out } = memoryIO(ws, { PATH: process.env.PATH ?? '' });
    assert.equal(await serversCommand(['--json'], io), 0);
    const printed = JSON.parse(out());
    assert.equal(printed.servers[0].name, 'files');
    assert.equal(printed.servers[0].status.state, 'ready');
    assert.ok(printed.servers[0].tools.includes('files/read_text_file'));
    const reader = printed.agents.find((a: any) => a.name === 'reader');
    assert.ok(reader.allowed.includes('files/read_text_file'));
    assert.ok(!reader.allowed.includes('files/write_file'));
    assert.ok(reader.allowed.includes('oracle') === false);
    const human = memoryIO(ws, { PATH: process.env.PATH ?? '', MCP_SERVERS: `${JSON.stringify(join(ws, 'no-such-server'))}` });
    assert.equal(await serversCommand([], human.io), 3);
    assert.match(human.out(), /files \[stdio, config\] ready, \d+ tools/);
    assert.match(human.out(), /env-1 \[stdio, MCP_SERVERS\] error/);
    assert.match(human.out(), /reason: cannot start ".*no-such-server": no such file ".*no-such-server"/);
  });
});
