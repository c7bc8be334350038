/**
 * The extension's runtime: settings → provider → JudgmentService, the ToolRegistry of configured MCP
 * servers, the in-host MCP endpoint, the feed, and the panel's view of all of it. Everything heavy is lazy:
 * building it reads settings and SecretStorage only; chat models are listed only when the provider choice
 * needs them; the endpoint listens on the first definition request; MCP servers start only when the editor
 * connects to the endpoint (or the user restarts one), and only servers from trusted settings scopes
 * (settings.ts).
 */
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { JevConfig } from '../config/env';
import { toJevError } from '../judgment/errors';
import { redactText } from '../judgment/redact';
import type { DecisionRecord } from '../ledger/record';
import { SERVER_NAME } from '../mcp/identity';
import type { AgentView, BackendStatus, PanelSnapshot, ServerView } from '../panel/protocol';
import { DEFAULT_BASE_URL } from '../providers/base-url';
import { createProvider } from '../providers/factory';
import { MockProvider } from '../providers/mock/provider';
import type { JudgmentProvider } from '../judgment/provider';
import { SpendCap } from '../providers/spend-cap';
import { execute, type ExecutionOutcome } from '../registry/execute';
import { registerJudgmentTools } from '../registry/judgment-tools';
import { decideGrant, type AgentManifest } from '../registry/manifest';
import type { McpConnection } from '../registry/connection';
import { ToolRegistry, type RegistryEvent } from '../registry/registry';
import { ALL_TOOLS } from '../tools';
import { JudgmentService } from '../tools/judgment-service';
import { ALLOWED_CHAT_MODEL, API_KEY_SECRET } from './constants';
import { createEditorServer, editorTools } from './editor-server';
import { McpHttpEndpoint, type EndpointInfo } from '../mcp/http-endpoint';
import { BackendHealth } from './backend-health';
import { FeedStore } from './feed-store';
import { MAX_LOG_MARKS, renderServerLog, startHeader, type LogMark } from './server-log';
import { toggleGrant } from './grants';
import { LazyLedger } from './lazy-ledger';
import { LiveJudgmentService, MisconfiguredProvider } from './live-service';
import { chooseProvider, type ChatModelInfo, type ProviderChoice } from './provider-choice';
import { EDITOR_AGENT, readPanelSettings, type PanelSettings, type SettingKey } from './settings';
import { VscodeLmProvider, lmModelId } from './vscode-lm-provider';
import { editorWording } from './editor-wording';
import { editorMcpClient } from './mcp-client/options';
import type { ConnectionStatus } from '../registry/connection';
import type { SignInInteraction } from '../registry/oauth/sign-in';

export { ALLOWED_CHAT_MODEL, API_KEY_SECRET } from './constants';
/** Judgment tool names: the default grants of `editor`. */
export const JUDGMENT_TOOL_NAMES: readonly string[] = ALL_TOOLS.map((t) => t.name);

export class JevRuntime implements vscode.Disposable {
  readonly feed: FeedStore;
  /** The service every surface calls; follows the configuration. */
  readonly service: LiveJudgmentService;
  readonly endpoint: McpHttpEndpoint;
  /** Names of MCP servers whose connections this runtime started (the Workspace Trust tests read it). */
  readonly startedServers: string[] = [];
  /** Connections this runtime started (a rebuilt registry has new ones). */
  private readonly started = new WeakSet<McpConnection>();
  /** Start-attempt headers of each connection's stderr log. */
  private readonly logMarks = new WeakMap<McpConnection, LogMark[]>();

  private readonly statusEmitter = new vscode.EventEmitter<void>();
  private readonly serversEmitter = new vscode.EventEmitter<void>();
  private readonly agentsEmitter = new vscode.EventEmitter<void>();
  private readonly definitionsEmitter = new vscode.EventEmitter<void>();
  /** Status (provider, model, health) changed. */
  readonly onDidChangeStatus = this.statusEmitter.event;
  /** MCP server rows changed (status, tools). */
  readonly onDidChangeServers = this.serversEmitter.event;
  /** Agents or grants changed. */
  readonly onDidChangeAgents = this.agentsEmitter.event;
  /** The MCP server definition handed to the editor changed (settings, endpoint restart, tool set). */
  readonly onDidChangeDefinitions = this.definitionsEmitter.event;

  private current: { settings: PanelSettings; choice: ProviderChoice; service: JudgmentService; provider: JudgmentProvider };
  private spendCap = new SpendCap();
  private registry?: ToolRegistry;
  private registryKey = '';
  private serversWanted = false;
  private toolsVersion = '';
  private readonly ledger: LazyLedger;
  /** The API key from SecretStorage, redacted from tool inputs and ledger lines. */
  private secrets: readonly string[] = [];
  private refreshing: Promise<void> = Promise.resolve();
  /** Tail of the grant-toggle queue (never rejects). */
  private toggling: Promise<void> = Promise.resolve();
  /** Outcomes of the last decision calls: a failing backend shows as health 'error'. */
  private readonly health = new BackendHealth();
  /** What the backend health was observed against (provider, model, URL, key); a change forgets it. */
  private backendKey = '';
  private readonly disposables: vscode.Disposable[] = [];
  /** OAuth, elicitation and roots of the registry's MCP client. */
  private readonly mcpClient: ReturnType<typeof editorMcpClient>;
  /** Servers already told to need a sign-in (one notification each). */
  private readonly signInNoticed = new Set<string>();
  /** Resolves after the first refresh (settings, key, provider). */
  readonly ready: Promise<void>;

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
  ) {
    this.mcpClient = editorMcpClient(context);
    this.disposables.push(this.mcpClient);
    this.ledger = new LazyLedger(() => this.ledgerPath(), (m) => this.log.error(m), () => this.secrets);
    this.feed = new FeedStore({ ledgerPath: () => this.ledgerPath() });
    const settings = this.readSettings();
    const choice: ProviderChoice = { kind: 'mock', reason: 'starting' };
    const provider = new MisconfiguredProvider('none', 'Jev Control Panel is still starting.');
    this.current = { settings, choice, provider, service: this.buildService(settings, provider) };
    this.service = new LiveJudgmentService(() => this.current.service);
    this.endpoint = new McpHttpEndpoint({
      createSession: () =>
        createEditorServer({
          service: this.service,
          registry: () => this.registry,
          manifest: () => this.manifest(EDITOR_AGENT),
          floors: () => this.current.settings.floors,
          record: (record) => void this.recordExecution(record),
          beforeList: () => this.serversForListing(),
        }),
      log: (level, message) => this.log[level](message),
    });
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('jevPanel')) return;
        void this.refresh('settings changed').then(() => this.definitionsEmitter.fire());
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.refresh('workspace trusted').then(() => this.definitionsEmitter.fire())),
      context.secrets.onDidChange((e) => {
        if (e.key === API_KEY_SECRET) void this.refresh('API key changed');
      }),
    );
    if (typeof vscode.lm?.onDidChangeChatModels === 'function') {
      this.disposables.push(
        vscode.lm.onDidChangeChatModels(() => {
          const p = this.current.settings.provider;
          if (p === 'auto' || p === 'vscode-lm') void this.refresh('chat models changed');
        }),
      );
    }
    this.ready = this.refresh('activation');
  }

  /** Current validated settings. */
  get settings(): PanelSettings {
    return this.current.settings;
  }

  /** Current provider choice. */
  get choice(): ProviderChoice {
    return this.current.choice;
  }

  /** The judgment provider in use. */
  get provider(): JudgmentProvider {
    return this.current.provider;
  }

  /** Where records are appended: `jevPanel.ledger` or `ledger.jsonl` in the extension's global storage. */
  ledgerPath(): string {
    return this.current?.settings.ledgerPath ?? join(this.context.globalStorageUri.fsPath, 'ledger.jsonl');
  }

  /** Manifest of agent `name` (the `editor` default when settings define none). */
  manifest(name: string): AgentManifest {
    return this.current.settings.agents.find((a) => a.name === name) ?? { name, tools: [] };
  }

  private readSettings(): PanelSettings {
    const config = vscode.workspace.getConfiguration('jevPanel');
    return readPanelSettings((key: SettingKey) => config.inspect(key), {
      trusted: vscode.workspace.isTrusted,
      judgmentTools: JUDGMENT_TOOL_NAMES,
      homeDir: homedir(),
    });
  }

  private buildService(settings: PanelSettings, provider: JudgmentProvider): JudgmentService {
    return new JudgmentService({
      provider,
      tools: ALL_TOOLS,
      floors: settings.floors,
      model: settings.model,
      timeoutMs: settings.timeoutMs,
      ledger: this.ledger,
      secrets: this.secrets,
      onRecord: (record) => this.onRecord(record),
    });
  }

  private onRecord(record: DecisionRecord): void {
    this.feed.add(record);
    if (this.health.observe(record)) this.statusEmitter.fire();
    const outcome = record.error ? `${record.error.code}` : String((record.result as { action?: unknown } | undefined)?.action ?? 'ok');
    this.log.info(`${record.kind} ${record.tool} as ${record.agent}: ${outcome} (${record.latency_ms} ms)`);
    if (record.kind === 'decision' && record.provider !== 'mock') this.statusEmitter.fire(); // spend moved
  }

  private async recordExecution(record: DecisionRecord): Promise<void> {
    try {
      await this.ledger.append(record);
    } catch {
      // reported once by the ledger
    }
    this.onRecord(record);
  }

  /** Re-reads settings, key and (when needed) chat models, and rebuilds provider, service and registry. Serialized. */
  refresh(reason: string): Promise<void> {
    this.refreshing = this.refreshing.then(() => this.doRefresh(reason)).catch((err: unknown) => {
      this.log.error(`refresh (${reason}) failed: ${(err as Error)?.message ?? String(err)}`);
    });
    return this.refreshing;
  }

  private async doRefresh(reason: string): Promise<void> {
    const settings = this.readSettings();
    const apiKey = (await this.context.secrets.get(API_KEY_SECRET))?.trim() || undefined;
    const needModels = settings.provider === 'vscode-lm' || (settings.provider === 'auto' && !apiKey && !settings.baseUrl);
    const models = needModels ? await this.chatModels() : [];
    const choice = chooseProvider({
      settings,
      hasApiKey: apiKey !== undefined,
      chatModels: models.map(infoOf),
      allowedChatModel: this.context.globalState.get<string>(ALLOWED_CHAT_MODEL),
    });
    if (settings.spendCap !== this.spendCap.maxAttempts) this.spendCap = new SpendCap(settings.spendCap);
    const provider = this.buildProvider(settings, choice, apiKey, models);
    const keyChanged = this.secrets[0] !== apiKey;
    if (keyChanged) this.secrets = apiKey ? [apiKey] : []; // a new list reopens the ledger sink
    const backendKey = JSON.stringify([choice.kind, choice.chatModel?.id, settings.baseUrl, settings.model, settings.timeoutMs]);
    if (keyChanged || backendKey !== this.backendKey) this.health.reset();
    this.backendKey = backendKey;
    this.current = { settings, choice, provider, service: this.buildService(settings, provider) };
    this.log.info(`configuration (${reason}): provider ${choice.kind} (${choice.reason})${choice.error ? ` — ${choice.error}` : ''}`);
    for (const problem of settings.problems) this.log.warn(problem);
    if (settings.ignoredWorkspaceKeys.length) {
      this.log.warn(`workspace not trusted: ignoring workspace values of jevPanel.${settings.ignoredWorkspaceKeys.join(', jevPanel.')}`);
    }
    await this.syncRegistry(settings);
    if (this.toolsVersion) this.bumpToolsVersion();
    this.statusEmitter.fire();
    this.agentsEmitter.fire();
    this.serversEmitter.fire();
  }

  private async chatModels(): Promise<vscode.LanguageModelChat[]> {
    if (typeof vscode.lm?.selectChatModels !== 'function') return [];
    try {
      return await vscode.lm.selectChatModels();
    } catch (err) {
      this.log.warn(`listing the editor's chat models failed: ${(err as Error)?.message ?? String(err)}`);
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
        return new VscodeLmProvider(model, this.spendCap);
      }
      case 'systemone':
      case 'openai': {
        const config: JevConfig = {
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
        };
        try {
          return createProvider(config, this.spendCap);
        } catch (err) {
          return new MisconfiguredProvider(choice.kind, toJevError(err).message);
        }
      }
    }
  }

  /** Rebuilds the registry when the server configuration changed; restarts servers that were running. */
  private async syncRegistry(settings: PanelSettings): Promise<void> {
    const key = JSON.stringify(settings.servers);
    if (this.registry && key === this.registryKey) return;
    const old = this.registry;
    this.registryKey = key;
    const folder = vscode.workspace.isTrusted ? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath : undefined;
    const registry = new ToolRegistry({
      servers: settings.servers.map((s) => ({ name: s.name, config: s.config, source: 'config' as const })),
      connection: { cwd: folder ?? homedir(), clientInfo: { name: 'jev-control-panel', version: String(this.context.extension.packageJSON.version ?? '0') }, ...this.mcpClient.options },
      onEvent: (event) => this.onRegistryEvent(event),
    });
    registerJudgmentTools(registry, this.service);
    this.registry = registry;
    if (old) await old.shutdown().catch(() => undefined);
    if (this.serversWanted) void this.startServers();
  }

  private onRegistryEvent(event: RegistryEvent): void {
    switch (event.type) {
      case 'server.status':
        if (event.status.state === 'starting') this.markStart(event.server, event.time, event.status.restarts);
        if (event.status.auth === 'required' && !this.signInNoticed.has(event.server)) {
          this.signInNoticed.add(event.server);
          void vscode.window.showWarningMessage(`Jev: MCP server "${event.server}" needs you to sign in.`, 'Sign In').then((c) => c && vscode.commands.executeCommand('jevPanel.signInServer', event.server));
        }
        this.log.info(`MCP server ${event.server}: ${event.status.state}${event.status.reason ? ` (${event.status.reason})` : ''}`);
        this.serversEmitter.fire();
        break;
      case 'server.tools':
        this.serversEmitter.fire();
        this.agentsEmitter.fire();
        this.bumpToolsVersion();
        break;
      case 'tool.denied':
        this.log.warn(`denied: ${event.agent} → ${event.tool}: ${event.reason}`);
        break;
      case 'tool.call':
        if (!event.ok) this.log.warn(`${event.agent} → ${event.tool} failed: ${event.error.code}: ${event.error.message}`);
        break;
    }
  }

  /** Version of the tool set the editor sees; a change re-announces the MCP definition. */
  get definitionVersion(): string {
    if (!this.toolsVersion) this.toolsVersion = this.computeToolsVersion();
    return this.toolsVersion;
  }

  private computeToolsVersion(): string {
    const names = editorTools({ service: this.service, registry: () => this.registry, manifest: () => this.manifest(EDITOR_AGENT) }).map((t) => t.name);
    let h = 0;
    for (const ch of names.join('\n')) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
    return `${String(this.context.extension.packageJSON.version ?? '0')}+${(h >>> 0).toString(16)}`;
  }

  private bumpToolsVersion(): void {
    const next = this.computeToolsVersion();
    if (next !== this.toolsVersion) {
      this.toolsVersion = next;
      this.definitionsEmitter.fire();
    }
  }

  /**
   * Starts the configured MCP servers not started yet (once wanted, servers of a rebuilt registry start
   * too). A server that crashed is left to its own restart policy, never respawned here. Never rejects.
   */
  async startServers(): Promise<void> {
    this.serversWanted = true;
    const registry = this.registry;
    if (!registry) return;
    const fresh = registry.servers.filter((c) => !this.started.has(c));
    for (const c of fresh) {
      this.started.add(c);
      if (!this.startedServers.includes(c.name)) this.startedServers.push(c.name);
    }
    await Promise.all(fresh.map((c) => c.start()));
  }

  /**
   * Starts the endpoint listener (a loopback socket, no process). With `withServers`, also starts (in the
   * background) the MCP servers whose tools it exposes: done when VS Code resolves the definition to connect,
   * not when it merely lists definitions.
   */
  async ensureEndpoint(withServers = false): Promise<EndpointInfo> {
    await this.ready;
    const info = await this.endpoint.start();
    if (withServers) void this.startServers();
    this.statusEmitter.fire();
    this.serversEmitter.fire();
    return info;
  }

  /** Before a tools/list: start new servers and give starting ones up to `waitMs` to list their tools. */
  private async serversForListing(waitMs = 5_000): Promise<void> {
    const settle = this.startServers().then(() => Promise.all((this.registry?.servers ?? []).map((c) => c.settled())));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([settle, new Promise<void>((r) => (timer = setTimeout(r, waitMs)))]);
    clearTimeout(timer);
  }

  /** Stops and starts the endpoint: a new port and a new token; the editor gets a changed definition. */
  async restartEndpoint(): Promise<EndpointInfo> {
    await this.endpoint.stop();
    const info = await this.ensureEndpoint(true);
    this.definitionsEmitter.fire();
    return info;
  }

  /** Restarts one server (`jev-control-panel` = the endpoint). Throws Error for an unknown name. */
  async restartServer(name: string): Promise<void> {
    if (name === SERVER_NAME) {
      await this.restartEndpoint();
      return;
    }
    const connection = this.registry?.server(name);
    if (!connection) throw new Error(`No MCP server named ${JSON.stringify(name)} is configured.`);
    this.started.add(connection);
    if (!this.startedServers.includes(name)) this.startedServers.push(name);
    await connection.restart();
    this.serversEmitter.fire();
  }

  /** Names of the configured servers that sign in with OAuth. */
  oauthServers(): string[] {
    return (this.registry?.servers ?? []).filter((c) => c.usesOAuth).map((c) => c.name);
  }

  /** Signs in to server `name` (browser step through `interaction`). Throws Error for an unknown name or a server without OAuth. */
  async signInServer(name: string, interaction: SignInInteraction): Promise<ConnectionStatus> {
    const connection = this.registry?.server(name);
    if (!connection) throw new Error(`No MCP server named ${JSON.stringify(name)} is configured.`);
    this.started.add(connection);
    if (!this.startedServers.includes(name)) this.startedServers.push(name);
    this.signInNoticed.add(name); // the user is signing in: no "needs sign-in" notice for this attempt
    try {
      return await connection.signIn(interaction);
    } finally {
      this.signInNoticed.delete(name);
      this.serversEmitter.fire();
    }
  }

  /** Forgets server `name`'s OAuth tokens and client. Throws Error for an unknown name or a server without OAuth. */
  async signOutServer(name: string): Promise<void> {
    const connection = this.registry?.server(name);
    if (!connection) throw new Error(`No MCP server named ${JSON.stringify(name)} is configured.`);
    this.signInNoticed.add(name); // signing out on purpose: the "needs sign-in" state is expected
    await connection.signOut();
    this.serversEmitter.fire();
  }

  /** Last stderr lines of server `name` (undefined for an unknown server). */
  serverLog(name: string): string[] | undefined {
    return this.registry?.server(name)?.stderr;
  }

  /** Read-only log text of server `name`: its kept stderr lines, a header before each start attempt (undefined when unknown). */
  serverLogText(name: string): string | undefined {
    const connection = this.registry?.server(name);
    if (!connection) return undefined;
    return renderServerLog(name, connection.stderr, connection.stderrDropped, this.logMarks.get(connection) ?? []);
  }

  private markStart(name: string, time: number, restarts: number): void {
    const connection = this.registry?.server(name);
    if (!connection) return;
    const marks = this.logMarks.get(connection) ?? [];
    const at = connection.stderrDropped + connection.stderr.length;
    if (marks.at(-1)?.at === at && marks.length > 0 && restarts === 0) return; // the same start reported twice
    marks.push({ at, header: startHeader(time, restarts) });
    if (marks.length > MAX_LOG_MARKS) marks.splice(0, marks.length - MAX_LOG_MARKS);
    this.logMarks.set(connection, marks);
  }

  /** Backend status line of the panel and the status bar. */
  status(): BackendStatus {
    const { settings, choice, provider } = this.current;
    const messages: string[] = [];
    const failure = this.health.describe();
    if (failure) messages.push(redactText(failure, this.secrets));
    if (choice.warning) messages.push(choice.warning);
    messages.push(...settings.problems);
    if (!settings.trusted) {
      messages.push(
        'Workspace not trusted: jevPanel settings from this workspace are ignored and only MCP servers from your user settings are started.',
      );
    }
    const model =
      choice.kind === 'mock'
        ? `${settings.model}+mock`
        : choice.kind === 'vscode-lm' && choice.chatModel
          ? lmModelId(choice.chatModel)
          : choice.kind === 'openai'
            ? `openai:${settings.model}`
            : settings.model;
    return {
      provider: choice.kind,
      model,
      reason: choice.reason,
      health: choice.error || failure ? 'error' : messages.length ? 'warning' : 'ok',
      ...(messages.length ? { message: editorWording(messages.join(' ')) } : {}),
      calibrated: provider.calibrated && !choice.error,
      spend: { used: this.spendCap.used, ...(this.spendCap.maxAttempts !== undefined ? { cap: this.spendCap.maxAttempts } : {}) },
      thresholds: { ...settings.floors },
      ...(this.endpoint.info ? { endpoint: this.endpoint.info.url } : {}),
    };
  }

  /**
   * Runs the call `decision` accepted (registry/execute.ts: handoff execute_tool with action auto only, the
   * exact call) as agent `agent`, through the registry's capability check, after starting the configured
   * MCP servers. The execution is recorded in the ledger and the feed. Used by the inline "Execute call".
   */
  async executeAccepted(decision: DecisionRecord, agent: string, signal?: AbortSignal): Promise<ExecutionOutcome> {
    await this.startServers();
    const registry = this.registry;
    if (!registry) return { executed: false, reason: 'the tool registry is not ready yet' };
    return execute({ registry, ledger: this.ledger, signal, onRecord: (record) => this.onRecord(record) }, this.manifest(agent), decision);
  }

  /**
   * Whether agent `agent` may call `tool` (bare or `server/tool`, as a decision names it), with the
   * registry's why. A tool no running server lists yet counts as allowed when a configured server could offer
   * it under a granted id (servers start on demand), so the answer errs towards offering; the registry's
   * capability check at execution stays the authority.
   */
  callPermission(agent: string, tool: string): { allowed: boolean; reason: string } {
    const manifest = this.manifest(agent);
    const why = this.registry?.why(manifest, tool);
    if (why?.known) return { allowed: why.allowed, reason: why.reason };
    const slash = tool.indexOf('/');
    const bare = slash > 0 ? tool.slice(slash + 1) : tool;
    const servers = slash > 0 ? [tool.slice(0, slash)] : this.current.settings.servers.map((s) => s.name);
    for (const server of servers) {
      const decision = decideGrant(manifest, { id: `${server}/${bare}`, name: bare, server, bareOwner: true });
      if (decision.allowed) return { allowed: true, reason: decision.reason };
    }
    if (servers.length === 0) return { allowed: false, reason: `no configured MCP server offers ${tool}` };
    return { allowed: false, reason: why?.reason ?? `no grant of agent ${JSON.stringify(agent)} matches ${tool}` };
  }

  /** Server rows: this endpoint first, then the configured servers. */
  servers(): ServerView[] {
    const endpointTools = editorTools({ service: this.service, registry: () => this.registry, manifest: () => this.manifest(EDITOR_AGENT) }).map((t) => t.name);
    const info = this.endpoint.info;
    const rows: ServerView[] = [
      {
        name: SERVER_NAME,
        transport: 'http',
        status: info ? 'ready' : 'stopped',
        reason: info ? `serving the editor's agent at ${info.url}` : 'starts when the editor asks for its tools',
        tools: endpointTools,
      },
    ];
    const started = (name: string) => this.registry?.server(name) !== undefined && this.started.has(this.registry.server(name)!);
    for (const s of this.registry?.status() ?? []) {
      rows.push({
        name: s.name,
        transport: s.transport,
        status: s.status.state === 'closed' || !started(s.name) ? 'stopped' : s.status.state,
        ...(!started(s.name) ? { reason: 'not started yet: servers start when the editor connects, or with Restart' } : s.status.reason ? { reason: s.status.reason } : {}),
        tools: s.tools,
        ...(s.status.auth && started(s.name) ? { auth: s.status.auth } : {}),
      });
    }
    return rows;
  }

  /** Agents with every known tool's effective permission and its why. */
  agents(): AgentView[] {
    const registry = this.registry;
    const known = registry?.list() ?? [];
    return this.current.settings.agents.map((manifest) => {
      const prefix = `agent ${JSON.stringify(manifest.name)}`;
      return {
        name: manifest.name,
        grants: [...manifest.tools],
        permissions: known.map((tool) => {
          const why = registry!.why(manifest, tool.id);
          return { tool: tool.id, allowed: why.allowed, why: why.reason };
        }),
        warnings: (registry?.grantWarnings([manifest]) ?? []).filter((w) => w.startsWith(prefix)),
      };
    });
  }

  /** Everything a panel renders from scratch. Reads the ledger tail the first time. */
  snapshot(): PanelSnapshot {
    this.feed.loadFromLedger();
    return { status: this.status(), feed: this.feed.rows(), servers: this.servers(), agents: this.agents() };
  }

  /**
   * Turns `grant` on or off for `agent` and saves the manifests to the scope they came from (workspace
   * when the workspace defines them and is trusted, else user). Off: removes the grant, and adds a deny
   * rule `!grant` when a glob would still allow it; on: removes `!grant` and adds the grant when needed.
   */
  toggleGrant(agent: string, grant: string, enabled: boolean): Promise<void> {
    // Serialized: each toggle reads the manifests the previous one saved, so quick toggles are never lost.
    const run = this.toggling.then(() => this.applyToggle(agent, grant, enabled));
    this.toggling = run.catch(() => undefined);
    return run;
  }

  private async applyToggle(agent: string, grant: string, enabled: boolean): Promise<void> {
    const agents = this.current.settings.agents.map((a) => ({ name: a.name, tools: [...a.tools] }));
    let manifest = agents.find((a) => a.name === agent);
    if (!manifest) {
      manifest = { name: agent, tools: [] };
      agents.push(manifest);
    }
    const tool = grant.startsWith('!') ? grant.slice(1) : grant;
    const registry = this.registry;
    const decide = (tools: readonly string[]) => {
      const candidate = { name: agent, tools: [...tools] };
      if (registry) return registry.why(candidate, tool);
      // No registry yet: judge the name as written (the registry's rule for unknown tools).
      const slash = tool.indexOf('/');
      return decideGrant(candidate, slash > 0 ? { id: tool, name: tool.slice(slash + 1), server: tool.slice(0, slash), bareOwner: false } : { id: tool, name: tool, bareOwner: true });
    };
    const toggled = toggleGrant(manifest.tools, tool, enabled, decide);
    if ('error' in toggled) throw new Error(toggled.error);
    manifest.tools = toggled.grants;
    const config = vscode.workspace.getConfiguration('jevPanel');
    const inspected = config.inspect('agents');
    const target =
      vscode.workspace.isTrusted && (inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined)
        ? vscode.ConfigurationTarget.Workspace
        : vscode.ConfigurationTarget.Global;
    await config.update('agents', agents, target);
    await this.refresh('grant toggled');
    this.bumpToolsVersion();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    void this.endpoint.stop();
    void this.registry?.shutdown();
    this.ledger.close();
    this.statusEmitter.dispose();
    this.serversEmitter.dispose();
    this.agentsEmitter.dispose();
    this.definitionsEmitter.dispose();
  }
}

function infoOf(model: vscode.LanguageModelChat): ChatModelInfo {
  return { vendor: model.vendor, family: model.family, id: model.id, name: model.name };
}
