/**
 * Request files (src/request-files/): the located JSON parser the inline surfaces place marks with,
 * the `*.jev.json` JSON schema built from the tools' own input schemas (checked with Ajv against every
 * example and against bad files, the way the editor's JSON service validates them), and the request-file
 * reader (same rules as `jevcp step`).
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Ajv from 'ajv';
import { locateJson, nodeAt, pathAt } from '../../src/request-files/json-locate';
import { readRequestFile } from '../../src/request-files/read';
import { requestFileSchema } from '../../src/request-files/schema';
import { ALL_TOOLS } from '../../src/tools';

const root = join(__dirname, '..', '..');
const examples = readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.jev.json'));
const TOOL_NAMES = ALL_TOOLS.map((t) => t.name);

describe('locateJson', () => {
  const text = '{\n  "tool": "jev_step",\n  "candidates": [\n    { "id": "a", "n": 1 },\n    { "id": "b\\"q", "n": [true, null] }\n  ]\n}\n';

  it('returns the JSON.parse value and the exact span of every value and key', () => {
    const located = locateJson(text)!;
    assert.deepEqual(located.value, JSON.parse(text));
    const second = nodeAt(located.root, ['candidates', 1])!;
    assert.equal(text.slice(second.start, second.end), '{ "id": "b\\"q", "n": [true, null] }');
    const id = nodeAt(located.root, ['candidates', 1, 'id'])!;
    assert.equal(text.slice(id.keyStart, id.keyEnd), '"id"');
    assert.equal(text.slice(id.start, id.end), '"b\\"q"');
    assert.equal(nodeAt(located.root, ['candidates', 1, 'n', 1])!.type, 'null');
    assert.equal(nodeAt(located.root, ['candidates', 2]), undefined);
    assert.equal(nodeAt(located.root, ['nope']), undefined);
  });

  it('pathAt finds the innermost value (keys included) under an offset', () => {
    const { root: r } = locateJson(text)!;
    assert.deepEqual(pathAt(r, text.indexOf('"a"')), ['candidates', 0, 'id']);
    assert.deepEqual(pathAt(r, text.indexOf('null')), ['candidates', 1, 'n', 1]);
    assert.deepEqual(pathAt(r, text.indexOf('"tool"')), ['tool']);
    assert.deepEqual(pathAt(r, 0), []);
  });

  it('keeps the last of a repeated key, as JSON.parse does', () => {
    const t = '{"a": 1, "b": 2, "a": "x"}';
    const { value, root: r } = locateJson(t)!;
    assert.deepEqual(value, { a: 'x', b: 2 });
    const a = nodeAt(r, ['a'])!;
    assert.equal(t.slice(a.start, a.end), '"x"');
    assert.deepEqual([...r.properties!.keys()], ['b', 'a']);
  });

  it('refuses what JSON.parse refuses, and accepts a byte-order mark', () => {
    for (const bad of ['{"a": 1,}', '{a: 1}', '// c\n{}', '{"a": 1} x', '', '[1, 2']) assert.equal(locateJson(bad), undefined, bad);
    const bom = '\ufeff{"a": [1]}';
    const located = locateJson(bom)!;
    assert.deepEqual(located.value, { a: [1] });
    assert.equal(bom.slice(nodeAt(located.root, ['a'])!.start, nodeAt(located.root, ['a'])!.end), '[1]');
  });

  it('locates numbers in every JSON form', () => {
    const t = '[0, -1.5e+3, 12, 3E2]';
    const { root: r } = locateJson(t)!;
    assert.deepEqual(
      r.items!.map((n) => t.slice(n.start, n.end)),
      ['0', '-1.5e+3', '12', '3E2'],
    );
  });
});

describe('request-file JSON schema', () => {
  const schema = requestFileSchema(ALL_TOOLS);
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(schema);
  const errors = () => (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`).join('\n');

  it('accepts every example request file', () => {
    assert.ok(examples.length >= 5);
    for (const file of examples) {
      const value = JSON.parse(readFileSync(join(root, 'examples', file), 'utf8'));
      assert.equal(validate(value), true, `${file}: ${errors()}`);
    }
  });

  it('offers every tool name for "tool", with jev_step as the default', () => {
    const tool = (schema.properties as Record<string, { enum: string[]; default: string }>).tool;
    assert.deepEqual(tool.enum, TOOL_NAMES);
    assert.equal(tool.default, 'jev_step');
  });

  it('flags a field the tool does not know, a field of the wrong type, and an unknown tool', () => {
    const base = JSON.parse(readFileSync(join(root, 'examples', 'parser-fix.jev.json'), 'utf8'));
    assert.equal(validate({ ...base, taks: 'typo' }), false);
    assert.match(errors(), /additionalProperty.*taks/);
    assert.equal(validate({ ...base, auto_accept: 'high' }), false);
    assert.match(errors(), /\/auto_accept must be number/);
    const badCandidate = { ...base, candidates: [{ ...base.candidates[0], effect: 'harmless' }] };
    assert.equal(validate(badCandidate), false);
    assert.match(errors(), /\/candidates\/0\/effect must be equal to one of the allowed values/);
    assert.equal(validate({ ...base, tool: 'jev_stpe' }), false);
    assert.match(errors(), /\/tool must be equal to one of the allowed values/);
  });

  it('applies the named tool\'s schema, and jev_step\'s when "tool" is absent', () => {
    const { tool: _t, ...step } = JSON.parse(readFileSync(join(root, 'examples', 'parser-fix.jev.json'), 'utf8'));
    assert.equal(validate(step), true, errors());
    assert.equal(validate({ task: 'x' }), false, 'jev_step requires an observation');
    assert.match(errors(), /must have required property 'observation'/);
    // The same jev_step fields are not a valid jev_gate request.
    assert.equal(validate({ ...step, tool: 'jev_gate' }), false);
    assert.match(errors(), /required property 'request'/);
  });

  it('rejects a default tool that does not exist and repeated names', () => {
    assert.throws(() => requestFileSchema(ALL_TOOLS, 'nope'), /default tool "nope"/);
    assert.throws(() => requestFileSchema([...ALL_TOOLS, ALL_TOOLS[0]!]), /repeat/);
  });
});

describe('readRequestFile', () => {
  it('splits the tool from its input like jevcp step (default jev_step)', () => {
    const r = readRequestFile('{"task": "t", "observation": "o"}', TOOL_NAMES);
    assert.ok(r.ok);
    assert.equal(r.tool, 'jev_step');
    assert.deepEqual(r.input, { task: 't', observation: 'o' });
    const g = readRequestFile('{"tool": "jev_gate", "request": "r"}', TOOL_NAMES);
    assert.ok(g.ok);
    assert.equal(g.tool, 'jev_gate');
    assert.deepEqual(g.input, { request: 'r' });
  });

  it('names the rule when the file cannot run', () => {
    const cases: [string, RegExp][] = [
      ['{"task": ', /not valid JSON/],
      ['[1]', /must be a JSON object/],
      ['{"tool": 3}', /tool: must be a tool name/],
      ['{"tool": " "}', /tool: must be a tool name/],
      ['{"tool": "jev_nope"}', /unknown tool "jev_nope"; known tools: ask_noul/],
    ];
    for (const [text, re] of cases) {
      const r = readRequestFile(text, TOOL_NAMES);
      assert.equal(r.ok, false, text);
      assert.match((r as { reason: string }).reason, re, text);
    }
    // While the tool list is unknown (runtime still loading) any name is accepted; the tool call decides.
    assert.equal(readRequestFile('{"tool": "jev_nope"}').ok, true);
  });
});
