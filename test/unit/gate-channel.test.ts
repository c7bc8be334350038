/**
 * The editor channel of the commit hook (src/channel/): a real loopback server and client — the
 * token checked (wrong or missing → 401), requests from web pages refused (Origin, foreign Host), bad
 * bodies refused before the handler; session files only the user can read, stale ones dropped, matched to
 * the repository; and the editor's answer (src/channel/gate-answer.ts) with a real JudgmentService:
 * its feed source, the mock only when allowed, an override recorded as its own record.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { askEditor } from '../../src/channel/client';
import { CHANNEL_PATH, hookSource, type ChannelRequest, type ChannelResponse } from '../../src/channel/protocol';
import { GateChannelServer } from '../../src/channel/server';
import { coversRepository, newSessionSecrets, sessionsFor, writeSessionFile, type EditorSession } from '../../src/channel/session-file';
import { answerHook, HOOK_AGENT, type HookJudgeDeps } from '../../src/channel/gate-answer';
import type { DecisionRecord } from '../../src/ledger/record';
import { MockProvider } from '../../src/providers/mock/provider';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';
import { ALL_TOOLS } from '../../src/tools';
import { JudgmentService } from '../../src/tools/judgment-service';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'jev-channel-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const INPUT = {
  request: 'Add sub()',
  diff: 'diff --git a/m.js b/m.js\n--- a/m.js\n+++ b/m.js\n@@ -1 +1,2 @@\n x\n+export const sub = (a, b) => a - b;\n',
  claims: ['sub subtracts b from a'],
  evidence: [{ id: 'diff-stat', text: ' m.js | +1 -0' }],
};
const body = (extra: Partial<ChannelRequest> = {}): ChannelRequest => ({ v: 1, root: dir, input: INPUT, source: 'commit hook, terminal', allowMock: false, ...extra });

/** A raw POST, to send what a well-behaved client never would. */
function raw(port: number, headers: Record<string, string>, payload: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: CHANNEL_PATH, method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

describe('the channel server and client', () => {
  let server: GateChannelServer;
  let session: EditorSession;
  const seen: ChannelRequest[] = [];
  before(async () => {
    const { id, token } = newSessionSecrets();
    assert.ok(token.length >= 43, 'at least 32 random bytes');
    server = new GateChannelServer({
      token,
      handler: async (req) => {
        seen.push(req);
        return { v: 1, status: 'refused', message: 'test answer' } satisfies ChannelResponse;
      },
    });
    const { port } = await server.start();
    session = { v: 1, id, pid: process.pid, port, token, roots: [dir], editor: 'Test Editor', started: new Date().toISOString() };
  });
  after(() => server.stop());

  it('answers a client holding the token', async () => {
    const r = await askEditor(session, body());
    assert.deepEqual(r, { kind: 'answer', response: { v: 1, status: 'refused', message: 'test answer' } });
    assert.equal(seen.at(-1)!.source, 'commit hook, terminal');
  });

  it('refuses a wrong or missing token, a web page, a foreign Host and a bad body before the handler', async () => {
    const before = seen.length;
    const port = session.port;
    const json = JSON.stringify(body());
    const wrong = await askEditor({ ...session, token: 'x'.repeat(43) }, body());
    assert.deepEqual(wrong, { kind: 'unavailable', reason: 'HTTP 401: missing or wrong bearer token' });
    assert.equal((await raw(port, {}, json)).status, 401);
    assert.equal((await raw(port, { authorization: `Bearer ${session.token}`, origin: 'http://evil.example' }, json)).status, 403);
    assert.equal((await raw(port, { authorization: `Bearer ${session.token}`, host: `evil.example:${port}` }, json)).status, 403);
    assert.equal((await raw(port, { authorization: `Bearer ${session.token}` }, '{not json')).status, 400);
    const invalid = await raw(port, { authorization: `Bearer ${session.token}` }, JSON.stringify({ ...body(), v: 2 }));
    assert.equal(invalid.status, 400);
    assert.match(invalid.body, /invalid request: v/);
    assert.equal(seen.length, before, 'the handler never saw them');
  });

  it('a stopped editor is "unavailable", not an error', async () => {
    const stopped = new GateChannelServer({ token: session.token, handler: async () => ({ v: 1, status: 'refused', message: '' }) });
    const { port } = await stopped.start();
    await stopped.stop();
    const r = await askEditor({ ...session, port }, body());
    assert.equal(r.kind, 'unavailable');
  });
});

describe('session files', () => {
  it('are private, found for the repository they cover, and ignored when open to others or left by a dead process', async () => {
    const state = join(dir, 'state');
    const repo = join(dir, 'repo');
    mkdirSync(join(repo, 'sub'), { recursive: true });
    const make = (roots: string[], pid = process.pid): EditorSession => ({ v: 1, ...newSessionSecrets(), pid, port: 1234, roots, editor: 'E', started: new Date().toISOString() });
    const mine = make([repo]);
    const path = await writeSessionFile(state, mine);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    await writeSessionFile(state, make([join(dir, 'elsewhere')]));
    const dead = make([repo], 2 ** 22 + 12345);
    await writeSessionFile(state, dead);
    assert.deepEqual((await sessionsFor(state, repo)).map((s) => s.id), [mine.id]);
    assert.deepEqual((await sessionsFor(state, join(repo, 'sub'))).map((s) => s.id), [mine.id], 'a folder inside counts');
    chmodSync(path, 0o644);
    assert.deepEqual(await sessionsFor(state, repo), [], 'a session file others can read is not trusted');
    assert.equal(coversRepository([dir], repo), true, 'a parent folder open in the editor covers the repository');
    assert.equal(coversRepository([join(dir, 'elsewhere')], repo), false);
  });

  it('names where a commit comes from', () => {
    assert.equal(hookSource({ VSCODE_GIT_COMMAND: 'commit' }), 'commit hook, Source Control');
    assert.equal(hookSource({ TERM_PROGRAM: 'vscode' }), 'commit hook, editor terminal');
    assert.equal(hookSource({}), 'commit hook, terminal');
  });
});

describe("the editor's answer to a hook", () => {
  const records: DecisionRecord[] = [];
  const deps = (kind: 'systemone' | 'mock', reason = 'API key set'): HookJudgeDeps => ({
    service: new JudgmentService({ provider: new MockProvider(), tools: ALL_TOOLS, floors: DEFAULT_FLOORS, model: 'jev-latest', onRecord: (r) => records.push(r) }),
    choice: () => ({ kind, reason }),
    model: () => 'jev-latest',
    roots: () => [dir],
    editor: 'Test Editor',
    record: async (r) => {
      records.push(r);
    },
  });

  it('judges with the source recorded, and records an override of a verdict that did not pass', async () => {
    const signal = new AbortController().signal;
    const r = await answerHook(deps('systemone'), body({ override: 'hotfix, reviewed by Ana' }), signal);
    assert.equal(r.status, 'judged');
    if (r.status !== 'judged' || !r.outcome.ok) return assert.fail('judged');
    const decision = records.find((x) => x.id === r.outcome.recordId)!;
    assert.deepEqual([decision.agent, decision.source, decision.kind], [HOOK_AGENT, 'commit hook, terminal', 'decision']);
    assert.notEqual((r.outcome.result as { action: string }).action, 'auto');
    const override = records.find((x) => x.id === r.override?.recordId)!;
    assert.equal(override.kind, 'override');
    assert.equal(override.decision_id, decision.id);
    assert.deepEqual(override.result, { action: 'override', overridden_action: (r.outcome.result as { action: string }).action, reason: 'hotfix, reviewed by Ana' });
  });

  it('the mock answers only when allowed; another repository is refused', async () => {
    const signal = new AbortController().signal;
    const none = await answerHook(deps('mock', 'no backend configured'), body(), signal);
    assert.equal(none.status, 'no-backend');
    if (none.status === 'no-backend') assert.deepEqual([none.judge.mock, none.judge.explicitMock], [true, false]);
    const advisory = await answerHook(deps('mock', 'jevPanel.provider is mock'), body({ allowMock: true, override: 'x' }), signal);
    assert.equal(advisory.status, 'judged');
    if (advisory.status === 'judged') {
      assert.equal(advisory.judge.mock, true);
      assert.equal(advisory.override, undefined, 'no override of a mock verdict');
    }
    const other = await answerHook(deps('systemone'), body({ root: join(tmpdir(), 'some-other-repo') }), signal);
    assert.equal(other.status, 'refused');
  });
});
