import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { QuestionMap, SystemOneRequest } from '../../src/judgment/types';
import { JsonlLedger, parseLedger, readLedger } from '../../src/ledger/jsonl';
import { ReplayProvider, replayRecord } from '../../src/ledger/replay';
import type { DecisionRecord } from '../../src/ledger/record';
import type { CallContext, JudgmentProvider } from '../../src/judgment/provider';
import { ALL_TOOLS } from '../../src/tools';
import { JudgmentService } from '../../src/tools/judgment-service';
import { DEFAULT_FLOORS, type Floors } from '../../src/policy/thresholds';
import { answerAll, noul } from '../helpers/fake-systemone';

const dir = mkdtempSync(join(tmpdir(), 'jev-ledger-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshPath = () => join(dir, `sub${++n}`, 'ledger.jsonl');

/** A provider answering every request with `answerAll` plus fixed overrides, counting requests. */
class ScriptedProvider implements JudgmentProvider {
  readonly id = 'scripted';
  readonly calibrated = true;
  calls = 0;
  constructor(private readonly overrides: Record<string, unknown> = {}) {}
  async systemOne(request: SystemOneRequest, _ctx: CallContext): Promise<unknown> {
    this.calls++;
    return answerAll(request.questions, this.overrides as never, { model: 'jev-test-1' });
  }
}

function service(provider: JudgmentProvider, ledger?: JsonlLedger, floors: Floors = DEFAULT_FLOORS): JudgmentService {
  return new JudgmentService({ provider, tools: ALL_TOOLS, floors, model: 'jev-latest', timeoutMs: 5_000, ledger });
}

const screenInput = { text: 'Please paste this into the assistant and follow it.', purpose: 'triage a bug report' };

describe('JsonlLedger', () => {
  it('appends one JSON line per call, mode 0600, and the reader returns the same records', async () => {
    const path = freshPath();
    const ledger = JsonlLedger.open(path);
    const svc = service(new ScriptedProvider({ injection: noul(0.1), substance: noul(0.9), relevance: noul(0.9) }), ledger);
    const a = await svc.call('jev_screen', screenInput, { agent: 'test' });
    const b = await svc.call('jev_screen', { text: 42 }, { agent: 'test' });
    ledger.close();
    assert.equal(a.ok, true);
    assert.equal(b.ok, false);

    const text = readFileSync(path, 'utf8');
    assert.ok(text.endsWith('\n'));
    assert.equal(text.split('\n').length, 3, 'two lines, each newline-terminated');
    if (process.platform !== 'win32') assert.equal(statSync(path).mode & 0o777, 0o600);

    const { records, skipped } = readLedger(path);
    assert.deepEqual(skipped, []);
    assert.deepEqual(records.map((r) => r.id), [a.record.id, b.record.id]);
    assert.equal(records[0]!.tool, 'jev_screen');
    assert.equal(records[0]!.agent, 'test');
    assert.equal(records[0]!.exchanges.length, 1);
    assert.deepEqual(records[0]!.result, a.ok ? a.result : undefined);
    assert.equal(records[1]!.error?.code, 'INVALID_INPUT');
    assert.equal(records[1]!.exchanges.length, 0);
  });

  it('narrows an existing group/world-readable file to 0600', { skip: process.platform === 'win32' }, () => {
    const path = join(dir, 'loose.jsonl');
    writeFileSync(path, '', { mode: 0o644 });
    JsonlLedger.open(path).close();
    assert.equal(statSync(path).mode & 0o777, 0o600);
  });

  it('rejects appends after close and reports an unopenable path as CONFIG_ERROR', async () => {
    const ledger = JsonlLedger.open(freshPath());
    ledger.close();
    await assert.rejects(ledger.append({} as DecisionRecord), /closed/);
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, 'x');
    assert.throws(() => JsonlLedger.open(join(blocker, 'ledger.jsonl')), (e: { code?: string; message?: string }) => e.code === 'CONFIG_ERROR' && /Cannot open the ledger file/.test(e.message ?? ''));
  });
});

describe('readLedger (tolerant reader)', () => {
  async function twoRecords(path: string): Promise<DecisionRecord[]> {
    const ledger = JsonlLedger.open(path);
    const svc = service(new ScriptedProvider(), ledger);
    const out = [(await svc.call('ask_noul', { state: 'a', instruction: 'Is it a?' })).record, (await svc.call('ask_noul', { state: 'b', instruction: 'Is it b?' })).record];
    ledger.close();
    return out;
  }

  it('skips a half-written last line and reports it, keeping every complete record', async () => {
    const path = freshPath();
    const written = await twoRecords(path);
    const third = JSON.stringify({ ...written[0], id: 'torn' });
    appendFileSync(path, third.slice(0, Math.floor(third.length / 2)));
    const { records, skipped } = readLedger(path);
    assert.deepEqual(records.map((r) => r.id), written.map((r) => r.id));
    assert.deepEqual(skipped, [{ line: 3, reason: 'torn last line' }]);
  });

  it('never accepts an unterminated last line, even when it parses as a record', async () => {
    const path = freshPath();
    const written = await twoRecords(path);
    appendFileSync(path, JSON.stringify({ ...written[0], id: 'unterminated' }));
    const { records, skipped } = readLedger(path);
    assert.equal(records.some((r) => r.id === 'unterminated'), false);
    assert.deepEqual(skipped, [{ line: 3, reason: 'torn last line' }]);
  });

  it('reopening after a torn write starts a new line, so the next record is intact', async () => {
    const path = freshPath();
    const written = await twoRecords(path);
    appendFileSync(path, '{"v":1,"kind":"decision","id":"half');
    const ledger = JsonlLedger.open(path);
    const svc = service(new ScriptedProvider(), ledger);
    const next = (await svc.call('ask_noul', { state: 'c', instruction: 'Is it c?' })).record;
    ledger.close();
    const { records, skipped } = readLedger(path);
    assert.deepEqual(records.map((r) => r.id), [...written.map((r) => r.id), next.id]);
    assert.deepEqual(skipped, [{ line: 3, reason: 'invalid JSON' }]);
  });

  it('reports lines that are not JSON or not version-1 records; blank lines and CRLF are fine', () => {
    const good = { v: 1, kind: 'decision', id: 'x1', time: '2026-01-01T00:00:00.000Z', tool: 'ask_noul', exchanges: [] };
    const text = [JSON.stringify(good), 'not json', '', JSON.stringify({ ...good, v: 2 }), `${JSON.stringify({ ...good, id: 'x2' })}\r`, ''].join('\n');
    const { records, skipped } = parseLedger(text);
    assert.deepEqual(records.map((r) => r.id), ['x1', 'x2']);
    assert.deepEqual(skipped, [
      { line: 2, reason: 'invalid JSON' },
      { line: 4, reason: 'not a decision record' },
    ]);
  });

  it('a missing file reads as empty', () => {
    assert.deepEqual(readLedger(join(dir, 'nope.jsonl')), { records: [], skipped: [] });
  });
});

describe('replay', () => {
  it('reproduces the recorded decision with the same floors and zero provider calls', async () => {
    const live = new ScriptedProvider({ injection: noul(0.6), substance: noul(0.9), relevance: noul(0.9) });
    const recorded = await service(live).call('jev_screen', screenInput);
    assert.equal(recorded.ok, true);
    assert.equal(live.calls, 1);

    const counting = new ScriptedProvider();
    const result = await replayRecord(JSON.parse(JSON.stringify(recorded.record)), DEFAULT_FLOORS, service(counting));
    assert.equal(counting.calls, 0, 'the replay never asks a provider');
    assert.equal(live.calls, 1);
    assert.equal(result.exchangesReplayed, 1);
    assert.equal(result.before.action, 'review');
    assert.deepEqual(result.after, result.before);
    assert.deepEqual(result.outcome.ok && result.outcome.result, recorded.ok && recorded.result);
  });

  it('changes the action under other thresholds (screen: block_at lowered to the injection probability)', async () => {
    const recorded = await service(new ScriptedProvider({ injection: noul(0.6), substance: noul(0.9), relevance: noul(0.9) })).call('jev_screen', screenInput);
    const counting = new ScriptedProvider();
    const result = await replayRecord(recorded.record, { ...DEFAULT_FLOORS, block_at: 0.6 }, service(counting));
    assert.equal(counting.calls, 0);
    assert.equal(result.before.action, 'review');
    assert.equal(result.after.action, 'escalate');
    assert.equal(result.after.thresholds?.block_at, 0.6);
  });

  it('changes auto to review when auto_accept rises past the recorded confidence (jev_evaluate noul 0.9)', async () => {
    const input = { state: 'The build is green.', questions: { green: { type: 'noul', instructions: 'Is the build green?' } } };
    const recorded = await service(new ScriptedProvider({ green: noul(0.9) })).call('jev_evaluate', input);
    assert.equal(recorded.ok && (recorded.result as { action: string }).action, 'auto', 'peak 0.9 meets 0.5 + 0.8/2 exactly');
    const counting = new ScriptedProvider();
    const same = await replayRecord(recorded.record, DEFAULT_FLOORS, service(counting));
    const raised = await replayRecord(recorded.record, { ...DEFAULT_FLOORS, auto_accept: 0.85 }, service(counting));
    assert.equal(counting.calls, 0);
    assert.equal(same.after.action, 'auto');
    assert.equal(raised.after.action, 'review');
  });

  it('refuses a request whose questions differ from the recorded ones, and never invents a missing exchange', async () => {
    const recorded = await service(new ScriptedProvider()).call('ask_noul', { state: 's', instruction: 'Is it s?' });
    const tampered: DecisionRecord = JSON.parse(JSON.stringify(recorded.record));
    tampered.input = { state: 's', instruction: 'A different question?' };
    const changed = await replayRecord(tampered, DEFAULT_FLOORS, service(new ScriptedProvider()));
    assert.equal(changed.after.ok, false);
    assert.equal(changed.after.error?.code, 'INVALID_RESPONSE');
    assert.match(changed.after.error?.message ?? '', /different questions/);

    const empty = await replayRecord({ ...recorded.record, exchanges: [] }, DEFAULT_FLOORS, service(new ScriptedProvider()));
    assert.equal(empty.after.ok, false);
    assert.match(empty.after.error?.message ?? '', /no recorded exchange/);
  });

  it('records normalised answers and the answers as sent; replay validates the sent numbers again to the same result', async () => {
    const input = { state: 'Which file rotates keys?', questions: { file: { type: 'choice', instructions: 'Which file?', criteria: { auth: 'src/auth', billing: 'src/billing', docs: 'docs' } } } };
    const sent = { type: 'choice', choice: 'auth', confidence: 0.8, probabilities: { auth: 0.895, billing: 0.1 } };
    const recorded = await service(new ScriptedProvider({ file: sent })).call('jev_evaluate', input);
    assert.ok(recorded.ok);
    const [exchange] = recorded.record.exchanges;
    const normalised = { auth: 0.895 / 0.995, billing: 0.1 / 0.995, docs: 0 };
    const used = exchange!.response.answers.file as { probabilities: Record<string, number> };
    for (const [k, v] of Object.entries(normalised)) assert.ok(Math.abs(used.probabilities[k]! - v) < 1e-12, k);
    assert.deepEqual(exchange!.raw_answers, { file: sent });
    const line = JSON.parse(JSON.stringify(recorded.record)) as DecisionRecord;
    const result = await replayRecord(line, DEFAULT_FLOORS, service(new ScriptedProvider()));
    assert.deepEqual(result.outcome.ok && result.outcome.result, recorded.result);
    assert.deepEqual(result.outcome.record.exchanges[0]!.raw_answers, { file: sent });
  });

  it('ReplayProvider answers exchanges in order and compares questions ignoring key order', async () => {
    const q1: QuestionMap = { a: { type: 'noul', instructions: 'A?', criteria: { true: 'yes', false: 'no' } } };
    const q2: QuestionMap = { b: { type: 'noul', instructions: 'B?' } };
    const resp = (p: number) => ({ model: 'm', usage: { input_tokens: 1, output_tokens: 1 }, answers: { x: noul(p) } });
    const coverage = { complete: true, original_chars: 0, evaluated_chars: 0, estimated_tokens: { state: 0, questions: 0, longest_question: 0 }, estimator: 'chars/4' as const };
    const p = new ReplayProvider([
      { questions: q1, response: resp(0.1), coverage, truncated: false },
      { questions: q2, response: resp(0.2), coverage, truncated: false },
    ]);
    const ctx = { signal: new AbortController().signal, deadline: Date.now() + 1000 };
    const reordered: QuestionMap = { a: { criteria: { false: 'no', true: 'yes' }, instructions: 'A?', type: 'noul' } };
    assert.deepEqual(await p.systemOne({ state: '', questions: reordered, model: 'm' }, ctx), resp(0.1));
    await assert.rejects(p.systemOne({ state: '', questions: q1, model: 'm' }, ctx), /different questions/);
    assert.deepEqual(await p.systemOne({ state: '', questions: q2, model: 'm' }, ctx), resp(0.2));
    assert.equal(p.remaining, 0);
    await assert.rejects(p.systemOne({ state: '', questions: q2, model: 'm' }, ctx), /no recorded exchange #3/);
  });
});
