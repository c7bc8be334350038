import * as vscode from 'vscode';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationHandler, ElicitationRequest } from '../../registry/client-features';
import { checkCount, parseAnswer, type FormField } from '../../registry/elicitation/form';

/**
 * A server's elicitation request asked in the editor: a notification with the question (Respond /
 * Decline; dismissing it cancels), then one input box or quick pick per field, pre-filled with the
 * schema's default and checked as typed (registry/elicitation/form.ts). Escape on any field cancels,
 * and so does the server giving up. Requests are asked one at a time.
 */

type Step = { value: unknown } | 'cancel';

async function askField(server: string, field: FormField, token: vscode.CancellationToken): Promise<Step> {
  const title = `${server}: ${field.label}${field.required ? '' : ' (optional)'}`;
  const optional = field.required ? [] : [{ label: '$(dash) Leave empty', value: undefined as unknown }];
  if (field.kind === 'boolean') {
    const items = [{ label: 'Yes', value: true as unknown }, { label: 'No', value: false as unknown }, ...optional];
    const def = items.find((i) => i.value === field.default);
    if (def) def.label += ' (default)';
    const pick = await vscode.window.showQuickPick(items, { title, placeHolder: field.description, ignoreFocusOut: true }, token);
    return pick ? { value: pick.value } : 'cancel';
  }
  if (field.kind === 'choice') {
    const items = [...field.options.map((o) => ({ label: o.label, description: o.value === field.default ? `${o.value} (default)` : o.value, value: o.value as unknown })), ...optional];
    const pick = await vscode.window.showQuickPick(items, { title, placeHolder: field.description, ignoreFocusOut: true }, token);
    return pick ? { value: pick.value } : 'cancel';
  }
  if (field.kind === 'multi') {
    for (;;) {
      const items = field.options.map((o) => ({ label: o.label, description: o.value, value: o.value, picked: field.default?.includes(o.value) ?? false }));
      const picks = await vscode.window.showQuickPick(items, { title, placeHolder: field.description, canPickMany: true, ignoreFocusOut: true }, token);
      if (!picks) return 'cancel';
      const answer = checkCount(field, picks.map((p) => p.value));
      if (answer.ok) return { value: picks.length || field.required ? answer.value : undefined };
      void vscode.window.showWarningMessage(answer.error);
    }
  }
  const text = await vscode.window.showInputBox(
    {
      title,
      prompt: field.description,
      value: field.default === undefined ? '' : String(field.default),
      ignoreFocusOut: true,
      validateInput: (t) => {
        const answer = parseAnswer(field, t);
        return answer.ok ? undefined : answer.error;
      },
    },
    token,
  );
  if (text === undefined) return 'cancel';
  const answer = parseAnswer(field, text);
  return answer.ok ? { value: answer.value } : 'cancel';
}

async function ask(request: ElicitationRequest, token: vscode.CancellationToken): Promise<ElicitResult> {
  const choice = await vscode.window.showInformationMessage(`MCP server "${request.server}" asks: ${request.message}`, 'Respond', 'Decline');
  if (token.isCancellationRequested || choice === undefined) return { action: 'cancel' };
  if (choice === 'Decline') return { action: 'decline' };
  const content: Record<string, unknown> = {};
  for (const field of request.fields) {
    const step = await askField(request.server, field, token);
    if (step === 'cancel' || token.isCancellationRequested) return { action: 'cancel' };
    if (step.value !== undefined) content[field.name] = step.value;
  }
  return { action: 'accept', content: content as ElicitResult['content'] };
}

/** The editor's elicitation handler (see the file comment). */
export function editorElicitation(): ElicitationHandler {
  let queue: Promise<unknown> = Promise.resolve();
  return (request, signal) => {
    const asked = queue.then(async () => {
      const source = new vscode.CancellationTokenSource();
      const onAbort = () => source.cancel();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const cancelled = new Promise<ElicitResult>((resolve) => source.token.onCancellationRequested(() => resolve({ action: 'cancel' })));
        return await Promise.race([ask(request, source.token), cancelled]);
      } finally {
        signal.removeEventListener('abort', onAbort);
        source.dispose();
      }
    });
    queue = asked.catch(() => undefined);
    return asked;
  };
}
