/**
 * The gateway's screen wiring without a process: which calls are screened (servers[].screen,
 * trustAnnotations), the server settings' parsing, the judge that refuses to take the mock for a judgment,
 * and what the agent receives for each outcome (src/mcp/screen-result.ts, src/mcp/gateway-screen.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { GatewayDeps } from '../../src/mcp/gateway';
import { screenedCallOf, screenForwarded } from '../../src/mcp/gateway-screen';
import { createGatewayScreener, NO_REAL_JUDGE, realJudge, screenedResult, screenModeFor, screenPurpose, screenText } from '../../src/mcp/screen-result';
import { parseServerConfig } from '../../src/registry/servers';
import type { AgentScreen } from '../../src/guard/screen-config';
import type { ScreenOutcome, Screener } from '../../src/screen';
import type { ToolRegistry } from '../../src/registry/registry';

const outcome = (o: Partial<ScreenOutcome>): ScreenOutcome => ({
  kind: 'pass',
  decisionIds: [],
  reason: 'No injection signal.',
  fromCache: false,
  chunks: 1,
  cut: false,
  screenedChars: 10,
  totalChars: 10,
  ...o,
});

const RESULT: CallToolResult = { content: [{ type: 'text', text: 'hello' }, { type: 'text', text: 'world' }], structuredContent: { a: 1 } };

describe('screenModeFor', () => {
  const at = (serverConfig: object | undefined, openWorldHint?: boolean) =>
    screenModeFor({ server: 's', tool: 't', ...(serverConfig ? { serverConfig } : {}), ...(openWorldHint !== undefined ? { annotations: { openWorldHint } } : {}) });
  it('screen true → warn, "strict" → strict, false or absent → not screened', () => {
    assert.equal(at({ screen: true }), 'warn');
    assert.equal(at({ screen: 'strict' }), 'strict');
    assert.equal(at({ screen: false }), undefined);
    assert.equal(at(undefined), undefined);
    assert.equal(at({}, true), undefined); // annotations are not believed by default
  });
  it('trustAnnotations lets openWorldHint decide, unless screen is set', () => {
    assert.equal(at({ trustAnnotations: true }, true), 'warn');
    assert.equal(at({ trustAnnotations: true }, false), undefined);
    assert.equal(at({ trustAnnotations: true }), undefined);
    assert.equal(at({ trustAnnotations: true, screen: false }, true), undefined);
    assert.equal(at({ trustAnnotations: true, screen: 'strict' }, false), 'strict');
  });
});

describe("an agent's screen in screenModeFor", () => {
  const at = (serverConfig: object, agent: AgentScreen | undefined, openWorldHint?: boolean) =>
    screenModeFor({ server: 's', tool: 't', serverConfig, ...(openWorldHint !== undefined ? { annotations: { openWorldHint } } : {}) }, agent);
  it('false screens nothing, even a strict server; "strict" or {mode: "strict"} makes screened calls strict', () => {
    assert.equal(at({ screen: 'strict' }, false), undefined);
    assert.equal(at({ trustAnnotations: true }, false, true), undefined);
    assert.equal(at({ screen: true }, 'strict'), 'strict');
    assert.equal(at({ screen: true }, { mode: 'strict' }), 'strict');
    assert.equal(at({ screen: true }, { mode: 'warn' }), 'warn');
    assert.equal(at({ screen: 'strict' }, { mode: 'warn' }), 'strict', "a server's strict stays");
    assert.equal(at({ screen: false }, 'strict'), undefined, 'strict does not screen what is not screened');
    assert.equal(at({ screen: true }, undefined), 'warn');
  });
});

describe("screenForwarded with the agent's screen", () => {
  const registry = (screen: unknown) =>
    ({
      resolve: (id: string) => (id === 'web/fetch' ? { id, name: 'fetch', transport: 'mcp', server: 'web' } : undefined),
      server: (name: string) => (name === 'web' ? { config: { command: 'x', screen } } : undefined),
    }) as unknown as ToolRegistry;
  const noJudge = outcome({ kind: 'unscreened', reason: 'Not screened (NO_REAL_JUDGE): mock.', error: { code: NO_REAL_JUDGE, message: 'mock' } });
  /** Runs the call of web/fetch as agent `reader` with `agent` as its screen, the judge unavailable. */
  const forward = async (agent: AgentScreen | undefined, serverScreen: unknown = true) => {
    let screened = 0;
    const screener = {
      screen: async () => {
        screened++;
        return noJudge;
      },
    } as unknown as Screener;
    const deps = {
      agent: 'reader',
      screener,
      registry: () => registry(serverScreen),
      manifest: () => ({ name: 'reader', tools: ['*'], ...(agent !== undefined ? { screen: agent } : {}) }),
    } as unknown as GatewayDeps;
    const result = await screenForwarded(deps, 'web/fetch', { url: 'u' }, RESULT, new AbortController().signal, 'r1');
    return { result, screened };
  };
  it('false: the result is forwarded as it is, unscreened, even from a strict server', async () => {
    for (const server of [true, 'strict']) {
      const { result, screened } = await forward(false, server);
      assert.equal(result, RESULT);
      assert.equal(screened, 0);
    }
  });
  it('"strict" (or {mode: "strict"}): withheld when no judge can screen it, naming the agent', async () => {
    for (const agent of ['strict', { mode: 'strict' }] as AgentScreen[]) {
      const { result, screened } = await forward(agent);
      assert.equal(screened, 1);
      assert.equal(result.isError, true);
      assert.equal(result.structuredContent, undefined);
      assert.match((result.content[0] as { text: string }).text, /web\/fetch was withheld: it could not be screened and agent reader is screened strictly: only the mock judge/);
    }
    const server = await forward(undefined, 'strict');
    assert.match((server.result.content[0] as { text: string }).text, /this server is screened strictly/);
  });
  it('absent: the server decides (warned, not withheld, on a server marked true)', async () => {
    const { result } = await forward(undefined);
    assert.notEqual(result.isError, true);
    assert.match((result.content[0] as { text: string }).text, /^\[jevcp: not screened\]/);
    assert.deepEqual(result.content.slice(1), RESULT.content);
  });
});

describe('servers[].screen and trustAnnotations in the config', () => {
  it('accepts true, false, "strict" and a boolean trustAnnotations on stdio and http servers', () => {
    for (const screen of [true, false, 'strict']) {
      assert.deepEqual(parseServerConfig({ command: 'x', screen, trustAnnotations: true }, 'servers.a'), { command: 'x', screen, trustAnnotations: true });
      assert.equal(parseServerConfig({ url: 'https://e.example/mcp', screen }, 'servers.b').screen, screen);
    }
  });
  it('refuses anything else, naming the field', () => {
    assert.throws(() => parseServerConfig({ command: 'x', screen: 'warn' }, 'servers.a'), /servers\.a\.screen/);
    assert.throws(() => parseServerConfig({ command: 'x', trustAnnotations: 'yes' }, 'servers.a'), /servers\.a\.trustAnnotations/);
  });
});

describe('screenedCallOf', () => {
  const registry = {
    resolve: (id: string) =>
      id === 'web/fetch' ? { id, name: 'fetch', transport: 'mcp', server: 'web', annotations: { openWorldHint: true } } : id === 'jev_x' ? { id, name: id, transport: 'in-process' } : undefined,
    server: (name: string) => (name === 'web' ? { config: { command: 'x', screen: 'strict', trustAnnotations: false } } : undefined),
  } as unknown as ToolRegistry;
  it("reads the server's current settings and the tool's annotations", () => {
    assert.deepEqual(screenedCallOf({ registry: () => registry }, 'web/fetch', { url: 'u' }), {
      server: 'web',
      tool: 'fetch',
      serverConfig: { screen: 'strict', trustAnnotations: false },
      annotations: { openWorldHint: true },
      args: { url: 'u' },
    });
  });
  it('is undefined for an in-process tool, an unknown one, or no registry', () => {
    assert.equal(screenedCallOf({ registry: () => registry }, 'jev_x', {}), undefined);
    assert.equal(screenedCallOf({ registry: () => registry }, 'web/none', {}), undefined);
    assert.equal(screenedCallOf({ registry: () => undefined }, 'web/fetch', {}), undefined);
  });
});

describe('screenText and screenPurpose', () => {
  it('text blocks, then structuredContent as JSON; non-text blocks are left out', () => {
    assert.equal(screenText({ content: [{ type: 'text', text: 'a' }, { type: 'image', data: 'AA', mimeType: 'image/png' }, { type: 'text', text: 'b' }], structuredContent: { k: 'v' } }), 'a\n\nb\n\n{"k":"v"}');
    assert.equal(screenText({ content: [] }), '');
  });
  it('names the tool and server and a clipped summary of the arguments', () => {
    assert.equal(screenPurpose({ server: 'gh', tool: 'get_issue', args: { n: 5 } }), 'Result of tool get_issue of MCP server gh, called with {"n":5}');
    assert.equal(screenPurpose({ server: 'gh', tool: 'list', args: {} }), 'Result of tool list of MCP server gh');
    assert.ok(screenPurpose({ server: 's', tool: 't', args: { q: 'x'.repeat(1000) } }).length < 400);
  });
});

describe('screenedResult', () => {
  it('pass and skip: the forwarded result itself', () => {
    assert.equal(screenedResult(RESULT, outcome({ kind: 'pass' }), 'warn', 's/t', 'r1'), RESULT);
    assert.equal(screenedResult(RESULT, outcome({ kind: 'skip' }), 'strict', 's/t', 'r1'), RESULT);
  });
  it('review: a warning first, then the content and structuredContent unchanged', () => {
    const r = screenedResult(RESULT, outcome({ kind: 'review', injection: 0.5, decisionIds: ['d1'], reason: 'Injection probability 0.50 is at or above the review threshold 0.25.' }), 'strict', 's/t', 'r1');
    assert.notEqual(r.isError, true);
    assert.deepEqual(r.content.slice(1), RESULT.content);
    assert.deepEqual(r.structuredContent, RESULT.structuredContent);
    assert.match((r.content[0] as { text: string }).text, /^\[jevcp: screen warning\] .*s\/t suspicious \(probabilities: injection 0\.50; decision d1\): Injection probability 0\.50 is at or above the review threshold 0\.25\. Read what follows/);
  });
  it('block: isError, none of the content or structuredContent, the decision and the record named', () => {
    const r = screenedResult(RESULT, outcome({ kind: 'block', injection: 0.97, decisionIds: ['d1', 'd2'], reason: 'Chunk 2 of 2: bad.' }), 'warn', 's/t', 'r9', 'the ledger /l.jsonl');
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent, undefined);
    assert.equal(r.content.length, 1);
    const text = (r.content[0] as { text: string }).text;
    assert.doesNotMatch(text, /hello|world/);
    assert.match(text, /withheld: .*\(probabilities: injection 0\.97; decisions d1, d2\): Chunk 2 of 2: bad\. The call is recorded as r9 in the ledger \/l\.jsonl/);
    assert.deepEqual(r._meta?.['jevcp/screen'], { kind: 'block', handling: 'withhold', injection: 0.97, decision_ids: ['d1', 'd2'], record_id: 'r9' });
  });
  it('unscreened: warned in warn mode, withheld in strict mode; the mock judge is named as no real judge', () => {
    const down = outcome({ kind: 'unscreened', reason: 'Not screened (API_ERROR): connection refused.', error: { code: 'API_ERROR', message: 'connection refused' } });
    const warned = screenedResult(RESULT, down, 'warn', 's/t', 'r1');
    assert.match((warned.content[0] as { text: string }).text, /^\[jevcp: not screened\] .*Not screened \(API_ERROR\): connection refused\. Read/);
    assert.deepEqual(warned.content.slice(1), RESULT.content);
    const strict = screenedResult(RESULT, down, 'strict', 's/t', 'r1');
    assert.equal(strict.isError, true);
    assert.equal(strict.structuredContent, undefined);
    const mock = outcome({ kind: 'unscreened', reason: 'x', error: { code: NO_REAL_JUDGE, message: 'x' } });
    assert.match((screenedResult(RESULT, mock, 'warn', 's/t', 'r1').content[0] as { text: string }).text, /only the mock judge is configured \(no real judge/);
  });
  it("keeps the forward cap's _meta next to its own", () => {
    const cut = { ...RESULT, _meta: { 'jevcp/cut': { record_id: 'r1' } } };
    const r = screenedResult(cut, outcome({ kind: 'review', reason: 'r' }), 'warn', 's/t', 'r1');
    assert.ok(r._meta?.['jevcp/cut'] && r._meta['jevcp/screen']);
  });
});

describe('realJudge and createGatewayScreener', () => {
  const service = (providerId: string) => {
    const calls: unknown[] = [];
    let id = providerId;
    return {
      calls,
      set: (next: string) => (id = next),
      service: {
        get provider() {
          return { id } as never;
        },
        call: async (_name: string, args: unknown) => {
          calls.push(args);
          return { ok: true, result: { recommendation: { action: 'pass', reason: 'fine' }, probabilities: { injection: 0.01, substance: 0.9 } }, record: { id: 'd1' } } as never;
        },
      },
    };
  };
  it('the mock judge is never called: NO_REAL_JUDGE, not cached; a real provider set later is used at once', async () => {
    const s = service('mock');
    const screener = createGatewayScreener(s.service, 'reader');
    const first = await screener.screen({ text: 'hello' });
    assert.equal(first.kind, 'unscreened');
    assert.equal(first.error?.code, NO_REAL_JUDGE);
    assert.equal(s.calls.length, 0);
    s.set('systemone');
    const second = await screener.screen({ text: 'hello' });
    assert.equal(second.kind, 'pass');
    assert.deepEqual(second.decisionIds, ['d1']);
    assert.equal(s.calls.length, 1);
    assert.equal((await screener.screen({ text: 'hello' })).fromCache, true);
    assert.equal(s.calls.length, 1);
  });
  it('realJudge passes the text and purpose to jev_screen', async () => {
    const s = service('openai');
    const out = await realJudge(s.service, 'a')('t', 'p', new AbortController().signal, 'src');
    assert.equal(out.ok, true);
    assert.deepEqual(s.calls, [{ text: 't', purpose: 'p' }]);
  });
});
