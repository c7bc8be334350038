/**
 * The permit route of the editor channel (src/channel/permit-*.ts): its request schema, the server's
 * routing by path (/v1/gate and /v1/permit on one server), the editor's answer with a real JudgmentService
 * (refused outside its folders, `no-backend` with the mock and nothing judged, a judged call recorded with
 * the hook's source), and the hook's PermitJudge: only a real judged answer is taken; no-backend, refused,
 * a mock answer or an editor that is gone fall to the CLI configuration; a judged failure is thrown.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { answerPermit, type PermitJudgeDeps } from '../../src/channel/permit-answer';
import { editorPermitJudge } from '../../src/channel/permit-client';
import { PERMIT_PATH, permitRequestSchema, type PermitChannelRequest, type PermitChannelResponse } from '../../src/channel/permit-protocol';
import { CHANNEL_PATH } from '../../src/channel/protocol';
import { GateChannelServer } from '../../src/channel/server';
import { newSessionSecrets, type EditorSession } from '../../src/channel/session-file';
import type { PermitInput, PermitJudge, PermitResult } from '../../src/guard/types';
import type { Answer, QuestionMap, SystemOneRequest } from '../../src/judgment/types';
import type { JudgmentProvider } from '../../src/judgment/provider';
import type { DecisionRecord } from '../../src/ledger/record';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';
import { ALL_TOOLS } from '../../src/tools';
import { JudgmentService } from '../../src/tools/judgment-service';
import { answerAll, choice, noul } from '../helpers/fake-systemone';

const CONFIDENT: Record<string, Answer> = {
  effect: choice('read_only', 0.95, { read_only: 0.96, local_write: 0.02, external_write: 0.01, destructive: 0.01 }),
  serves_request: noul(0.95),
  exfiltration: noul(0.02),
  planted_purpose: noul(0.02),
};

class ScriptedProvider implements JudgmentProvider {
  readonly id = 'stub';
  readonly calibrated = true;
  calls = 0;
  constructor(private readonly answers: Record<string, Answer>) {}
  async systemOne(req: SystemOneRequest): Promise<unknown> {
    this.calls++;
    return answerAll(req.questions as QuestionMap, this.answers, { model: 'editor-model' });
  }
}

const INPUT: PermitInput = { request: 'Run the tests', call: { tool: 'Bash', input: { command: 'npm test' } }, host: { name: 'claude-code', agent: 'claude-code' } };

let tmp: string;
before(() => {
  tmp = mkdtempSync(join(tmpdir(), 'jev-permit-channel-'));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

function deps(provider: JudgmentProvider, kind: string, records: DecisionRecord[]): PermitJudgeDeps {
  const service = new JudgmentService({ provider, tools: ALL_TOOLS, floors: DEFAULT_FLOORS, model: 'editor-model', onRecord: (r) => records.push(r) });
  return {
    service,
    choice: () => (kind === 'mock' ? { kind: 'mock', reason: 'no backend configured' } : { kind: 'systemone', reason: 'API key set' }) as ReturnType<PermitJudgeDeps['choice']>,
    model: () => 'editor-model',
    roots: () => [tmp],
    editor: 'Test Editor',
    record: async (r) => void records.push(r),
  };
}

const body = (patch: Partial<PermitChannelRequest> = {}): PermitChannelRequest => ({ v: 1, root: tmp, input: INPUT, host: 'claude-code', agent: 'claude-code', source: 'guard hook, claude-code', ...patch });

function post(port: number, token: string, path: string, payload: unknown): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const data = Buffer.from(JSON.stringify(payload));
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': data.length } });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown }));
    });
    req.end(data);
  });
}

describe('the permit request schema', () => {
  it('accepts a well-formed request and refuses unknown fields, an empty root and a long source', () => {
    assert.ok(permitRequestSchema.safeParse(body()).success);
    assert.equal(permitRequestSchema.safeParse({ ...body(), allowMock: true }).success, false, 'no allowMock on the permit route');
    assert.equal(permitRequestSchema.safeParse(body({ root: '' })).success, false);
    assert.equal(permitRequestSchema.safeParse(body({ source: 'x'.repeat(201) })).success, false);
    assert.equal(permitRequestSchema.safeParse({ ...body(), v: 2 }).success, false);
  });
});

describe('one server, two routes', () => {
  it('routes /v1/permit to the permit handler and /v1/gate to the gate handler; without a permit handler /v1/permit is 404', async () => {
    const seen: string[] = [];
    const { token } = newSessionSecrets();
    const server = new GateChannelServer({
      token,
      handler: async () => (seen.push('gate'), { v: 1, status: 'refused', message: 'gate' }),
      permit: async (req) => (seen.push(`permit ${req.source}`), { v: 1, status: 'refused', message: 'permit' }),
    });
    const { port } = await server.start();
    try {
      const p = await post(port, token, PERMIT_PATH, body());
      assert.deepEqual([p.status, (p.body as { message: string }).message], [200, 'permit']);
      const bad = await post(port, token, PERMIT_PATH, { ...body(), agent: '' });
      assert.equal(bad.status, 400);
      assert.match((bad.body as { error: string }).error, /invalid request: agent:/);
      const g = await post(port, token, CHANNEL_PATH, { v: 1, root: tmp, input: {}, source: 'commit hook, terminal', allowMock: false });
      assert.deepEqual([g.status, (g.body as { message: string }).message], [200, 'gate']);
      assert.deepEqual(seen, ['permit guard hook, claude-code', 'gate']);
    } finally {
      await server.stop();
    }
    const gateOnly = new GateChannelServer({ token, handler: async () => ({ v: 1, status: 'refused', message: 'gate' }) });
    const { port: port2 } = await gateOnly.start();
    try {
      assert.equal((await post(port2, token, PERMIT_PATH, body())).status, 404);
    } finally {
      await gateOnly.stop();
    }
  });
});

describe("the editor's answer to the guard hook", () => {
  it('judges with jev_permit on its own judge, recorded with the hook source and agent', async () => {
    const records: DecisionRecord[] = [];
    const provider = new ScriptedProvider(CONFIDENT);
    const r = await answerPermit(deps(provider, 'systemone', records), body(), new AbortController().signal);
    assert.equal(r.status, 'judged');
    if (r.status !== 'judged') return;
    assert.equal(r.outcome.ok, true);
    assert.equal((r.outcome as { result: PermitResult }).result.decision, 'allow');
    assert.equal(records.length, 1);
    assert.equal(records[0]!.tool, 'jev_permit');
    assert.equal(records[0]!.source, 'guard hook, claude-code');
    assert.equal(records[0]!.agent, 'claude-code');
    assert.equal(r.outcome.recordId, records[0]!.id);
  });

  it('with only the mock: no-backend, nothing judged; another folder: refused', async () => {
    const records: DecisionRecord[] = [];
    const provider = new ScriptedProvider(CONFIDENT);
    const mock = await answerPermit(deps(provider, 'mock', records), body(), new AbortController().signal);
    assert.equal(mock.status, 'no-backend');
    const other = await answerPermit(deps(provider, 'systemone', records), body({ root: join(tmpdir(), 'elsewhere-not-open') }), new AbortController().signal);
    assert.equal(other.status, 'refused');
    assert.equal(provider.calls, 0);
    assert.equal(records.length, 0);
  });

  it('a call the guard settled is only recorded (local-policy, no request), with any judge, the mock included', async () => {
    for (const kind of ['mock', 'systemone']) {
      const records: DecisionRecord[] = [];
      const provider = new ScriptedProvider(CONFIDENT);
      const settled = { decision: 'deny' as const, reason_codes: ['RULE_DENY'], settled_by: 'rule' as const, rule: 'Bash(rm *)', reason: 'deny by the rule "Bash(rm *)" [RULE_DENY]' };
      const r = await answerPermit(deps(provider, kind, records), body({ settled }), new AbortController().signal);
      assert.equal(r.status, 'recorded', kind);
      assert.equal(provider.calls, 0, `${kind}: nothing judged`);
      assert.equal(records.length, 1);
      assert.equal(r.status === 'recorded' && r.recordId, records[0]!.id);
      assert.equal(records[0]!.provider, 'local-policy');
      assert.deepEqual(records[0]!.result, { action: 'escalate', decision: 'deny', reason_codes: ['RULE_DENY'], settled_by: 'rule', rule: 'Bash(rm *)', reason: settled.reason, model: 'local-policy' });
      assert.equal(records[0]!.source, 'guard hook, claude-code');
    }
    const elsewhere: DecisionRecord[] = [];
    const settled = { decision: 'allow' as const, reason_codes: ['RULE_ALLOW'], settled_by: 'rule' as const, reason: 'x' };
    const other = await answerPermit(deps(new ScriptedProvider(CONFIDENT), 'mock', elsewhere), body({ root: join(tmpdir(), 'elsewhere-not-open'), settled }), new AbortController().signal);
    assert.equal(other.status, 'refused', 'a folder the editor does not have open is not recorded either');
    assert.equal(elsewhere.length, 0);
  });

  it('the request schema takes a settled call and refuses a made-up reason code', () => {
    const settled = { decision: 'allow', reason_codes: ['RULE_ALLOW'], settled_by: 'rule', rule: 'Read', reason: 'r' };
    assert.ok(permitRequestSchema.safeParse({ ...body(), settled }).success);
    assert.equal(permitRequestSchema.safeParse({ ...body(), settled: { ...settled, reason_codes: ['accepted'] } }).success, false);
  });
});

describe("the hook's editor judge", () => {
  const target = { root: '/w', host: 'claude-code', agent: 'claude-code', source: 'guard hook, claude-code' };
  const fallbackResult: PermitResult = { decision: 'ask', action: 'review', reason_codes: ['FROM_CLI'], model: 'cli' };

  async function withEditor(answer: PermitChannelResponse | Error, run: (s: EditorSession) => Promise<void>): Promise<void> {
    const { id, token } = newSessionSecrets();
    const server = new GateChannelServer({
      token,
      handler: async () => ({ v: 1, status: 'refused', message: 'gate' }),
      permit: async () => {
        if (answer instanceof Error) throw answer;
        return answer;
      },
    });
    const { port } = await server.start();
    try {
      await run({ v: 1, id, pid: process.pid, port, token, roots: ['/w'], editor: 'Test Editor', started: new Date().toISOString() });
    } finally {
      await server.stop();
    }
  }
  const judgeInfo = { editor: 'Test Editor', provider: 'systemone', model: 'editor-model', reason: 'API key set', mock: false, explicitMock: false };
  const opts = () => ({ signal: new AbortController().signal, deadlineMs: 5_000 });

  it("takes a real judged answer with its record id, and names the editor's judge", async () => {
    const result: PermitResult = { decision: 'allow', action: 'auto', reason_codes: ['X'], model: 'editor-model' };
    await withEditor({ v: 1, status: 'judged', judge: judgeInfo, outcome: { ok: true, result, recordId: 'rec-1' } }, async (s) => {
      let fell = 0;
      const notes: string[] = [];
      const judge = editorPermitJudge([s], target, async () => (fell++, fallbackResult), (l) => notes.push(l));
      const r = await judge(INPUT, opts());
      assert.equal(r.decision, 'allow');
      assert.equal(r.record_id, 'rec-1');
      assert.equal(fell, 0);
      assert.deepEqual(notes, ['judged by the editor (Test Editor, systemone editor-model: API key set)']);
    });
  });

  for (const [name, answer] of [
    ['no-backend', { v: 1, status: 'no-backend', judge: { ...judgeInfo, provider: 'mock', mock: true } }],
    ['refused', { v: 1, status: 'refused', message: 'not open here' }],
    ['a judged answer from the mock', { v: 1, status: 'judged', judge: { ...judgeInfo, mock: true }, outcome: { ok: true, result: { decision: 'allow', action: 'auto', reason_codes: [], model: 'mock' }, recordId: 'r' } }],
    ['an HTTP 500', new Error('boom')],
  ] as const) {
    it(`${name} falls to the CLI configuration, never an allow`, async () => {
      await withEditor(answer as PermitChannelResponse | Error, async (s) => {
        const fallback: PermitJudge = async () => fallbackResult;
        const r = await editorPermitJudge([s], target, fallback)(INPUT, opts());
        assert.deepEqual(r.reason_codes, ['FROM_CLI']);
      });
    });
  }

  it('an editor that is gone falls to the CLI configuration; a judged failure is thrown, not fallen back', async () => {
    let stale: EditorSession | undefined;
    await withEditor({ v: 1, status: 'judged', judge: judgeInfo, outcome: { ok: false, error: { code: 'TIMEOUT', message: 'upstream slow', retryable: true }, recordId: 'rec-2' } }, async (s) => {
      stale = s;
      let fell = 0;
      await assert.rejects(editorPermitJudge([s], target, async () => (fell++, fallbackResult))(INPUT, opts()), { code: 'TIMEOUT', message: /upstream slow/ });
      assert.equal(fell, 0);
    });
    const r = await editorPermitJudge([stale!], target, async () => fallbackResult)(INPUT, opts());
    assert.deepEqual(r.reason_codes, ['FROM_CLI']);
  });
});
