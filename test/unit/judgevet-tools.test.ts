import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import { JevError } from '../../src/judgment/errors';
import type { SystemOneRequest } from '../../src/judgment/types';
import type { CallContext, JudgmentProvider } from '../../src/judgment/provider';
import { SpendCap } from '../../src/providers/spend-cap';
import { askChoiceTool } from '../../src/tools/ask-choice';
import { askNoulTool } from '../../src/tools/ask-noul';
import { askScoreTool } from '../../src/tools/ask-score';
import { evaluatePolicyTool } from '../../src/tools/evaluate-policy';
import { jevScreenTool } from '../../src/tools/jev-screen';
import { JudgmentService } from '../../src/tools/judgment-service';
import type { ToolContext } from '../../src/tools/types';
import { DEFAULT_FLOORS } from '../../src/policy/thresholds';

const TOOLS = [askNoulTool, askChoiceTool, askScoreTool, evaluatePolicyTool];
type EvaluatePolicyResultLike = { policy: { result: string } };
const HOST_MODEL = 'host-model';

/** A scripted body, or a function `(req: SystemOneRequest) => body` called with the request. */
type Body = unknown;

/** A provider that returns scripted bodies in order and records every request it receives. */
class ScriptedProvider implements JudgmentProvider {
  readonly id = 'scripted';
  readonly calibrated = true;
  readonly requests: SystemOneRequest[] = [];
  constructor(
    private readonly bodies: Body[],
    private readonly cap?: SpendCap,
  ) {}
  async systemOne(request: SystemOneRequest, _ctx: CallContext): Promise<unknown> {
    this.cap?.beforeAttempt();
    this.requests.push(structuredClone(request));
    const next = this.bodies.shift();
    if (next === undefined) throw new Error('no scripted body left');
    return typeof next === 'function' ? (next as (r: SystemOneRequest) => unknown)(request) : next;
  }
}

function service(provider: JudgmentProvider) {
  return new JudgmentService({ provider, tools: TOOLS, floors: DEFAULT_FLOORS, model: HOST_MODEL });
}

const usage = { input_tokens: 275, output_tokens: 22 };
const noulBody = (noul: number, name = 'noul_question') => ({ model: 'jev-1.13.0', usage, answers: { [name]: { type: 'noul', noul } } });

/** A valid choice answer for whatever labels were asked: the first label wins with p=0.7. */
const choiceBody = (req: SystemOneRequest) => {
  const [name, q] = Object.entries(req.questions)[0]!;
  const labels = Object.keys(q.criteria as Record<string, unknown>);
  const probabilities = Object.fromEntries(labels.map((l, i) => [l, i === 0 ? 0.7 : 0.3 / (labels.length - 1)]));
  return { model: 'jev-1.13.0', usage, answers: { [name]: { type: 'choice', choice: labels[0], confidence: 0.9, probabilities } } };
};

/** A valid score answer for whatever levels were asked: all mass on level 1. */
const scoreBody = (req: SystemOneRequest) => {
  const [name, q] = Object.entries(req.questions)[0]!;
  const levels = q.criteria as string[];
  const probabilities = Object.fromEntries(levels.map((_, i) => [String(i), i === 1 ? 1 : 0]));
  const legend = Object.fromEntries(levels.map((l, i) => [String(i), l]));
  return { model: 'jev-1.13.0', usage, answers: { [name]: { type: 'score', score: 1, confidence: 0.8, legend, probabilities } } };
};

async function expectError(tool: string, args: unknown, message: string, code = 'INVALID_INPUT') {
  const provider = new ScriptedProvider([]);
  const out = await service(provider).call(tool, args);
  assert.equal(out.ok, false, `${tool} ${JSON.stringify(args)} should fail`);
  if (out.ok) return;
  assert.equal(out.error.message, message);
  assert.equal(out.error.code, code);
  assert.equal(provider.requests.length, 0, 'no provider call for an argument error');
}

describe('ask tools: argument errors (exact texts, no provider call)', () => {
  test('missing or null state/instruction, state first', async () => {
    for (const tool of ['ask_noul', 'ask_choice', 'ask_score']) {
      await expectError(tool, {}, 'Missing required argument: state');
      await expectError(tool, undefined, 'Missing required argument: state');
      await expectError(tool, { state: null, instruction: 'q' }, 'Missing required argument: state');
      await expectError(tool, { state: 's' }, 'Missing required argument: instruction');
      await expectError(tool, { state: 's', instruction: null }, 'Missing required argument: instruction');
      // Missing beats unknown.
      await expectError(tool, { instruction: 'q', bogus: 1 }, 'Missing required argument: state');
    }
  });

  test('unknown arguments: all of them, code-point order; model and noul criteria are unknown', async () => {
    const base = { state: 's', instruction: 'q' };
    await expectError('ask_choice', { ...base, options: 1, Criteria: 2 }, 'Unknown arguments: Criteria, options');
    await expectError('ask_noul', { ...base, criteria: { true: 'a' } }, 'Unknown arguments: criteria');
    for (const tool of ['ask_noul', 'ask_choice', 'ask_score']) {
      await expectError(tool, { ...base, model: 'other' }, 'Unknown arguments: model');
    }
    await expectError('ask_score', { ...base, b: 1, a: 2, Z: 3, _: 4 }, 'Unknown arguments: Z, _, a, b');
    // Unknown beats bad criteria.
    await expectError('ask_choice', { ...base, criteria: {}, zz: 1 }, 'Unknown arguments: zz');
  });

  test('criteria shape', async () => {
    const base = { state: 's', instruction: 'q' };
    for (const criteria of [{}, [], 'yes', ['yes', 'no'], 0]) {
      await expectError('ask_choice', { ...base, criteria }, 'choice criteria must be a non-empty object');
    }
    for (const criteria of [[], {}, 'Poor', { 0: 'Poor' }, true]) {
      await expectError('ask_score', { ...base, criteria }, 'score criteria must be a non-empty array');
    }
    // judgevet's criteria text wins over our later type checks.
    await expectError('ask_choice', { state: ['array'], instruction: 'q', criteria: {} }, 'choice criteria must be a non-empty object');
  });

  test('checks judgevet lacks: state, instruction and criteria value types', async () => {
    const base = { state: 's', instruction: 'q' };
    for (const tool of ['ask_noul', 'ask_choice', 'ask_score']) {
      await expectError(tool, { state: ['a'], instruction: 'q' }, 'state must be a string or object');
      await expectError(tool, { state: 5, instruction: 'q' }, 'state must be a string or object');
      await expectError(tool, { state: 's', instruction: { text: 'q' } }, 'instruction must be a string');
      await expectError(tool, { state: 's', instruction: ' \n' }, 'instruction must not be blank');
    }
    await expectError('ask_choice', { ...base, criteria: { a: 'A', b: 5 } }, "choice criteria description for label 'b' must be a string or null");
    await expectError('ask_choice', { ...base, criteria: { '': 'empty' } }, 'choice criteria labels must be non-empty strings');
    await expectError('ask_choice', { ...base, criteria: JSON.parse('{"__proto__":"x","a":"A"}') }, "choice criteria label '__proto__' is reserved");
    await expectError('ask_score', { ...base, criteria: ['Low', 2] }, 'score criteria[1] must be a non-empty string');
    await expectError('ask_score', { ...base, criteria: ['Low', ' '] }, 'score criteria[1] must be a non-empty string');
  });
});

describe('ask tools: results', () => {
  test('ask_noul sends one noul_question with the host model and returns noul, model, usage in order', async () => {
    const provider = new ScriptedProvider([noulBody(0.96)]);
    const out = await service(provider).call('ask_noul', { state: { diff: 'x' }, instruction: 'Is it safe?' });
    assert.ok(out.ok, out.ok ? '' : out.error.message);
    assert.equal(JSON.stringify(out.result), '{"noul":0.96,"model":"jev-1.13.0","usage":{"input_tokens":275,"output_tokens":22}}');
    assert.equal(provider.requests.length, 1);
    assert.deepEqual(provider.requests[0], {
      state: { diff: 'x' },
      questions: { noul_question: { type: 'noul', instructions: 'Is it safe?' } },
      model: HOST_MODEL,
    });
  });

  test('ask_choice applies {"yes":"Yes","no":"No"} when criteria is omitted or null, else sends the caller labels', async () => {
    for (const extra of [{}, { criteria: null }]) {
      const provider = new ScriptedProvider([choiceBody]);
      const out = await service(provider).call('ask_choice', { state: 'text', instruction: 'Pick', ...extra });
      assert.ok(out.ok);
      assert.deepEqual(provider.requests[0]!.questions, { choice_question: { type: 'choice', instructions: 'Pick', criteria: { yes: 'Yes', no: 'No' } } });
      assert.equal(JSON.stringify(out.result), '{"choice":"yes","confidence":0.9,"probabilities":{"yes":0.7,"no":0.3},"model":"jev-1.13.0","usage":{"input_tokens":275,"output_tokens":22}}');
    }
    const provider = new ScriptedProvider([choiceBody]);
    const criteria = { billing: 'Payment problem', tech: null, sales: 'Buying' };
    const out = await service(provider).call('ask_choice', { state: 'text', instruction: 'Route', criteria });
    assert.ok(out.ok);
    assert.deepEqual(provider.requests[0]!.questions, { choice_question: { type: 'choice', instructions: 'Route', criteria } });
    assert.deepEqual(Object.keys(out.result as object), ['choice', 'confidence', 'probabilities', 'model', 'usage']);
    assert.equal((out.result as { choice: string }).choice, 'billing');
  });

  test('ask_score: default rubric sets default_criteria; supplied criteria (even equal to the default) does not', async () => {
    const cases: [Record<string, unknown>, string[], boolean][] = [
      [{}, ['Poor', 'Fair', 'Good', 'Excellent'], true],
      [{ criteria: null }, ['Poor', 'Fair', 'Good', 'Excellent'], true],
      [{ criteria: ['Poor', 'Fair', 'Good', 'Excellent'] }, ['Poor', 'Fair', 'Good', 'Excellent'], false],
      [{ criteria: ['Not urgent', 'Low', 'Critical'] }, ['Not urgent', 'Low', 'Critical'], false],
    ];
    for (const [extra, levels, isDefault] of cases) {
      const provider = new ScriptedProvider([scoreBody]);
      const out = await service(provider).call('ask_score', { state: 's', instruction: 'How good?', ...extra });
      assert.ok(out.ok, out.ok ? '' : out.error.message);
      assert.deepEqual(provider.requests[0]!.questions, { score_question: { type: 'score', instructions: 'How good?', criteria: levels } });
      const result = out.result as Record<string, unknown>;
      assert.deepEqual(Object.keys(result), ['score', 'legend', 'probabilities', 'confidence', 'default_criteria', 'model', 'usage']);
      assert.equal(result.default_criteria, isDefault);
      assert.deepEqual(result.legend, Object.fromEntries(levels.map((l, i) => [String(i), l])));
      assert.equal(result.score, 1);
    }
  });

  test('an off-list provider answer is an error, never a result', async () => {
    const provider = new ScriptedProvider([
      { model: 'm', usage, answers: { choice_question: { type: 'choice', choice: 'maybe', confidence: 0.9, probabilities: { yes: 0.5, no: 0.5 } } } },
    ]);
    const out = await service(provider).call('ask_choice', { state: 's', instruction: 'q' });
    assert.equal(out.ok, false);
    if (!out.ok) assert.equal(out.error.code, 'INVALID_RESPONSE');
  });

  test('the spend-cap text passes through unchanged on every tool', async () => {
    const policyArgs = {
      state: 's',
      questions: { ok: { type: 'noul', instructions: 'q' } },
      policy: { rules: [{ question: 'ok', pass: { noul: { min: 0.5 } } }] },
    };
    const calls: [string, unknown, Body][] = [
      ['ask_noul', { state: 's', instruction: 'q' }, noulBody(0.5)],
      ['ask_choice', { state: 's', instruction: 'q' }, choiceBody],
      ['ask_score', { state: 's', instruction: 'q' }, scoreBody],
      ['evaluate_policy', policyArgs, noulBody(0.9, 'ok')],
    ];
    for (const [tool, args, body] of calls) {
      const provider = new ScriptedProvider([body, body], new SpendCap(1));
      const svc = service(provider);
      assert.equal((await svc.call(tool, args)).ok, true);
      const second = await svc.call(tool, args);
      assert.equal(second.ok, false);
      if (!second.ok) assert.equal(second.error.message, 'Spend cap reached: attempts spent 1 of 1; restart the server to continue.');
      assert.equal(provider.requests.length, 1);
    }
  });
});

describe('evaluate_policy', () => {
  const questions = {
    clear: { type: 'noul', instructions: 'Is the change clear?', criteria: { true: 'clear', false: 'unclear' } },
    route: { type: 'choice', instructions: { text: 'Which queue?' }, criteria: { billing: 'Billing', tech: 'Tech' } },
    sev: { type: 'score', criteria: ['low', 'mid', 'high'] },
  };
  const answers = (clear: number) => ({
    model: 'jev-1.13.0',
    usage,
    answers: {
      clear: { type: 'noul', noul: clear },
      route: { type: 'choice', choice: 'billing', confidence: 0.9, probabilities: { billing: 0.95, tech: 0.05 } },
      sev: { type: 'score', score: 1.2, confidence: 0.4, legend: { 0: 'low', 1: 'mid', 2: 'high' }, probabilities: { 0: 0.1, 1: 0.6, 2: 0.3 } },
    },
  });
  const policy = {
    rules: [
      { question: 'clear', pass: { noul: { min: 0.8 } } },
      { question: 'route', pass: { choice: 'billing' } },
      { question: 'sev', pass: { score: { min: 1, max: 2 } } },
    ],
  };

  test('one call with the caller questions as written; envelope in order; pass', async () => {
    const provider = new ScriptedProvider([answers(0.9)]);
    const out = await service(provider).call('evaluate_policy', { state: ['a', 'b'], questions, policy });
    assert.ok(out.ok, out.ok ? '' : out.error.message);
    assert.equal(provider.requests.length, 1);
    assert.deepEqual(provider.requests[0], { state: ['a', 'b'], questions, model: HOST_MODEL });
    const result = out.result as Record<string, any>;
    assert.deepEqual(Object.keys(result), ['model', 'usage', 'answers', 'policy']);
    assert.deepEqual(Object.keys(result.answers), ['clear', 'route', 'sev']);
    assert.deepEqual(Object.keys(result.answers.clear), ['name', 'type', 'noul']);
    assert.deepEqual(Object.keys(result.answers.route), ['name', 'type', 'choice', 'confidence', 'probabilities']);
    assert.deepEqual(Object.keys(result.answers.sev), ['name', 'type', 'score', 'confidence', 'legend', 'probabilities']);
    assert.equal(result.answers.sev.name, 'sev');
    assert.deepEqual(result.policy, {
      result: 'pass',
      rules: [
        { question: 'clear', pass: true, detail: 'noul 0.9 >= 0.8 -> pass' },
        { question: 'route', pass: true, detail: "choice 'billing' == 'billing' -> pass" },
        { question: 'sev', pass: true, detail: 'score 1.2 >= 1.0 and score 1.2 <= 2.0 -> pass' },
      ],
    });
  });

  test('an unmet policy is a successful result with result "fail"', async () => {
    const provider = new ScriptedProvider([answers(0.79)]);
    const out = await service(provider).call('evaluate_policy', { state: 's', questions, policy });
    assert.equal(out.ok, true);
    const result = out.result as { policy: { result: string; rules: { pass: boolean; detail: string }[] } };
    assert.equal(result.policy.result, 'fail');
    assert.deepEqual(result.policy.rules.map((r) => r.pass), [false, true, true]);
    assert.equal(result.policy.rules[0]!.detail, 'noul 0.79 >= 0.8 -> fail');
  });

  test('handler checks in order, exact texts, before dispatch', async () => {
    const ok = { state: 's', questions, policy };
    await expectError('evaluate_policy', { ...ok, model: 'x' }, 'Expected exactly state, questions and policy');
    await expectError('evaluate_policy', { state: 's', questions }, 'Expected exactly state, questions and policy');
    await expectError('evaluate_policy', undefined, 'Expected exactly state, questions and policy');
    await expectError('evaluate_policy', { ...ok, state: 5 }, 'state must be a string, object or array');
    await expectError('evaluate_policy', { ...ok, state: null, questions: {} }, 'state must be a string, object or array');
    await expectError('evaluate_policy', { ...ok, questions: {} }, 'questions must be a non-empty object');
    await expectError('evaluate_policy', { ...ok, questions: [] }, 'questions must be a non-empty object');
    await expectError('evaluate_policy', { ...ok, questions: { '': { type: 'noul' } } }, 'questions require non-empty names and object definitions');
    await expectError('evaluate_policy', { ...ok, questions: { q: 'noul' } }, 'questions require non-empty names and object definitions');
    await expectError('evaluate_policy', { ...ok, questions: { q: { type: 'noul', weight: 2 } } }, 'Unsupported question field');
    await expectError('evaluate_policy', { ...ok, questions: { q: { type: 'bool' } } }, 'Unknown question type');
    await expectError('evaluate_policy', { ...ok, questions: { q: { type: 'choice' } } }, 'choice criteria must be a non-empty object');
    await expectError('evaluate_policy', { ...ok, questions: { q: { type: 'choice', criteria: {} } } }, 'choice criteria must be a non-empty object');
    await expectError('evaluate_policy', { ...ok, questions: { q: { type: 'score' } } }, 'score criteria must be a non-empty array');
    await expectError('evaluate_policy', { ...ok, questions: { q: { type: 'score', criteria: {} } } }, 'score criteria must be a non-empty array');
    // Question checks run before the policy grammar.
    await expectError('evaluate_policy', { ...ok, questions: { q: { type: 'bool' } }, policy: 'junk' }, 'Unknown question type');
  });

  test('policy definition errors fail before dispatch with the grammar text', async () => {
    const ok = { state: 's', questions };
    await expectError('evaluate_policy', { ...ok, policy: { rules: [{ question: 'nope', pass: { noul: { min: 0.5 } } }] } }, 'unknown question in rule');
    await expectError('evaluate_policy', { ...ok, policy: { rules: [{ question: 'sev', pass: { score: { max: 3 } } }] } }, 'score max must be in [0.0, 2.0]');
    // Over MCP the policy arrives decoded: a string is a JSON string value, not policy text.
    await expectError('evaluate_policy', { ...ok, policy: JSON.stringify(policy) }, 'root must be a JSON object');
  });

  test('noul criteria pass through unchanged and ask-tool defaults never apply', async () => {
    const qs = { q: { type: 'noul', criteria: 'anything goes' } };
    const provider = new ScriptedProvider([noulBody(0.6, 'q')]);
    const out = await service(provider).call('evaluate_policy', { state: 's', questions: qs, policy: { rules: [{ question: 'q', pass: { noul: { max: 0.7 } } }] } });
    assert.ok(out.ok, out.ok ? '' : out.error.message);
    assert.deepEqual(provider.requests[0]!.questions, qs);
  });

  test('a PolicyAnswerError becomes INVALID_RESPONSE with its text', async () => {
    const input = evaluatePolicyTool.parse({ state: 's', questions, policy }, DEFAULT_FLOORS);
    const ctx: ToolContext = {
      floors: DEFAULT_FLOORS,
      model: HOST_MODEL,
      signal: new AbortController().signal,
      judge: async () => ({
        response: { model: 'm', usage, answers: { clear: { type: 'noul', noul: 0.9 } } },
        coverage: { complete: true, original_chars: 1, evaluated_chars: 1, estimated_tokens: { state: 1, questions: 1, longest_question: 1 }, estimator: 'chars/4' },
        truncated: false,
      }),
    };
    await assert.rejects(evaluatePolicyTool.execute(input, ctx), (err: unknown) => {
      assert.ok(err instanceof JevError);
      assert.equal(err.code, 'INVALID_RESPONSE');
      assert.equal(err.message, 'Question "route": missing answer for policy question');
      return true;
    });
  });

  describe('image evidence', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]).toString('base64');
    const ev = (doc: unknown) => JSON.stringify(doc);
    const args = (evidence: unknown) => ({ state: 's', questions, policy, evidence });

    test('valid empty evidence keeps the text route', async () => {
      const provider = new ScriptedProvider([answers(0.9)]);
      const out = await service(provider).call('evaluate_policy', args(ev({ images: [], by_question: {} })));
      assert.equal(out.ok, true);
      assert.equal(provider.requests.length, 1);
    });

    test('valid non-empty evidence: no image-capable provider', async () => {
      const doc = { images: [{ id: 'a', data_base64: png, media_type: 'image/png' }], by_question: { clear: ['a'] } };
      await expectError('evaluate_policy', args(ev(doc)), 'ProviderCapabilityError: media evaluation failed', 'CONFIG_ERROR');
    });

    test('malformed evidence and missing required evidence', async () => {
      const image = { id: 'a', data_base64: png, media_type: 'image/png' };
      const malformed: unknown[] = [
        { images: [], by_question: {} }, // decoded object, not JSON text
        '{',
        ev({ images: [] }),
        ev({ images: [], by_question: {}, extra: 1 }),
        '{"images":[],"images":[],"by_question":{}}',
        ev({ images: [{ ...image, data_base64: 'not base64!' }], by_question: { clear: ['a'] } }),
        ev({ images: [{ ...image, media_type: 'image/gif' }], by_question: { clear: ['a'] } }),
        ev({ images: [image], by_question: {} }), // unreferenced image
        ev({ images: [image], by_question: { clear: ['b'] } }), // unknown image id
        ev({ images: [image], by_question: { nope: ['a'] } }), // unknown question id
        ev({ images: Array.from({ length: 17 }, (_, i) => ({ ...image, id: `i${i}` })), by_question: { clear: Array.from({ length: 17 }, (_, i) => `i${i}`) } }),
      ];
      for (const evidence of malformed) {
        await expectError('evaluate_policy', args(evidence), 'ProviderRequestError: media evaluation failed');
      }
      await expectError('evaluate_policy', args(ev({ images: [], by_question: {}, required: ['clear'] })), 'MissingEvidenceError: media evaluation failed');
    });

    test('a policy definition error is reported before evidence problems', async () => {
      await expectError('evaluate_policy', { state: 's', questions, policy: { rules: [] }, evidence: '{' }, 'rules array must not be empty');
    });
  });
});

describe('state size: judgevet tools refuse, never cut (their results carry no coverage)', () => {
  // ~40 000 estimated tokens of ASCII: over the 32 000-token state budget, under the input size limits.
  const BIG = 'lorem ipsum dolor sit amet '.repeat(6_000);
  const policyArgs = (state: unknown) => ({ state, questions: { ok: { type: 'noul' } }, policy: { rules: [{ question: 'ok', pass: { noul: { min: 0.5 } } }] } });
  const cases: Array<[string, Record<string, unknown>]> = [
    ['ask_noul', { state: BIG, instruction: 'Is it fine?' }],
    ['ask_choice', { state: { text: BIG }, instruction: 'Pick one' }],
    ['ask_score', { state: BIG, instruction: 'How good?' }],
    ['evaluate_policy', policyArgs(BIG)],
  ];

  test('an oversized state → INPUT_TOO_LARGE naming state, its estimate and the budget; no provider call', async () => {
    for (const [tool, args] of cases) {
      const provider = new ScriptedProvider([noulBody(0.99, 'ok')]);
      const out = await service(provider).call(tool, args);
      assert.equal(out.ok, false, `${tool} must not answer about a state it could not see whole`);
      if (out.ok) continue;
      assert.equal(out.error.code, 'INPUT_TOO_LARGE', out.error.message);
      assert.match(out.error.message, /^state is too large to judge whole: about [\d ]+ estimated tokens \(chars\/4\), over the [\d ]+-token budget/);
      const [tokens, budget] = [...out.error.message.matchAll(/(\d[\d ]*\d)(?=[ -](?:estimated|token))/g)].map((m) => Number(m[1]!.replace(/ /g, '')));
      assert.ok(tokens! > budget! && budget! > 30_000 && budget! <= 32_000, `${tokens} over ${budget}`);
      assert.match(out.error.message, /shorten the state/);
      assert.equal(provider.requests.length, 0, `${tool}: refused before any request`);
      assert.equal(out.record.exchanges.length, 0);
    }
  });

  test('a state that fits is sent whole and answered', async () => {
    const fits = 'lorem ipsum dolor sit amet '.repeat(4_000); // ~27 000 estimated tokens
    const provider = new ScriptedProvider([noulBody(0.7), noulBody(0.9, 'ok')]);
    const noul = await service(provider).call('ask_noul', { state: fits, instruction: 'Is it fine?' });
    assert.ok(noul.ok, noul.ok ? '' : noul.error.message);
    assert.equal((noul.result as { noul: number }).noul, 0.7);
    assert.equal(provider.requests[0]!.state, fits, 'the state reaches the provider uncut');
    const policy = await service(provider).call('evaluate_policy', policyArgs(fits));
    assert.ok(policy.ok, policy.ok ? '' : policy.error.message);
    assert.equal((policy.result as EvaluatePolicyResultLike).policy.result, 'pass');
    assert.equal(provider.requests[1]!.state, fits);
  });

  test('the provider counting more than 64 000 input tokens is INPUT_TOO_LARGE, never a pass', async () => {
    const over = { model: 'jev-1.13.0', usage: { input_tokens: 64_001, output_tokens: 2 }, answers: { ok: { type: 'noul', noul: 0.99 } } };
    const provider = new ScriptedProvider([over, { ...over, usage: { input_tokens: 64_000, output_tokens: 2 } }]);
    const out = await service(provider).call('evaluate_policy', policyArgs('short state'));
    assert.equal(out.ok, false);
    if (!out.ok) {
      assert.equal(out.error.code, 'INPUT_TOO_LARGE');
      assert.equal(out.error.message, 'the provider counted 64 001 input tokens, over the 64 000-token request budget; shorten the state and ask again.');
    }
    assert.equal(provider.requests.length, 1);
    const edge = await service(provider).call('evaluate_policy', policyArgs('short state'));
    assert.ok(edge.ok, 'exactly 64 000 is within budget');
  });

  test('evaluate_policy never passes on a cut state, even from a context that cuts despite "refuse"', async () => {
    const input = evaluatePolicyTool.parse(policyArgs('s'), DEFAULT_FLOORS);
    const asked: unknown[] = [];
    const ctx: ToolContext = {
      floors: DEFAULT_FLOORS,
      model: HOST_MODEL,
      signal: new AbortController().signal,
      judge: async (_state, _questions, _model, options) => {
        asked.push(options);
        return {
          response: { model: 'm', usage, answers: { ok: { type: 'noul', noul: 0.99 } } },
          coverage: { complete: false, original_chars: 900, evaluated_chars: 50, estimated_tokens: { state: 13, questions: 5, longest_question: 5 }, estimator: 'chars/4' },
          truncated: true,
        };
      },
    };
    await assert.rejects(evaluatePolicyTool.execute(input, ctx), (err: unknown) => err instanceof JevError && err.code === 'INPUT_TOO_LARGE');
    assert.deepEqual(asked, [{ truncate: 'refuse' }], 'the tool asks for refusal');
  });

  test('a jev tool still cuts: truncated, coverage incomplete, never auto', async () => {
    const provider = new ScriptedProvider([
      { model: 'jev-1.13.0', usage, answers: { injection: { type: 'noul', noul: 0.01 }, substance: { type: 'noul', noul: 0.99 } } },
      { model: 'jev-1.13.0', usage, answers: { injection: { type: 'noul', noul: 0.01 }, substance: { type: 'noul', noul: 0.99 } } },
    ]);
    const svc = new JudgmentService({ provider, tools: [jevScreenTool], floors: DEFAULT_FLOORS, model: HOST_MODEL });
    const small = await svc.call('jev_screen', { text: 'A short, harmless paragraph.' });
    assert.ok(small.ok, small.ok ? '' : small.error.message);
    assert.equal((small.result as { action: string }).action, 'auto', 'the same answers on a whole state are auto');
    const cut = await svc.call('jev_screen', { text: BIG });
    assert.ok(cut.ok, cut.ok ? '' : cut.error.message);
    const r = cut.result as { action: string; truncated: boolean; coverage: { complete: boolean; evaluated_chars: number; original_chars: number } };
    assert.equal(r.truncated, true);
    assert.equal(r.coverage.complete, false);
    assert.ok(r.coverage.evaluated_chars < r.coverage.original_chars);
    assert.notEqual(r.action, 'auto');
    const sent = provider.requests[1]!.state as { text: string } | string;
    assert.ok(JSON.stringify(sent).includes('[truncated]'), 'the cut state carries the marker');
  });
});

describe('tool definitions', () => {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });

  test('titles, annotations, family, discovery names', () => {
    assert.deepEqual(
      TOOLS.map((t) => [t.name, t.title, t.family]),
      [
        ['ask_noul', 'Ask a yes/no judgment', 'judgevet'],
        ['ask_choice', 'Ask a multiple-choice judgment', 'judgevet'],
        ['ask_score', 'Ask a scored judgment', 'judgevet'],
        ['evaluate_policy', 'Evaluate a judgment policy', 'judgevet'],
      ],
    );
    for (const t of TOOLS) assert.deepEqual(t.annotations, { readOnlyHint: true, openWorldHint: false });
  });

  test('schemas are closed 2020-12 objects without root combinators; every output property is described', () => {
    const described = (schema: any, path: string) => {
      for (const [key, prop] of Object.entries<any>(schema.properties ?? {})) {
        assert.equal(typeof prop.description, 'string', `${path}.${key} has a description`);
        described(prop, `${path}.${key}`);
      }
      for (const branch of schema.anyOf ?? []) described(branch, path);
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object') described(schema.additionalProperties, `${path}.*`);
      if (schema.items) described(schema.items, `${path}[]`);
    };
    for (const t of TOOLS) {
      for (const schema of [t.inputJsonSchema, t.outputJsonSchema]) {
        assert.equal(schema.type, 'object');
        assert.equal(schema.additionalProperties, false);
        for (const k of ['anyOf', 'allOf', 'oneOf', 'if', 'not', '$schema']) assert.ok(!(k in schema), `${t.name}: no root ${k}`);
        ajv.compile(schema);
      }
      described(t.outputJsonSchema, t.name);
    }
    assert.deepEqual(askNoulTool.inputJsonSchema.required, ['state', 'instruction']);
    assert.deepEqual(evaluatePolicyTool.inputJsonSchema.required, ['state', 'questions', 'policy']);
    assert.deepEqual(askScoreTool.outputJsonSchema.required, ['score', 'confidence', 'legend', 'probabilities', 'default_criteria', 'model', 'usage']);
  });

  test('input schemas agree with the handlers on representative arguments', () => {
    const accepts = (tool: { inputJsonSchema: Record<string, unknown> }, args: unknown) => ajv.validate(tool.inputJsonSchema, args);
    assert.equal(accepts(askNoulTool, { state: 's', instruction: 'q' }), true);
    assert.equal(accepts(askNoulTool, { state: ['a'], instruction: 'q' }), false);
    assert.equal(accepts(askNoulTool, { state: 's', instruction: 'q', model: 'm' }), false);
    assert.equal(accepts(askChoiceTool, { state: 's', instruction: 'q', criteria: {} }), false);
    assert.equal(accepts(askScoreTool, { state: 's', instruction: 'q', criteria: [] }), false);
    const policy = { rules: [{ question: 'q', pass: { noul: { min: 0.8 } } }] };
    assert.equal(accepts(evaluatePolicyTool, { state: [], questions: { q: { type: 'noul' } }, policy }), true);
    assert.equal(accepts(evaluatePolicyTool, { state: 's', questions: { q: { type: 'choice' } }, policy }), false);
    assert.equal(accepts(evaluatePolicyTool, { state: 's', questions: { q: { type: 'score', criteria: [] } }, policy }), false);
    assert.equal(accepts(evaluatePolicyTool, { state: 's', questions: { q: { type: 'noul' } }, policy: { rules: [{ question: 'q', pass: { noul: {} } }] } }), false);
    assert.equal(
      accepts(evaluatePolicyTool, { state: 's', questions: { q: { type: 'noul' } }, policy: { rules: [{ question: 'q', pass: { noul: { min: 1 }, confidence: { min: 1 } } }] } }),
      false,
    );
  });

  test('real results validate against the advertised output schemas', async () => {
    const provider = new ScriptedProvider([noulBody(0.5), choiceBody, scoreBody]);
    const svc = service(provider);
    for (const [tool, args] of [
      [askNoulTool, { state: 's', instruction: 'q' }],
      [askChoiceTool, { state: 's', instruction: 'q' }],
      [askScoreTool, { state: 's', instruction: 'q' }],
    ] as const) {
      const out = await svc.call(tool.name, args);
      assert.ok(out.ok);
      assert.equal(ajv.validate(tool.outputJsonSchema, out.result), true, JSON.stringify(ajv.errors));
    }
    const evProvider = new ScriptedProvider([
      {
        model: 'm',
        usage,
        answers: {
          n: { type: 'noul', noul: 0.2 },
          s: { type: 'score', score: 0.5, confidence: 0.5, legend: { 0: 'a', 1: 'b' }, probabilities: { 0: 0.5, 1: 0.5 } },
        },
      },
    ]);
    const out = await service(evProvider).call('evaluate_policy', {
      state: 's',
      questions: { n: { type: 'noul' }, s: { type: 'score', criteria: ['a', 'b'] } },
      policy: { rules: [{ question: 's', pass: { score: { min: 0.5 }, confidence: { min: 0.5 } } }] },
    });
    assert.ok(out.ok, out.ok ? '' : out.error.message);
    assert.equal(ajv.validate(evaluatePolicyTool.outputJsonSchema, out.result), true, JSON.stringify(ajv.errors));
    assert.equal((out.result as { policy: { rules: { detail: string }[] } }).policy.rules[0]!.detail, 'score 0.5 >= 0.5 and confidence 0.5 >= 0.5 -> pass');
  });
});

describe('evaluate_policy reads the numbers it shows', () => {
  test('40 options, e7 sent 0.79 and 39 × 0.01: confidence.min 0.75 fails on the normalised 0.669, and the output shows 0.669', async () => {
    const labels = Array.from({ length: 40 }, (_, i) => `e${i}`);
    const criteria = Object.fromEntries(labels.map((l) => [l, `option ${l}`]));
    const probabilities = Object.fromEntries(labels.map((l) => [l, l === 'e7' ? 0.79 : 0.01]));
    const provider = new ScriptedProvider([{ model: 'jev-1.13.0', usage, answers: { pick: { type: 'choice', choice: 'e7', confidence: 0.79, probabilities } } }]);
    const out = await service(provider).call('evaluate_policy', {
      state: 's',
      questions: { pick: { type: 'choice', instructions: 'Which?', criteria } },
      policy: { rules: [{ question: 'pick', pass: { choice: 'e7', confidence: { min: 0.75 } } }] },
    });
    assert.ok(out.ok, out.ok ? '' : out.error.message);
    const result = out.result as { answers: { pick: { confidence: number; probabilities: Record<string, number> } }; policy: { result: string; rules: { detail: string }[] } };
    const shown = result.answers.pick;
    assert.ok(Math.abs(shown.probabilities.e7! - 0.79 / 1.18) < 1e-12, String(shown.probabilities.e7));
    assert.ok(Math.abs(shown.confidence - 0.79 / 1.18) < 1e-12, `confidence shown ${shown.confidence}`);
    assert.equal(result.policy.result, 'fail');
    assert.match(result.policy.rules[0]!.detail, /^choice 'e7' == 'e7' and confidence 0\.669\d* >= 0\.75 -> fail$/);
  });
});
