// Every assert.ok carries a message: without one, node's assert re-parses the (transpiled, one-line) source
// to describe the failure, which can take minutes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { answerAll, choice, noul, score } from '../helpers/fake-systemone';
import { JevError } from '../../src/judgment/errors';
import { TRUNCATION_MARKER, localCoverage } from '../../src/judgment/budget';
import type { Answer, Coverage, Judged, QuestionMap, SystemOneRequest } from '../../src/judgment/types';
import { validateResponse } from '../../src/judgment/validate';
import { confidenceFromProbabilities } from '../../src/policy/distribution';
import type { JudgmentProvider } from '../../src/judgment/provider';
import { JudgmentService, type CallOutcome } from '../../src/tools/judgment-service';
import type { Floors } from '../../src/policy/thresholds';
import {
  argumentShape,
  eligibilityReasons,
  partitionCandidates,
  sanitizeDescription,
  type Candidate,
} from '../../src/tools/candidates';
import { codingLoopQuestions, decideCodingLoop, jevCodingLoopTool, type CodingLoopInput } from '../../src/tools/jev-coding-loop';
import { decideToolRoute, jevToolRouteTool, toolRouteQuestions, type ToolRouteInput } from '../../src/tools/jev-tool-route';
import { decideStep, jevStepTool, stepQuestions, type StepInput } from '../../src/tools/jev-step';
import { decideEvaluate, jevEvaluateTool, type EvaluateInput } from '../../src/tools/jev-evaluate';

// ---------------------------------------------------------------------------------------------------
// Scripted answers

const FLOORS: Floors = { auto_accept: 0.8, review_at: 0.5, block_at: 0.75 };

/** Choice over `options` with `peak` on `pick`, the rest even; confidence from the distribution unless given. */
function pickOf(options: string[], pick: string, peak: number, confidence?: number): Answer {
  const rest = (1 - peak) / (options.length - 1);
  const probabilities = Object.fromEntries(options.map((o) => [o, o === pick ? peak : rest]));
  return choice(pick, confidence ?? confidenceFromProbabilities(probabilities), probabilities);
}
const NEXT = ['continue', 'retry', 'ask_user', 'stop'];
const TIERS = ['cheap', 'standard', 'reasoning'];

/** Coding-loop answers under which every partner check passes at the default floors. */
function loopAnswers(over: Record<string, Answer> = {}): Record<string, Answer> {
  return {
    next: pickOf(NEXT, 'continue', 0.97),
    model_tier: pickOf(TIERS, 'standard', 0.97),
    focus: pickOf(['edit', 'search', 'test', 'read', 'plan'], 'edit', 0.9),
    risk: score(3, [0.95, 0.04, 0.01], 0.925),
    done_enough: noul(0.2),
    needs_more_context: noul(0.05),
    needs_generation: noul(0.95),
    tests_likely_fail: noul(0.3),
    ...over,
  };
}

/** `selected` over none + n calls, with `peak` on `pick`. */
function selected(n: number, pick: number | 'none', peak = 0.97, confidence?: number): Answer {
  const options = ['none', ...Array.from({ length: n }, (_, i) => `call_${i}`)];
  return pickOf(options, pick === 'none' ? 'none' : `call_${pick}`, peak, confidence);
}

/** Suitability answers for n calls, all `p` unless overridden. */
function suitable(n: number, p = 0.95, over: Record<number, number> = {}): Record<string, Answer> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`suitable_${i}`, noul(over[i] ?? p)]));
}

const COVERAGE: Coverage = {
  complete: true,
  original_chars: 100,
  evaluated_chars: 100,
  estimated_tokens: { state: 25, questions: 300, longest_question: 80 },
  estimator: 'chars/4',
};

/** A Judged for `questions`: overrides on top of well-formed defaults, validated like a live response. */
function judgedOf(questions: QuestionMap, overrides: Record<string, Answer>, opts: { truncated?: boolean; model?: string } = {}): Judged {
  const response = validateResponse(questions, answerAll(questions, overrides, { model: opts.model ?? 'jev-test-1' }));
  const truncated = opts.truncated ?? false;
  return { response, truncated, coverage: truncated ? { ...COVERAGE, complete: false, evaluated_chars: 40 } : { ...COVERAGE } };
}

function cand(id: string, over: Partial<Candidate> = {}): Candidate {
  return {
    id,
    name: 'read_file',
    arguments: { path: `src/${id}.ts` },
    description: `Read ${id}`,
    effect: 'read_only',
    authorized: true,
    schema_valid: true,
    preconditions_met: true,
    ...over,
  };
}

// ---------------------------------------------------------------------------------------------------
// A provider stub for JudgmentService runs (HTTP tests come with the fake server)

class StubProvider implements JudgmentProvider {
  readonly id = 'stub';
  readonly calibrated = true;
  readonly requests: SystemOneRequest[] = [];
  constructor(private readonly answers: (req: SystemOneRequest) => Record<string, Answer> = () => ({})) {}
  async systemOne(request: SystemOneRequest): Promise<unknown> {
    this.requests.push(JSON.parse(JSON.stringify(request)));
    return answerAll(request.questions, this.answers(request), { model: `${request.model}+stub` });
  }
}

/** Answers the loop as `loopAnswers` and any selection as "first call, confident and suitable". */
function routingAnswers(extra: Record<string, Answer> = {}) {
  return (req: SystemOneRequest) => {
    const n = Object.keys(req.questions).filter((k) => k.startsWith('suitable_')).length;
    return { ...loopAnswers(), ...(n ? { selected: selected(n, 0), ...suitable(n) } : {}), ...extra };
  };
}

function serviceWith(provider: JudgmentProvider, floors: Floors = FLOORS) {
  return new JudgmentService({ provider, floors, model: 'jev-latest', tools: [jevCodingLoopTool, jevToolRouteTool, jevStepTool, jevEvaluateTool] });
}

function okResult(outcome: CallOutcome): any {
  if (!outcome.ok) assert.fail(`expected success, got ${outcome.error.code}: ${outcome.error.message}`);
  return outcome.result;
}
function errorOf(outcome: CallOutcome): JevError {
  if (outcome.ok) assert.fail('expected an error');
  return outcome.error;
}
const isCode = (code: string, includes?: string) => (e: unknown) =>
  e instanceof JevError && e.code === code && (includes === undefined || e.message.includes(includes));

// ---------------------------------------------------------------------------------------------------

describe('candidates: eligibility, sanitizing, argument shape', () => {
  it('reports every exclusion reason in the fixed order', () => {
    const c = cand('x', { authorized: false, schema_valid: undefined, preconditions_met: false, failed_attempts: 2, effect: 'unknown' });
    assert.deepEqual(eligibilityReasons(c), ['not_authorized', 'arguments_not_validated', 'preconditions_not_met', 'retry_budget_exhausted', 'unknown_effect']);
  });
  it('needs each trusted flag explicitly true; one failure is still eligible, two are not', () => {
    assert.deepEqual(eligibilityReasons(cand('a', { authorized: undefined })), ['not_authorized']);
    assert.deepEqual(eligibilityReasons(cand('a', { preconditions_met: undefined })), ['preconditions_not_met']);
    assert.deepEqual(eligibilityReasons(cand('a', { failed_attempts: 1 })), []);
    assert.deepEqual(eligibilityReasons(cand('a', { failed_attempts: 2 })), ['retry_budget_exhausted']);
    const { eligible, blocked } = partitionCandidates([cand('a'), cand('b', { effect: 'unknown' }), cand('c')]);
    assert.deepEqual(eligible.map((c) => c.id), ['a', 'c']);
    assert.deepEqual(blocked, [{ id: 'b', reason_codes: ['unknown_effect'] }]);
  });
  it('sanitizes descriptions: control characters, whitespace runs, trim', () => {
    assert.deepEqual(sanitizeDescription('  Read\u0000the\n\n\tfile\u007f now  '), { text: 'Read the file now', clipped: false });
  });
  it('caps descriptions at 2 000 units including the marker; clipped only past the cap after normalizing', () => {
    const exact = sanitizeDescription('a'.repeat(2000));
    assert.equal(exact.text.length, 2000);
    assert.equal(exact.clipped, false);
    const over = sanitizeDescription('a'.repeat(2001));
    assert.equal(over.text.length, 2000);
    assert.ok(over.text.endsWith(TRUNCATION_MARKER), 'a clipped description ends with the marker');
    assert.equal(over.clipped, true);
    // 3 000 characters that collapse to 1 999 are not clipped.
    const spaced = sanitizeDescription('a  '.repeat(1000));
    assert.equal(spaced.text.length, 1999);
    assert.equal(spaced.clipped, false);
  });
  it('describes objects by keys only: first 32 (cut to 128), a count of the rest, no values', () => {
    const args: Record<string, unknown> = { token: 'sk-SECRET-VALUE' };
    for (let i = 0; i < 40; i++) args[`k${i}`] = i;
    args['x'.repeat(300)] = 1;
    const shape = argumentShape(args) as { type: string; keys: string[]; extra_keys: number };
    assert.equal(shape.type, 'object');
    assert.equal(shape.keys.length, 32);
    assert.equal(shape.keys[0], 'token');
    assert.equal(shape.extra_keys, 42 - 32);
    assert.ok(!JSON.stringify(shape).includes('sk-SECRET-VALUE'), 'the shape holds no values');
    assert.equal((argumentShape({ ['y'.repeat(300)]: 1 }) as { keys: string[] }).keys[0]!.length, 128);
    assert.equal(argumentShape(null), 'null');
    assert.deepEqual(argumentShape('s'), { type: 'string' });
  });
  it('deduplicates array item shapes structurally, not by identity', () => {
    const shape = argumentShape([{ a: 1 }, { a: 2 }, { b: 1 }, { a: 3 }, 'x', 'y']);
    assert.deepEqual(shape, {
      type: 'array',
      length: 6,
      item_types: [{ type: 'object', keys: ['a'], extra_keys: 0 }, { type: 'object', keys: ['b'], extra_keys: 0 }, { type: 'string' }],
    });
  });
  it('inspects 16 items, keeps 8 distinct shapes, and stops at depth 3', () => {
    const many = Array.from({ length: 20 }, (_, i) => ({ [`k${i}`]: i }));
    const shape = argumentShape(many) as { item_types: { keys: string[] }[]; length: number };
    assert.equal(shape.length, 20);
    assert.deepEqual(shape.item_types.map((t) => t.keys[0]), ['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7']);
    assert.deepEqual(argumentShape([[[[1]]]]), {
      type: 'array',
      length: 1,
      item_types: [{ type: 'array', length: 1, item_types: [{ type: 'array', length: 1, item_types: [{ type: 'array' }] }] }],
    });
  });
});

// ---------------------------------------------------------------------------------------------------

describe('parsing: candidate envelope, __proto__, limits, thresholds', () => {
  const route = (candidates: unknown[], extra: Record<string, unknown> = {}) => ({ task: 't', observation: 'o', candidates, ...extra });

  it('rejects own __proto__ keys at depth with the exact path, before anything else', () => {
    const raw = JSON.parse('{"task":"t","observation":"o","candidates":[{"id":"a","name":"n","arguments":{"a":{"__proto__":{"x":1}}},"description":"d","effect":"read_only"}]}');
    assert.throws(() => jevToolRouteTool.parse(raw, FLOORS), isCode('INVALID_INPUT', 'candidates[0].arguments.a.__proto__: own "__proto__" keys are rejected'));
    assert.throws(() => jevStepTool.parse(raw, FLOORS), isCode('INVALID_INPUT', 'candidates[0].arguments.a.__proto__'));
  });
  it('finds __proto__ inside arrays and in extras', () => {
    const inArray = JSON.parse('{"task":"t","observation":"o","candidates":[{"id":"a","name":"n","arguments":{"list":[1,{"__proto__":null}]},"description":"d","effect":"read_only"}]}');
    assert.throws(() => jevToolRouteTool.parse(inArray, FLOORS), isCode('INVALID_INPUT', 'candidates[0].arguments.list[1].__proto__'));
    const extras = JSON.parse('{"task":"t","observation":"o","extras":{"deep":{"__proto__":{}}}}');
    assert.throws(() => jevCodingLoopTool.parse(extras, FLOORS), isCode('INVALID_INPUT', 'extras.deep.__proto__'));
  });
  it('accepts an id, a name or a value spelled "__proto__", and leaves the caller object untouched', () => {
    const raw = route([{ ...cand('__proto__'), description: 'touches __proto__', arguments: { key: '__proto__' } }]);
    const before = JSON.stringify(raw);
    const parsed = jevToolRouteTool.parse(raw, FLOORS);
    assert.equal(parsed.candidates[0]!.id, '__proto__');
    assert.equal(JSON.stringify(raw), before);
  });
  it('33 candidates → INPUT_TOO_LARGE naming candidates and the limit, even with other faults', () => {
    const many = Array.from({ length: 33 }, (_, i) => cand(`c${i}`));
    assert.throws(() => jevToolRouteTool.parse(route(many), FLOORS), isCode('INPUT_TOO_LARGE', 'candidates: at most 32'));
    const faulty = [...many.slice(0, 32), { id: '' }];
    assert.throws(() => jevStepTool.parse({ task: 't', observation: 'o', candidates: faulty }, FLOORS), isCode('INPUT_TOO_LARGE', '32'));
    assert.doesNotThrow(() => jevToolRouteTool.parse(route(many.slice(0, 32)), FLOORS));
  });
  it('rejects duplicate ids naming the duplicate', () => {
    assert.throws(
      () => jevToolRouteTool.parse(route([cand('a'), cand('b'), cand('a')]), FLOORS),
      isCode('INVALID_INPUT', 'candidates[2].id: duplicate candidate id "a" (already used by candidates[0])'),
    );
    assert.throws(() => jevStepTool.parse({ task: 't', observation: 'o', candidates: [cand('z'), cand('z')] }, FLOORS), isCode('INVALID_INPUT', '"z"'));
  });
  it('arguments must be a JSON object of finite, plain values', () => {
    const bad: [unknown, string][] = [
      [[1, 2], 'candidates[0].arguments: must be a JSON object'],
      [null, 'candidates[0].arguments: must be a JSON object'],
      [{ n: Infinity }, 'candidates[0].arguments.n: numbers must be finite'],
      [{ list: [1, NaN] }, 'candidates[0].arguments.list[1]: numbers must be finite'],
      [{ u: undefined }, 'candidates[0].arguments.u: undefined is not a JSON value'],
      [{ d: new Date(0) }, 'candidates[0].arguments.d: must be a plain JSON object'],
    ];
    for (const [args, message] of bad) {
      assert.throws(() => jevToolRouteTool.parse(route([{ ...cand('a'), arguments: args }]), FLOORS), isCode('INVALID_INPUT', message), message);
    }
  });
  it('closed objects and field rules name the field', () => {
    assert.throws(() => jevToolRouteTool.parse(route([{ ...cand('a'), extra: 1 }]), FLOORS), isCode('INVALID_INPUT', 'unknown field extra'));
    assert.throws(() => jevToolRouteTool.parse(route([], { verbose: true }), FLOORS), isCode('INVALID_INPUT', 'verbose'));
    assert.throws(() => jevToolRouteTool.parse(route([{ ...cand('a'), name: '   ' }]), FLOORS), isCode('INVALID_INPUT', 'candidates[0].name: must not be blank'));
    assert.throws(() => jevToolRouteTool.parse(route([{ ...cand('a'), effect: 'network' }]), FLOORS), isCode('INVALID_INPUT', 'candidates[0].effect'));
    assert.throws(() => jevToolRouteTool.parse(route([{ ...cand('a'), id: '' }]), FLOORS), isCode('INVALID_INPUT', 'candidates[0].id'));
    assert.throws(() => jevToolRouteTool.parse({ task: '', observation: 'o', candidates: [] }, FLOORS), isCode('INVALID_INPUT', 'task'));
    for (const n of [-1, 1.5, Infinity]) {
      assert.throws(() => jevCodingLoopTool.parse({ task: 't', observation: 'o', execution: { failed_attempts: n } }, FLOORS), isCode('INVALID_INPUT', 'execution.failed_attempts'));
      assert.throws(() => jevToolRouteTool.parse(route([{ ...cand('a'), failed_attempts: n }]), FLOORS), isCode('INVALID_INPUT', 'candidates[0].failed_attempts'));
    }
    assert.throws(() => jevCodingLoopTool.parse({ task: 't', observation: 'o', execution: { trusted: true } }, FLOORS), isCode('INVALID_INPUT', 'unknown field trusted'));
  });
  it('thresholds: inverted caller pair and review above env auto → INVALID_INPUT; out of range rejected', () => {
    for (const tool of [jevCodingLoopTool, jevStepTool, jevToolRouteTool]) {
      const base = tool === jevToolRouteTool ? route([]) : { task: 't', observation: 'o' };
      assert.throws(() => tool.parse({ ...base, auto_accept: 0.6, review_at: 0.7 }, FLOORS), isCode('INVALID_INPUT', 'review_at'), tool.name);
      assert.throws(() => tool.parse({ ...base, review_at: 0.9 }, FLOORS), isCode('INVALID_INPUT', 'review_at'), tool.name);
      assert.throws(() => tool.parse({ ...base, auto_accept: 1.2 }, FLOORS), isCode('INVALID_INPUT', 'auto_accept'), tool.name);
      assert.doesNotThrow(() => tool.parse({ ...base, auto_accept: 0.5, review_at: 0.4 }, FLOORS), tool.name);
    }
  });
  it('no validation failure reaches the provider', async () => {
    const provider = new StubProvider(routingAnswers());
    const svc = serviceWith(provider);
    const fails = [
      ['jev_tool_route', route(Array.from({ length: 33 }, (_, i) => cand(`c${i}`)))],
      ['jev_step', { task: 't', observation: 'o', candidates: [cand('a'), cand('a')] }],
      ['jev_step', { task: 't', observation: 'o', auto_accept: 0.6, review_at: 0.7 }],
      ['jev_coding_loop', { task: 't', observation: 'o', review_at: 0.9 }],
      ['jev_evaluate', { state: 's', questions: {} }],
    ] as const;
    const codes = [];
    for (const [tool, args] of fails) codes.push(errorOf(await svc.call(tool, args)).code);
    assert.deepEqual(codes, ['INPUT_TOO_LARGE', 'INVALID_INPUT', 'INVALID_INPUT', 'INVALID_INPUT', 'INVALID_INPUT']);
    assert.equal(provider.requests.length, 0);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('jev_tool_route: decideToolRoute', () => {
  const input = (candidates: Candidate[], extra: Partial<ToolRouteInput> = {}): ToolRouteInput => ({ task: 'fix parser', observation: 'o', candidates, ...extra });
  const judgedFor = (n: number, over: Record<string, Answer> = {}, opts?: { truncated?: boolean }) =>
    judgedOf(toolRouteQuestions(n), { selected: selected(n, 0), ...suitable(n), ...over }, opts);

  it('dispatches a confident, suitable read_only call with its exact arguments', () => {
    const args = { path: 'src/parser.ts', options: { lines: [1, 2] } };
    const c = cand('read-parser', { arguments: args });
    const r = decideToolRoute(input([c]), judgedFor(1), FLOORS);
    assert.equal(r.action, 'auto');
    assert.equal(r.handoff, 'execute_tool');
    assert.deepEqual(r.call, { candidate_id: 'read-parser', name: 'read_file', arguments: args });
    assert.equal(r.call!.arguments.options, args.options);
    assert.deepEqual(r.reason_codes, ['accepted']);
    assert.deepEqual(r.partner_model, { required: false, tier: 'none' });
    assert.deepEqual(r.thresholds, { auto_accept: 0.8, review_at: 0.5, dispatch_at: 0.8 });
    assert.deepEqual(r.selection, { id: 'read-parser', confidence: r.selection!.confidence, suitability: 0.95 });
    assert.equal(r.model, 'jev-test-1');
  });
  it('maps call_i to the i-th ELIGIBLE candidate (blocked ones are skipped)', () => {
    const r = decideToolRoute(input([cand('a'), cand('b', { authorized: false }), cand('c')]), judgedFor(2, { selected: selected(2, 1) }), FLOORS);
    assert.equal(r.call?.candidate_id, 'c');
    assert.deepEqual(r.blocked_candidates, [{ id: 'b', reason_codes: ['not_authorized'] }]);
  });
  it('a high reported confidence over a flat distribution does not dispatch; the reported value is kept', () => {
    const flat = choice('call_0', 0.99, { none: 0.3, call_0: 0.4, call_1: 0.3 });
    const r = decideToolRoute(input([cand('a'), cand('b')]), judgedFor(2, { selected: flat }), FLOORS);
    assert.deepEqual(r.reason_codes, ['selection_uncertain']);
    assert.equal(r.action, 'review');
    assert.equal(r.handoff, 'gather_context');
    assert.equal(r.call, null);
    assert.equal(r.selection!.confidence, 0.99);
  });
  it('boundaries are inclusive: confidence and suitability exactly at the floor dispatch', () => {
    const exact = choice('call_0', 0.8, { none: 0.1, call_0: 0.9 });
    const r = decideToolRoute(input([cand('a')]), judgedFor(1, { selected: exact, suitable_0: noul(0.8) }), FLOORS);
    assert.equal(r.action, 'auto');
    const under = decideToolRoute(input([cand('a')]), judgedFor(1, { selected: exact, suitable_0: noul(0.79) }), FLOORS);
    assert.deepEqual(under.reason_codes, ['suitability_uncertain']);
    assert.equal(under.action, 'review');
  });
  it('a confident none is no_suitable_call with gather_context', () => {
    const r = decideToolRoute(input([cand('a')]), judgedFor(1, { selected: selected(1, 'none') }), FLOORS);
    assert.deepEqual(r.reason_codes, ['no_suitable_call']);
    assert.deepEqual(r.selection, { id: null, confidence: r.selection!.confidence, suitability: null });
    assert.equal(r.handoff, 'gather_context');
    assert.equal(r.action, 'review');
  });
  it('external_write and destructive calls need review even when confident and authorized', () => {
    for (const effect of ['external_write', 'destructive'] as const) {
      const r = decideToolRoute(input([cand('push', { effect })]), judgedFor(1), FLOORS);
      assert.deepEqual(r.reason_codes, ['effect_requires_review']);
      assert.equal(r.handoff, 'review');
      assert.equal(r.action, 'review');
      assert.equal(r.call, null);
    }
    assert.equal(decideToolRoute(input([cand('w', { effect: 'local_write' })]), judgedFor(1), FLOORS).action, 'auto');
  });
  it('escalates when selection confidence or the selected suitability is below review_at', () => {
    const weak = decideToolRoute(input([cand('a')]), judgedFor(1, { selected: choice('call_0', 0.4, { none: 0.3, call_0: 0.7 }) }), FLOORS);
    assert.equal(weak.action, 'escalate');
    assert.equal(weak.handoff, 'gather_context');
    const unsuitable = decideToolRoute(input([cand('a')]), judgedFor(1, { suitable_0: noul(0.3) }), FLOORS);
    assert.equal(unsuitable.action, 'escalate');
    assert.deepEqual(unsuitable.reason_codes, ['suitability_uncertain']);
  });
  it('incomplete context blocks dispatch: truncated state, or a clipped description', () => {
    const cut = decideToolRoute(input([cand('a')]), judgedFor(1, {}, { truncated: true }), FLOORS);
    assert.deepEqual(cut.reason_codes, ['incomplete_context']);
    assert.equal(cut.action, 'review');
    const clipped = decideToolRoute(input([cand('a', { description: 'x'.repeat(2001) })]), judgedFor(1), FLOORS);
    assert.deepEqual(clipped.reason_codes, ['incomplete_context']);
    assert.equal(clipped.coverage.complete, false);
    assert.equal(clipped.call, null);
  });
  it('per-call thresholds only raise: 0.9 raises the dispatch floor, 0.5 under the env floor is ignored', () => {
    const sel085 = choice('call_0', 0.85, { none: 0.04, call_0: 0.96 });
    const raised = decideToolRoute(input([cand('a')], { auto_accept: 0.9 }), judgedFor(1, { selected: sel085 }), FLOORS);
    assert.deepEqual(raised.thresholds, { auto_accept: 0.9, review_at: 0.5, dispatch_at: 0.9 });
    assert.deepEqual(raised.reason_codes, ['selection_uncertain']);
    const ignored = decideToolRoute(input([cand('a')], { auto_accept: 0.5 }), judgedFor(1, { selected: sel085 }), FLOORS);
    assert.deepEqual(ignored.thresholds, { auto_accept: 0.8, review_at: 0.5, dispatch_at: 0.8 });
    assert.equal(ignored.action, 'auto');
    // A lower environment auto_accept never lowers the dispatch floor below 0.8.
    const lowEnv = decideToolRoute(input([cand('a')]), judgedFor(1, { selected: choice('call_0', 0.75, { none: 0.1, call_0: 0.9 }) }), { ...FLOORS, auto_accept: 0.6 });
    assert.deepEqual(lowEnv.thresholds, { auto_accept: 0.6, review_at: 0.5, dispatch_at: 0.8 });
    assert.deepEqual(lowEnv.reason_codes, ['selection_uncertain']);
  });
  it('empty and wholly ineligible lists are decided locally', () => {
    const empty = decideToolRoute(input([]), null, FLOORS);
    assert.deepEqual(empty, {
      model: 'local-policy',
      usage: { input_tokens: 0, output_tokens: 0 },
      truncated: false,
      coverage: localCoverage(),
      action: 'review',
      handoff: 'gather_context',
      partner_model: { required: false, tier: 'none' },
      call: null,
      selection: null,
      blocked_candidates: [],
      reason_codes: ['no_candidates'],
      thresholds: { auto_accept: 0.8, review_at: 0.5, dispatch_at: 0.8 },
    });
    const blocked = decideToolRoute(input([cand('a', { schema_valid: false }), cand('b', { effect: 'unknown', failed_attempts: 3 })]), null, FLOORS);
    assert.equal(blocked.handoff, 'review');
    assert.deepEqual(blocked.reason_codes, ['no_eligible_candidates']);
    assert.deepEqual(blocked.blocked_candidates, [
      { id: 'a', reason_codes: ['arguments_not_validated'] },
      { id: 'b', reason_codes: ['retry_budget_exhausted', 'unknown_effect'] },
    ]);
  });
  it('never reads a missing or unknown selection as none', () => {
    assert.throws(() => decideToolRoute(input([cand('a')]), null, FLOORS), isCode('INVALID_RESPONSE'));
    const forged: Judged = {
      response: { model: 'm', usage: { input_tokens: 1, output_tokens: 1 }, answers: { selected: choice('call_5', 0.99, { none: 0, call_0: 0, call_5: 1 }), suitable_0: noul(0.9) } },
      coverage: COVERAGE,
      truncated: false,
    };
    assert.throws(() => decideToolRoute(input([cand('a')]), forged, FLOORS), isCode('INVALID_RESPONSE', 'call_5'));
  });
});

describe('jev_tool_route: through JudgmentService', () => {
  it('sends only the redacted projection of eligible candidates; returns the exact original call', async () => {
    const provider = new StubProvider(routingAnswers({ selected: selected(2, 1) }));
    const secretArgs = { path: 'notes/secret.txt', token: 'sk-SECRET-123', nested: { pin: 424242, list: ['hunter2'] } };
    const args = {
      task: 'Inspect the parser',
      observation: 'not read yet',
      candidates: [
        cand('read-parser', { description: 'Read\nthe  parser\u0000file' }),
        cand('blocked', { authorized: false, arguments: { password: 'blocked-secret' } }),
        cand('read-secret', { arguments: secretArgs }),
      ],
    };
    const r = okResult(await serviceWith(provider).call('jev_tool_route', args));
    assert.equal(provider.requests.length, 1);
    const req = provider.requests[0]!;
    const wire = JSON.stringify(req);
    for (const secret of ['sk-SECRET-123', '424242', 'hunter2', 'blocked-secret', 'notes/secret.txt', 'src/read-parser.ts']) {
      assert.ok(!wire.includes(secret), `upstream request leaks ${secret}`);
    }
    const state = req.state as { candidates: Record<string, unknown>[] };
    assert.deepEqual(state.candidates.map((c) => Object.keys(c).sort()), [
      ['argument_shape', 'description', 'effect', 'id', 'name'],
      ['argument_shape', 'description', 'effect', 'id', 'name'],
    ]);
    assert.deepEqual(state.candidates.map((c) => c.id), ['read-parser', 'read-secret']);
    assert.equal(state.candidates[0]!.description, 'Read the parser file');
    assert.deepEqual(state.candidates[1]!.argument_shape, { type: 'object', keys: ['path', 'token', 'nested'], extra_keys: 0 });
    // The pack: selected (none first) + one independent suitability per eligible call.
    assert.deepEqual(Object.keys(req.questions), ['selected', 'suitable_0', 'suitable_1']);
    assert.deepEqual(Object.keys((req.questions.selected as { criteria: object }).criteria), ['none', 'call_0', 'call_1']);
    for (const i of [0, 1]) {
      const text = req.questions[`suitable_${i}`]!.instructions;
      assert.ok(text.includes(`state.candidates[${i}]`) && text.includes('independent'), `suitable_${i} names its candidate and independence`);
    }
    assert.equal(req.model, 'jev-latest');
    // Accepted: the exact original arguments, untouched.
    assert.equal(r.action, 'auto');
    assert.deepEqual(r.call, { candidate_id: 'read-secret', name: 'read_file', arguments: secretArgs });
    assert.equal(r.model, 'jev-latest+stub');
  });
  it('makes no request without eligible candidates and answers from local policy', async () => {
    const provider = new StubProvider();
    const svc = serviceWith(provider);
    const empty = okResult(await svc.call('jev_tool_route', { task: 't', observation: 'o', candidates: [] }));
    const blocked = okResult(await svc.call('jev_tool_route', { task: 't', observation: 'o', candidates: [cand('a', { preconditions_met: false })] }));
    assert.equal(provider.requests.length, 0);
    assert.equal(empty.model, 'local-policy');
    assert.deepEqual(empty.usage, { input_tokens: 0, output_tokens: 0 });
    assert.deepEqual(empty.coverage, localCoverage());
    assert.equal(blocked.handoff, 'review');
    assert.equal(blocked.action, 'review');
  });
  it('uses the per-call model override', async () => {
    const provider = new StubProvider(routingAnswers());
    await serviceWith(provider).call('jev_tool_route', { task: 't', observation: 'o', candidates: [cand('a')], model: '  jev-mini ' });
    assert.equal(provider.requests[0]!.model, 'jev-mini');
  });
});

// ---------------------------------------------------------------------------------------------------

describe('jev_coding_loop', () => {
  it('packs the eight questions with the fixed option orders', () => {
    const q = codingLoopQuestions();
    assert.deepEqual(Object.keys(q).sort(), ['done_enough', 'focus', 'model_tier', 'needs_generation', 'needs_more_context', 'next', 'risk', 'tests_likely_fail']);
    assert.deepEqual(Object.keys((q.model_tier as { criteria: object }).criteria), ['cheap', 'standard', 'reasoning']);
    assert.deepEqual(Object.keys((q.next as { criteria: object }).criteria), ['continue', 'retry', 'ask_user', 'stop']);
    assert.deepEqual(Object.keys((q.focus as { criteria: object }).criteria), ['edit', 'search', 'test', 'read', 'plan']);
    assert.equal(q.needs_generation!.type, 'noul');
    assert.equal(q.risk!.type, 'score');
    assert.equal((q.risk as { criteria: string[] }).criteria.length, 3);
  });
  it('routes to a partner when every check passes, reporting every signal', async () => {
    const provider = new StubProvider(() => loopAnswers());
    const r = okResult(
      await serviceWith(provider).call('jev_coding_loop', {
        task: 'Implement the cache',
        observation: 'design agreed',
        extras: { branch: 'main' },
        execution: { context_complete: true },
      }),
    );
    assert.equal(provider.requests.length, 1);
    assert.deepEqual(provider.requests[0]!.state, {
      task: 'Implement the cache',
      execution: { prepared_tool_call: false, context_complete: true, failed_attempts: 0 },
      observation: 'design agreed',
      extras: { branch: 'main' },
    });
    assert.deepEqual(Object.keys(r).sort(), [
      'action', 'coverage', 'done_enough', 'focus', 'handoff', 'model', 'model_tier', 'needs_generation', 'needs_more_context',
      'next', 'partner_model', 'risk', 'tests_likely_fail', 'thresholds', 'truncated', 'usage',
    ]);
    assert.equal(r.action, 'auto');
    assert.equal(r.handoff, 'partner_model');
    assert.deepEqual(r.partner_model, { required: true, tier: 'standard', reason_codes: ['generation_required'] });
    assert.deepEqual(r.thresholds, { auto_accept: 0.8, review_at: 0.5, partner_auto_accept: 0.8 });
    assert.equal(r.next.choice, 'continue');
    assert.equal(r.needs_generation, 0.95);
    assert.equal(r.risk.legend['0'], 'level 0');
  });
  it('without host context_complete it gathers context instead of buying a partner turn', async () => {
    const r = okResult(await serviceWith(new StubProvider(() => loopAnswers())).call('jev_coding_loop', { task: 't', observation: 'o' }));
    assert.equal(r.handoff, 'gather_context');
    assert.deepEqual(r.partner_model, { required: false, tier: 'none', reason_codes: ['host_context_incomplete'] });
  });
  it('tightens per call: 0.9 raises the partner floor, 0.5 below the env floor is ignored', () => {
    const input: CodingLoopInput = { task: 't', observation: 'o', execution: { context_complete: true }, auto_accept: 0.9 };
    const judged = judgedOf(codingLoopQuestions(), loopAnswers({ model_tier: pickOf(TIERS, 'standard', 0.9) })); // tier confidence 0.85
    const raised = decideCodingLoop(input, judged, FLOORS);
    assert.deepEqual(raised.thresholds, { auto_accept: 0.9, review_at: 0.5, partner_auto_accept: 0.9 });
    assert.deepEqual(raised.partner_model.reason_codes, ['model_tier_uncertain']);
    const ignored = decideCodingLoop({ ...input, auto_accept: 0.5 }, judged, FLOORS);
    assert.deepEqual(ignored.thresholds, { auto_accept: 0.8, review_at: 0.5, partner_auto_accept: 0.8 });
    assert.equal(ignored.partner_model.required, true);
  });
  it('a flat next distribution with a high reported confidence is not auto', () => {
    const flat = choice('continue', 0.99, { continue: 0.3, retry: 0.3, ask_user: 0.2, stop: 0.2 });
    const r = decideCodingLoop({ task: 't', observation: 'o', execution: { context_complete: true } }, judgedOf(codingLoopQuestions(), loopAnswers({ next: flat })), FLOORS);
    assert.equal(r.action, 'review');
    assert.equal(r.handoff, 'review');
    assert.equal(r.next.confidence, 0.99);
  });
  it('truncated context is never auto and gathers context', () => {
    const r = decideCodingLoop({ task: 't', observation: 'o', execution: { context_complete: true } }, judgedOf(codingLoopQuestions(), loopAnswers(), { truncated: true }), FLOORS);
    assert.equal(r.action, 'review');
    assert.deepEqual(r.partner_model.reason_codes, ['incomplete_context']);
    assert.equal(r.coverage.complete, false);
  });
  it('a missing answer fails instead of defaulting', () => {
    const judged = judgedOf(codingLoopQuestions(), loopAnswers());
    delete (judged.response.answers as Record<string, Answer>).needs_generation;
    assert.throws(() => decideCodingLoop({ task: 't', observation: 'o' }, judged, FLOORS), isCode('INVALID_RESPONSE', 'needs_generation'));
  });
});

// ---------------------------------------------------------------------------------------------------

describe('jev_step', () => {
  const stepInput = (extra: Partial<StepInput> = {}): StepInput => ({ task: 'Fix empty input', observation: 'o', execution: { context_complete: true }, ...extra });
  const stepJudged = (n: number, over: Record<string, Answer> = {}, opts?: { truncated?: boolean }) =>
    judgedOf(stepQuestions(n), { ...loopAnswers(), ...(n ? { selected: selected(n, 0), ...suitable(n) } : {}), ...over }, opts);

  it('makes exactly one request with no candidates, and the coding-loop routing stands', async () => {
    const provider = new StubProvider(routingAnswers());
    const r = okResult(await serviceWith(provider).call('jev_step', { task: 't', observation: 'o', execution: { context_complete: true, prepared_tool_call: true } }));
    assert.equal(provider.requests.length, 1);
    assert.deepEqual(Object.keys(provider.requests[0]!.questions).sort(), Object.keys(codingLoopQuestions()).sort());
    assert.deepEqual((provider.requests[0]!.state as { candidates: unknown[] }).candidates, []);
    // The host flag is ignored: no dispatchable candidate, so no use_tools.
    assert.equal(r.handoff, 'partner_model');
    assert.equal(r.partner_model.required, true);
    assert.deepEqual(r.reason_codes, ['no_candidates']);
    assert.equal(r.selection, null);
    assert.equal(r.action, 'auto');
  });
  it('asks one fused request over eligible candidates only', async () => {
    const provider = new StubProvider(routingAnswers());
    const r = okResult(
      await serviceWith(provider).call('jev_step', {
        task: 't',
        observation: 'o',
        candidates: [cand('a'), cand('b', { effect: 'unknown' }), cand('c', { arguments: { path: 'secret/path' } })],
      }),
    );
    assert.equal(provider.requests.length, 1);
    const req = provider.requests[0]!;
    assert.equal(Object.keys(req.questions).length, 8 + 3);
    assert.deepEqual((req.state as { candidates: { id: string }[] }).candidates.map((c) => c.id), ['a', 'c']);
    assert.ok(!JSON.stringify(req).includes('secret/path'), 'argument values never go upstream');
    assert.ok(!('prepared_tool_call' in (req.state as { execution: object }).execution), 'the host flag is not sent');
    assert.deepEqual(r.blocked_candidates, [{ id: 'b', reason_codes: ['unknown_effect'] }]);
    assert.deepEqual(Object.keys(r).sort(), [
      'action', 'blocked_candidates', 'call', 'coverage', 'done_enough', 'focus', 'handoff', 'model', 'model_tier', 'needs_generation',
      'needs_more_context', 'next', 'partner_model', 'reason_codes', 'risk', 'selection', 'tests_likely_fail', 'thresholds', 'truncated', 'usage',
    ]);
  });
  it('1. a dispatchable call executes, even before host context is complete', () => {
    const args = { path: 'src/parser.ts' };
    const r = decideStep(stepInput({ execution: { context_complete: false }, candidates: [cand('read', { arguments: args })] }), stepJudged(1), FLOORS);
    assert.equal(r.handoff, 'execute_tool');
    assert.deepEqual(r.call, { candidate_id: 'read', name: 'read_file', arguments: args });
    assert.equal(r.action, 'auto');
    assert.deepEqual(r.reason_codes, ['accepted']);
    assert.deepEqual(r.partner_model, { required: false, tier: 'none', reason_codes: ['prepared_tool_call'] });
    assert.deepEqual(r.thresholds, { auto_accept: 0.8, review_at: 0.5, dispatch_at: 0.8 });
  });
  it('2. stop, repeated failures and high risk outrank a dispatchable call', () => {
    const c = [cand('read')];
    const stop = decideStep(stepInput({ candidates: c }), stepJudged(1, { next: pickOf(NEXT, 'stop', 0.97), done_enough: noul(0.95) }), FLOORS);
    assert.equal(stop.handoff, 'stop');
    assert.equal(stop.call, null);
    assert.deepEqual(stop.reason_codes, ['routing_blocked_dispatch']);
    const failing = decideStep(stepInput({ candidates: c, execution: { context_complete: true, failed_attempts: 2 } }), stepJudged(1), FLOORS);
    assert.equal(failing.handoff, 'gather_context');
    assert.deepEqual(failing.partner_model.reason_codes, ['repeated_failures']);
    assert.deepEqual(failing.reason_codes, ['routing_blocked_dispatch']);
    const risky = decideStep(stepInput({ candidates: c }), stepJudged(1, { risk: score(3, [0.02, 0.03, 0.95], 0.925) }), FLOORS);
    assert.equal(risky.handoff, 'review');
    assert.equal(risky.action, 'review');
    assert.equal(risky.call, null);
    assert.deepEqual(risky.reason_codes, ['routing_blocked_dispatch']);
  });
  it('3. uncertain candidates do not buy a partner turn', () => {
    const r = decideStep(stepInput({ candidates: [cand('a')] }), stepJudged(1, { selected: choice('call_0', 0.6, { none: 0.2, call_0: 0.8 }) }), FLOORS);
    assert.equal(r.handoff, 'gather_context');
    assert.deepEqual(r.partner_model, { required: false, tier: 'none', reason_codes: ['prepared_candidates_declined'] });
    assert.equal(r.action, 'review');
    assert.deepEqual(r.reason_codes, ['selection_uncertain']);
    const unsure = decideStep(stepInput({ candidates: [cand('a')] }), stepJudged(1, { suitable_0: noul(0.7) }), FLOORS);
    assert.deepEqual(unsure.partner_model.reason_codes, ['prepared_candidates_declined']);
  });
  it('3. a selected external call the partner route would skip reports review', () => {
    const r = decideStep(stepInput({ candidates: [cand('deploy', { effect: 'external_write' })] }), stepJudged(1), FLOORS);
    assert.equal(r.handoff, 'review');
    assert.deepEqual(r.partner_model.reason_codes, ['prepared_candidates_declined']);
    assert.deepEqual(r.reason_codes, ['effect_requires_review']);
    assert.equal(r.action, 'review');
  });
  it('4. a selected destructive call turns gather_context into review; a stop still wins', () => {
    const gather = decideStep(stepInput({ execution: { context_complete: false }, candidates: [cand('rm', { effect: 'destructive' })] }), stepJudged(1), FLOORS);
    assert.deepEqual(gather.partner_model.reason_codes, ['host_context_incomplete']);
    assert.equal(gather.handoff, 'review');
    const stop = decideStep(
      stepInput({ candidates: [cand('rm', { effect: 'destructive' })] }),
      stepJudged(1, { next: pickOf(NEXT, 'stop', 0.97), done_enough: noul(0.95) }),
      FLOORS,
    );
    assert.equal(stop.handoff, 'stop');
  });
  it('5. all candidates blocked: gather_context becomes review; a partner request stands', () => {
    const blocked = [cand('a', { authorized: false })];
    const gather = decideStep(stepInput({ execution: { context_complete: false }, candidates: blocked }), stepJudged(0), FLOORS);
    assert.equal(gather.handoff, 'review');
    assert.deepEqual(gather.reason_codes, ['no_eligible_candidates']);
    assert.equal(gather.selection, null);
    const partner = decideStep(stepInput({ candidates: blocked }), stepJudged(0), FLOORS);
    assert.equal(partner.handoff, 'partner_model');
    assert.equal(partner.action, 'auto');
  });
  it('6. a confident none is a clean judgment: the partner turn stands and no code is added', () => {
    const r = decideStep(stepInput({ candidates: [cand('a'), cand('b')] }), stepJudged(2, { selected: selected(2, 'none') }), FLOORS);
    assert.equal(r.handoff, 'partner_model');
    assert.deepEqual(r.partner_model, { required: true, tier: 'standard', reason_codes: ['generation_required'] });
    assert.deepEqual(r.reason_codes, ['no_suitable_call']);
    assert.equal(r.action, 'auto');
    assert.deepEqual(r.selection, { id: null, confidence: r.selection!.confidence, suitability: null });
  });
  it('selection confidence below review_at escalates the step', () => {
    const r = decideStep(stepInput({ candidates: [cand('a')] }), stepJudged(1, { selected: choice('call_0', 0.3, { none: 0.35, call_0: 0.65 }) }), FLOORS);
    assert.equal(r.action, 'escalate');
    assert.equal(r.call, null);
  });
  it('a clipped description or a truncated state blocks dispatch as incomplete context', () => {
    const clipped = decideStep(stepInput({ candidates: [cand('a', { description: 'd'.repeat(2500) })] }), stepJudged(1), FLOORS);
    assert.deepEqual(clipped.reason_codes, ['incomplete_context']);
    assert.equal(clipped.coverage.complete, false);
    assert.equal(clipped.handoff, 'gather_context');
    assert.deepEqual(clipped.partner_model.reason_codes, ['incomplete_context']);
    assert.equal(clipped.action, 'review');
    const cut = decideStep(stepInput(), stepJudged(0, {}, { truncated: true }), FLOORS);
    assert.deepEqual(cut.reason_codes, ['incomplete_context', 'no_candidates']);
    assert.equal(cut.action, 'review');
  });
  it('tightening applies to the dispatch floor; an inverted pair fails before any request', async () => {
    const r = decideStep(stepInput({ auto_accept: 0.9, candidates: [cand('a')] }), stepJudged(1, { selected: choice('call_0', 0.85, { none: 0.04, call_0: 0.96 }) }), FLOORS);
    assert.deepEqual(r.thresholds, { auto_accept: 0.9, review_at: 0.5, dispatch_at: 0.9 });
    assert.equal(r.call, null);
    const provider = new StubProvider(routingAnswers());
    const err = errorOf(await serviceWith(provider).call('jev_step', { task: 't', observation: 'o', auto_accept: 0.7, review_at: 0.75 }));
    assert.equal(err.code, 'INVALID_INPUT');
    assert.equal(provider.requests.length, 0);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('jev_evaluate', () => {
  const questions = {
    urgent: { type: 'noul', instructions: 'Is this urgent?', criteria: { true: 'Time-sensitive', false: 'No hurry' } },
    team: { type: 'choice', instructions: 'Which team owns this?', criteria: { billing: 'Payments', technical: null } },
    severity: { type: 'score', instructions: 'How bad is it?', criteria: ['Low', 'Medium', 'High'] },
  } as const;

  it('validates the question map and the state', () => {
    const bad: [unknown, string, string][] = [
      [{ state: 's', questions: {} }, 'INVALID_INPUT', 'questions: must hold at least one question'],
      [{ state: 's', questions: { a: { type: 'choice', instructions: 'i', criteria: { x: 'y' } } } }, 'INVALID_INPUT', 'at least 2 options'],
      [{ state: 's', questions: { a: { type: 'score', instructions: 'i', criteria: ['only'] } } }, 'INVALID_INPUT', 'at least 2 levels'],
      [{ state: 's', questions: { a: { type: 'vote', instructions: 'i' } } }, 'INVALID_INPUT', 'questions.a'],
      [{ state: 's', questions: { a: { type: 'noul', instructions: 'i', hint: 1 } } }, 'INVALID_INPUT', 'hint'],
      [{ state: 42, questions }, 'INVALID_INPUT', 'state: must be a string, a JSON object or an array'],
      [{ state: { n: -Infinity }, questions }, 'INVALID_INPUT', 'state.n: numbers must be finite'],
      [{ state: 's', questions: { a: { type: 'choice', instructions: 'i', criteria: Object.fromEntries(Array.from({ length: 251 }, (_, i) => [`o${i}`, null])) } } }, 'INPUT_TOO_LARGE', '250'],
    ];
    for (const [args, code, message] of bad) assert.throws(() => jevEvaluateTool.parse(args, FLOORS), isCode(code, message), message);
    for (const state of ['text', { a: 1 }, [1, 'two']]) {
      assert.doesNotThrow(() => jevEvaluateTool.parse({ state, questions: { q: { type: 'noul', instructions: 'i' } } }, FLOORS));
    }
  });

  const evalInput = (): EvaluateInput => ({ state: 'ticket text', questions: JSON.parse(JSON.stringify(questions)) });
  const qmap = questions as unknown as QuestionMap;
  const confident = () => ({ urgent: noul(0.97), team: pickOf(['billing', 'technical'], 'billing', 0.97), severity: score(['Low', 'Medium', 'High'], [0.02, 0.03, 0.95], 0.925) });

  it('auto when every answer is confident and concentrated', () => {
    assert.equal(decideEvaluate(evalInput(), judgedOf(qmap, confident()), FLOORS).action, 'auto');
  });
  it('noul certainty maps through actionFromNoul: 0.85 → review, 0.6 → escalate, 0.1 → auto', () => {
    const act = (p: number) => decideEvaluate(evalInput(), judgedOf(qmap, { ...confident(), urgent: noul(p) }), FLOORS).action;
    assert.equal(act(0.85), 'review');
    assert.equal(act(0.6), 'escalate');
    assert.equal(act(0.1), 'auto');
    assert.equal(act(0.9), 'auto'); // peak exactly 0.5 + 0.8/2
  });
  it('the minimum choice/score confidence decides, and the guard blocks a flat distribution', () => {
    const weak = { ...confident(), severity: score(['Low', 'Medium', 'High'], [0.3, 0.3, 0.4], 0.45) };
    assert.equal(decideEvaluate(evalInput(), judgedOf(qmap, weak), FLOORS).action, 'escalate');
    const flat = { ...confident(), team: choice('billing', 0.95, { billing: 0.55, technical: 0.45 }) };
    assert.equal(decideEvaluate(evalInput(), judgedOf(qmap, flat), FLOORS).action, 'review');
    assert.equal(decideEvaluate(evalInput(), judgedOf(qmap, confident(), { truncated: true }), FLOORS).action, 'review');
  });
  it('returns exactly {model, answers, usage, truncated, coverage, action} with answers verbatim', async () => {
    const provider = new StubProvider(() => confident());
    const state = { ticket: 'checkout failing for 3 days', tags: ['payments'] };
    const r = okResult(await serviceWith(provider).call('jev_evaluate', { state, questions }));
    assert.deepEqual(Object.keys(r).sort(), ['action', 'answers', 'coverage', 'model', 'truncated', 'usage']);
    assert.deepEqual(r.answers, confident());
    assert.deepEqual(provider.requests[0]!.state, state);
    assert.deepEqual(provider.requests[0]!.questions, questions);
    assert.equal(r.action, 'auto');
  });
});

describe('tool metadata', () => {
  it('titles, annotations and closed schemas', () => {
    const titles: Record<string, string> = {
      jev_coding_loop: 'Jev coding-loop router',
      jev_step: 'Jev fused step router',
      jev_tool_route: 'Jev prepared tool-call router',
      jev_evaluate: 'Evaluate with Jev',
    };
    for (const tool of [jevCodingLoopTool, jevStepTool, jevToolRouteTool, jevEvaluateTool]) {
      assert.equal(tool.title, titles[tool.name]);
      assert.equal(tool.family, 'jev');
      assert.deepEqual(tool.annotations, { title: titles[tool.name], readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
      assert.equal(tool.inputJsonSchema.additionalProperties, false, tool.name);
      assert.equal(tool.outputJsonSchema.additionalProperties, false, tool.name);
    }
    const candidates = (jevToolRouteTool.inputJsonSchema.properties as Record<string, { maxItems?: number }>).candidates;
    assert.equal(candidates?.maxItems, 32);
  });
});
