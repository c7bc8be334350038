import assert from 'node:assert/strict';
import { PassThrough, Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { askInTerminal, cliElicitation } from '../../src/cli/elicit-prompt';
import { declineElicitation, type ElicitationRequest } from '../../src/registry/client-features';
import { formFields, parseAnswer, type FormField } from '../../src/registry/elicitation/form';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2 },
    email: { type: 'string', format: 'email' },
    age: { type: 'integer', minimum: 0, maximum: 150, default: 30 },
    ratio: { type: 'number' },
    ok: { type: 'boolean', default: true },
    color: { type: 'string', enum: ['red', 'green'], enumNames: ['Red', 'Green'] },
    hero: { type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }, { const: 'h2', title: 'Batman' }], default: 'h1' },
    tags: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['a', 'b', 'c'] } },
    odd: { type: 'object' },
  },
  required: ['name', 'tags'],
};
const fields = formFields(schema);
const field = (name: string) => fields.find((f) => f.name === name) as FormField;

describe('elicitation form', () => {
  it('turns the requested schema into fields in order, skipping kinds the spec does not allow', () => {
    assert.deepEqual(fields.map((f) => [f.name, f.kind, f.required]), [
      ['name', 'text', true], ['email', 'text', false], ['age', 'number', false], ['ratio', 'number', false],
      ['ok', 'boolean', false], ['color', 'choice', false], ['hero', 'choice', false], ['tags', 'multi', true],
    ]);
    assert.deepEqual((field('color') as { options: unknown }).options, [{ value: 'red', label: 'Red' }, { value: 'green', label: 'Green' }]);
    assert.equal(field('name').label, 'Name');
  });

  it('checks and converts answers; empty takes the default, leaves an optional field out, refuses a required one', () => {
    assert.deepEqual(parseAnswer(field('age'), ''), { ok: true, value: 30 });
    assert.deepEqual(parseAnswer(field('ratio'), ' '), { ok: true, value: undefined });
    assert.deepEqual(parseAnswer(field('name'), ''), { ok: false, error: 'Name is required' });
    assert.deepEqual(parseAnswer(field('name'), 'A'), { ok: false, error: 'Name needs at least 2 characters' });
    assert.deepEqual(parseAnswer(field('email'), 'x@y'), { ok: false, error: 'email must be an e-mail address' });
    assert.deepEqual(parseAnswer(field('age'), '3.5'), { ok: false, error: 'age must be a whole number' });
    assert.deepEqual(parseAnswer(field('age'), '200'), { ok: false, error: 'age must be at most 150' });
    assert.deepEqual(parseAnswer(field('ratio'), '0.25'), { ok: true, value: 0.25 });
    assert.deepEqual(parseAnswer(field('ok'), 'No'), { ok: true, value: false });
    assert.equal(parseAnswer(field('ok'), 'maybe').ok, false);
    assert.deepEqual(parseAnswer(field('color'), '2'), { ok: true, value: 'green' });
    assert.deepEqual(parseAnswer(field('hero'), 'batman'), { ok: true, value: 'h2' });
    assert.deepEqual(parseAnswer(field('tags'), 'a, 3'), { ok: true, value: ['a', 'c'] });
    assert.deepEqual(parseAnswer(field('tags'), 'a,b,c'), { ok: false, error: 'tags: choose at most 2' });
    assert.equal(parseAnswer(field('tags'), 'z').ok, false);
  });
});

const request: ElicitationRequest = { server: 'docs', message: 'Who are you?', fields, requestedSchema: schema };
const ask = (lines: string[], signal?: AbortSignal) => {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c: Buffer) => (text += c.toString('utf8')));
  return askInTerminal(request, Readable.from(lines.length ? [lines.join('\n') + '\n'] : []), out, signal).then((result) => ({ result, text }));
};

describe('terminal elicitation prompt', () => {
  it('accepts with typed values and defaults, asking again after a bad answer', async () => {
    const { result, text } = await ask(['', 'Ada', 'bad', 'ada@example.com', '', '', '', '', '', 'x', 'a']);
    assert.deepEqual(result, { action: 'accept', content: { name: 'Ada', email: 'ada@example.com', age: 30, ok: true, hero: 'h1', tags: ['a'] } });
    assert.match(text, /MCP server "docs" asks: Who are you\?/);
    assert.match(text, /email must be an e-mail address/);
    assert.match(text, /age \(whole number\) \[30\]: /);
  });

  it('declines on n, cancels at end of input and when the server gives up', async () => {
    assert.deepEqual((await ask(['n'])).result, { action: 'decline' });
    assert.deepEqual((await ask([])).result, { action: 'cancel' });
    assert.deepEqual((await ask(['', 'Ada'])).result, { action: 'cancel' });
    const controller = new AbortController();
    const input = new PassThrough(); // never answers
    const pending = askInTerminal(request, input, new PassThrough(), controller.signal);
    controller.abort();
    assert.deepEqual(await pending, { action: 'cancel' });
  });

  it('the CLI declines unless stdin and stderr are terminals', () => {
    assert.equal(cliElicitation({ stdin: new PassThrough(), stderr: new PassThrough() }), declineElicitation);
    const tty = Object.assign(new PassThrough(), { isTTY: true });
    assert.notEqual(cliElicitation({ stdin: tty, stderr: tty }), declineElicitation);
  });
});
