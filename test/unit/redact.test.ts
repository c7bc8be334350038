/**
 * Secret redaction: the helper (judgment/redact.ts), the runner's redaction of tool arguments before parse,
 * the JSONL sink's last-line defence, and the evidence command's environment.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { evidenceEnv, runEvidenceCommand } from '../../src/gate/evidence-command';
import { isSecretVariable, secretValues } from '../../src/config/env';
import { MAX_REDACT_DEPTH, REDACTED, redactSecrets, redactText, usableSecrets } from '../../src/judgment/redact';
import type { SystemOneRequest } from '../../src/judgment/types';
import { JsonlLedger, readLedger } from '../../src/ledger/jsonl';
import type { DecisionRecord } from '../../src/ledger/record';
import type { CallContext, JudgmentProvider } from '../../src/judgment/provider';
import { ALL_TOOLS } from '../../src/tools';
import { JudgmentService } from '../../src/tools/judgment-service';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';
import { answerAll } from '../helpers/fake-systemone';

const SECRET = 'sk-unit-redact-7f3a9c';
const dir = mkdtempSync(join(tmpdir(), 'jev-redact-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Records every request it is sent (as JSON text) and answers it well-formed. */
class RecordingProvider implements JudgmentProvider {
  readonly id = 'recording';
  readonly calibrated = true;
  readonly sent: string[] = [];
  async systemOne(request: SystemOneRequest, _ctx: CallContext): Promise<unknown> {
    this.sent.push(JSON.stringify(request));
    return answerAll(request.questions, {}, { model: 'jev-test-1' });
  }
}

describe('redactSecrets', () => {
  it('replaces secrets in string values and keys, deep through arrays and objects', () => {
    const input = { text: `key=${SECRET}!`, list: ['ok', [`${SECRET}${SECRET}`]], nested: { [`k-${SECRET}`]: 1, n: 2, b: true, z: null } };
    const out = redactSecrets(input, [SECRET]);
    assert.deepEqual(out, { text: `key=${REDACTED}!`, list: ['ok', [`${REDACTED}${REDACTED}`]], nested: { [`k-${REDACTED}`]: 1, n: 2, b: true, z: null } });
    assert.ok(!JSON.stringify(out).includes(SECRET));
    assert.ok(JSON.stringify(input).includes(SECRET), 'the caller’s value is not mutated');
  });

  it('returns the same references where nothing matched, and the value itself without secrets', () => {
    const clean = { a: ['x', { b: 'y' }], c: 'z' };
    assert.equal(redactSecrets(clean, [SECRET]), clean);
    assert.equal(redactSecrets(clean, []), clean);
    const mixed = { hit: SECRET, keep: { b: 'y' } };
    const out = redactSecrets(mixed, [SECRET]);
    assert.notEqual(out, mixed);
    assert.equal(out.keep, mixed.keep);
  });

  it('keeps an own __proto__ key an own key (never a prototype)', () => {
    const input = JSON.parse(`{"__proto__": {"polluted": true}, "t": "${SECRET}"}`) as Record<string, unknown>;
    const out = redactSecrets(input, [SECRET]);
    assert.ok(Object.prototype.hasOwnProperty.call(out, '__proto__'));
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.equal((out as { polluted?: unknown }).polluted, undefined);
    assert.equal(out.t, REDACTED);
  });

  it('a value nested far deeper than the tools allow neither overflows the stack nor is walked past MAX_REDACT_DEPTH', () => {
    let deep: unknown = SECRET;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    assert.equal(redactSecrets(deep, [SECRET]), deep);
    let shallow: unknown = SECRET;
    for (let i = 0; i < MAX_REDACT_DEPTH - 1; i++) shallow = [shallow];
    assert.ok(!JSON.stringify(redactSecrets(shallow, [SECRET])).includes(SECRET), 'within the limit every level is redacted');
  });

  it('usableSecrets drops short and non-string entries, dedupes, longest first', () => {
    assert.deepEqual(usableSecrets(['short', undefined, SECRET, `${SECRET}-longer`, SECRET, '']), [`${SECRET}-longer`, SECRET]);
    assert.equal(redactText(`${SECRET}-longer`, usableSecrets([SECRET, `${SECRET}-longer`])), REDACTED);
  });
});

describe('JudgmentService secrets', () => {
  it('neither the upstream request, the result nor the record carries a secret in the arguments', async () => {
    const provider = new RecordingProvider();
    const records: DecisionRecord[] = [];
    const svc = new JudgmentService({ provider, tools: ALL_TOOLS, floors: DEFAULT_FLOORS, model: 'jev-latest', timeoutMs: 5_000, secrets: [SECRET], onRecord: (r) => records.push(r) });
    const out = await svc.call('jev_screen', { text: `export JEV_API_KEY=${SECRET}`, purpose: `triage ${SECRET}` });
    assert.equal(out.ok, true);
    assert.equal(provider.sent.length, 1);
    assert.ok(!provider.sent[0]!.includes(SECRET), 'upstream request');
    assert.ok(provider.sent[0]!.includes(REDACTED), 'the text still reaches the judge, redacted');
    assert.ok(!JSON.stringify(out).includes(SECRET), 'result and record');
    assert.ok(!JSON.stringify(records).includes(SECRET), 'onRecord');
  });

  it('deeply nested arguments with secrets configured are an INVALID_INPUT outcome, not a crash', async () => {
    const provider = new RecordingProvider();
    const svc = new JudgmentService({ provider, tools: ALL_TOOLS, floors: DEFAULT_FLOORS, model: 'jev-latest', timeoutMs: 5_000, secrets: [SECRET] });
    let deep: unknown = SECRET;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const out = await svc.call('jev_screen', { text: 'x', purpose: 'y', extra: deep });
    assert.equal(out.ok, false);
    assert.equal(provider.sent.length, 0);
  });

  it('without secrets the arguments pass unchanged (the same object)', async () => {
    const provider = new RecordingProvider();
    const svc = new JudgmentService({ provider, tools: ALL_TOOLS, floors: DEFAULT_FLOORS, model: 'jev-latest', timeoutMs: 5_000 });
    const args = { text: `export JEV_API_KEY=${SECRET}`, purpose: 'triage' };
    const out = await svc.call('jev_screen', args);
    assert.equal(out.record.input, args);
    assert.ok(provider.sent[0]!.includes(SECRET));
  });
});

describe('JsonlLedger secrets', () => {
  it('replaces secrets in every written line, including JSON-escaped ones; the line stays valid JSON', async () => {
    const path = join(dir, 'ledger.jsonl');
    const quoted = 'pa"ss\\word-2024';
    const ledger = JsonlLedger.open(path, { secrets: [SECRET, quoted] });
    const record = {
      v: 1,
      kind: 'decision',
      id: 'r1',
      time: new Date(0).toISOString(),
      agent: 'test',
      tool: 'jev_screen',
      provider: 'mock',
      input: { text: `${SECRET} and ${quoted}` },
      questions: null,
      response: null,
      exchanges: [],
      coverage: null,
      thresholds: DEFAULT_FLOORS,
      latency_ms: 1,
      error: { code: 'API_ERROR', message: `upstream said ${SECRET}`, retryable: false },
    } as unknown as DecisionRecord;
    await ledger.append(record);
    ledger.close();
    const text = readFileSync(path, 'utf8');
    assert.ok(!text.includes(SECRET));
    assert.ok(!text.includes(JSON.stringify(quoted).slice(1, -1)));
    const { records, skipped } = readLedger(path);
    assert.deepEqual(skipped, []);
    assert.deepEqual(records[0]!.input, { text: `${REDACTED} and ${REDACTED}` });
  });
});

describe('evidence command environment', () => {
  it('strips Jev’s secret variables and any *_API_KEY / *_TOKEN, keeps the rest', async () => {
    assert.ok(['JEV_API_KEY', 'TYPESAFE_API_KEY', 'JEV_API__KEY', 'JEV_HTTP_TOKEN', 'OPENAI_API_KEY', 'github_token'].every(isSecretVariable));
    assert.ok(!['PATH', 'HOME', 'JEV_MODEL', 'TOKENIZER', 'API_KEY_FILE', 'SECRETARY', 'PASSWORDLESS'].some(isSecretVariable));
    assert.ok(['AWS_SECRET_ACCESS_KEY', 'DB_PASSWORD', 'GCP_CREDENTIALS', 'SSH_PRIVATE_KEY', 'AWS_ACCESS_KEY_ID', 'client_secret'].every(isSecretVariable), 'names that say secret');
    const env = { PATH: process.env.PATH, JEV_API_KEY: SECRET, JEV_API__KEY: SECRET, OTHER_TOKEN: SECRET, KEEP_ME: 'yes' };
    assert.deepEqual(Object.keys(evidenceEnv(env)).sort(), ['KEEP_ME', 'PATH']);
    const run = await runEvidenceCommand(`"${process.execPath}" -e "console.log(JSON.stringify(process.env))"`, dir, 10_000, env);
    assert.equal(run.exitCode, 0, run.output);
    assert.ok(!run.output.includes(SECRET));
    assert.match(run.output, /"KEEP_ME":"yes"/);
  });

  it('secretValues lists the values of Jev’s secret variables that are set', () => {
    assert.deepEqual(secretValues({ JEV_API_KEY: ` ${SECRET} `, TYPESAFE_API_KEY: '', JEV_HTTP_TOKEN: 'tok-123456789', PATH: '/bin' }), [SECRET, 'tok-123456789']);
  });
});
