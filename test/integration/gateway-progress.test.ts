/**
 * Progress relay of the agent gateway (src/mcp/gateway.ts), through the built `jevcp serve --agent` over stdio
 * and HTTP: an external call that runs ~3 s and reports progress every 200 ms reaches an SDK client that asked
 * for progress (a token in `_meta`, `resetTimeoutOnProgress: true`, a 1 s timeout) as notifications under the
 * client's own token, so the client's timeout restarts on them and the call succeeds. A client that asked for
 * none gets no notification and its 1 s timeout still ends the call.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { httpServe, stdioServe } from '../helpers/serve-agent-client';
import { ensureBuilt } from './mcp-fixtures';

const FAULTY = join(__dirname, '..', 'fixtures', 'servers', 'faulty.mjs');

describe('serve --agent relays progress of an external call to a client that asked for it', () => {
  let ws: string;
  const env = () => ({ PATH: process.env.PATH ?? '', HOME: ws, JEV_MOCK: '1' });
  const closers: Array<() => Promise<unknown>> = [];

  before(() => {
    ensureBuilt();
    ws = mkdtempSync(join(tmpdir(), 'jev-progress-'));
    mkdirSync(join(ws, '.jev'));
    writeFileSync(join(ws, '.jev', 'config.json'), JSON.stringify({
      agents: [{ name: 'ops', tools: ['long/slow'] }],
      servers: { long: { command: process.execPath, args: [FAULTY] } },
    }));
  });
  after(async () => {
    for (const close of closers) await close().catch(() => undefined);
    rmSync(ws, { recursive: true, force: true });
  });

  /** A ~3 s call with progress every 200 ms under a 1 s client timeout that progress restarts. */
  async function check(client: Client): Promise<void> {
    const seen: Progress[] = [];
    const started = Date.now();
    const result = (await client.callTool({ name: 'long__slow', arguments: { ms: 3_000, every: 200 } }, undefined, {
      timeout: 1_000,
      resetTimeoutOnProgress: true,
      onprogress: (p) => seen.push(p),
    })) as CallToolResult;
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
    assert.ok(Date.now() - started >= 2_900, 'the call ran its 3 s');
    const done = JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as { done: boolean; token: boolean; steps: number };
    assert.equal(done.done, true);
    assert.ok(seen.length >= 10, `${seen.length} progress notifications reached the client`);
    assert.deepEqual(seen[0], { progress: 1, total: 15, message: 'step 1' });
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i]!.progress > seen[i - 1]!.progress, 'progress increases');

    // Without a token the client hears nothing, and its own 1 s timeout ends the call.
    await assert.rejects(client.callTool({ name: 'long__slow', arguments: { ms: 3_000, every: 200 } }, undefined, { timeout: 1_000 }), /timed out/i);
  }

  it('over stdio', async () => {
    const client = await stdioServe(ws, 'ops', env());
    closers.push(() => client.close());
    await check(client);
  });

  it('over HTTP', async () => {
    const { client, child } = await httpServe(ws, 'ops', env());
    closers.push(() => client.close(), async () => child.kill());
    await check(client);
  });
});
