// A judgment waiting on a slow judge shows in the panel's feed as pending (tool, agent, elapsed) and is
// replaced by its record, decision or error, when it ends: FeedStore + LiveJudgmentService as
// src/extension/runtime.ts wires them, with a judge whose answer the test releases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CallContext, JudgmentProvider } from '../../src/judgment/provider';
import type { SystemOneRequest } from '../../src/judgment/types';
import { FeedStore } from '../../src/panel/feed-store';
import type { FeedProgress } from '../../src/panel/protocol';
import { mockResponse } from '../../src/providers/mock/provider';
import { ALL_TOOLS } from '../../src/tools/index';
import { JudgmentService } from '../../src/tools/judgment-service';
import { LiveJudgmentService } from '../../src/tools/live-service';
import { SAMPLE_STEP_INPUT, SAMPLE_STEP_TOOL } from '../../src/tools/sample-step';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';
import { runningText } from '../../webview/feed-view';

/** A judge that answers (as the mock would) or fails only when the test says so. */
class HeldJudge implements JudgmentProvider {
  readonly id = 'held';
  readonly calibrated = false;
  asked = 0;
  private release?: (fail: boolean) => void;
  async systemOne(request: SystemOneRequest, _ctx: CallContext): Promise<unknown> {
    this.asked++;
    const fail = await new Promise<boolean>((resolve) => (this.release = resolve));
    if (fail) throw new Error('judge fell over');
    return mockResponse(request);
  }
  answer(fail = false): void {
    this.release?.(fail);
  }
}

function wired() {
  const feed = new FeedStore();
  const judge = new HeldJudge();
  const inner = new JudgmentService({ provider: judge, tools: ALL_TOOLS, floors: DEFAULT_FLOORS, model: 'jev-latest', onRecord: (r) => feed.add(r) });
  const service = new LiveJudgmentService(
    () => inner,
    (tool, agent) => {
      const n = feed.judgmentStarted(tool, agent);
      return () => feed.judgmentEnded(n);
    },
  );
  const pushes: FeedProgress[][] = [];
  feed.onProgress((running) => pushes.push(running));
  return { feed, judge, service, pushes };
}

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(cond(), 'timed out');
};

describe('a judgment in flight shows in the feed as pending', () => {
  test('pending while the judge thinks (tool, agent, elapsed), then replaced by its decision', async () => {
    const { feed, judge, service, pushes } = wired();
    const call = service.call(SAMPLE_STEP_TOOL, SAMPLE_STEP_INPUT, { agent: 'coder' });
    await until(() => judge.asked === 1);
    await new Promise((r) => setTimeout(r, 30));
    const running = feed.running();
    assert.equal(running.length, 1);
    assert.deepEqual({ ...running[0], elapsed_ms: 0 }, { call: 1, kind: 'judgment', tool: 'jev_step', agent: 'coder', elapsed_ms: 0 });
    assert.ok(running[0]!.elapsed_ms >= 25, `elapsed ${running[0]!.elapsed_ms} ms`);
    assert.equal(feed.size, 0, 'no row before the decision');
    assert.match(runningText(running[0]!), /^⟳ jev_step · coder · waiting for the judge · \d+\.\d s$/);
    judge.answer();
    const outcome = await call;
    assert.ok(outcome.ok);
    assert.deepEqual(feed.running(), []);
    assert.equal(feed.size, 1);
    assert.equal(feed.rows()[0]!.tool, 'jev_step');
    assert.equal(pushes.length, 2, 'listeners heard the start and the end');
    assert.deepEqual(pushes.at(-1), []);
  });

  test('a judge that fails: the pending entry goes and the error row takes its place (no decision)', async () => {
    const { feed, judge, service } = wired();
    const call = service.call(SAMPLE_STEP_TOOL, SAMPLE_STEP_INPUT);
    await until(() => judge.asked === 1);
    assert.equal(feed.running()[0]?.agent, 'mcp', 'the agent as recorded when none is given');
    judge.answer(true);
    const outcome = await call;
    assert.equal(outcome.ok, false);
    assert.deepEqual(feed.running(), []);
    assert.equal(feed.size, 1);
    assert.ok(feed.rows()[0]!.error, 'the row is an error');
    assert.equal(feed.rows()[0]!.action, undefined, 'a failure never shows an action');
  });

  test('an unknown tool throws and leaves nothing pending', async () => {
    const { feed, service, pushes } = wired();
    await assert.rejects(service.call('jev_nope', {}), /Unknown tool/);
    assert.deepEqual(feed.running(), []);
    assert.equal(pushes.length, 0);
  });

  test('judgments and registry calls are listed together, oldest first', () => {
    const feed = new FeedStore();
    const now = Date.now();
    feed.callEvent({ type: 'tool.progress', time: now, call: 7, agent: 'coder', tool: 'everything/long', elapsed_ms: 5_000, progress: { progress: 3, total: 10 } });
    const n = feed.judgmentStarted('jev_gate', 'editor');
    const kinds = feed.running().map((r) => `${r.kind ?? 'call'} ${r.tool}`);
    assert.deepEqual(kinds, ['call everything/long', 'judgment jev_gate']);
    feed.judgmentEnded(n);
    feed.judgmentEnded(n); // twice: ignored
    assert.deepEqual(feed.running().map((r) => r.tool), ['everything/long']);
  });
});
