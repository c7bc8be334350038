/**
 * The extension's runtime: the wiring of the backend (backend.ts), the configured MCP servers
 * (server-supervisor.ts), agents and grants (agents.ts), the in-host MCP endpoint (editor-endpoint.ts), the
 * ledger and the decision feed, and the events the panel, status bar and MCP definition listen to.
 * Everything heavy is lazy: building it reads settings and SecretStorage only; the endpoint listens on the
 * first definition request; MCP servers start when an agent first needs them or the editor connects
 * (`jevPanel.serverStart`), or when the user restarts one.
 */
import * as vscode from 'vscode';
import { join } from 'node:path';
import { EDITOR_AGENT, type PanelSettings } from '../config/panel-settings';
import { LazyLedger } from '../ledger/lazy-ledger';
import type { DecisionRecord } from '../ledger/record';
import type { EndpointInfo } from '../mcp/http-endpoint';
import { SERVER_NAME } from '../mcp/identity';
import { createGatewayScreener } from '../mcp/screen-result';
import { FeedStore } from '../panel/feed-store';
import type { AgentView, BackendStatus, PanelSnapshot, ServerView } from '../panel/protocol';
import { execute, type ExecutionOutcome } from '../registry/execute';
import { SHUTDOWN_TREE_CLOSE } from '../registry/process-tree';
import type { LiveJudgmentService } from '../tools/live-service';
import { AgentsController } from './agents';
import { BackendController } from './backend';
import { API_KEY_SECRET } from './constants';
import { EditorEndpoint } from './editor-endpoint';
import { GuardWatch } from './guard/guard-watch';
import { editorMcpClient } from './mcp-client/options';
import { ServerSupervisor } from './server-supervisor';
import { setServerEnabled } from './server-settings';
import { readSettings } from './settings';

/** Everything the extension runs after activation; built once by core-host.ts. */
export class JevRuntime implements vscode.Disposable {
  readonly feed: FeedStore;
  readonly backend: BackendController;
  readonly servers: ServerSupervisor;
  readonly agents: AgentsController;
  readonly endpoint: EditorEndpoint;
  /** Where the permission guard is on (the panel's Guard row). */
  readonly guard: GuardWatch;

  private readonly statusEmitter = new vscode.EventEmitter<void>();
  private readonly serversEmitter = new vscode.EventEmitter<void>();
  private readonly agentsEmitter = new vscode.EventEmitter<void>();
  private readonly definitionsEmitter = new vscode.EventEmitter<void>();
  /** Status (provider, model, health, spend, endpoint) changed. */
  readonly onDidChangeStatus = this.statusEmitter.event;
  /** MCP server rows changed (status, tools). */
  readonly onDidChangeServers = this.serversEmitter.event;
  /** Agents or grants changed. */
  readonly onDidChangeAgents = this.agentsEmitter.event;
  /** The MCP server definition handed to the editor changed: only when the endpoint itself did (URL, token). */
  readonly onDidChangeDefinitions = this.definitionsEmitter.event;

  private readonly ledger: LazyLedger;
  private refreshing: Promise<void> = Promise.resolve();
  private stopping?: Promise<void>;
  private readonly disposables: vscode.Disposable[] = [];
  /** Resolves after the first refresh (settings, key, provider, registry). */
  readonly ready: Promise<void>;

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
  ) {
    const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0');
    this.ledger = new LazyLedger(() => this.ledgerPath(), (m) => this.log.error(m), () => this.backend.secrets);
    this.feed = new FeedStore({ ledgerPath: () => this.ledgerPath() });
    this.backend = new BackendController(
      {
        context,
        log,
        ledger: this.ledger,
        onRecord: (r) => this.onRecord(r),
        // A judgment waiting on a slow judge shows in the feed as pending until its record replaces it.
        onCallStart: (tool, agent) => {
          const n = this.feed.judgmentStarted(tool, agent);
          return () => this.feed.judgmentEnded(n);
        },
      },
      readSettings(),
    );
    const mcpClient = editorMcpClient(context);
    this.disposables.push(mcpClient);
    this.servers = new ServerSupervisor({
      log,
      version,
      client: mcpClient.options,
      memory: context.workspaceState,
      service: this.service,
      changed: () => this.serversEmitter.fire(),
      callEvent: (event) => this.feed.callEvent(event),
      toolsChanged: () => {
        this.agentsEmitter.fire();
        this.endpoint.toolsChanged();
      },
    });
    this.agents = new AgentsController({
      settings: () => this.settings,
      registry: () => this.servers.registry,
      refresh: (reason) => this.refresh(reason),
    });
    this.endpoint = new EditorEndpoint({
      log,
      version,
      service: this.service,
      registry: () => this.servers.registry,
      manifest: () => this.agents.manifest(EDITOR_AGENT),
      floors: () => this.settings.floors,
      record: (record) => void this.recordExecution(record),
      beforeList: () => this.servers.settle(),
      // With onDemand nothing starts all servers; a waiting call starts only its own server (registry).
      startServers: () => this.servers.editorConnected(),
      // One screener for every session of the endpoint; it judges through the live service (mock → not screened).
      screener: createGatewayScreener(this.service, EDITOR_AGENT),
      resultCap: () => ({ maxBytes: this.settings.gatewayMaxResultBytes, setting: 'jevPanel.gatewayMaxResultBytes', recordedIn: `the Jev panel's feed and the ledger ${this.ledgerPath()}` }),
      sessionsChanged: () => this.serversEmitter.fire(),
      openDecision: async (id) => void (await vscode.commands.executeCommand('jevPanel.openDecision', id)),
    });
    this.guard = new GuardWatch(log);
    this.disposables.push(
      this.guard,
      this.guard.onDidChange(() => {
        this.statusEmitter.fire();
        this.agentsEmitter.fire();
      }),
    );
    // Settings and trust reach open sessions as tools/list_changed (doRefresh); the definition stays.
    const reconfigured = (reason: string) => void this.refresh(reason);
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('jevPanel')) reconfigured('settings changed');
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => reconfigured('workspace trusted')),
      context.secrets.onDidChange((e) => {
        if (e.key === API_KEY_SECRET) void this.refresh('API key changed');
      }),
    );
    if (typeof vscode.lm?.onDidChangeChatModels === 'function') {
      this.disposables.push(
        vscode.lm.onDidChangeChatModels(() => {
          const p = this.settings.provider;
          if (p === 'auto' || p === 'vscode-lm') void this.refresh('chat models changed');
        }),
      );
    }
    this.ready = this.refresh('activation');
  }

  /** The service every surface calls; follows the configuration. */
  get service(): LiveJudgmentService {
    return this.backend.service;
  }

  /** Current validated settings. */
  get settings(): PanelSettings {
    return this.backend.settings;
  }

  /** Where records are appended: `jevPanel.ledger` or `ledger.jsonl` in the extension's global storage. */
  ledgerPath(): string {
    return this.backend?.settings.ledgerPath ?? join(this.context.globalStorageUri.fsPath, 'ledger.jsonl');
  }

  /** Re-reads settings, key and (when needed) chat models; rebuilds provider, service and registry. Serialized. */
  refresh(reason: string): Promise<void> {
    this.refreshing = this.refreshing.then(() => this.doRefresh(reason)).catch((err: unknown) => {
      this.log.error(`refresh (${reason}) failed: ${(err as Error)?.message ?? String(err)}`);
    });
    return this.refreshing;
  }

  private async doRefresh(reason: string): Promise<void> {
    const settings = readSettings();
    await this.backend.apply(settings, reason);
    for (const problem of settings.problems) this.log.warn(problem);
    if (settings.ignoredWorkspaceKeys.length) {
      this.log.warn(`workspace not trusted: ignoring workspace values of jevPanel.${settings.ignoredWorkspaceKeys.join(', jevPanel.')}`);
    }
    await this.servers.sync({ servers: settings.servers, disabled: settings.disabledServers, start: settings.serverStart });
    this.endpoint.toolsChanged();
    this.statusEmitter.fire();
    this.agentsEmitter.fire();
    this.serversEmitter.fire();
  }

  private onRecord(record: DecisionRecord): void {
    this.feed.add(record);
    if (this.backend.observe(record)) this.statusEmitter.fire();
    const outcome = record.error ? `${record.error.code}` : String((record.result as { action?: unknown } | undefined)?.action ?? 'ok');
    this.log.info(`${record.kind} ${record.tool} as ${record.agent}: ${outcome} (${record.latency_ms} ms)`);
    if (record.kind === 'decision' && record.provider !== 'mock') this.statusEmitter.fire(); // spend moved
  }

  /** Appends a record made outside the service (an override of the commit gate) to the ledger and the feed. */
  recordOutside(record: DecisionRecord): Promise<void> {
    return this.recordExecution(record);
  }

  private async recordExecution(record: DecisionRecord): Promise<void> {
    try {
      await this.ledger.append(record);
    } catch {
      // reported once by the ledger
    }
    this.onRecord(record);
  }

  /**
   * Starts the endpoint listener. With `withServers` (VS Code resolves the definition to connect, not when
   * it merely lists them) and `jevPanel.serverStart` onConnect, also starts the MCP servers in the background.
   */
  async ensureEndpoint(withServers = false): Promise<EndpointInfo> {
    await this.ready;
    const info = await this.endpoint.start();
    if (withServers) this.servers.editorConnected();
    this.statusEmitter.fire();
    this.serversEmitter.fire();
    return info;
  }

  /** Restarts one server; `jev-control-panel` is the endpoint (a new port and token, a changed definition). */
  async restartServer(name: string): Promise<void> {
    if (name !== SERVER_NAME) return this.servers.restart(name);
    await this.endpoint.stop();
    await this.ensureEndpoint(true);
    this.definitionsEmitter.fire();
  }

  /**
   * Turns configured server `name` on or off (saved in jevPanel.disabledServers at the servers' scope) and
   * waits until it applies: a disabled server is stopped and its tools leave every listing. Throws JevError
   * INVALID_INPUT for an unknown server.
   */
  async setServerEnabled(name: string, enabled: boolean): Promise<void> {
    await setServerEnabled(this.settings, name, enabled);
    await this.refresh(`server ${name} ${enabled ? 'enabled' : 'disabled'}`);
    this.endpoint.toolsChanged();
  }

  /** Backend status line of the panel and the status bar. */
  status(): BackendStatus {
    return { ...this.backend.status(this.endpoint.info?.url), guard: this.guard.places };
  }

  /** Server rows: this endpoint first, then the configured servers. */
  serverRows(): ServerView[] {
    return [this.endpoint.row(), ...this.servers.rows()];
  }

  /** The Agents view: the configured agents, then the agents the guard's hooks run as. */
  agentViews(): AgentView[] {
    return [...this.agents.views(), ...this.guard.agents];
  }

  /** Everything a panel renders from scratch. Reads the ledger tail the first time. */
  snapshot(): PanelSnapshot {
    this.feed.loadFromLedger();
    return { status: this.status(), feed: this.feed.rows(), servers: this.serverRows(), agents: this.agentViews() };
  }

  /**
   * Runs the call `decision` accepted (registry/execute.ts: handoff execute_tool with action auto only, the
   * exact call) as agent `agent`, through the registry's capability check, after starting the configured
   * MCP servers (all with `onConnect`; with `onDemand` the call starts the one it needs). The execution is
   * recorded in the ledger and the feed. Used by the inline "Execute call".
   */
  async executeAccepted(decision: DecisionRecord, agent: string, signal?: AbortSignal): Promise<ExecutionOutcome> {
    if (this.servers.startMode === 'onConnect') await this.servers.startAll();
    const registry = this.servers.registry;
    if (!registry) return { executed: false, reason: 'the tool registry is not ready yet' };
    return execute({ registry, ledger: this.ledger, signal, onRecord: (record) => this.onRecord(record) }, this.agents.manifest(agent), decision);
  }

  /**
   * Stops everything for good, once (later calls get the same promise): the listeners, the endpoint, every
   * MCP server's process tree with SHUTDOWN_TREE_CLOSE (about 2 s at most for a server that ignores both
   * stdin closing and SIGTERM, within the 5 s VS Code waits for deactivate), the ledger. Never rejects.
   */
  shutdown(): Promise<void> {
    this.stopping ??= (async () => {
      const started = Date.now();
      const servers = this.servers.startedServers.slice();
      for (const d of this.disposables) d.dispose();
      // allSettled: a failing endpoint stop must not cut the wait for the servers' trees short.
      const [endpoint] = await Promise.allSettled([this.endpoint.stop(), this.servers.shutdown({ treeClose: SHUTDOWN_TREE_CLOSE })]);
      const failed = endpoint.status === 'rejected' ? ` (its stop failed: ${String(endpoint.reason)})` : '';
      const names = servers.length ? `, started: ${servers.join(', ')}` : '';
      this.safeInfo(`shut down in ${Date.now() - started} ms: the endpoint${failed} and every MCP server closed (${servers.length} started${names})`);
      this.ledger.close();
      this.statusEmitter.dispose();
      this.serversEmitter.dispose();
      this.agentsEmitter.dispose();
      this.definitionsEmitter.dispose();
    })();
    return this.stopping;
  }

  // Shutdown must not fail on its log: the channel may be closed already.
  private safeInfo(message: string): void {
    try {
      this.log.info(message);
    } catch {
      // the log channel is gone
    }
  }

  /** `shutdown()` without waiting for it (a vscode.Disposable). */
  dispose(): void {
    void this.shutdown();
  }
}
