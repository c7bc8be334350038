/**
 * Registry manifests, grants, `why`, tool ids and permission answers, config validation, the MCP_SERVERS
 * env gate and the oracle: pure logic, plus the oracle compared in-process vs over a real stdio MCP server.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { JevError } from '../../src/judgment/errors';
import { parseJevConfig } from '../../src/registry/config-file';
import { CapabilityViolation } from '../../src/registry/errors';
import { callPermission, decideGrant, grantWarnings, parseGrant, parseManifest, parseToolId, refOfName, type AgentManifest, type ToolRef } from '../../src/registry/manifest';
import { OMENS, drawOmen, ORACLE_DESCRIPTION } from '../../src/registry/oracle';
import { ToolRegistry, ToolNotFoundError } from '../../src/registry/registry';
import { serversFromEnv, splitCommandLine, type StdioServerConfig } from '../../src/registry/servers';
import { openRegistry, oracleToolSpec } from '../../src/registry/setup';

const inProc = (name: string): ToolRef => ({ id: name, name, bareOwner: true });
const ext = (server: string, name: string, bareOwner = true): ToolRef => ({ id: `${server}/${name}`, name, server, bareOwner });
const agent = (tools: string[], name = 'a'): AgentManifest => ({ name, tools });
// An empty working folder: no .jev/config.json to pick up.
const emptyCwd = mkdtempSync(join(tmpdir(), 'jev-registry-'));

function configErrorMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof JevError, `expected JevError, got ${String(err)}`);
    assert.equal(err.code, 'CONFIG_ERROR');
    return err.message;
  }
  assert.fail('expected a CONFIG_ERROR');
}

describe('grants: globs, deny, bare vs qualified', () => {
  it('matches ids and globs; `*` in the server part does not cross "/"', () => {
    const m = agent(['jev_*', 'files/*', '*/read_?ile']);
    assert.equal(decideGrant(m, inProc('jev_step')).allowed, true);
    assert.equal(decideGrant(m, inProc('ask_noul')).allowed, false);
    assert.equal(decideGrant(m, ext('files', 'write_file')).allowed, true);
    assert.equal(decideGrant(m, ext('other', 'write_file')).allowed, false);
    assert.equal(decideGrant(m, ext('other', 'read_file')).allowed, true);
    assert.equal(decideGrant(m, ext('other', 'read_mfile')).allowed, false);
    assert.equal(parseGrant('a*/x').regex.test('ab/c/x'), false);
  });

  it('a matching deny beats every allow, whatever the order', () => {
    for (const tools of [['files/*', '!files/write_file'], ['!files/write_file', 'files/*']]) {
      const d = decideGrant(agent(tools), ext('files', 'write_file'));
      assert.equal(d.allowed, false);
      assert.equal(d.rule, '!files/write_file');
      assert.match(d.reason, /denied by "!files\/write_file"/);
      assert.equal(decideGrant(agent(tools), ext('files', 'read_file')).allowed, true);
    }
  });

  it('a bare allow reaches an external tool only where the bare name resolves; a bare deny applies on every server', () => {
    assert.equal(decideGrant(agent(['echo']), ext('first', 'echo', true)).allowed, true);
    const other = decideGrant(agent(['echo']), ext('second', 'echo', false));
    assert.equal(other.allowed, false);
    assert.match(other.reason, /resolves to another server/);
    assert.equal(decideGrant(agent(['*/*', '!echo']), ext('second', 'echo', false)).allowed, false);
    assert.equal(decideGrant(agent(['*/*', '!echo']), ext('second', 'ping', false)).allowed, true);
  });

  it('why names the deciding rule, or says that none matched', () => {
    const reg = new ToolRegistry();
    reg.register(oracleToolSpec);
    reg.register({ name: 'jev_step', description: 'Route one step.', run: () => ({}) });
    const m = agent(['jev_*', '!oracle'], 'teller');
    assert.deepEqual(
      { ...reg.why(m, 'jev_step') },
      { allowed: true, tool: 'jev_step', rule: 'jev_*', reason: 'allowed by "jev_*"', known: true },
    );
    assert.equal(reg.why(m, 'oracle').rule, '!oracle');
    const none = reg.why(agent([], 'quiet'), 'oracle');
    assert.equal(none.allowed, false);
    assert.equal(none.rule, null);
    assert.match(none.reason, /no grant of agent "quiet" matches oracle \(grants: none\)/);
    assert.equal(reg.why(m, 'jev_nothing').known, false);
  });

  it('call: denied before lookup (CapabilityViolation), granted but unknown → ToolNotFoundError', async () => {
    const reg = new ToolRegistry();
    let runs = 0;
    reg.register({ name: 'oracle', description: ORACLE_DESCRIPTION, run: (p) => (runs++, drawOmen(p.seed)) });
    await assert.rejects(reg.call('scene', agent([], 'scene'), 'oracle', { seed: 'x' }), CapabilityViolation);
    await assert.rejects(reg.call('scene', agent([], 'scene'), 'nope', {}), CapabilityViolation);
    assert.equal(runs, 0);
    await assert.rejects(reg.call('t', agent(['*']), 'nope', {}), ToolNotFoundError);
    assert.deepEqual(await reg.call('t', agent(['oracle']), 'oracle', { seed: 'x' }), drawOmen('x'));
    assert.equal(runs, 1);
  });

  it('in-process results must be plain JSON objects', async () => {
    const reg = new ToolRegistry();
    reg.register({ name: 'arr', description: 'd', run: () => [1, 2] });
    reg.register({ name: 'nan', description: 'd', run: () => ({ x: { y: NaN } }) });
    await assert.rejects(reg.call('t', agent(['*']), 'arr', {}), /returned an array; tool results must be JSON objects/);
    await assert.rejects(reg.call('t', agent(['*']), 'nan', {}), /result\.x\.y: numbers must be finite/);
  });
});

describe('tool ids and permission answers', () => {
  it('one parser splits qualified ids at the first "/"; ids without a server part are bare', () => {
    assert.deepEqual(parseToolId('files/read_file'), { server: 'files', name: 'read_file' });
    assert.deepEqual(parseToolId('files/dir/read'), { server: 'files', name: 'dir/read' });
    assert.deepEqual(parseToolId('jev_step'), { name: 'jev_step' });
    assert.deepEqual(parseToolId('/x'), { name: '/x' });
    assert.deepEqual(refOfName('files/write'), { id: 'files/write', name: 'write', server: 'files', bareOwner: false });
    assert.deepEqual(refOfName('jev_step'), { id: 'jev_step', name: 'jev_step', bareOwner: true });
  });

  it('the registry decides a known tool; an unknown one is offered when a configured server could serve it granted', () => {
    const coder = agent(['files/*', '!files/write']);
    const known = { known: true, allowed: false, reason: 'denied by "x"' };
    assert.deepEqual(callPermission(coder, 'files/read', known, ['files']), { allowed: false, reason: 'denied by "x"' });
    assert.equal(callPermission(coder, 'files/read', undefined, ['files']).allowed, true);
    assert.equal(callPermission(coder, 'read', undefined, ['web', 'files']).allowed, true, 'a bare name may come from any configured server');
    const denied = callPermission(coder, 'files/write', undefined, ['files']);
    assert.equal(denied.allowed, false);
    assert.match(denied.reason, /no grant of agent "a" matches files\/write/);
    const unknownWhy = { known: false, allowed: false, reason: 'no grant matches (no tool "files/write" is known now)' };
    assert.equal(callPermission(coder, 'files/write', unknownWhy, ['files']).reason, unknownWhy.reason);
    assert.deepEqual(callPermission(coder, 'read', undefined, []), { allowed: false, reason: 'no configured MCP server offers read' });
  });
});

describe('manifest and config validation names the field', () => {
  it('rejects malformed grants and agents', () => {
    assert.match(configErrorMessage(() => parseManifest({ name: 'a', tools: ['ok', '!'] }, 'agents[0]')), /^agents\[0\]\.tools\[1\]: a deny rule must name a tool or glob after "!"$/);
    assert.match(configErrorMessage(() => parseManifest({ name: 'a', tools: ['files/'] }, 'agents[0]')), /^agents\[0\]\.tools\[0\]: the tool part after "\/" must not be empty$/);
    assert.match(configErrorMessage(() => parseManifest({ name: 'a', tools: ['read file'] }, 'agents[2]')), /^agents\[2\]\.tools\[0\]: may contain only/);
    assert.match(configErrorMessage(() => parseManifest({ name: 'a', tools: ['a!b'] }, 'x')), /"!" is only allowed as the first character/);
    assert.match(configErrorMessage(() => parseManifest({ name: 'bad name', tools: [] }, 'agents[0]')), /^agents\[0\]\.name: must be 1-64 letters/);
    assert.match(configErrorMessage(() => parseManifest({ name: 'a', tool: [] }, 'agents[0]')), /^agents\[0\]: unknown field tool$/);
    assert.match(configErrorMessage(() => parseManifest({ name: 'a', tools: 'oracle' }, 'agents[0]')), /^agents\[0\]\.tools: /);
  });

  it('rejects malformed config files', () => {
    const src = '.jev/config.json';
    assert.match(configErrorMessage(() => parseJevConfig([], src)), /^\.jev\/config\.json: \(root\): must be a JSON object/);
    assert.match(configErrorMessage(() => parseJevConfig({ agent: [] }, src)), /unknown field agent/);
    assert.match(
      configErrorMessage(() => parseJevConfig({ agents: [{ name: 'a', tools: [] }, { name: 'a', tools: [] }] }, src)),
      /agents\[1\]\.name: duplicate agent name "a" \(already agents\[0\]\)/,
    );
    assert.match(configErrorMessage(() => parseJevConfig({ servers: { 'a/b': { command: 'x' } } }, src)), /servers\["a\/b"\]: server names must be/);
    assert.match(configErrorMessage(() => parseJevConfig({ servers: { fs: { command: '' } } }, src)), /servers\.fs\.command: must be a non-empty command/);
    assert.match(configErrorMessage(() => parseJevConfig({ servers: { fs: { command: 'x', timeoutMs: 0 } } }, src)), /servers\.fs\.timeoutMs: must be at least 1 ms/);
    assert.match(configErrorMessage(() => parseJevConfig({ servers: { fs: { command: 'x', envFile: '.env' } } }, src)), /servers\.fs: unknown field envFile/);
    assert.match(configErrorMessage(() => parseJevConfig({ servers: { fs: { command: 'x', args: [1] } } }, src)), /servers\.fs\.args\[0\]: must be strings/);
    assert.match(configErrorMessage(() => parseJevConfig({ servers: { web: { url: 'http://example.com/mcp' } } }, src)), /servers\.web\.url: plain http:\/\/ is allowed only for loopback hosts/);
    assert.match(configErrorMessage(() => parseJevConfig({ servers: { web: { type: 'sse', url: 'https://x' } } }, src)), /servers\.web\.type: must be "stdio" or "http"/);
    assert.match(configErrorMessage(() => parseJevConfig({ screen: { mode: 'loud' } }, src)), /screen\.mode: must be "warn" or "strict"/);
    assert.doesNotThrow(() => parseJevConfig({ screen: { commands: ['curl*'], mode: 'strict' }, servers: { gh: { command: 'x', screen: 'strict' } } }, src), "the guard's screen block and a server's screen setting are accepted");
    for (const screen of [true, 'warn', null, ['curl*']]) {
      assert.match(
        configErrorMessage(() => parseJevConfig({ agents: [{ name: 'a', tools: [] }, { name: 'b', tools: [], screen }] }, src)),
        /^\.jev\/config\.json: agents\[1\]\.screen: must be false, "strict" or an object \{mode, commands\}$/,
        JSON.stringify(screen),
      );
    }
    assert.match(configErrorMessage(() => parseJevConfig({ agents: [{ name: 'a', screen: { mode: 'loud' } }] }, src)), /agents\[0\]\.screen\.mode: must be "warn" or "strict"; got "loud"/);
    assert.match(configErrorMessage(() => parseJevConfig({ agents: [{ name: 'a', screen: { commands: ['curl*', ' '] } }] }, src)), /agents\[0\]\.screen\.commands\[1\]: must be a non-empty string/);
    assert.match(configErrorMessage(() => parseJevConfig({ agents: [{ name: 'a', screen: { level: 1 } }] }, src)), /agents\[0\]\.screen: unknown field level \(allowed: commands, mode\)/);
    const screened = parseJevConfig({ agents: [{ name: 'a', screen: false }, { name: 'b', screen: 'strict' }, { name: 'c', screen: { mode: 'strict', commands: ['curl*'] } }, { name: 'd' }] }, src);
    assert.deepEqual(
      screened.agents.map((a) => a.screen),
      [false, 'strict', { mode: 'strict', commands: ['curl*'] }, undefined],
      "an agent's screen is kept as written",
    );
    const ok = parseJevConfig({ agents: [{ name: 'coder', tools: ['files/*'] }], servers: { web: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer t' } }, fs: { command: 'node', args: ['s.js'], cwd: 'sub' } } }, src, '/work');
    assert.deepEqual(Object.keys(ok.servers), ['web', 'fs']);
    assert.equal((ok.servers.fs as StdioServerConfig).cwd, join('/work', 'sub'));
  });

  it('warns about grants that match no known tool, naming unknown servers', () => {
    const known = [inProc('oracle'), ext('files', 'read_file')];
    const servers = new Map([['files', true], ['web', false]]);
    const w = grantWarnings(agent(['oracle', 'orcale', 'files/read_file', 'fils/read_file', 'web/*', '!files/write_file'], 'coder'), known, servers);
    assert.deepEqual(w, [
      'agent "coder": grant "orcale" matches no known tool (tools of web are unknown: not ready)',
      'agent "coder": grant "fils/read_file" names server "fils", which is not configured',
      'agent "coder": grant "web/*" matches no known tool (tools of web are unknown: not ready)',
      'agent "coder": grant "!files/write_file" matches no known tool',
    ]);
  });
});

describe('grant warnings know the judgment tools', () => {
  it('a registry with no judgment tool registered (jevcp servers, step --execute) does not warn about jev_* or a judgment tool name', () => {
    const reg = new ToolRegistry();
    const w = reg.grantWarnings([agent(['jev_*', 'ask_noul', 'evaluate_policy', '!jev_rank', 'jev_stepp'], 'coder')]);
    assert.deepEqual(w, ['agent "coder": grant "jev_stepp" matches no known tool']);
  });
});

describe('env gate (MCP_SERVERS)', () => {
  const oracle: StdioServerConfig = { command: 'node', args: ['cli.js', 'oracle-server'] };
  const gate = (env: Record<string, string>) => serversFromEnv(env, { oracle });
  const commands = (env: Record<string, string>) => gate(env).servers.map((s) => [(s.config as StdioServerConfig).command, ...((s.config as StdioServerConfig).args ?? [])]);

  it('follows the precedence table', () => {
    assert.deepEqual(commands({}), []);
    assert.equal(gate({}).source, 'none');
    assert.deepEqual(commands({ MCP_ORACLE: '1' }), [['node', 'cli.js', 'oracle-server']]);
    assert.equal(gate({ MCP_ORACLE: '1' }).servers[0].name, 'oracle');
    assert.deepEqual(commands({ MCP_ORACLE: ' true ' }), [['node', 'cli.js', 'oracle-server']]);
    assert.deepEqual(commands({ MCP_ORACLE: 'True' }), [['node', 'cli.js', 'oracle-server']]);
    assert.deepEqual(commands({ MCP_ORACLE: 'TRUE' }), []);
    assert.deepEqual(commands({ MCP_ORACLE: 'yes' }), []);
    assert.deepEqual(commands({ MCP_SERVERS: 'python -m src.tools.mcp_server :: node other.js --flag' }), [
      ['python', '-m', 'src.tools.mcp_server'],
      ['node', 'other.js', '--flag'],
    ]);
    assert.deepEqual(gate({ MCP_SERVERS: 'a :: b' }).servers.map((s) => s.name), ['env-1', 'env-2']);
    assert.deepEqual(commands({ MCP_SERVERS: 'a::b' }), [['a'], ['b']]);
    assert.deepEqual(commands({ MCP_SERVERS: 'python -m custom.server', MCP_ORACLE: '1' }), [['python', '-m', 'custom.server']]);
    assert.deepEqual(commands({ MCP_SERVERS: '   ', MCP_ORACLE: '1' }), [['node', 'cli.js', 'oracle-server']]);
    assert.deepEqual(commands({ MCP_SERVERS: ' :: ', MCP_ORACLE: '1' }), []);
    assert.equal(gate({ MCP_SERVERS: ' :: ', MCP_ORACLE: '1' }).source, 'MCP_SERVERS');
    assert.deepEqual(commands({ MCP_SERVERS: "node 'my server.js' --x" }), [['node', 'my server.js', '--x']]);
    assert.throws(() => gate({ MCP_SERVERS: "python -c 'print(1::2)'" }), /segment 1 .*unclosed single quote.*"::" always separates servers, even inside quotes/);
  });

  it('explains the MCP_SERVERS / MCP_ORACLE oddities instead of accepting them silently', () => {
    assert.deepEqual(gate({ MCP_SERVERS: ' :: ', MCP_ORACLE: '1' }).warnings, ['MCP_SERVERS is set but names no server; no env servers are started and MCP_ORACLE is ignored']);
    assert.deepEqual(gate({ MCP_SERVERS: 'a', MCP_ORACLE: 'true' }).warnings, ['MCP_ORACLE is ignored because MCP_SERVERS is set']);
    assert.deepEqual(gate({ MCP_ORACLE: 'yes' }).warnings, ['MCP_ORACLE="yes" is not recognised (use 1 or true); the oracle server stays off']);
    assert.deepEqual(gate({ MCP_ORACLE: '0' }).warnings, []);
    assert.deepEqual(gate({}).warnings, []);
  });

  it('splits command lines shell-style', () => {
    assert.deepEqual(splitCommandLine(`a "b c" 'd e' f\\ g "h\\"i" ''`), ['a', 'b c', 'd e', 'f g', 'h"i', '']);
    assert.throws(() => splitCommandLine('a "b'), /unclosed double quote at character 3/);
    assert.throws(() => splitCommandLine('a\\'), /trailing backslash/);
  });

  it('openRegistry keeps the oracle in-process only when the gate is unset', async () => {
    const plain = await openRegistry({ cwd: emptyCwd, env: {}, configPath: undefined });
    assert.equal(plain.registry.resolve('oracle')?.transport, 'in-process');
    const gated = await openRegistry({ cwd: emptyCwd, env: { MCP_ORACLE: '1' }, oracleServer: oracle });
    assert.equal(gated.registry.resolve('oracle'), undefined);
    assert.deepEqual(gated.registry.status().map((s) => [s.name, s.source, s.status.state]), [['oracle', 'MCP_ORACLE', 'starting']]);
    await gated.registry.shutdown();
  });
});

describe('oracle (MCP_ORACLE)', () => {
  it('draws by SHA-256 → first 6 hex → mod 8, deterministically', () => {
    const seeds = ['', 'The wood wakes', 'grove', 'ünïcødé 🌲', 'a'.repeat(10_000), ...Array.from({ length: 40 }, (_, i) => `seed-${i}`)];
    const seen = new Set<string>();
    for (const seed of seeds) {
      const index = parseInt(createHash('sha256').update(Buffer.from(seed, 'utf8')).digest('hex').slice(0, 6), 16) % 8;
      const omen = drawOmen(seed);
      assert.deepEqual(Object.keys(omen), ['omen']);
      assert.equal(omen.omen, OMENS[index]);
      assert.deepEqual(drawOmen(seed), omen);
      seen.add(omen.omen);
    }
    assert.equal(OMENS.length, 8);
    assert.ok(seen.size >= 6, `expected the seeds to reach most omens, got ${seen.size}`);
    assert.deepEqual(drawOmen(), drawOmen(''));
    assert.throws(() => drawOmen(5), /seed: must be a string \(got number\)/);
  });

  it('gives the byte-identical omen and description in-process and over MCP', async () => {
    const fixture = join(__dirname, '..', 'fixtures', 'servers', 'oracle-server.ts');
    const overMcp = await openRegistry({
      cwd: emptyCwd,
      env: { MCP_ORACLE: '1' },
      oracleServer: { command: process.execPath, args: ['--import', 'tsx', fixture], cwd: join(__dirname, '..', '..') },
    });
    const inProcess = await openRegistry({ cwd: emptyCwd, env: {} });
    try {
      const [view] = await overMcp.registry.start();
      assert.equal(view.status.state, 'ready', view.status.reason);
      const teller = agent(['oracle'], 'fortune-teller');
      assert.equal(overMcp.registry.resolve('oracle')?.id, 'oracle/oracle');
      assert.equal(overMcp.registry.describe(['oracle']), inProcess.registry.describe(['oracle']));
      assert.equal(inProcess.registry.describe(['oracle']), `- oracle: ${ORACLE_DESCRIPTION}`);
      for (const seed of ['', 'The curtain has not risen.', 'ünïcødé 🌲', 'grove of undecided futures']) {
        const a = await inProcess.registry.call('fortune-teller', teller, 'oracle', { seed });
        const b = await overMcp.registry.call('fortune-teller', teller, 'oracle', { seed });
        assert.equal(JSON.stringify(b), JSON.stringify(a));
      }
      // Bad input fails the same way on both transports (host-side schema check).
      const errors = await Promise.all(
        [inProcess, overMcp].map((r) => r.registry.call('fortune-teller', teller, 'oracle', { seed: 7 }).then(() => 'no error', (e: Error) => e.message.replace(/^oracle\/oracle|^oracle/, 'ID'))),
      );
      assert.equal(errors[0], errors[1]);
      assert.match(errors[0], /ID: params\.seed: must be string/);
    } finally {
      await overMcp.registry.shutdown();
      await inProcess.registry.shutdown();
    }
  });
});
