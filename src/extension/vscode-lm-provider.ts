/**
 * The `vscode-lm` judgment provider: System One answers from the editor's own chat model (`vscode.lm`).
 * Model id `vscode-lm:<vendor>/<family>`; uncalibrated (the probabilities are what the model says).
 * Each question is one chat request asking for a JSON distribution over the labelled options
 * (lm-prompt.ts); the body built here still goes through `validateResponse` on the judgment path.
 */
import * as vscode from 'vscode';
import { estimateTokens } from '../judgment/budget';
import { JevError, cancelled, configError, invalidInput, invalidResponse } from '../judgment/errors';
import type { Answer, SystemOneRequest, SystemOneResponse } from '../judgment/types';
import { renderState } from '../providers/openai/prompt';
import type { CallContext, JudgmentProvider } from '../judgment/provider';
import type { SpendCap } from '../providers/spend-cap';
import { MAX_REPLY_CHARS, answerFrom, lmPrompt, parseDistribution, questionOptions } from './lm-prompt';

/** Requests in flight at once for one tool call. */
const CONCURRENCY = 3;

/** `vscode-lm:<vendor>/<family>`, the model name recorded for every answer. */
export function lmModelId(model: Pick<vscode.LanguageModelChat, 'vendor' | 'family'>): string {
  return `vscode-lm:${model.vendor}/${model.family}`;
}

/**
 * JudgmentProvider over one `LanguageModelChat`. Errors (JevError): CANCELLED (signal), TIMEOUT (deadline),
 * CONFIG_ERROR (no permission, model gone), API_ERROR (blocked/quota, other failures; no model text echoed),
 * INVALID_RESPONSE (no readable distribution), INVALID_INPUT (state not serializable).
 */
export class VscodeLmProvider implements JudgmentProvider {
  readonly id = 'vscode-lm';
  readonly calibrated = false;

  constructor(
    readonly model: vscode.LanguageModelChat,
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
    // One internal token: the caller's signal, the deadline, or the first failure stop every request.
    const cts = new vscode.CancellationTokenSource();
    const stop = () => cts.cancel();
    ctx.signal.addEventListener('abort', stop, { once: true });
    const timer = setTimeout(stop, Math.max(0, ctx.deadline - Date.now()));
    let next = 0;
    const worker = async () => {
      while (next < entries.length) {
        const [id, question] = entries[next++]!;
        const options = questionOptions(question);
        const prompt = lmPrompt(stateText, question, options);
        const reply = await this.ask(prompt, ctx, cts.token);
        usage.input_tokens += estimateTokens(prompt);
        usage.output_tokens += estimateTokens(reply);
        // fromEntries-style own property: an id such as "__proto__" stays a plain key.
        Object.defineProperty(answers, id, { value: answerFrom(question, options, parseDistribution(reply, options)), enumerable: true, writable: true, configurable: true });
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, entries.length) }, worker));
    } catch (err) {
      cts.cancel();
      throw err;
    } finally {
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', stop);
      cts.dispose();
    }
    // Keep question order in the body.
    const ordered: Record<string, Answer> = {};
    for (const [id] of entries) Object.defineProperty(ordered, id, { value: answers[id], enumerable: true, writable: true, configurable: true });
    return { model: lmModelId(this.model), usage, answers: ordered };
  }

  private async ask(prompt: string, ctx: CallContext, token: vscode.CancellationToken): Promise<string> {
    const fail = (err: unknown): JevError => {
      if (ctx.signal.aborted) return cancelled();
      if (Date.now() >= ctx.deadline) return new JevError('TIMEOUT', 'The judgment deadline passed while the editor chat model was answering.', { retryable: true });
      if (err instanceof JevError) return err;
      return mapLmError(err, this.model);
    };
    if (token.isCancellationRequested) throw fail(undefined);
    this.spendCap.beforeAttempt();
    const read = async (): Promise<string> => {
      let text = '';
      const response = await this.model.sendRequest(
        [vscode.LanguageModelChatMessage.User(prompt)],
        { justification: 'Jev Control Panel asks the chat model to judge an agent step (a probability per option).' },
        token,
      );
      for await (const chunk of response.text) {
        text += chunk;
        if (text.length > MAX_REPLY_CHARS) throw invalidResponse('The editor chat model replied with more text than a distribution needs.');
        if (token.isCancellationRequested) break;
      }
      return text;
    };
    // A model that ignores cancellation must not hold the call past its deadline.
    let onCancel: vscode.Disposable | undefined;
    const whenCancelled = new Promise<never>((_, reject) => {
      onCancel = token.onCancellationRequested(() => reject(fail(undefined)));
    });
    let text: string;
    try {
      text = await Promise.race([read(), whenCancelled]);
    } catch (err) {
      throw fail(err);
    } finally {
      onCancel?.dispose();
    }
    if (token.isCancellationRequested) throw fail(undefined);
    return text;
  }
}

/** Maps a `LanguageModelError` (or anything else) to a JevError without echoing foreign text. */
export function mapLmError(err: unknown, model: Pick<vscode.LanguageModelChat, 'vendor' | 'family'>): JevError {
  const name = lmModelId(model);
  if (err instanceof vscode.LanguageModelError) {
    if (err.code === vscode.LanguageModelError.NoPermissions.name) {
      return configError(`Jev may not use ${name}: run "Jev: Use Editor Chat Model" and allow it.`);
    }
    if (err.code === vscode.LanguageModelError.NotFound.name) return configError(`The editor chat model ${name} is no longer available.`);
    if (err.code === vscode.LanguageModelError.Blocked.name) {
      return new JevError('API_ERROR', `The editor chat model ${name} refused the request (rate limit or quota).`, { retryable: true });
    }
  }
  return new JevError('API_ERROR', `The editor chat model ${name} failed while answering.`, { cause: err });
}
