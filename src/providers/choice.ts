/**
 * Which judgment backend the extension uses, and the model id its answers carry. Pure: the host passes what
 * it knows (settings, whether a key is stored, the editor's chat models, the model the user allowed).
 */
import type { PanelSettings } from '../config/panel-settings';
import { mockModelId } from './mock/provider';
import { openAiModelId } from './openai/provider';
import { chatModelKey, lmModelId, matchesChatModel, type ChatModelInfo } from './vscode-lm/model';

/** The chosen backend. `error` set → every judgment fails with CONFIG_ERROR carrying it (fail closed). */
export interface ProviderChoice {
  kind: 'systemone' | 'openai' | 'vscode-lm' | 'mock';
  /** Why this backend, in plain words ("API key set", "no backend configured"). */
  reason: string;
  /** The chat model to use when kind is vscode-lm. */
  chatModel?: ChatModelInfo;
  /** Shown in the panel and the status bar (mock judge, a chat model waiting for permission, problems). */
  warning?: string;
  /** The configured backend cannot work; judgments fail with CONFIG_ERROR and this text. */
  error?: string;
}

const MOCK_WARNING = 'Mock judge in use: deterministic keyword heuristics, not a real judgment.';
const SET_BACKEND_HINT = 'Run "Jev: Set API Key", set jevPanel.baseUrl, or allow an editor chat model.';

/**
 * Chooses the backend. Rules:
 * - `mock` → the mock judge, with its warning.
 * - `systemone` / `openai` → need an API key or `jevPanel.baseUrl`, else `error` (never the mock instead).
 * - `vscode-lm` → the chat model named by `jevPanel.chatModel` (or the first), else `error`. Choosing it in
 *   settings counts as the user's permission.
 * - `auto` → key → systemone; base URL → systemone; else a chat model the user allowed (`allowedChatModel`,
 *   asked on a user action) → vscode-lm; else the mock judge with a warning that says what to do
 *   (naming the available chat model when there is one).
 */
export function chooseProvider(input: {
  settings: Pick<PanelSettings, 'provider' | 'baseUrl' | 'chatModel'>;
  hasApiKey: boolean;
  chatModels: readonly ChatModelInfo[];
  /** `vendor/family` the user allowed with "Jev: Use Editor Chat Model", if any. */
  allowedChatModel?: string;
}): ProviderChoice {
  const { settings, hasApiKey, chatModels } = input;
  const pickModel = () => (settings.chatModel ? chatModels.find((m) => matchesChatModel(m, settings.chatModel!)) : chatModels[0]);
  switch (settings.provider) {
    case 'mock':
      return { kind: 'mock', reason: 'jevPanel.provider is mock', warning: MOCK_WARNING };
    case 'systemone':
    case 'openai': {
      if (hasApiKey || settings.baseUrl) {
        return { kind: settings.provider, reason: `jevPanel.provider is ${settings.provider}` };
      }
      const error = `jevPanel.provider is ${settings.provider} but no API key is stored and jevPanel.baseUrl is not set. Run "Jev: Set API Key" or set jevPanel.baseUrl.`;
      return { kind: settings.provider, reason: `jevPanel.provider is ${settings.provider}`, error, warning: error };
    }
    case 'vscode-lm': {
      const model = pickModel();
      if (model) return { kind: 'vscode-lm', reason: 'jevPanel.provider is vscode-lm', chatModel: model };
      const error = settings.chatModel
        ? `jevPanel.provider is vscode-lm but no editor chat model matches jevPanel.chatModel ${JSON.stringify(settings.chatModel)}.`
        : 'jevPanel.provider is vscode-lm but the editor offers no chat model.';
      return { kind: 'vscode-lm', reason: 'jevPanel.provider is vscode-lm', error, warning: error };
    }
    case 'auto': {
      if (hasApiKey) return { kind: 'systemone', reason: 'API key set' };
      if (settings.baseUrl) return { kind: 'systemone', reason: 'jevPanel.baseUrl set' };
      const model = pickModel();
      if (model && input.allowedChatModel === chatModelKey(model)) {
        return { kind: 'vscode-lm', reason: `editor chat model ${chatModelKey(model)} (allowed by you)`, chatModel: model };
      }
      if (model) {
        return {
          kind: 'mock',
          reason: 'no backend configured',
          warning: `${MOCK_WARNING} The editor chat model ${chatModelKey(model)} is available: run "Jev: Use Editor Chat Model" to judge with it.`,
        };
      }
      return { kind: 'mock', reason: 'no backend configured', warning: `${MOCK_WARNING} ${SET_BACKEND_HINT}` };
    }
  }
}

/**
 * The model id the answers of `choice` record for the configured System One `model`, from the provider that
 * owns it: `<model>+mock`, `openai:<model>`, `vscode-lm:<vendor>/<family>`, or `model` itself (systemone).
 */
export function choiceModelId(choice: ProviderChoice, model: string): string {
  switch (choice.kind) {
    case 'mock':
      return mockModelId(model);
    case 'openai':
      return openAiModelId(model);
    case 'vscode-lm':
      return choice.chatModel ? lmModelId(choice.chatModel) : model;
    case 'systemone':
      return model;
  }
}
