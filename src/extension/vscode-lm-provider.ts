/**
 * The `vscode-lm` provider's one `vscode` piece: a chat request to a `vscode.LanguageModelChat`, cancelled
 * through a CancellationToken, with the editor's errors mapped to JevErrors. Everything else (prompts,
 * concurrency, deadline, reading the reply) is src/providers/vscode-lm/provider.ts.
 */
import * as vscode from 'vscode';
import { JevError, configError, invalidResponse } from '../judgment/errors';
import type { JudgmentProvider } from '../judgment/provider';
import type { SpendCap } from '../providers/spend-cap';
import { lmModelId } from '../providers/vscode-lm/model';
import { MAX_REPLY_CHARS } from '../providers/vscode-lm/prompt';
import { ChatModelProvider } from '../providers/vscode-lm/provider';

/** The judgment provider over the editor chat model `model`; every attempt counts against `spendCap`. */
export function createVscodeLmProvider(model: vscode.LanguageModelChat, spendCap: SpendCap): JudgmentProvider {
  return new ChatModelProvider(model, (prompt, signal) => sendChatRequest(model, prompt, signal), spendCap);
}

/** Sends `prompt` as one user message and reads the streamed reply (at most MAX_REPLY_CHARS); see `ChatSend`. */
async function sendChatRequest(model: vscode.LanguageModelChat, prompt: string, signal: AbortSignal): Promise<string> {
  const cts = new vscode.CancellationTokenSource();
  const cancel = () => cts.cancel();
  signal.addEventListener('abort', cancel, { once: true });
  try {
    let text = '';
    const response = await model.sendRequest(
      [vscode.LanguageModelChatMessage.User(prompt)],
      { justification: 'Jev Control Panel asks the chat model to judge an agent step (a probability per option).' },
      cts.token,
    );
    for await (const chunk of response.text) {
      text += chunk;
      if (text.length > MAX_REPLY_CHARS) throw invalidResponse('The editor chat model replied with more text than a distribution needs.');
      if (cts.token.isCancellationRequested) break;
    }
    return text;
  } catch (err) {
    throw err instanceof JevError ? err : mapLmError(err, model);
  } finally {
    signal.removeEventListener('abort', cancel);
    cts.dispose();
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
