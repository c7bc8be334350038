/**
 * Which judgment backend the extension uses (DESIGN "Providers and configuration", issue #4 "Provider auto").
 * Pure: the host passes what it knows (settings, whether a key is stored, the editor's chat models, the
 * model the user allowed). No `vscode` import.
 */
import type { PanelSettings } from './settings';

/** An editor chat model as the choice sees it. */
export interface ChatModelInfo {
  vendor: string;
  family: string;
  id: string;
  name: string;
}

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

/** `vendor/family`, the key under which the user's permission is remembered and the ledger model id's tail. */
export function chatModelKey(model: Pick<ChatModelInfo, 'vendor' | 'family'>): string {
  return `${model.vendor}/${model.family}`;
}

/** Does `wanted` (`vendor/family`, `vendor/id`, a family or an id) name `model`? */
export function matchesChatModel(model: ChatModelInfo, wanted: string): boolean {
  return wanted === chatModelKey(model) || wanted === `${model.vendor}/${model.id}` || wanted === model.family || wanted === model.id;
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
  settings: PanelSettings;
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
