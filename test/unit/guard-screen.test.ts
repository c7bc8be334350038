/**
 * The guard's PostToolUse screen (src/guard/run.ts `screenResult`): the `screen` config block, which results
 * are screened, and what each host gets per outcome (block, review, pass, skip, unscreened in modes warn and
 * strict), on events written from the hosts' documentation; Codex's answers and fixtures are checked against
 * its published PostToolUse schemas with Ajv. The screen is a fake behind the ScreenAvailability port.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import Ajv from 'ajv';
import { parseGuardConfig, parseScreenConfig } from '../../src/guard/config';
import { HOSTS } from '../../src/guard/hosts';
import { resultText, runGuard, type ScreenAvailability } from '../../src/guard/run';
import type { HostName } from '../../src/guard/types';
import type { ScreenKind, ScreenOutcome, ScreenRequest } from '../../src/screen/types';
import { configWorkspaces } from '../helpers/guard-workspace';

const FIX = join(__dirname, '..', 'fixtures', 'hosts');
const fixture = (host: string, name: string): string => readFileSync(join(FIX, host, `${name}.json`), 'utf8');
const schema = (name: string): object => JSON.parse(readFileSync(join(FIX, 'codex', `${name}.schema.json`), 'utf8')) as object;
const ajv = new Ajv({ strict: false, allErrors: true });
const codexPostOut = ajv.compile(schema('post-tool-use.command.output'));
const codexPostIn = ajv.compile(schema('post-tool-use.command.input'));

const workspace = configWorkspaces('jev-guard-screen-');

/** The fixture with its workspace replaced by `dir`, and a transcript holding the user's request. */
function eventIn(host: string, name: string, dir: string, patch: (e: Record<string, unknown>) => void = () => undefined): string {
  const e = JSON.parse(fixture(host, name).replaceAll('/work/project', dir)) as Record<string, unknown>;
  if (typeof e.transcript_path === 'string') {
    const t = join(dir, 'transcript.jsonl');
    writeFileSync(t, `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'How do I install the tool?' } })}\n`);
    e.transcript_path = t;
  }
  patch(e);
  return JSON.stringify(e);
}

function outcome(kind: ScreenKind, extra: Partial<ScreenOutcome> = {}): ScreenOutcome {
  return {
    kind,
    decisionIds: kind === 'unscreened' ? [] : ['dec-1'],
    reason: kind === 'unscreened' ? 'Not screened (API_ERROR): down.' : `The text is ${kind}.`,
    fromCache: false,
    chunks: 1,
    cut: false,
    screenedChars: 10,
    totalChars: 10,
    ...(kind === 'unscreened' ? { error: { code: 'API_ERROR', message: 'down' } } : {}),
    ...extra,
  };
}

interface Run {
  host: HostName;
  text: string;
  dir: string;
  /** The fake screen's outcome; 'none' for no judge; a number: never answers (ms deadline). */
  screen?: ScreenOutcome | 'none' | 'mock';
  deadlineMs?: number;
  /** `--agent NAME`; default the host's agent. */
  agent?: string;
}

async function run(o: Run) {
  const seen: ScreenRequest[] = [];
  let asked = 0;
  const screen = async (): Promise<ScreenAvailability> => {
    asked++;
    if (o.screen === 'none' || o.screen === undefined) return { kind: 'none', reason: 'no judgment backend' };
    if (o.screen === 'mock') return { kind: 'none', code: 'MOCK_ONLY', reason: 'only the mock judge is configured' };
    const out = o.screen;
    return {
      kind: 'screen',
      label: 'fake',
      screen: async (req) => {
        seen.push(req);
        return out;
      },
    };
  };
  const judge = async () => {
    throw new Error('PostToolUse must not ask jev_permit');
  };
  const r = await runGuard({ host: HOSTS[o.host], stdin: Readable.from([o.text]), env: {}, cwd: o.dir, judge, deadlineMs: o.deadlineMs ?? 5000, secrets: [], screen, ...(o.agent ? { agent: o.agent } : {}) });
  return { ...r, asked, seen, json: r.stdout === '' ? undefined : (JSON.parse(r.stdout) as Record<string, any>) };
}

describe('the screen config block', () => {
  it('defaults: no commands, mode warn; a valid block is kept', () => {
    assert.deepEqual(parseScreenConfig(undefined), { commands: [], mode: 'warn' });
    assert.deepEqual(parseScreenConfig({ commands: ['curl*', 'gh issue view*'], mode: 'strict' }), { commands: ['curl*', 'gh issue view*'], mode: 'strict' });
    const c = parseGuardConfig({ screen: { commands: ['curl*'] }, servers: { github: { command: 'gh-mcp', screen: true }, docs: { url: 'https://x', trustAnnotations: true } } }, '.jev/config.json');
    assert.deepEqual(c.screen, { commands: ['curl*'], mode: 'warn' });
    assert.deepEqual(c.serverScreen, { github: { screen: true }, docs: { trustAnnotations: true } });
    const strict = parseGuardConfig({ servers: { gh: { command: 'gh-mcp', screen: 'strict' } } }, '.jev/config.json');
    assert.deepEqual(strict.serverScreen, { gh: { screen: true, strict: true } }, 'the gateway\'s "strict" is screened and strict here too');
  });

  it('errors name the file and the field', () => {
    const bad: [unknown, RegExp][] = [
      [{ screen: [] }, /\.jev\/config\.json: screen: must be an object/],
      [{ screen: { commands: 'curl*' } }, /screen\.commands: must be an array/],
      [{ screen: { commands: ['curl*', ''] } }, /screen\.commands\[1\]: must be a non-empty string/],
      [{ screen: { commands: [3] } }, /screen\.commands\[0\]: must be a non-empty string/],
      [{ screen: { mode: 'loud' } }, /screen\.mode: must be "warn" or "strict"; got "loud"/],
      [{ screen: { mode: 'warn', extra: 1 } }, /screen: unknown field extra/],
      // As the registry's loader names them (a misspelt block must not drop its rules silently).
      [{ permisions: { deny: ['Bash(rm -rf*)'] } }, /\(root\): unknown field permisions \(allowed: agents, servers, permissions, screen\)/],
      [{ defaults: false }, /\(root\): unknown field defaults/],
      [{ agents: [{ name: 'a' }, { name: 'a' }] }, /agents\[1\]\.name: duplicate agent name "a" \(already agents\[0\]\)/],
      [{ servers: { x: { command: 'x', screen: 'Strict' } } }, /servers\.x\.screen: must be true, false or "strict"; got "Strict"/],
      [{ servers: { x: { command: 'x', screen: 'yes' } } }, /servers\.x\.screen: must be true, false or "strict"/],
      [{ servers: { x: { command: 'x', trustAnnotations: 'yes' } } }, /servers\.x\.trustAnnotations: must be true or false/],
      [{ servers: [] }, /servers: must be an object/],
    ];
    for (const [raw, re] of bad) assert.throws(() => parseGuardConfig(raw, '.jev/config.json'), re);
  });

  it("an agent's screen: false, \"strict\" or {mode, commands} kept as written; anything else named", () => {
    const c = parseGuardConfig(
      { agents: [{ name: 'a', tools: ['*'], screen: false }, { name: 'b', screen: 'strict' }, { name: 'c', screen: { commands: ['wget*'] } }, { name: 'd' }] },
      '.jev/config.json',
    );
    assert.deepEqual(c.agents, [
      { name: 'a', tools: ['*'], screen: false },
      { name: 'b', tools: [], screen: 'strict' },
      { name: 'c', tools: [], screen: { commands: ['wget*'] } },
      { name: 'd', tools: [] },
    ]);
    const bad: [unknown, RegExp][] = [
      [true, /\.jev\/config\.json: agents\[1\]\.screen: must be false, "strict" or an object \{mode, commands\}$/],
      ['warn', /agents\[1\]\.screen: must be false, "strict" or an object/],
      [null, /agents\[1\]\.screen: must be false, "strict" or an object/],
      [{ mode: 'loud' }, /agents\[1\]\.screen\.mode: must be "warn" or "strict"; got "loud"/],
      [{ commands: 'curl*' }, /agents\[1\]\.screen\.commands: must be an array/],
      [{ commands: ['curl*', ''] }, /agents\[1\]\.screen\.commands\[1\]: must be a non-empty string/],
      [{ level: 1 }, /agents\[1\]\.screen: unknown field level \(allowed: commands, mode\)/],
    ];
    for (const [screen, re] of bad) assert.throws(() => parseGuardConfig({ agents: [{ name: 'a' }, { name: 'b', screen }] }, '.jev/config.json'), re);
  });
});

describe('what each host gets per outcome', () => {
  const webEvents: [HostName, string][] = [
    ['claude-code', 'post-tool-use-webfetch'],
    ['vscode', 'post-tool-use-fetch'],
  ];

  it('the fixtures: Codex PostToolUse events validate against its published input schema', () => {
    for (const name of ['post-tool-use', 'post-tool-use-mcp']) assert.ok(codexPostIn(JSON.parse(fixture('codex', name))), `${name}: ${ajv.errorsText(codexPostIn.errors)}`);
  });

  it('pass and skip say nothing; the result text goes to the screen with the request as purpose', async () => {
    for (const [host, name] of webEvents) {
      for (const kind of ['pass', 'skip'] as const) {
        const dir = workspace();
        const r = await run({ host, text: eventIn(host, name, dir), dir, screen: outcome(kind) });
        assert.equal(r.stdout, '', `${host} ${kind}`);
        assert.equal(r.stderr, undefined);
        assert.equal(r.asked, 1);
        assert.match(r.seen[0]!.text, /IGNORE ALL PREVIOUS INSTRUCTIONS/);
        assert.equal(r.seen[0]!.purpose, 'How do I install the tool?');
      }
    }
  });

  it('review: context saying the content holds instructions and is data only', async () => {
    for (const [host, name] of webEvents) {
      const dir = workspace();
      const r = await run({ host, text: eventIn(host, name, dir), dir, screen: outcome('review') });
      assert.equal(r.json?.decision, undefined, host);
      assert.equal(r.json?.hookSpecificOutput.hookEventName, 'PostToolUse');
      assert.match(r.json?.hookSpecificOutput.additionalContext, /holds instructions.*review.*dec-1.*data only/);
      assert.match(r.stderr ?? '', /screen review, warned/);
    }
  });

  it('block: decision block with a reason naming the decision (no replacement outside MCP)', async () => {
    for (const [host, name] of webEvents) {
      const dir = workspace();
      const r = await run({ host, text: eventIn(host, name, dir), dir, screen: outcome('block') });
      assert.equal(r.json?.decision, 'block', host);
      assert.match(r.json?.reason, /withheld the result of .*block \(decision dec-1\)/);
      assert.equal(r.json?.hookSpecificOutput.updatedMCPToolOutput, undefined);
      assert.doesNotMatch(r.stdout, /IGNORE ALL/, 'the content is never quoted');
    }
  });

  it('claude-code MCP block: the output is replaced by the notice, in the shape it came in', async () => {
    const dir = workspace({ servers: { github: { command: 'gh-mcp', screen: true } } });
    const r = await run({ host: 'claude-code', text: eventIn('claude-code', 'post-tool-use-mcp', dir), dir, screen: outcome('block') });
    assert.equal(r.json?.decision, 'block');
    const replaced = r.json?.hookSpecificOutput.updatedMCPToolOutput as { type: string; text: string }[];
    assert.equal(replaced.length, 1);
    assert.match(replaced[0]!.text, /withheld .*decision dec-1/);
    assert.match(r.seen[0]!.text, /^Bug: crash on start/, 'MCP text blocks are screened as text');
  });

  it('codex: every answer validates against the published PostToolUse output schema', async () => {
    const dir = workspace({ screen: { commands: ['curl*'] }, servers: { github: { command: 'gh-mcp', screen: true } } });
    const strictDir = workspace({ screen: { commands: ['curl*'], mode: 'strict' }, servers: { github: { command: 'gh-mcp', screen: true } } });
    for (const name of ['post-tool-use', 'post-tool-use-mcp']) {
      for (const [screen, d] of [[outcome('block'), dir], [outcome('review'), dir], [outcome('pass'), dir], ['none', dir], ['none', strictDir]] as const) {
        const r = await run({ host: 'codex', text: eventIn('codex', name, d), dir: d, screen });
        assert.equal(r.asked, 1, `${name} is screened`);
        if (r.stdout === '') continue;
        assert.ok(codexPostOut(r.json), `${name} ${typeof screen === 'string' ? screen : screen.kind}: ${ajv.errorsText(codexPostOut.errors)}`);
      }
    }
    const mcp = await run({ host: 'codex', text: eventIn('codex', 'post-tool-use-mcp', dir), dir, screen: outcome('block') });
    assert.deepEqual((mcp.json?.hookSpecificOutput.updatedMCPToolOutput as { content: unknown[] }).content.length, 1);
  });

  it('unscreened (no judge, the mock only, a judge error): warned in mode warn, withheld in mode strict, never passed', async () => {
    for (const [host, name] of [...webEvents, ['codex', 'post-tool-use'] as [HostName, string]]) {
      for (const screen of ['none', 'mock', outcome('unscreened')] as const) {
        const warnDir = workspace({ screen: { commands: ['curl*'] } });
        const w = await run({ host, text: eventIn(host, name, warnDir), dir: warnDir, screen });
        assert.equal(w.json?.decision, undefined, `${host} warn`);
        assert.match(w.json?.hookSpecificOutput.additionalContext, /could not screen .*\((NO_BACKEND|MOCK_ONLY|API_ERROR); screen\.mode warn\).*data only/);
        assert.match(w.stderr ?? '', /screen unscreened, warned/);
        const strictDir = workspace({ screen: { commands: ['curl*'], mode: 'strict' } });
        const s = await run({ host, text: eventIn(host, name, strictDir), dir: strictDir, screen });
        assert.equal(s.json?.decision, 'block', `${host} strict`);
        assert.match(s.json?.reason, /withheld .*could not be screened .*screening is strict/);
      }
    }
  });

  it('a screen slower than the deadline is unscreened TIMEOUT, answered by the deadline', async () => {
    const dir = workspace();
    const t0 = Date.now();
    const r = await runGuard({
      host: HOSTS['claude-code'],
      stdin: Readable.from([eventIn('claude-code', 'post-tool-use-webfetch', dir)]),
      env: {},
      cwd: dir,
      judge: async () => ({ kind: 'none', reason: 'x' }),
      deadlineMs: 300,
      secrets: [],
      screen: async () => ({ kind: 'screen', label: 'slow', screen: () => new Promise<ScreenOutcome>(() => undefined) }),
    });
    assert.ok(Date.now() - t0 < 3000);
    assert.equal(r.screen?.outcome.kind, 'unscreened');
    assert.equal(r.screen?.outcome.error?.code, 'TIMEOUT');
    assert.match(JSON.parse(r.stdout).hookSpecificOutput.additionalContext, /could not screen .*TIMEOUT/);
  });

  it('credentials in the result are masked before the text goes to the judge', async () => {
    const dir = workspace({});
    const token = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
    const text = eventIn('claude-code', 'post-tool-use-webfetch', dir, (e) => (e.tool_response = `Issue body. Token: ${token}\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----`));
    const r = await run({ host: 'claude-code', text, dir, screen: outcome('pass') });
    assert.equal(r.seen.length, 1);
    assert.match(r.seen[0]!.text, /Issue body\. Token: /);
    assert.doesNotMatch(r.seen[0]!.text, /ghp_abcdefghij|b3BlbnNzaC1rZXktdjEAAAAA/);
  });

  it('a broken config is unscreened CONFIG_ERROR, never passed', async () => {
    const dir = workspace({ screen: { mode: 'loud' } });
    const r = await run({ host: 'claude-code', text: eventIn('claude-code', 'post-tool-use-webfetch', dir), dir, screen: outcome('pass') });
    assert.equal(r.asked, 0);
    assert.match(r.json?.hookSpecificOutput.additionalContext, /could not screen .*CONFIG_ERROR/);
    assert.match(r.stderr ?? '', /screen\.mode: must be/);
  });
});

describe('which results are screened', () => {
  it('first-party tools never; shell commands only when they match screen.commands; MCP only when its server is marked', async () => {
    const dir = workspace({ screen: { commands: ['curl*'] } });
    const write = await run({ host: 'claude-code', text: eventIn('claude-code', 'post-tool-use', dir), dir, screen: outcome('block') });
    assert.equal(write.asked, 0);
    assert.equal(write.stdout, '');
    const git = await run({ host: 'vscode', text: eventIn('vscode', 'post-tool-use', dir), dir, screen: outcome('block') });
    assert.equal(git.asked, 0, 'git status does not match curl*');
    const curl = await run({ host: 'vscode', text: eventIn('vscode', 'post-tool-use', dir, (e) => (e.tool_input = { command: 'cd docs && curl -s https://x' })), dir, screen: outcome('block') });
    assert.equal(curl.asked, 1, 'a curl piece of the command matches');
    const mcpUnmarked = await run({ host: 'claude-code', text: eventIn('claude-code', 'post-tool-use-mcp', dir), dir, screen: outcome('block') });
    assert.equal(mcpUnmarked.asked, 0);
    const marked = workspace({ servers: { github: { command: 'gh-mcp', screen: true } } });
    const vsMcp = await run({ host: 'vscode', text: eventIn('claude-code', 'post-tool-use-mcp', marked, (e) => (e.tool_name = 'mcp_github_get_issue')), dir: marked, screen: outcome('review') });
    assert.equal(vsMcp.asked, 1, 'VS Code mcp_<server>_<tool> names find the configured server');
    const optOut = workspace({ servers: { github: { command: 'gh-mcp', screen: false } } });
    assert.equal((await run({ host: 'claude-code', text: eventIn('claude-code', 'post-tool-use-mcp', optOut), dir: optOut, screen: outcome('block') })).asked, 0);
  });

  it("an agent's screen false: none of its results is screened or answered, whatever the block and the servers say", async () => {
    const config = (agent: string) => ({
      screen: { commands: ['curl*'], mode: 'strict' },
      servers: { github: { command: 'gh-mcp', screen: 'strict' } },
      agents: [{ name: agent, tools: ['*'], screen: false }, { name: 'reader', tools: ['*'] }],
    });
    for (const [host, name] of [['claude-code', 'post-tool-use-webfetch'], ['claude-code', 'post-tool-use-mcp'], ['vscode', 'post-tool-use-fetch'], ['codex', 'post-tool-use-mcp']] as [HostName, string][]) {
      const dir = workspace(config(HOSTS[host].defaultAgent));
      const r = await run({ host, text: eventIn(host, name, dir), dir, screen: 'none' });
      assert.equal(r.asked, 0, `${host} ${name}`);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, undefined);
      assert.equal(r.screen, undefined);
    }
    const dir = workspace(config('claude-code'));
    const other = await run({ host: 'claude-code', text: eventIn('claude-code', 'post-tool-use-webfetch', dir), dir, screen: 'none', agent: 'reader' });
    assert.equal(other.json?.decision, 'block', 'another agent (--agent reader) keeps the strict block');
    const named = workspace({ agents: [{ name: 'reader', screen: false }] });
    const off = await run({ host: 'claude-code', text: eventIn('claude-code', 'post-tool-use-webfetch', named), dir: named, screen: outcome('block'), agent: 'reader' });
    assert.equal(off.asked, 0, '--agent reader with screen false');
    assert.equal(off.stdout, '');
  });

  it('an agent\'s screen "strict": what cannot be screened is withheld for it, not for the others', async () => {
    for (const [host, name] of [['claude-code', 'post-tool-use-webfetch'], ['vscode', 'post-tool-use-fetch'], ['codex', 'post-tool-use-mcp']] as [HostName, string][]) {
      for (const screen of ['none', 'mock'] as const) {
        const dir = workspace({ servers: { github: { command: 'gh-mcp', screen: true } }, agents: [{ name: HOSTS[host].defaultAgent, tools: ['*'], screen: 'strict' }] });
        const r = await run({ host, text: eventIn(host, name, dir), dir, screen });
        assert.equal(r.json?.decision, 'block', `${host} ${screen}`);
        assert.match(r.json?.reason, /withheld .*could not be screened .*screening is strict/);
        assert.match(r.stderr ?? '', /screen unscreened, withheld/);
        const warned = await run({ host, text: eventIn(host, name, dir), dir, screen, agent: 'reader' });
        assert.equal(warned.json?.decision, undefined, `${host}: an agent without its own screen gets the block's warn`);
        assert.match(warned.json?.hookSpecificOutput.additionalContext, /could not screen/);
      }
    }
    const lenient = workspace({ screen: { mode: 'strict' }, agents: [{ name: 'claude-code', tools: ['*'], screen: { mode: 'warn' } }] });
    const w = await run({ host: 'claude-code', text: eventIn('claude-code', 'post-tool-use-webfetch', lenient), dir: lenient, screen: 'none' });
    assert.equal(w.json?.decision, undefined, "the agent's mode replaces the block's");
    assert.match(w.json?.hookSpecificOutput.additionalContext, /could not screen .*screen\.mode warn/);
  });

  it("an agent's screen commands replace the block's (not added), and its mode is the block's unless given", async () => {
    const dir = workspace({ screen: { commands: ['curl*'], mode: 'strict' }, agents: [{ name: 'vscode', tools: ['*'], screen: { commands: ['git status*'] } }] });
    const git = await run({ host: 'vscode', text: eventIn('vscode', 'post-tool-use', dir), dir, screen: 'none' });
    assert.equal(git.asked, 1, "git status matches the agent's commands");
    assert.equal(git.json?.decision, 'block', "the block's strict mode still applies");
    const curl = await run({ host: 'vscode', text: eventIn('vscode', 'post-tool-use', dir, (e) => (e.tool_input = { command: 'curl -s https://x' })), dir, screen: outcome('block') });
    assert.equal(curl.asked, 0, "curl* of the block no longer applies to this agent");
    const web = await run({ host: 'vscode', text: eventIn('vscode', 'post-tool-use-fetch', dir), dir, screen: outcome('review') });
    assert.equal(web.asked, 1, 'web tools stay screened');
    const reader = await run({ host: 'vscode', text: eventIn('vscode', 'post-tool-use', dir, (e) => (e.tool_input = { command: 'curl -s https://x' })), dir, screen: outcome('block'), agent: 'reader' });
    assert.equal(reader.asked, 1, "another agent keeps the block's commands");
  });

  it('copilot-cli: postToolUse gets no opinion (its output is not read), and is not screened', async () => {
    const dir = workspace();
    const r = await run({ host: 'copilot-cli', text: eventIn('copilot-cli', 'post-tool-use', dir), dir, screen: outcome('block') });
    assert.equal(r.stdout, '');
    assert.equal(r.asked, 0);
    assert.match(r.stderr ?? '', /no opinion on the event "postToolUse"/);
  });

  it('resultText: strings as they are, MCP text blocks joined, anything else as JSON', () => {
    assert.equal(resultText('a'), 'a');
    assert.equal(resultText([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }]), 'a\nb');
    assert.equal(resultText({ content: [{ type: 'text', text: 'a' }], isError: false }), 'a');
    assert.equal(resultText({ filePath: '/x', success: true }), '{"filePath":"/x","success":true}');
    assert.equal(resultText(undefined), '');
  });
});
