/**
 * Names of editor chat models: the key the user's permission is remembered under, how a setting names a
 * model, and the model id every answer of the `vscode-lm` provider records.
 */

/** An editor chat model as the provider choice sees it (the fields of VS Code's `LanguageModelChat` we read). */
export interface ChatModelInfo {
  vendor: string;
  family: string;
  id: string;
  name: string;
}

/** `vendor/family`: the key under which the user's permission is remembered, and the model id's tail. */
export function chatModelKey(model: Pick<ChatModelInfo, 'vendor' | 'family'>): string {
  return `${model.vendor}/${model.family}`;
}

/** Does `wanted` (`vendor/family`, `vendor/id`, a family or an id) name `model`? */
export function matchesChatModel(model: ChatModelInfo, wanted: string): boolean {
  return wanted === chatModelKey(model) || wanted === `${model.vendor}/${model.id}` || wanted === model.family || wanted === model.id;
}

/** `vscode-lm:<vendor>/<family>`, the model name recorded for every answer of an editor chat model. */
export function lmModelId(model: Pick<ChatModelInfo, 'vendor' | 'family'>): string {
  return `vscode-lm:${chatModelKey(model)}`;
}
