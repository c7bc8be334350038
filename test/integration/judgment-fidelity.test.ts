/**
 * What the judge sees and which answers are accepted, end to end: `node dist/cli.js serve` over real stdio
 * judging through the systemone provider against the fake System One (127.0.0.1). Checks the bodies that
 * reach the fake, answers refused or accepted (and normalised), the ledger's raw answers, and the score
 * `level` policy predicate with its diagnostics.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { QuestionMap } from '../../src/judgment/types';
import { readLedger } from '../../src/ledger/jsonl';
import { answerAll, startFakeSystemOne, type FakeSystemOne, type RecordedRequest } from '../helpers/fake-systemone';
import { cleanEnv, connectServer, type ServerConnection } from './mcp-fixtures';

type Result = CallToolResult & { structuredContent?: Record<string, unknown> };

let fake: FakeSystemOne;
let conn: ServerConnection;
let dir: string;
let ledgerPath: string;

before(async () => {
  fake = await startFakeSystemOne();
  dir = mkdtempSync(join(tmpdir(), 'jev-fidelity-'));
  ledgerPath = join(dir, 'ledger.jsonl');
  conn = await connectServer(cleanEnv({ JEV_BASE_URL: fake.url, JEV_LEDGER: ledgerPath, JEV_TIMEOUT_MS: '10000' }));
});
after(async () => {
  await conn?.close();
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => fake.setAnswerer((req) => answerAll(req.body.questions as QuestionMap, {}, { model: 'jev-test-1' })));

const call = async (name: string, args: Record<string, unknown>) => (await conn.client.callTool({ name, arguments: args })) as Result;
const textOf = (r: Result) => (r.content[0] as { text: string }).text;
const lastRequest = () => fake.requests.at(-1) as RecordedRequest;
const lastRecord = () => readLedger(ledgerPath).records.at(-1)!;

describe('jev_rank: each id reaches the judge beside its text', () => {
  it('sends {label, id, text} per candidate, keys the options by label, and maps the winner back to the id', async () => {
    const candidates = [
      { id: 'src/billing/invoices.ts', text: 'export function renderInvoice(order) { … }' },
      { id: 'src/auth/key-rotation.ts', text: 'export function rotate(current, next) { … }' },
      { id: 'README.md', text: 'Project overview' },
    ];
    // A judge that can only tell the candidates apart by their ids, as with these texts.
    fake.setAnswerer((req) => {
      const state = req.body.state as { candidates: { label: string; id: string }[] };
      const hit = state.candidates.find((c) => c.id.includes('key-rotation'))!.label;
      const probabilities = Object.fromEntries(state.candidates.map((c) => [c.label, c.label === hit ? 0.9 : 0.05]));
      return { model: 'jev-test-1', usage: { input_tokens: 50, output_tokens: 2 }, answers: { best: { type: 'choice', choice: hit, confidence: 0.85, probabilities }, exists: { type: 'noul', noul: 0.9 } } };
    });
    const r = await call('jev_rank', { query: 'where are API keys rotated?', candidates });
    assert.notEqual(r.isError, true, textOf(r));
    const body = lastRequest().body as { state: { query: string; candidates: unknown[] }; questions: { best: { criteria: Record<string, string> } } };
    assert.deepEqual(body.state.candidates, candidates.map((c, i) => ({ label: `candidate_${i}`, id: c.id, text: c.text })));
    assert.deepEqual(Object.keys(body.questions.best.criteria), ['candidate_0', 'candidate_1', 'candidate_2']);
    assert.equal(r.structuredContent?.winner, 'src/auth/key-rotation.ts');
    assert.deepEqual((r.structuredContent?.top as { id: string }[]).map((t) => t.id), ['src/auth/key-rotation.ts', 'src/billing/invoices.ts', 'README.md']);
  });
});

describe('choice answers from System One', () => {
  const args = { state: 'The checkout page times out after the last deploy.', instruction: 'Which team should take this?', criteria: { payments: 'Payments', infra: 'Infrastructure', docs: 'Docs', support: 'Support' } };
  const answerWith = (answer: unknown) => fake.setAnswerer(() => ({ model: 'jev-test-1', usage: { input_tokens: 40, output_tokens: 2 }, answers: { choice_question: answer } }));

  it('accepts a subset of the labels (the rest 0), returns normalised probabilities and keeps the raw answer in the ledger', async () => {
    const sent = { type: 'choice', choice: 'infra', confidence: 0.7, probabilities: { infra: 0.795, payments: 0.2 } };
    answerWith(sent);
    const r = await call('ask_choice', args);
    assert.notEqual(r.isError, true, textOf(r));
    const p = r.structuredContent?.probabilities as Record<string, number>;
    assert.deepEqual(Object.keys(p), ['payments', 'infra', 'docs', 'support']);
    assert.ok(Math.abs(p.infra! - 0.795 / 0.995) < 1e-12 && Math.abs(p.payments! - 0.2 / 0.995) < 1e-12);
    assert.equal(p.docs, 0);
    assert.equal(r.structuredContent?.confidence, 0.7);
    const exchange = lastRecord().exchanges[0]!;
    assert.deepEqual(exchange.raw_answers, { choice_question: sent });
    assert.deepEqual((exchange.response.answers.choice_question as { probabilities: object }).probabilities, p);
  });

  it('refuses an off-list label, a sum outside tolerance and a non-finite number, naming the question', async () => {
    const cases: [unknown, RegExp][] = [
      [{ type: 'choice', choice: 'infra', confidence: 0.7, probabilities: { infra: 0.8, legal: 0.2 } }, /Answer "choice_question" gives a probability for "legal", which was not offered/],
      [{ type: 'choice', choice: 'sales', confidence: 0.7, probabilities: { infra: 1 } }, /Answer "choice_question" chose "sales", which is not one of the offered options/],
      [{ type: 'choice', choice: 'infra', confidence: 0.7, probabilities: { infra: 0.7, payments: 0.2 } }, /Answer "choice_question" has probabilities summing to 0\.9, not 1/],
    ];
    for (const [answer, why] of cases) {
      answerWith(answer);
      const r = await call('ask_choice', args);
      assert.equal(r.isError, true, JSON.stringify(answer));
      assert.equal(r.structuredContent, undefined);
      assert.match(textOf(r), why);
    }
    // JSON has no Infinity: 1e999 is how a body carries a non-finite number.
    fake.script({ raw: '{"model":"m","usage":{"input_tokens":1,"output_tokens":1},"answers":{"choice_question":{"type":"choice","choice":"infra","confidence":0.7,"probabilities":{"infra":1e999}}}}', contentType: 'application/json' });
    const r = await call('ask_choice', args);
    assert.equal(r.isError, true);
    assert.match(textOf(r), /Answer "choice_question" gives "infra" a probability that is not a number in \[0,1\]/);
    assert.equal(lastRecord().result, undefined, 'no result was recorded for a refused answer');
  });
});

describe('evaluate_policy: the score {"level": n} predicate', () => {
  const questions = { risk: { type: 'score', instructions: 'How risky is this command?', criteria: ['none', 'low', 'high'] } };
  const policyOf = (pass: unknown) => ({ rules: [{ question: 'risk', pass }] });
  const riskAnswer = (probabilities: Record<string, number>) => {
    const score = Object.entries(probabilities).reduce((acc, [k, p]) => acc + Number(k) * p, 0);
    fake.setAnswerer(() => ({
      model: 'jev-test-1',
      usage: { input_tokens: 40, output_tokens: 2 },
      answers: { risk: { type: 'score', score, confidence: 0.6, probabilities, legend: { '0': 'none', '1': 'low', '2': 'high' } } },
    }));
  };

  it('is in the closed input schema', async () => {
    const { tools } = await conn.client.listTools();
    const schema = JSON.stringify(tools.find((t) => t.name === 'evaluate_policy')!.inputSchema);
    assert.ok(schema.includes('"level":{"type":"integer","minimum":0'), 'level is declared as an integer ≥ 0');
  });

  it('passes on the highest-probability level and fails on another, with the rule detail', async () => {
    riskAnswer({ '0': 0.15, '1': 0.6, '2': 0.25 });
    const pass = await call('evaluate_policy', { state: 'rm -rf build/', questions, policy: policyOf({ score: { level: 1 } }) });
    assert.notEqual(pass.isError, true, textOf(pass));
    assert.deepEqual(pass.structuredContent?.policy, { result: 'pass', rules: [{ question: 'risk', pass: true, detail: 'score level 1 == 1 -> pass' }] });
    const fail = await call('evaluate_policy', { state: 'rm -rf build/', questions, policy: policyOf({ score: { level: 0 }, confidence: { min: 0.5 } }) });
    assert.notEqual(fail.isError, true, textOf(fail));
    assert.deepEqual(fail.structuredContent?.policy, { result: 'fail', rules: [{ question: 'risk', pass: false, detail: 'score level 1 == 0 and confidence 0.6 >= 0.5 -> fail' }] });
  });

  it('refuses a level out of range, not an integer, or combined with a bound, before any request', async () => {
    const before = fake.count();
    const cases: [unknown, string][] = [
      [{ score: { level: 3 } }, 'score level must be in [0, 2]'],
      [{ score: { level: 1.5 } }, 'score level must be an integer'],
      [{ score: { level: '1' } }, 'score level must be an integer'],
      [{ score: { level: 1, min: 0.5 } }, 'score level cannot be combined with min or max'],
      [{ score: { level: 1, at: 2 } }, "score predicate has unknown field 'at'; expected 'min', 'max' or 'level'"],
    ];
    for (const [pass, message] of cases) {
      const r = await call('evaluate_policy', { state: 's', questions, policy: policyOf(pass) });
      assert.equal(r.isError, true, JSON.stringify(pass));
      assert.equal(textOf(r), message);
    }
    assert.equal(fake.count(), before, 'no request reached the judge');
  });
});
