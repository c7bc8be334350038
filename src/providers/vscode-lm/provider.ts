/**
 * The `vscode-lm` judgment provider: System One answers from an editor chat model. Each question is one chat
 * request asking for a JSON distribution over the labelled options (prompt.ts); the body built here still
 * goes through `validateResponse` on the judgment path. Model id `vscode-lm:<vendor>/<family>`;
 * uncalibrated (the probabilities are what the model says).
 *
 * The editor's chat API is reached through `ChatSend`, so everything but the one request itself (prompts,
 * concurrency, deadline, cancellation, spend cap, reading the reply) is host-independent;
 * src/extension/vscode-lm-provider.ts supplies `ChatSend` over `vscode.lm`.
 */
import { estimateTokens } from '../../judgment/budget';
import { JevError, aboutQuestion, cancelled, invalidInput } from '../../judgment/errors';
import type { Answer, SystemOneRequest, SystemOneResponse } from '../../judgment/types';
import { renderState } from '../openai/prompt';
import type { CallContext, JudgmentProvider } from '../../judgment/provider';
import type { SpendCap } from '../spend-cap';
import { lmModelId, type ChatModelInfo } from './model';
import { answerFrom, lmPrompt, parseDistribution, questionOptions } from './prompt';

/** Requests in flight at once for one tool call. */
const CONCURRENCY = 3;

/**
 * One chat request: sends `prompt` as a single user message and resolves with the reply text (at most
 * MAX_REPLY_CHARS characters). It stops when `signal` aborts. Rejects with a JevError naming the model
 * (CONFIG_ERROR for a missing permission or a vanished model, API_ERROR otherwise, INVALID_RESPONSE for an
 * oversized reply); anything else is reported as the model failing while answering.
 */
export type ChatSend = (prompt: string, signal: AbortSignal) => Promise<string>;

/**
 * JudgmentProvider over one editor chat model. Errors (JevError): CANCELLED (signal), TIMEOUT (deadline),
 * what `send` rejects with (no model text echoed), INVALID_RESPONSE (no readable distribution),
 * INVALID_INPUT (state not serializable), API_ERROR (spend cap reached).
 */
export class ChatModelProvider implements JudgmentProvider {
  readonly id = 'vscode-lm';
  readonly calibrated = false;

  constructor(
    readonly model: Pick<ChatModelInfo, 'vendor' | 'family'>,
    private readonly send: ChatSend,
    private readonly spendCap: SpendCap,
  ) {}

  async systemOne(request: SystemOneRequest, ctx: CallContext): Promise<SystemOneResponse> {
    let stateText: string;
    try {
      stateText = renderState(request.state);
    } catch {
      throw invalidInput('The state could not be serialized as JSON (state must be plain JSON data).');
    }
    const entries = Object.entries(request.questions);
    const answers: Record<string, Answer> = {};
    const usage = { input_tokens: 0, output_tokens: 0 };
    // One internal signal: the caller's signal, the deadline, or the first failure stop every request.
    const inner = new AbortController();
    const stop = () => inner.abort();
    if (ctx.signal.aborted) stop();
    ctx.signal.addEventListener('abort', stop, { once: true });
    const timer = setTimeout(stop, Math.max(0, ctx.deadline - Date.now()));
    let next = 0;
    const worker = async () => {
      while (next < entries.length) {
        const [id, question] = entries[next++]!;
        const options = questionOptions(question);
        const prompt = lmPrompt(stateText, question, options);
        const reply = await this.ask(prompt, ctx, inner.signal).catch((err: unknown) => {
          throw err instanceof JevError && err.code === 'INVALID_RESPONSE' ? aboutQuestion(id, err) : err;
        });
        usage.input_tokens += estimateTokens(prompt);
        usage.output_tokens += estimateTokens(reply);
        // fromEntries-style own property: an id such as "__proto__" stays a plain key.
        Object.defineProperty(answers, id, { value: answerFrom(question, options, parseDistribution(reply, options, id)), enumerable: true, writable: true, configurable: true });
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, entries.length) }, worker));
    } catch (err) {
      stop();
      throw err;
    } finally {
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', stop);
    }
    // Keep question order in the body.
    const ordered: Record<string, Answer> = {};
    for (const [id] of entries) Object.defineProperty(ordered, id, { value: answers[id], enumerable: true, writable: true, configurable: true });
    return { model: lmModelId(this.model), usage, answers: ordered };
  }

  private async ask(prompt: string, ctx: CallContext, signal: AbortSignal): Promise<string> {
    const fail = (err: unknown): JevError => {
      if (ctx.signal.aborted) return cancelled();
      if (Date.now() >= ctx.deadline) return new JevError('TIMEOUT', 'The judgment deadline passed while the editor chat model was answering.', { retryable: true });
      if (err instanceof JevError) return err;
      return new JevError('API_ERROR', `The editor chat model ${lmModelId(this.model)} failed while answering.`, { cause: err });
    };
    if (signal.aborted) throw fail(undefined);
    this.spendCap.beforeAttempt();
    // A model that ignores cancellation must not hold the call past its deadline.
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(fail(undefined));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    let text: string;
    try {
      text = await Promise.race([this.send(prompt, signal), aborted]);
    } catch (err) {
      throw fail(err);
    } finally {
      signal.removeEventListener('abort', onAbort!);
    }
    if (signal.aborted) throw fail(undefined);
    return text;
  }
}
