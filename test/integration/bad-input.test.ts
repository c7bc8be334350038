/**
 * Bad input through MCP: a table of malformed inputs across the 14 tools, sent as
 * raw JSON-RPC lines to `node dist/cli.js serve` over real stdio (raw, so JSON-only values such as 1e999 →
 * Infinity and own `__proto__` keys arrive exactly as written). Each must come back as `isError` with a
 * message naming the field, and the fake System One upstream must count 0 requests for all of them.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startFakeSystemOne, type FakeSystemOne } from '../helpers/fake-systemone';
import { CLI, cleanEnv, ensureBuilt, TOOL_NAMES, VALID_INPUTS } from './mcp-fixtures';

/** One malformed call. `args` is an object (sent as JSON) or raw JSON text; `field` must match the error message. */
interface BadCase {
  tool: string;
  why: string;
  args: Record<string, unknown> | string;
  field: RegExp;
}

const big = 'x'.repeat(1_000_001);
const permitCall = { tool: 'Bash', input: { command: 'ls' } };
const permitHost = { name: 'claude-code', agent: 'editor' };
const cand = (over: Record<string, unknown> = {}, i = 0) => ({
  id: `c${i}`,
  name: 'read_file',
  arguments: { path: `src/f${i}.ts` },
  description: 'Read a file',
  effect: 'read_only',
  authorized: true,
  schema_valid: true,
  preconditions_met: true,
  ...over,
});
const loop = { task: 'Fix the parser', observation: 'Tests fail on empty input.' };
const routeBase = { task: 'Inspect the parser', observation: 'Not read yet.' };
const gateBase = { request: 'Return {} for empty input', diff: '+if (!s) return {};', claims: ['Empty input returns {}.'], evidence: 'test passed' };
const review = { request: 'Return {} for empty input', diff: '+if (!s) return {};' };
const verify = { claims: ['All tests pass.'], evidence: '12 passing' };
const policyQ = { green: { type: 'noul', instructions: 'Is it green?' } };
const policyRules = { rules: [{ question: 'green', pass: { noul: { min: 0.8 } } }] };
const rankC = [
  { id: 'a', text: 'alpha' },
  { id: 'b', text: 'beta' },
];
/** Raw JSON text of `obj` with `"<marker>"` replaced by a JSON-only literal such as 1e999. */
const raw = (obj: Record<string, unknown>, literal: string) => JSON.stringify(obj).replace('"@@"', literal);

const CASES: BadCase[] = [
  // ask_noul
  { tool: 'ask_noul', why: 'missing state', args: { instruction: 'Is it?' }, field: /state/ },
  { tool: 'ask_noul', why: 'missing instruction', args: { state: 's' }, field: /instruction/ },
  { tool: 'ask_noul', why: 'state null', args: { state: null, instruction: 'Is it?' }, field: /state/ },
  { tool: 'ask_noul', why: 'state number', args: { state: 42, instruction: 'Is it?' }, field: /state/ },
  { tool: 'ask_noul', why: 'state array', args: { state: ['a'], instruction: 'Is it?' }, field: /state/ },
  { tool: 'ask_noul', why: 'state boolean', args: { state: true, instruction: 'Is it?' }, field: /state/ },
  { tool: 'ask_noul', why: 'instruction number', args: { state: 's', instruction: 5 }, field: /instruction/ },
  { tool: 'ask_noul', why: 'instruction object', args: { state: 's', instruction: { text: 'x' } }, field: /instruction/ },
  { tool: 'ask_noul', why: 'criteria is not an ask_noul argument', args: { state: 's', instruction: 'i', criteria: { true: 'y' } }, field: /criteria/ },
  { tool: 'ask_noul', why: 'two unknown arguments, sorted', args: { state: 's', instruction: 'i', bar: 1, Foo: 2 }, field: /Unknown arguments: Foo, bar/ },
  { tool: 'ask_noul', why: 'model is host-selected, not an argument', args: { state: 's', instruction: 'i', model: 'm' }, field: /model/ },
  { tool: 'ask_noul', why: 'own __proto__ argument', args: '{"state":"s","instruction":"i","__proto__":{"x":1}}', field: /__proto__/ },
  // ask_choice
  { tool: 'ask_choice', why: 'empty criteria', args: { state: 's', instruction: 'i', criteria: {} }, field: /criteria/ },
  { tool: 'ask_choice', why: 'criteria array', args: { state: 's', instruction: 'i', criteria: ['a', 'b'] }, field: /criteria/ },
  { tool: 'ask_choice', why: 'criteria string', args: { state: 's', instruction: 'i', criteria: 'a,b' }, field: /criteria/ },
  { tool: 'ask_choice', why: 'criteria value number', args: { state: 's', instruction: 'i', criteria: { a: 5, b: 'B' } }, field: /criteria/ },
  { tool: 'ask_choice', why: 'missing state', args: { instruction: 'i', criteria: { a: 'A', b: 'B' } }, field: /state/ },
  { tool: 'ask_choice', why: 'unknown argument options', args: { state: 's', instruction: 'i', options: ['a'] }, field: /options/ },
  { tool: 'ask_choice', why: 'instruction null', args: { state: 's', instruction: null }, field: /instruction/ },
  // ask_score
  { tool: 'ask_score', why: 'empty criteria', args: { state: 's', instruction: 'i', criteria: [] }, field: /criteria/ },
  { tool: 'ask_score', why: 'criteria object', args: { state: 's', instruction: 'i', criteria: { low: 'L' } }, field: /criteria/ },
  { tool: 'ask_score', why: 'criteria numbers', args: { state: 's', instruction: 'i', criteria: [1, 2] }, field: /criteria/ },
  { tool: 'ask_score', why: 'criteria empty level', args: { state: 's', instruction: 'i', criteria: ['', 'High'] }, field: /criteria/ },
  { tool: 'ask_score', why: 'state number', args: { state: 7, instruction: 'i' }, field: /state/ },
  { tool: 'ask_score', why: 'unknown argument levels', args: { state: 's', instruction: 'i', levels: 4 }, field: /levels/ },
  // evaluate_policy
  { tool: 'evaluate_policy', why: 'empty questions', args: { state: 's', questions: {}, policy: policyRules }, field: /questions/ },
  { tool: 'evaluate_policy', why: 'missing questions', args: { state: 's', policy: policyRules }, field: /questions/ },
  { tool: 'evaluate_policy', why: 'missing policy', args: { state: 's', questions: policyQ }, field: /policy/ },
  { tool: 'evaluate_policy', why: 'empty rules', args: { state: 's', questions: policyQ, policy: { rules: [] } }, field: /rules/ },
  { tool: 'evaluate_policy', why: 'rule names an unknown question', args: { state: 's', questions: policyQ, policy: { rules: [{ question: 'red', pass: { noul: { min: 0.5 } } }] } }, field: /question/ },
  { tool: 'evaluate_policy', why: 'unknown question type', args: { state: 's', questions: { green: { type: 'maybe', instructions: 'x' } }, policy: policyRules }, field: /question type/ },
  { tool: 'evaluate_policy', why: 'noul min 1e999 (Infinity through JSON)', args: raw({ state: 's', questions: policyQ, policy: { rules: [{ question: 'green', pass: { noul: { min: '@@' } } }] } }, '1e999'), field: /min/ },
  { tool: 'evaluate_policy', why: 'choice question without criteria', args: { state: 's', questions: { pick: { type: 'choice', instructions: 'x' } }, policy: { rules: [{ question: 'pick', pass: { choice: 'a' } }] } }, field: /criteria/ },
  { tool: 'evaluate_policy', why: 'extra model argument', args: { state: 's', questions: policyQ, policy: policyRules, model: 'm' }, field: /state, questions and policy/ },
  { tool: 'evaluate_policy', why: 'state number', args: { state: 3, questions: policyQ, policy: policyRules }, field: /state/ },
  { tool: 'evaluate_policy', why: 'unsupported question field', args: { state: 's', questions: { green: { type: 'noul', instructions: 'x', weight: 2 } }, policy: policyRules }, field: /question field/ },
  // jev_evaluate
  { tool: 'jev_evaluate', why: 'empty questions', args: { state: 's', questions: {} }, field: /questions/ },
  { tool: 'jev_evaluate', why: 'missing questions', args: { state: 's' }, field: /questions/ },
  { tool: 'jev_evaluate', why: 'choice with one option', args: { state: 's', questions: { a: { type: 'choice', instructions: 'x', criteria: { only: 'one' } } } }, field: /questions\.a\.criteria/ },
  { tool: 'jev_evaluate', why: 'score with one level', args: { state: 's', questions: { a: { type: 'score', instructions: 'x', criteria: ['one'] } } }, field: /questions\.a\.criteria/ },
  { tool: 'jev_evaluate', why: 'unknown question type', args: { state: 's', questions: { a: { type: 'maybe', instructions: 'x' } } }, field: /questions\.a/ },
  { tool: 'jev_evaluate', why: 'instructions number', args: { state: 's', questions: { a: { type: 'noul', instructions: 5 } } }, field: /questions\.a\.instructions/ },
  { tool: 'jev_evaluate', why: 'state number', args: { state: 42, questions: policyQ }, field: /state/ },
  { tool: 'jev_evaluate', why: 'no per-call thresholds', args: { state: 's', questions: policyQ, auto_accept: 0.9 }, field: /auto_accept/ },
  { tool: 'jev_evaluate', why: 'model number', args: { state: 's', questions: policyQ, model: 42 }, field: /model/ },
  { tool: 'jev_evaluate', why: 'oversized state text', args: { state: big, questions: policyQ }, field: /state/ },
  // jev_permit
  { tool: 'jev_permit', why: 'missing call input', args: { request: 'r', call: { tool: 'Bash' }, host: permitHost }, field: /call\.input/ },
  { tool: 'jev_permit', why: 'blank tool name', args: { request: 'r', call: { tool: '  ', input: {} }, host: permitHost }, field: /call\.tool/ },
  { tool: 'jev_permit', why: 'unknown host effect', args: { request: 'r', call: permitCall, host: { ...permitHost, effect: 'harmless' } }, field: /host\.effect/ },
  { tool: 'jev_permit', why: 'missing host agent', args: { request: 'r', call: permitCall, host: { name: 'claude-code' } }, field: /host\.agent/ },
  { tool: 'jev_permit', why: 'paths_in_workspace string', args: { request: 'r', call: permitCall, host: { ...permitHost, paths_in_workspace: 'yes' } }, field: /host\.paths_in_workspace/ },
  { tool: 'jev_permit', why: 'empty request', args: { request: '', call: permitCall, host: permitHost }, field: /request/ },
  { tool: 'jev_permit', why: 'own __proto__ in the call input', args: '{"request":"r","call":{"tool":"Bash","input":{"__proto__":{"x":1}}},"host":{"name":"h","agent":"a"}}', field: /call\.input\.__proto__/ },
  { tool: 'jev_permit', why: 'review_at above auto_accept', args: { request: 'r', call: permitCall, host: permitHost, auto_accept: 0.85, review_at: 0.9 }, field: /review_at/ },
  { tool: 'jev_permit', why: 'unknown field', args: { request: 'r', call: permitCall, host: permitHost, effect: 'read_only' }, field: /effect/ },
  // jev_coding_loop
  { tool: 'jev_coding_loop', why: 'missing task', args: { observation: 'o' }, field: /task/ },
  { tool: 'jev_coding_loop', why: 'empty task', args: { task: '', observation: 'o' }, field: /task/ },
  { tool: 'jev_coding_loop', why: 'task number', args: { task: 1, observation: 'o' }, field: /task/ },
  { tool: 'jev_coding_loop', why: 'missing observation', args: { task: 't' }, field: /observation/ },
  { tool: 'jev_coding_loop', why: 'inverted thresholds', args: { ...loop, auto_accept: 0.4, review_at: 0.6 }, field: /auto_accept|review_at/ },
  { tool: 'jev_coding_loop', why: 'review_at above the auto_accept floor', args: { ...loop, review_at: 0.9 }, field: /review_at/ },
  { tool: 'jev_coding_loop', why: 'auto_accept above 1', args: { ...loop, auto_accept: 1.5 }, field: /auto_accept/ },
  { tool: 'jev_coding_loop', why: 'auto_accept as a string "NaN"', args: { ...loop, auto_accept: 'NaN' }, field: /auto_accept/ },
  { tool: 'jev_coding_loop', why: 'auto_accept 1e999 (Infinity)', args: raw({ ...loop, auto_accept: '@@' }, '1e999'), field: /auto_accept/ },
  { tool: 'jev_coding_loop', why: 'review_at -1e999 (-Infinity)', args: raw({ ...loop, review_at: '@@' }, '-1e999'), field: /review_at/ },
  { tool: 'jev_coding_loop', why: 'negative failed_attempts', args: { ...loop, execution: { failed_attempts: -1 } }, field: /execution\.failed_attempts/ },
  { tool: 'jev_coding_loop', why: 'fractional failed_attempts', args: { ...loop, execution: { failed_attempts: 1.5 } }, field: /execution\.failed_attempts/ },
  { tool: 'jev_coding_loop', why: 'failed_attempts 1e999', args: raw({ ...loop, execution: { failed_attempts: '@@' } }, '1e999'), field: /execution\.failed_attempts/ },
  { tool: 'jev_coding_loop', why: 'unknown execution field', args: { ...loop, execution: { trusted: true } }, field: /execution/ },
  { tool: 'jev_coding_loop', why: 'prepared_tool_call as a string', args: { ...loop, execution: { prepared_tool_call: 'yes' } }, field: /execution\.prepared_tool_call/ },
  { tool: 'jev_coding_loop', why: 'extras array', args: { ...loop, extras: [1] }, field: /extras/ },
  { tool: 'jev_coding_loop', why: 'unknown top-level field', args: { ...loop, candidates: [] }, field: /candidates/ },
  { tool: 'jev_coding_loop', why: 'oversized observation', args: { task: 't', observation: big }, field: /observation/ },
  { tool: 'jev_coding_loop', why: '__proto__ inside extras', args: '{"task":"t","observation":"o","extras":{"a":{"__proto__":{"polluted":true}}}}', field: /extras\.a\.__proto__/ },
  // jev_step
  { tool: 'jev_step', why: '33 candidates', args: { ...loop, candidates: Array.from({ length: 33 }, (_, i) => cand({}, i)) }, field: /candidates/ },
  { tool: 'jev_step', why: 'duplicate candidate ids', args: { ...loop, candidates: [cand(), cand()] }, field: /candidates\[1\]\.id|candidates.*id/ },
  { tool: 'jev_step', why: 'candidate without name', args: { ...loop, candidates: [cand({ name: undefined })] }, field: /candidates\[0\]\.name/ },
  { tool: 'jev_step', why: 'arguments array', args: { ...loop, candidates: [cand({ arguments: ['src/p.ts'] })] }, field: /candidates\[0\]\.arguments/ },
  { tool: 'jev_step', why: 'arguments null', args: { ...loop, candidates: [cand({ arguments: null })] }, field: /candidates\[0\]\.arguments/ },
  { tool: 'jev_step', why: 'unknown effect', args: { ...loop, candidates: [cand({ effect: 'nuke' })] }, field: /candidates\[0\]\.effect/ },
  { tool: 'jev_step', why: 'negative candidate failed_attempts', args: { ...loop, candidates: [cand({ failed_attempts: -1 })] }, field: /candidates\[0\]\.failed_attempts/ },
  { tool: 'jev_step', why: 'authorized as a string', args: { ...loop, candidates: [cand({ authorized: 'true' })] }, field: /candidates\[0\]\.authorized/ },
  { tool: 'jev_step', why: 'unknown candidate field', args: { ...loop, candidates: [cand({ priority: 1 })] }, field: /priority/ },
  { tool: 'jev_step', why: 'empty candidate id', args: { ...loop, candidates: [cand({ id: '' })] }, field: /candidates\[0\]\.id/ },
  { tool: 'jev_step', why: 'empty description', args: { ...loop, candidates: [cand({ description: '' })] }, field: /candidates\[0\]\.description/ },
  { tool: 'jev_step', why: '__proto__ inside an array in arguments', args: `{"task":"t","observation":"o","candidates":[${JSON.stringify(cand()).replace('{"path":"src/f0.ts"}', '{"list":[{"__proto__":{"admin":true}}]}')}]}`, field: /candidates\[0\]\.arguments\.list\[0\]\.__proto__/ },
  { tool: 'jev_step', why: 'candidates is an object', args: { ...loop, candidates: { a: cand() } }, field: /candidates/ },
  { tool: 'jev_step', why: 'missing task', args: { observation: 'o', candidates: [cand()] }, field: /task/ },
  { tool: 'jev_step', why: 'own top-level __proto__', args: '{"__proto__":1,"task":"t","observation":"o"}', field: /__proto__/ },
  { tool: 'jev_step', why: 'Infinity inside arguments', args: raw({ ...loop, candidates: [cand({ arguments: { limit: '@@' } })] }, '1e999'), field: /candidates\[0\]\.arguments/ },
  { tool: 'jev_step', why: 'inverted thresholds', args: { ...loop, auto_accept: 0.3, review_at: 0.7 }, field: /auto_accept|review_at/ },
  { tool: 'jev_step', why: 'oversized task', args: { task: big, observation: 'o' }, field: /task/ },
  // jev_tool_route
  { tool: 'jev_tool_route', why: 'missing candidates', args: routeBase, field: /candidates/ },
  { tool: 'jev_tool_route', why: '33 candidates', args: { ...routeBase, candidates: Array.from({ length: 33 }, (_, i) => cand({}, i)) }, field: /candidates/ },
  { tool: 'jev_tool_route', why: 'empty task', args: { ...routeBase, task: '', candidates: [cand()] }, field: /task/ },
  { tool: 'jev_tool_route', why: 'blank name', args: { ...routeBase, candidates: [cand({ name: '   ' })] }, field: /candidates\[0\]\.name/ },
  { tool: 'jev_tool_route', why: 'unknown effect', args: { ...routeBase, candidates: [cand({ effect: 'write' })] }, field: /candidates\[0\]\.effect/ },
  { tool: 'jev_tool_route', why: 'missing effect', args: { ...routeBase, candidates: [cand({ effect: undefined })] }, field: /candidates\[0\]\.effect/ },
  { tool: 'jev_tool_route', why: 'arguments string', args: { ...routeBase, candidates: [cand({ arguments: 'path=src' })] }, field: /candidates\[0\]\.arguments/ },
  { tool: 'jev_tool_route', why: 'duplicate ids', args: { ...routeBase, candidates: [cand({}, 1), cand({}, 1)] }, field: /id/ },
  { tool: 'jev_tool_route', why: 'review_at 2', args: { ...routeBase, candidates: [cand()], review_at: 2 }, field: /review_at/ },
  { tool: 'jev_tool_route', why: 'unknown field extras', args: { ...routeBase, candidates: [cand()], extras: {} }, field: /extras/ },
  { tool: 'jev_tool_route', why: 'model number', args: { ...routeBase, candidates: [cand()], model: 7 }, field: /model/ },
  { tool: 'jev_tool_route', why: 'schema_valid as number', args: { ...routeBase, candidates: [cand({ schema_valid: 1 })] }, field: /candidates\[0\]\.schema_valid/ },
  // jev_review
  { tool: 'jev_review', why: 'missing request', args: { diff: 'd' }, field: /request/ },
  { tool: 'jev_review', why: 'missing diff', args: { request: 'r' }, field: /diff/ },
  { tool: 'jev_review', why: 'diff number', args: { request: 'r', diff: 1 }, field: /diff/ },
  { tool: 'jev_review', why: 'tests array', args: { ...review, tests: ['ok'] }, field: /tests/ },
  { tool: 'jev_review', why: 'auto_accept above 1', args: { ...review, auto_accept: 1.01 }, field: /auto_accept/ },
  { tool: 'jev_review', why: 'inverted thresholds', args: { ...review, auto_accept: 0.5, review_at: 0.9 }, field: /auto_accept|review_at/ },
  { tool: 'jev_review', why: 'oversized diff', args: { request: 'r', diff: big }, field: /diff/ },
  { tool: 'jev_review', why: 'unknown field claims', args: { ...review, claims: ['x'] }, field: /claims/ },
  { tool: 'jev_review', why: 'review_at 1e999', args: raw({ ...review, review_at: '@@' }, '1e999'), field: /review_at/ },
  // jev_verify
  { tool: 'jev_verify', why: 'no claims', args: { claims: [], evidence: 'e' }, field: /claims/ },
  { tool: 'jev_verify', why: '1 001 claims', args: { claims: Array.from({ length: 1001 }, (_, i) => `claim ${i}`), evidence: 'e' }, field: /claims/ },
  { tool: 'jev_verify', why: 'empty claim', args: { claims: [''], evidence: 'e' }, field: /claims\[0\]/ },
  { tool: 'jev_verify', why: 'blank claim', args: { claims: ['ok', '   '], evidence: 'e' }, field: /claims\[1\]/ },
  { tool: 'jev_verify', why: 'claim number', args: { claims: [42], evidence: 'e' }, field: /claims\[0\]/ },
  { tool: 'jev_verify', why: 'claims string', args: { claims: 'All tests pass.', evidence: 'e' }, field: /claims/ },
  { tool: 'jev_verify', why: 'missing evidence', args: { claims: ['c'] }, field: /evidence/ },
  { tool: 'jev_verify', why: 'evidence number', args: { claims: ['c'], evidence: 12 }, field: /evidence/ },
  { tool: 'jev_verify', why: 'evidence item without text', args: { claims: ['c'], evidence: [{ id: 'a' }] }, field: /evidence/ },
  { tool: 'jev_verify', why: 'review_at is not a jev_verify argument', args: { ...verify, review_at: 0.5 }, field: /review_at/ },
  { tool: 'jev_verify', why: 'auto_accept negative', args: { ...verify, auto_accept: -0.1 }, field: /auto_accept/ },
  // jev_gate
  { tool: 'jev_gate', why: 'missing claims', args: { ...gateBase, claims: undefined }, field: /claims/ },
  { tool: 'jev_gate', why: '1 001 claims', args: { ...gateBase, claims: Array.from({ length: 1001 }, (_, i) => `claim ${i}`) }, field: /claims/ },
  { tool: 'jev_gate', why: 'duplicate evidence ids', args: { ...gateBase, evidence: [{ id: 'a', text: 'x' }, { id: 'a', text: 'y' }] }, field: /evidence\[1\]\.id/ },
  { tool: 'jev_gate', why: 'evidence item with an unknown field', args: { ...gateBase, evidence: [{ id: 'a', text: 'x', url: 'u' }] }, field: /evidence/ },
  { tool: 'jev_gate', why: 'request number', args: { ...gateBase, request: 5 }, field: /request/ },
  { tool: 'jev_gate', why: 'missing diff', args: { ...gateBase, diff: undefined }, field: /diff/ },
  { tool: 'jev_gate', why: 'inverted thresholds', args: { ...gateBase, auto_accept: 0.6, review_at: 0.7 }, field: /auto_accept|review_at/ },
  { tool: 'jev_gate', why: 'oversized request', args: { ...gateBase, request: big }, field: /request/ },
  { tool: 'jev_gate', why: 'tests number', args: { ...gateBase, tests: 3 }, field: /tests/ },
  { tool: 'jev_gate', why: 'auto_accept 1e999', args: raw({ ...gateBase, auto_accept: '@@' }, '1e999'), field: /auto_accept/ },
  // jev_screen
  { tool: 'jev_screen', why: 'missing text', args: { purpose: 'p' }, field: /text/ },
  { tool: 'jev_screen', why: 'text number', args: { text: 1 }, field: /text/ },
  { tool: 'jev_screen', why: 'block_at above 1', args: { text: 't', block_at: 1.5 }, field: /block_at/ },
  { tool: 'jev_screen', why: 'review_at above block_at', args: { text: 't', review_at: 0.9, block_at: 0.5 }, field: /review_at/ },
  { tool: 'jev_screen', why: 'review_at negative', args: { text: 't', review_at: -0.1 }, field: /review_at/ },
  { tool: 'jev_screen', why: 'purpose number', args: { text: 't', purpose: 9 }, field: /purpose/ },
  { tool: 'jev_screen', why: 'auto_accept is not a jev_screen argument', args: { text: 't', auto_accept: 0.9 }, field: /auto_accept/ },
  { tool: 'jev_screen', why: 'oversized text', args: { text: big }, field: /text/ },
  { tool: 'jev_screen', why: 'block_at 1e999', args: raw({ text: 't', block_at: '@@' }, '1e999'), field: /block_at/ },
  // jev_rank
  { tool: 'jev_rank', why: 'one candidate', args: { query: 'q', candidates: [rankC[0]] }, field: /candidates/ },
  { tool: 'jev_rank', why: '5 001 candidates', args: { query: 'q', candidates: Array.from({ length: 5001 }, (_, i) => ({ id: `d${i}`, text: `doc ${i}` })) }, field: /candidates/ },
  { tool: 'jev_rank', why: 'duplicate ids', args: { query: 'q', candidates: [rankC[0], { ...rankC[1], id: 'a' }] }, field: /candidates\[1\]\.id/ },
  { tool: 'jev_rank', why: 'top_k 0', args: { query: 'q', candidates: rankC, top_k: 0 }, field: /top_k/ },
  { tool: 'jev_rank', why: 'top_k 51', args: { query: 'q', candidates: rankC, top_k: 51 }, field: /top_k/ },
  { tool: 'jev_rank', why: 'top_k fractional', args: { query: 'q', candidates: rankC, top_k: 1.5 }, field: /top_k/ },
  { tool: 'jev_rank', why: 'candidate without text', args: { query: 'q', candidates: [{ id: 'a' }, rankC[1]] }, field: /candidates\[0\]\.text/ },
  { tool: 'jev_rank', why: 'empty candidate id', args: { query: 'q', candidates: [{ id: '', text: 't' }, rankC[1]] }, field: /candidates\[0\]\.id/ },
  { tool: 'jev_rank', why: 'missing query', args: { candidates: rankC }, field: /query/ },
  { tool: 'jev_rank', why: 'blank query', args: { query: '  ', candidates: rankC }, field: /query/ },
  { tool: 'jev_rank', why: 'auto_accept is not a jev_rank argument', args: { query: 'q', candidates: rankC, auto_accept: 0.9 }, field: /auto_accept/ },
  { tool: 'jev_rank', why: 'candidate is a string', args: { query: 'q', candidates: ['alpha', 'beta'] }, field: /candidates\[0\]/ },
  { tool: 'jev_rank', why: 'top_k 1e999', args: raw({ query: 'q', candidates: rankC, top_k: '@@' }, '1e999'), field: /top_k/ },
];

/** Minimal JSON-RPC client over the child's stdio: raw lines out, responses matched by id. */
class RawClient {
  private buffer = '';
  private nextId = 1;
  private readonly pending = new Map<number, (msg: any) => void>();
  constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        if (!line.trim()) continue;
        const msg = JSON.parse(line);
        if (typeof msg.id === 'number') this.pending.get(msg.id)?.(msg);
      }
    });
  }
  request(method: string, paramsJson: string): Promise<any> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child.stdin.write(`{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${paramsJson}}\n`);
    });
  }
  notify(method: string): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  }
}

describe('bad input over MCP stdio (raw JSON-RPC), fake upstream never reached', () => {
  let fake: FakeSystemOne;
  let child: ChildProcessWithoutNullStreams;
  let client: RawClient;

  before(async () => {
    ensureBuilt();
    fake = await startFakeSystemOne();
    child = spawn(process.execPath, [CLI, 'serve'], { env: cleanEnv({ JEV_BASE_URL: fake.url, JEV_TIMEOUT_MS: '10000' }), stdio: ['pipe', 'pipe', 'pipe'] });
    child.stderr.resume();
    client = new RawClient(child);
    const init = await client.request('initialize', JSON.stringify({ protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bad-input', version: '0' } }));
    assert.equal(init.result.serverInfo.name, 'jev-control-panel');
    client.notify('notifications/initialized');
  });
  after(async () => {
    child?.stdin.end();
    await new Promise((r) => child?.once('exit', r));
    await fake?.close();
  });

  it('the table has at least 100 cases and covers all 14 tools', () => {
    assert.ok(CASES.length >= 100, `${CASES.length} cases`);
    assert.deepEqual([...new Set(CASES.map((c) => c.tool))].sort(), [...TOOL_NAMES].sort());
  });

  it('every malformed input gives isError naming the field, without structuredContent, and 0 upstream requests', async () => {
    const failures: string[] = [];
    for (const c of CASES) {
      const argsJson = typeof c.args === 'string' ? c.args : JSON.stringify(c.args);
      const msg = await client.request('tools/call', `{"name":${JSON.stringify(c.tool)},"arguments":${argsJson}}`);
      const label = `${c.tool} — ${c.why}`;
      if (msg.error) {
        failures.push(`${label}: JSON-RPC error ${msg.error.code} ${msg.error.message}`);
        continue;
      }
      const result = msg.result;
      const text: string = result?.content?.[0]?.text ?? '';
      if (result?.isError !== true) failures.push(`${label}: not isError (${text.slice(0, 120)})`);
      if (result?.structuredContent !== undefined) failures.push(`${label}: has structuredContent`);
      let message = text;
      if (c.tool.startsWith('jev_')) {
        try {
          const err = JSON.parse(text).error;
          message = err.message;
          if (!['INVALID_INPUT', 'INPUT_TOO_LARGE'].includes(err.code)) failures.push(`${label}: code ${err.code}`);
          if (err.retryable !== false) failures.push(`${label}: retryable ${err.retryable}`);
        } catch {
          failures.push(`${label}: jev error text is not {"error":…} JSON: ${text.slice(0, 120)}`);
        }
      }
      if (!c.field.test(message)) failures.push(`${label}: message does not name the field (${c.field}): ${message.slice(0, 160)}`);
    }
    assert.deepEqual(failures, []);
    assert.equal(fake.count(), 0, 'no malformed input reached the upstream');
  });

  it('the same server still answers a valid call afterwards (and that one does reach the upstream)', async () => {
    const msg = await client.request('tools/call', JSON.stringify({ name: 'jev_step', arguments: VALID_INPUTS.jev_step }));
    assert.notEqual(msg.result.isError, true, msg.result.content?.[0]?.text);
    assert.equal(fake.count(), 1);
  });
});
