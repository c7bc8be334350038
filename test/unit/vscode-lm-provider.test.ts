/**
 * The vscode-lm provider over a scripted chat (src/providers/vscode-lm/provider.ts): one request per
 * question, the model id, failures that never become answers, the deadline and cancellation, the spend cap.
 * The real `vscode.lm` adapter is exercised by the extension-host suite (05-vscode-lm).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { JevError } from '../../src/judgment/errors';
import type { QuestionMap } from '../../src/judgment/types';
import { validateResponse } from '../../src/judgment/validate';
import { SpendCap } from '../../src/providers/spend-cap';
import { ChatModelProvider, type ChatSend } from '../../src/providers/vscode-lm/provider';

const MODEL = { vendor: 'acme', family: 'judge-1' };
const QUESTIONS: QuestionMap = {
  done: { type: 'noul', instructions: 'Is the task done?', criteria: { true: 'all tests pass', false: 'work remains' } },
  next: { type: 'choice', instructions: 'Which call next?', criteria: { read: 'Read the parser', stop: 'Stop here' } },
};
const request = { state: { task: 'fix the parser' }, questions: QUESTIONS, model: 'jev-latest' };
const context = (ms = 5_000, signal = new AbortController().signal) => ({ signal, deadline: Date.now() + ms });

/** Replies `{"yes": 0.9, "no": 0.1}` to noul prompts and `{"1": 0.7, "2": 0.3}` otherwise; records every prompt. */
function scriptedChat(prompts: string[]): ChatSend {
  return async (prompt) => {
    prompts.push(prompt);
    return /^yes — /m.test(prompt) ? '{"yes": 0.9, "no": 0.1}' : '{"1": 0.7, "2": 0.3}';
  };
}

async function rejection(promise: Promise<unknown>): Promise<JevError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof JevError, `a JevError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a rejection');
}

describe('ChatModelProvider', () => {
  test('asks once per question and answers in question order under vscode-lm:<vendor>/<family>', async () => {
    const prompts: string[] = [];
    const cap = new SpendCap();
    const provider = new ChatModelProvider(MODEL, scriptedChat(prompts), cap);
    const body = await provider.systemOne(request, context());
    assert.equal(prompts.length, 2);
    assert.equal(cap.used, 2, 'every chat request counts against the spend cap');
    assert.equal(body.model, 'vscode-lm:acme/judge-1');
    assert.deepEqual(Object.keys(body.answers), ['done', 'next']);
    assert.ok(body.usage.input_tokens > 0 && body.usage.output_tokens > 0);
    const valid = validateResponse(QUESTIONS, body);
    assert.ok(valid.answers.done?.type === 'noul' && Math.abs(valid.answers.done.noul - 0.9) < 1e-9);
    assert.equal(provider.calibrated, false);
  });

  test('a reply that is not a distribution is INVALID_RESPONSE, and a JevError from the chat passes through', async () => {
    const garbled = new ChatModelProvider(MODEL, async () => 'I think yes.', new SpendCap());
    assert.equal((await rejection(garbled.systemOne(request, context()))).code, 'INVALID_RESPONSE');
    const denied = new ChatModelProvider(MODEL, async () => {
      throw new JevError('CONFIG_ERROR', 'Jev may not use vscode-lm:acme/judge-1.');
    }, new SpendCap());
    const err = await rejection(denied.systemOne(request, context()));
    assert.equal(err.code, 'CONFIG_ERROR');
    const broken = new ChatModelProvider(MODEL, async () => {
      throw new Error('socket closed: secret-token-123');
    }, new SpendCap());
    const failed = await rejection(broken.systemOne(request, context()));
    assert.equal(failed.code, 'API_ERROR');
    assert.doesNotMatch(failed.message, /secret-token/, 'foreign error text is not echoed');
  });

  test('a chat that never answers ends at the deadline with TIMEOUT, and aborts its request', async () => {
    let aborted = 0;
    const hung: ChatSend = (_prompt, signal) =>
      new Promise((_, reject) => signal.addEventListener('abort', () => (aborted++, reject(new Error('cancelled')))));
    const provider = new ChatModelProvider(MODEL, hung, new SpendCap());
    const err = await rejection(provider.systemOne(request, context(50)));
    assert.equal(err.code, 'TIMEOUT');
    assert.equal(aborted, 2, 'both requests in flight were told to stop');
  });

  test('a cancelled call is CANCELLED and a signal aborted before the call sends nothing', async () => {
    const prompts: string[] = [];
    const before = new AbortController();
    before.abort();
    const provider = new ChatModelProvider(MODEL, scriptedChat(prompts), new SpendCap());
    assert.equal((await rejection(provider.systemOne(request, context(5_000, before.signal)))).code, 'CANCELLED');
    assert.equal(prompts.length, 0);
    const during = new AbortController();
    const slow = new ChatModelProvider(MODEL, () => new Promise<string>(() => during.abort()), new SpendCap());
    assert.equal((await rejection(slow.systemOne(request, context(5_000, during.signal)))).code, 'CANCELLED');
  });

  test('the spend cap stops the call before a request is sent', async () => {
    const prompts: string[] = [];
    const provider = new ChatModelProvider(MODEL, scriptedChat(prompts), new SpendCap(1));
    const err = await rejection(provider.systemOne(request, context()));
    assert.equal(err.code, 'API_ERROR');
    assert.match(err.message, /Spend cap reached/);
    assert.equal(prompts.length, 1);
  });
});
