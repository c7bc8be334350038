/**
 * Long calls against the fixture server (test/fixtures/servers/faulty.mjs `slow`), an 80 s tool with a
 * 30 s timeout scaled down: per-call timeout 1 s, the tool runs 3 s. With progress every 200 ms it
 * succeeds (each notification restarts the timeout, and the registry reports each one as a
 * `tool.progress` event); without progress it times out at 1 s; the server's total cap stops it even
 * while progress flows; an abort by the caller stops it at once. Every abandoned call reaches the server
 * as notifications/cancelled (the server lists what it saw). The panel's feed store, fed the registry's
 * events as the editor feeds it (src/extension/server-supervisor.ts), shows the running call and drops it
 * when the call ends.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ToolCallError } from '../../src/registry/errors';
import { ToolRegistry, type RegistryEvent } from '../../src/registry/registry';
import type { ServerConfig } from '../../src/registry/servers';
import { FeedStore } from '../../src/panel/feed-store';
import { progressPrinter } from '../../src/cli/progress-line';
import { execute } from '../../src/registry/execute';
import type { DecisionRecord } from '../../src/ledger/record';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';
import type { FeedProgress } from '../../src/panel/protocol';

const FAULTY = join(__dirname, '..', 'fixtures', 'servers', 'faulty.mjs');
const all = { name: 'ops', tools: ['*/*'] };
const server = (name: string, over: Partial<ServerConfig>) => ({ name, source: 'config' as const, config: { command: process.execPath, args: [FAULTY], ...over } as ServerConfig });

async function failure(p: Promise<unknown>): Promise<ToolCallError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ToolCallError, String(err));
    return err;
  }
  assert.fail('expected the call to fail');
}

interface Cancellation {
  requestId: number;
  reason: string;
  after_ms: number;
}

describe('long calls: progress resets the per-call timeout, up to a total cap; abandoned calls are cancelled', () => {
  let reg: ToolRegistry;
  const events: RegistryEvent[] = [];
  const feed = new FeedStore();
  const shown: FeedProgress[][] = [];
  feed.onProgress((running) => shown.push(running));
  const cancellations = async (name: string) => ((await reg.call('ops', all, `${name}/cancellations`, {})).cancellations as Cancellation[]);

  before(async () => {
    reg = new ToolRegistry({
      servers: [server('long', { timeoutMs: 1_000 }), server('capped', { timeoutMs: 1_000, maxTotalTimeoutMs: 1_600 })],
      onEvent: (e) => {
        events.push(e);
        feed.callEvent(e);
      },
    });
    for (const view of await reg.start()) assert.equal(view.status.state, 'ready', view.status.reason);
  });
  after(() => reg.shutdown());

  it('a 3 s call reporting progress every 200 ms outlives its 1 s timeout, with each progress reported', async () => {
    const heard: number[] = [];
    const started = Date.now();
    const result = await reg.call('ops', all, 'long/slow', { ms: 3_000, every: 200 }, { onProgress: (p) => heard.push(p.progress) });
    const took = Date.now() - started;
    assert.equal(result.done, true);
    assert.equal(result.token, true, 'the request carried a progress token');
    assert.ok(took >= 2_900, `took ${took} ms`);
    assert.ok(heard.length >= 10, `heard ${heard.length} progress notifications`);
    assert.deepEqual(heard, [...heard].sort((a, b) => a - b));
    const done = events.find((e): e is Extract<RegistryEvent, { type: 'tool.call' }> => e.type === 'tool.call' && e.tool === 'long/slow');
    assert.ok(done?.ok);
    const progress = events.filter((e): e is Extract<RegistryEvent, { type: 'tool.progress' }> => e.type === 'tool.progress' && e.call === done.call);
    assert.equal(progress.length, heard.length);
    assert.equal(progress[0]!.tool, 'long/slow');
    assert.equal(progress[0]!.progress.total, 15);
    assert.equal(progress[0]!.progress.message, 'step 1');
    assert.ok(progress.at(-1)!.elapsed_ms >= progress[0]!.elapsed_ms);
    // The feed showed the call running with its latest progress, then dropped it when it ended.
    const during = shown.filter((r) => r.length === 1 && r[0]!.tool === 'long/slow');
    assert.equal(during.length, heard.length);
    assert.deepEqual({ ...during.at(-1)![0], elapsed_ms: 0 }, { call: done.call, tool: 'long/slow', agent: 'ops', progress: heard.at(-1), total: 15, message: `step ${heard.at(-1)}`, elapsed_ms: 0 });
    assert.deepEqual(shown.at(-1), []);
    assert.deepEqual(feed.running(), []);
  });

  it('an accepted call run by execute() (jevcp step --execute) hands each progress to its listener, which the CLI prints throttled', async () => {
    const decision = {
      kind: 'decision',
      id: 'd-progress',
      tool: 'jev_step',
      agent: 'ops',
      thresholds: DEFAULT_FLOORS,
      result: { handoff: 'execute_tool', action: 'auto', call: { candidate_id: 'c1', name: 'long/slow', arguments: { ms: 1_500, every: 100 } } },
    } as unknown as DecisionRecord;
    let clock = 0;
    const lines: string[] = [];
    const print = progressPrinter({ write: (t: string) => lines.push(t) }, 'long/slow', () => clock);
    const heard: number[] = [];
    const outcome = await execute({ registry: reg, onProgress: (p) => { heard.push(p.progress); clock += 250; print(p); } }, all, decision);
    assert.equal(outcome.executed && outcome.ok, true, JSON.stringify(outcome).slice(0, 400));
    assert.ok(heard.length >= 10, `heard ${heard.length}`);
    // One line per second of (fake) clock: every fourth notification.
    assert.equal(lines.length, Math.ceil(heard.length / 4));
    assert.match(lines[0]!, /^jevcp: progress of long\/slow: 1\/15 \(6 %\) — step 1\n$/);
  });

  it('without progress the same call times out at 1 s and the server is told it was cancelled', async () => {
    const started = Date.now();
    const err = await failure(reg.call('ops', all, 'long/slow', { ms: 3_000, every: 0 }));
    const took = Date.now() - started;
    assert.equal(err.kind, 'timeout');
    assert.match(err.message, /^long\/slow did not answer within 1000 ms \(per-call timeout of server "long", restarted by each progress notification\); it was cancelled\.$/);
    assert.ok(took >= 950 && took < 2_000, `took ${took} ms`);
    const seen = await cancellations('long');
    assert.equal(seen.length, 1);
    assert.match(seen[0]!.reason, /timed out/i);
    assert.ok(seen[0]!.after_ms >= 950 && seen[0]!.after_ms < 2_000, `cancelled after ${seen[0]!.after_ms} ms`);
  });

  it('the total cap ends a call even while progress keeps coming, and cancels it', async () => {
    const started = Date.now();
    let heard = 0;
    const err = await failure(reg.call('ops', all, 'capped/slow', { ms: 3_000, every: 200 }, { onProgress: () => heard++ }));
    const took = Date.now() - started;
    assert.equal(err.kind, 'timeout');
    assert.match(err.message, /^capped\/slow was still running after \d+ ms, beyond the total cap of 1600 ms of server "capped" \(maxTotalTimeoutMs\); it was cancelled\.$/);
    assert.ok(took >= 1_550 && took < 2_500, `took ${took} ms`);
    assert.ok(heard >= 5, `progress kept the call alive past its 1 s timeout (${heard} notifications)`);
    const seen = await cancellations('capped');
    assert.equal(seen.length, 1);
    assert.match(seen[0]!.reason, /total cap/);
  });

  it('a caller abort cancels the call at once', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const err = await failure(reg.call('ops', all, 'long/slow', { ms: 3_000, every: 200 }, { signal: controller.signal }));
    assert.equal(err.kind, 'cancelled');
    assert.ok(Date.now() - started < 1_000);
    const seen = await cancellations('long');
    assert.equal(seen.length, 2);
    assert.ok(seen[1]!.after_ms < 1_000);
  });

  it('shows both limits in the server status', () => {
    const [long, capped] = reg.status();
    assert.deepEqual([long!.timeoutMs, long!.maxTotalTimeoutMs], [1_000, 600_000]);
    assert.deepEqual([capped!.timeoutMs, capped!.maxTotalTimeoutMs], [1_000, 1_600]);
  });
});
