/**
 * The judgment backend of this window: settings → provider choice → provider → JudgmentService, the API
 * key from SecretStorage, the spend cap, and the backend's health as the panel and status bar show it.
 * Chat models are listed only when the choice needs them.
 */
import * as vscode from 'vscode';
import type { PanelSettings } from '../config/panel-settings';
import { editorWording } from '../config/editor-wording';
import { toJevError } from '../judgment/errors';
import { redactText } from '../judgment/redact';
import type { DecisionRecord } from '../ledger/record';
import type { LedgerSink } from '../ledger/sink';
import type { BackendStatus } from '../panel/protocol';
import { BackendHealth } from '../providers/backend-health';
import { DEFAULT_BASE_URL } from '../providers/base-url';
import { chooseProvider, choiceModelId, type ProviderChoice } from '../providers/choice';
import { createProvider } from '../providers/factory';
import { MisconfiguredProvider } from '../providers/misconfigured';
import { MockProvider } from '../providers/mock/provider';
import type { JudgmentProvider } from '../judgment/provider';
import { SpendCap } from '../providers/spend-cap';
import { ALL_TOOLS } from '../tools';
import { LiveJudgmentService, type CallStartObserver } from '../tools/live-service';
import { JudgmentService } from '../tools/judgment-service';
import { ALLOWED_CHAT_MODEL, API_KEY_SECRET } from './constants';
import { createVscodeLmProvider } from './vscode-lm-provider';

/** What the backend needs from the window. */
export interface BackendDeps {
  context: vscode.ExtensionContext;
  log: vscode.LogOutputChannel;
  /** Where every decision is appended. */
  ledger: LedgerSink;
  /** Called with every record the service writes. */
  onRecord(record: DecisionRecord): void;
  /** Called when a judgment call starts; the function it returns when the call has ended (the pending row). */
  onCallStart?: CallStartObserver;
}

interface Current {
  settings: PanelSettings;
  choice: ProviderChoice;
  provider: JudgmentProvider;
  service: JudgmentService;
}

/** The backend of this window; `apply` rebuilds it, `service` always calls the current one. */
export class BackendController {
  /** The service every surface calls; it follows the configuration. */
  readonly service: LiveJudgmentService;
  private current: Current;
  private spendCap = new SpendCap();
  private secretList: readonly string[] = [];
  /** Outcomes of the last decision calls: a failing backend shows as health 'error'. */
  private readonly health = new BackendHealth();
  /** What the health was observed against (provider, model, URL, deadline); a change forgets it. */
  private healthKey = '';

  constructor(
    private readonly deps: BackendDeps,
    settings: PanelSettings,
  ) {
    const provider = new MisconfiguredProvider('none', 'Jev Control Panel is still starting.');
    this.current = { settings, choice: { kind: 'mock', reason: 'starting' }, provider, service: this.buildService(settings, provider) };
    this.service = new LiveJudgmentService(() => this.current.service, deps.onCallStart);
  }

  /** The settings the backend was last built from. */
  get settings(): PanelSettings {
    return this.current.settings;
  }

  /** The provider choice now (the commit hook asks whether the judge is real or the mock). */
  get choice(): ProviderChoice {
    return this.current.choice;
  }

  /** The API key as a redaction list: a new list (by identity) whenever the key changes. */
  get secrets(): readonly string[] {
    return this.secretList;
  }

  /** Rebuilds provider and service from `settings`, the stored key and (when needed) the chat models. */
  async apply(settings: PanelSettings, reason: string): Promise<void> {
    const { context, log } = this.deps;
    const apiKey = (await context.secrets.get(API_KEY_SECRET))?.trim() || undefined;
    const needModels = settings.provider === 'vscode-lm' || (settings.provider === 'auto' && !apiKey && !settings.baseUrl);
    const models = needModels ? await this.chatModels() : [];
    const choice = chooseProvider({
      settings,
      hasApiKey: apiKey !== undefined,
      chatModels: models.map((m) => ({ vendor: m.vendor, family: m.family, id: m.id, name: m.name })),
      allowedChatModel: context.globalState.get<string>(ALLOWED_CHAT_MODEL),
    });
    if (settings.spendCap !== this.spendCap.maxAttempts) this.spendCap = new SpendCap(settings.spendCap);
    const provider = this.buildProvider(settings, choice, apiKey, models);
    const keyChanged = this.secretList[0] !== apiKey;
    if (keyChanged) this.secretList = apiKey ? [apiKey] : []; // a new list reopens the ledger sink
    const healthKey = JSON.stringify([choice.kind, choice.chatModel?.id, settings.baseUrl, settings.model, settings.timeoutMs]);
    if (keyChanged || healthKey !== this.healthKey) this.health.reset();
    this.healthKey = healthKey;
    this.current = { settings, choice, provider, service: this.buildService(settings, provider) };
    log.info(`configuration (${reason}): provider ${choice.kind} (${choice.reason})${choice.error ? ` — ${choice.error}` : ''}`);
  }

  /** Takes in one ledger record; true when the backend's health changed. */
  observe(record: DecisionRecord): boolean {
    return this.health.observe(record);
  }

  /** Backend status line of the panel and the status bar; `endpointUrl` when the in-host endpoint listens. */
  status(endpointUrl?: string): BackendStatus {
    const { settings, choice, provider } = this.current;
    const messages: string[] = [];
    const failure = this.health.describe();
    if (failure) messages.push(redactText(failure, this.secretList));
    if (choice.warning) messages.push(choice.warning);
    messages.push(...settings.problems);
    if (!settings.trusted) {
      messages.push(
        'Workspace not trusted: jevPanel settings from this workspace are ignored and only MCP servers from your user settings are started.',
      );
    }
    return {
      provider: choice.kind,
      model: choiceModelId(choice, settings.model),
      reason: choice.reason,
      health: choice.error || failure ? 'error' : messages.length ? 'warning' : 'ok',
      ...(messages.length ? { message: editorWording(messages.join(' ')) } : {}),
      calibrated: provider.calibrated && !choice.error,
      spend: { used: this.spendCap.used, ...(this.spendCap.maxAttempts !== undefined ? { cap: this.spendCap.maxAttempts } : {}) },
      thresholds: { ...settings.floors },
      ...(endpointUrl ? { endpoint: endpointUrl } : {}),
    };
  }

  private buildService(settings: PanelSettings, provider: JudgmentProvider): JudgmentService {
    return new JudgmentService({
      provider,
      tools: ALL_TOOLS,
      floors: settings.floors,
      model: settings.model,
      timeoutMs: settings.timeoutMs,
      ledger: this.deps.ledger,
      secrets: this.secretList,
      onRecord: (record) => this.deps.onRecord(record),
    });
  }

  private async chatModels(): Promise<vscode.LanguageModelChat[]> {
    if (typeof vscode.lm?.selectChatModels !== 'function') return [];
    try {
      return await vscode.lm.selectChatModels();
    } catch (err) {
      this.deps.log.warn(`listing the editor's chat models failed: ${(err as Error)?.message ?? String(err)}`);
      return [];
    }
  }

  private buildProvider(settings: PanelSettings, choice: ProviderChoice, apiKey: string | undefined, models: vscode.LanguageModelChat[]): JudgmentProvider {
    if (choice.error) return new MisconfiguredProvider(choice.kind, choice.error);
    switch (choice.kind) {
      case 'mock':
        return new MockProvider();
      case 'vscode-lm': {
        const model = models.find((m) => m.id === choice.chatModel!.id && m.vendor === choice.chatModel!.vendor)!;
        return createVscodeLmProvider(model, this.spendCap);
      }
      case 'systemone':
      case 'openai':
        try {
          return createProvider(
            {
              provider: choice.kind,
              providerReason: choice.reason,
              apiKey,
              baseUrl: settings.baseUrl ?? DEFAULT_BASE_URL,
              baseUrlSet: settings.baseUrl !== undefined,
              model: settings.model,
              floors: settings.floors,
              timeoutMs: settings.timeoutMs,
              spendCap: settings.spendCap,
              mcpOracle: false,
            },
            this.spendCap,
          );
        } catch (err) {
          return new MisconfiguredProvider(choice.kind, toJevError(err).message);
        }
    }
  }
}
