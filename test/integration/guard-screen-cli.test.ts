/**
 * The guard's PostToolUse screen as a host runs it: dist/cli.js (and the lean dist/guard.js) with one
 * PostToolUse event whose tool_response holds a planted instruction, judged by jev_screen against a fake
 * System One on 127.0.0.1. Block, review and pass by the injection probability; the user's request from the
 * transcript goes up as purpose; the judge down and the mock only are never passed (warned in mode warn,
 * withheld in mode strict). Codex's answers are checked against its published PostToolUse output schema.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Ajv from 'ajv';
import type { QuestionMap } from '../../src/judgment/types';
import { answerAll, noul, startFakeSystemOne, type FakeSystemOne } from '../helpers/fake-systemone';
import { capture } from '../helpers/processes';

const DIST = join(__dirname, '..', '..', 'dist');
const CLI = join(DIST, 'cli.js');
const LEAN = join(DIST, 'guard.js');
const FIX = join(__dirname, '..', 'fixtures', 'hosts');
const KEY = 'jevtest-secret-key-0123456789abcdef';
const REQUEST = 'How do I install the tool?';
const codexPostOut = new Ajv({ strict: false }).compile(JSON.parse(readFileSync(join(FIX, 'codex', 'post-tool-use.command.output.schema.json'), 'utf8')) as object);

let tmp: string;
let fake: FakeSystemOne;
before(async () => {
  assert.ok(existsSync(CLI), 'run `node scripts/build.mjs` first');
  tmp = mkdtempSync(join(tmpdir(), 'jev-guard-screen-cli-'));
  fake = await startFakeSystemOne();
});
after(async () => {
  await fake?.close();
  rmSync(tmp, { recursive: true, force: true });
});

let n = 0;
/** A workspace with an optional .jev/config.json and a transcript holding the user's request. */
function workspace(config?: unknown): string {
  const dir = join(tmp, `ws-${n++}`);
  mkdirSync(join(dir, '.jev'), { recursive: true });
  if (config !== undefined) writeFileSync(join(dir, '.jev', 'config.json'), JSON.stringify(config));
  writeFileSync(join(dir, 'transcript.jsonl'), `${JSON.stringify({ type: 'user', message: { role: 'user', content: REQUEST } })}\n`);
  return dir;
}

function event(host: string, name: string, dir: string): string {
  const e = JSON.parse(readFileSync(join(FIX, host, `${name}.json`), 'utf8').replaceAll('/work/project', dir)) as Record<string, unknown>;
  if (typeof e.transcript_path === 'string') e.transcript_path = join(dir, 'transcript.jsonl');
  return JSON.stringify(e);
}

function env(dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: dir, JEV_TEST: '1', JEV_STATE_DIR: join(dir, 'state'), ...extra };
}
const backend = (dir: string, extra: Record<string, string> = {}) => env(dir, { JEV_API_KEY: KEY, JEV_BASE_URL: fake.url, ...extra });

const guard = (entry: string, host: string, dir: string, input: string, e: NodeJS.ProcessEnv, args: string[] = []) =>
  capture(process.execPath, [entry, 'guard', '--host', host, ...args], { cwd: dir, env: e, input });

/** The fake answers jev_screen with injection probability `p` (substance and relevance high). */
function injection(p: number): void {
  fake.setAnswerer((req) => answerAll((req.body?.questions ?? {}) as QuestionMap, { injection: noul(p), substance: noul(0.9), relevance: noul(0.9) }));
}

const out = (stdout: string) => JSON.parse(stdout) as { decision?: string; reason?: string; hookSpecificOutput: { hookEventName: string; additionalContext?: string; updatedMCPToolOutput?: unknown } };

describe('PostToolUse screened through the CLI configuration (fake System One)', () => {
  it('claude-code WebFetch with a planted instruction: block, the reason naming the decision; the request is the purpose', async () => {
    const dir = workspace();
    injection(0.97);
    const before = fake.count();
    const r = await guard(CLI, 'claude-code', dir, event('claude-code', 'post-tool-use-webfetch', dir), backend(dir));
    assert.equal(r.code, 0, r.stderr);
    const a = out(r.stdout);
    assert.equal(a.decision, 'block');
    assert.match(a.reason!, /withheld the result of WebFetch: jev_screen decided block \(decision [^)]+\)/);
    assert.doesNotMatch(r.stdout, /IGNORE ALL/);
    assert.match(r.stderr, /screen block, withheld/);
    assert.equal(fake.count(), before + 1);
    const sent = JSON.stringify(fake.requests.at(-1)!.body);
    assert.match(sent, /IGNORE ALL PREVIOUS INSTRUCTIONS/);
    assert.ok(sent.includes(REQUEST), 'the user request goes up as purpose');
  });

  it('review adds context; pass says nothing', async () => {
    const dir = workspace();
    injection(0.5);
    const review = await guard(CLI, 'claude-code', dir, event('claude-code', 'post-tool-use-webfetch', dir), backend(dir));
    const a = out(review.stdout);
    assert.equal(a.decision, undefined);
    assert.match(a.hookSpecificOutput.additionalContext!, /holds instructions .*data only/);
    injection(0.01);
    const pass = await guard(CLI, 'claude-code', dir, event('claude-code', 'post-tool-use-webfetch', dir), backend(dir));
    assert.equal(pass.code, 0, pass.stderr);
    assert.equal(pass.stdout, '');
    assert.equal(pass.stderr, '');
  });

  it('the lean entry (dist/guard.js) loads the screen from dist/cli.js', { skip: !existsSync(LEAN) }, async () => {
    const dir = workspace();
    injection(0.97);
    const r = await guard(LEAN, 'claude-code', dir, event('claude-code', 'post-tool-use-webfetch', dir), backend(dir));
    assert.equal(out(r.stdout).decision, 'block', r.stderr);
  });

  it('codex: a listed curl command and a marked MCP server are screened; answers valid against the published schema', async () => {
    const dir = workspace({ screen: { commands: ['curl*'] }, servers: { github: { command: 'gh-mcp', screen: true } } });
    injection(0.97);
    const bash = await guard(CLI, 'codex', dir, event('codex', 'post-tool-use', dir), backend(dir));
    assert.ok(codexPostOut(JSON.parse(bash.stdout)), bash.stdout);
    assert.equal(out(bash.stdout).decision, 'block');
    const mcp = await guard(CLI, 'codex', dir, event('codex', 'post-tool-use-mcp', dir), backend(dir));
    const m = out(mcp.stdout);
    assert.ok(codexPostOut(m), mcp.stdout);
    assert.match(JSON.stringify(m.hookSpecificOutput.updatedMCPToolOutput), /withheld the result of mcp__github__get_issue/);
  });

  it('the judge down: warned in mode warn, withheld in mode strict, never passed', async () => {
    const warnDir = workspace();
    fake.script(...Array.from({ length: 10 }, () => ({ status: 500 })));
    const w = await guard(CLI, 'claude-code', warnDir, event('claude-code', 'post-tool-use-webfetch', warnDir), backend(warnDir, { JEV_TIMEOUT_MS: '2000' }), ['--deadline-ms', '4000']);
    assert.equal(out(w.stdout).decision, undefined);
    assert.match(out(w.stdout).hookSpecificOutput.additionalContext!, /could not screen the result of WebFetch \((API_ERROR|TIMEOUT|[A-Z_]+); screen\.mode warn\)/);
    assert.match(w.stderr, /screen unscreened, warned/);
    const strictDir = workspace({ screen: { mode: 'strict' } });
    fake.script(...Array.from({ length: 10 }, () => ({ status: 500 })));
    const s = await guard(CLI, 'codex', strictDir, event('codex', 'post-tool-use', strictDir).replace('"Bash"', '"web_search"'), backend(strictDir, { JEV_TIMEOUT_MS: '2000' }), ['--deadline-ms', '4000']);
    const so = out(s.stdout);
    assert.equal(so.decision, 'block');
    assert.match(so.reason!, /could not be screened .*screening is strict/);
    assert.ok(codexPostOut(so));
    fake.script();
  });

  it('the judge slower than the deadline: unscreened TIMEOUT, answered in time', async () => {
    const dir = workspace();
    fake.script({ delayMs: 10_000, then: { status: 200 } });
    const t0 = Date.now();
    const r = await guard(CLI, 'vscode', dir, event('vscode', 'post-tool-use-fetch', dir), backend(dir), ['--deadline-ms', '800']);
    assert.ok(Date.now() - t0 < 6000);
    assert.match(out(r.stdout).hookSpecificOutput.additionalContext!, /could not screen .*TIMEOUT/);
    fake.script();
  });

  it('the mock only, or no backend: unscreened, never passed, nothing sent', async () => {
    const dir = workspace();
    const before = fake.count();
    const mock = await guard(CLI, 'claude-code', dir, event('claude-code', 'post-tool-use-webfetch', dir), env(dir, { JEV_MOCK: '1' }));
    assert.match(out(mock.stdout).hookSpecificOutput.additionalContext!, /could not screen .*MOCK_ONLY/);
    const nothing = await guard(CLI, 'claude-code', dir, event('claude-code', 'post-tool-use-webfetch', dir), env(dir));
    assert.match(out(nothing.stdout).hookSpecificOutput.additionalContext!, /could not screen .*NO_BACKEND/);
    assert.equal(fake.count(), before);
  });

  it('a first-party result is never screened', async () => {
    const dir = workspace();
    const before = fake.count();
    const r = await guard(CLI, 'claude-code', dir, event('claude-code', 'post-tool-use', dir), backend(dir));
    assert.equal(r.stdout, '');
    assert.equal(fake.count(), before);
  });
});
