import { configError } from '../judgment/errors';
import type { ToolAnnotations } from '../tools/types';
import { McpConnection, type CallProgress, type ConnectionOptions, type RemoteTool } from './connection';
import { CapabilityViolation, ToolCallError, ToolNotFoundError, registryErrorDetails, type GrantDecision } from './errors';
import { ALL_TOOLS } from '../tools';
import { decideGrant, grantWarnings, parseToolId, refOfName, type AgentManifest, type ToolRef } from './manifest';
import type { RegistryCallOptions, RegistryCallResult, RegistryEvent, RegistryOptions, ResolvedTool, ServerView, ToolSpec, WhyAnswer } from './registry-types';
import { checkJsonObject, mapCallResult } from './result';
import { checkAgainstSchema } from './schema';
import type { TreeCloseTiming } from './process-tree';
import { sameServerConfig, type ServerDiff } from './server-diff';
import type { NamedServer, ServerSource } from './servers';

export type { RegistryCallOptions, RegistryCallResult, RegistryEvent, RegistryOptions, ResolvedTool, ServerView, ToolRunContext, ToolSpec, WhyAnswer } from './registry-types';
// The registry's error classes, importable from here as the contract names them.
export { CapabilityViolation, ToolCallError, ToolNotFoundError } from './errors';

/**
 * The ToolRegistry: registration, resolution, the capability check and dispatch of every tool call.
 * An agent never holds a tool: it asks the registry, which checks the agent's grants BEFORE any transport
 * is touched, then dispatches in-process or to the MCP server that owns the tool.
 *
 * Tool ids: in-process tools by bare name; external tools as `<server>/<tool>`. A bare name that is not
 * in-process resolves to the first configured server (config order) that lists it; every event and error
 * shows the qualified id.
 */

const TOOL_NAME = /^[^\s/]+$/;

/** Capability-checked tool registry over in-process tools and persistent MCP connections. */
export class ToolRegistry {
  private readonly specs = new Map<string, ToolSpec>();
  private connections: McpConnection[] = [];
  private readonly sources = new Map<string, ServerSource>();
  private readonly onEvent?: (event: RegistryEvent) => void;
  private readonly connectionOptions?: ConnectionOptions;
  /** Tool lists remembered from an earlier run, offered while a server has not listed its own yet. */
  private readonly remembered = new Map<string, readonly RemoteTool[]>();
  /** Resolutions of names, valid until a tool list or an in-process registration changes. */
  private readonly resolved = new Map<string, ResolvedTool | undefined>();
  private callSeq = 0;

  /** Throws JevError CONFIG_ERROR when two servers share a name. */
  constructor(options: RegistryOptions = {}) {
    this.onEvent = options.onEvent;
    this.connectionOptions = options.connection;
    uniqueNames(options.servers ?? []);
    for (const server of options.servers ?? []) this.connections.push(this.connect(server));
  }

  private connect(server: NamedServer): McpConnection {
    const options = this.connectionOptions;
    this.sources.set(server.name, server.source);
    return new McpConnection(server.name, server.config, {
      ...options,
      onStatus: (c) => {
        options?.onStatus?.(c);
        this.emit({ type: 'server.status', time: Date.now(), server: c.name, status: c.status });
      },
      onToolsChanged: (c) => {
        this.resolved.clear();
        options?.onToolsChanged?.(c);
        this.emit({ type: 'server.tools', time: Date.now(), server: c.name, tools: c.tools.map((t) => `${c.name}/${t.name}`) });
      },
    });
  }

  /**
   * Replaces the configured servers with `servers` (their order becomes the resolution order). A server
   * whose configuration is the same keeps its connection, so a running one keeps running (same process); a
   * changed one gets a new connection (not started: the caller decides) and the old one is closed; a
   * removed one is closed. Resolves with what changed once the replaced connections are closed. Throws JevError
   * CONFIG_ERROR when two servers share a name (nothing changes then).
   */
  async reconfigure(servers: readonly NamedServer[]): Promise<ServerDiff> {
    uniqueNames(servers);
    const diff: ServerDiff = { added: [], changed: [], removed: [], unchanged: [] };
    const old = new Map(this.connections.map((c) => [c.name, c] as const));
    const closing: McpConnection[] = [];
    this.connections = servers.map((server) => {
      const before = old.get(server.name);
      old.delete(server.name);
      if (before && sameServerConfig(before.config, server.config)) {
        diff.unchanged.push(server.name);
        this.sources.set(server.name, server.source);
        return before;
      }
      const next = this.connect(server);
      if (before) {
        diff.changed.push(server.name);
        this.remembered.delete(server.name); // remembered for the old configuration
        closing.push(before);
      } else diff.added.push(server.name);
      return next;
    });
    for (const [name, c] of old) {
      diff.removed.push(name);
      this.sources.delete(name);
      this.remembered.delete(name);
      closing.push(c);
    }
    this.resolved.clear();
    await Promise.all(closing.map((c) => c.close()));
    return diff;
  }

  /**
   * Offers `tools` for server `name` until it lists its own (a tool list kept from an earlier run, so the
   * server can start on demand when one of them is called). Ignored for an unknown server.
   */
  rememberTools(name: string, tools: readonly RemoteTool[]): void {
    if (!this.server(name)) return;
    this.remembered.set(name, tools);
    this.resolved.clear();
  }

  /** The tools of `c` as known now: its own list once it has one, else the remembered one. */
  private toolsOf(c: McpConnection): readonly RemoteTool[] {
    return c.toolsKnown ? c.tools : (this.remembered.get(c.name) ?? c.tools);
  }

  private emit(event: RegistryEvent): void {
    try {
      this.onEvent?.(event);
    } catch {
      // A listener failure never changes a tool call.
    }
  }

  /**
   * Registers an in-process tool. Throws Error when the name is not a bare id (no `/`, no spaces) or is
   * already registered (a second registration is a bug to report, never a silent replacement).
   */
  register(spec: ToolSpec): void {
    if (!TOOL_NAME.test(spec.name)) throw new Error(`Tool name ${JSON.stringify(spec.name)} is invalid: in-process tool names are bare (no "/" and no spaces).`);
    if (this.specs.has(spec.name)) throw new Error(`Tool ${JSON.stringify(spec.name)} is already registered.`);
    this.specs.set(spec.name, spec);
    this.resolved.clear();
  }

  /** Removes an in-process tool; returns whether it existed. */
  unregister(name: string): boolean {
    this.resolved.clear();
    return this.specs.delete(name);
  }

  /** The MCP connections in resolution order. */
  get servers(): readonly McpConnection[] {
    return this.connections;
  }

  /** Connection of server `name`, if configured. */
  server(name: string): McpConnection | undefined {
    return this.connections.find((c) => c.name === name);
  }

  /** Starts every connection in parallel; resolves once each is ready or in error (never rejects). */
  async start(): Promise<ServerView[]> {
    await Promise.all(this.connections.map((c) => c.start()));
    return this.status();
  }

  /** Status, target and tools of every configured server, in resolution order. */
  status(): ServerView[] {
    return this.connections.map((c) => ({
      name: c.name,
      source: this.sources.get(c.name) ?? 'config',
      transport: c.transportKind,
      target: c.target,
      status: c.status,
      tools: this.toolsOf(c).map((t) => `${c.name}/${t.name}`),
      timeoutMs: c.timeoutMs,
      maxTotalTimeoutMs: c.maxTotalTimeoutMs,
      stderr: c.stderr.slice(-20),
    }));
  }

  /** The server a bare `name` resolves to (first in config order listing it), or undefined. Pure. */
  private bareOwner(name: string): McpConnection | undefined {
    if (this.specs.has(name)) return undefined;
    return this.connections.find((c) => this.toolsOf(c).some((t) => t.name === name));
  }

  /**
   * Resolves `tool` (bare or qualified) from what is known now, without touching any transport:
   * in-process first, then `<server>/<tool>`, then the first server listing a bare name.
   */
  resolve(tool: string): ResolvedTool | undefined {
    if (this.resolved.has(tool)) return this.resolved.get(tool);
    const found = this.resolveNow(tool);
    if (this.resolved.size >= 10_000) this.resolved.clear();
    this.resolved.set(tool, found);
    return found;
  }

  private resolveNow(tool: string): ResolvedTool | undefined {
    const spec = this.specs.get(tool);
    if (spec) {
      return { id: spec.name, name: spec.name, transport: 'in-process', description: spec.description, title: spec.title, inputSchema: spec.inputSchema, annotations: spec.annotations, bareOwner: true };
    }
    const { server, name } = parseToolId(tool);
    const conn = server !== undefined ? this.server(server) : this.bareOwner(tool);
    if (!conn) return undefined;
    const remote = this.toolsOf(conn).find((t) => t.name === name);
    if (!remote) return undefined;
    return {
      id: `${conn.name}/${name}`,
      name,
      transport: 'mcp',
      server: conn.name,
      description: remote.description,
      title: remote.title,
      inputSchema: remote.inputSchema,
      annotations: remote.annotations as ToolAnnotations | undefined,
      bareOwner: this.bareOwner(name) === conn,
    };
  }

  /** True when `tool` resolves now (grants ignored). */
  has(tool: string): boolean {
    return this.resolve(tool) !== undefined;
  }

  /** Every known tool: in-process ones, then each server's last known tools in config order. */
  list(): ResolvedTool[] {
    const out: ResolvedTool[] = [...this.specs.keys()].map((n) => this.resolve(n)!);
    for (const c of this.connections) for (const t of this.toolsOf(c)) out.push(this.resolve(`${c.name}/${t.name}`)!);
    return out;
  }

  /**
   * Prompt lines for `names` in input order: `- <name as given>: <description>`, joined by newlines (no
   * trailing newline); unknown names are skipped. In-process descriptions win, so a tool described
   * in-process or over MCP gives identical text. Touches no transport.
   */
  describe(names: readonly string[]): string {
    const lines: string[] = [];
    for (const name of names) {
      const tool = this.resolve(name);
      if (tool) lines.push(`- ${name}: ${tool.description}`);
    }
    return lines.join('\n');
  }

  /** `describe` of every known tool `manifest` may call (globs expanded, denies applied), qualified ids. */
  describeGranted(manifest: AgentManifest): string {
    const allowed = this.list().filter((t) => decideGrant(manifest, refOf(t)).allowed);
    return allowed.map((t) => `- ${t.id}: ${t.description}`).join('\n');
  }

  /**
   * Why `manifest` may or may not call `tool`: the deciding rule and a plain-language reason
   * (the panel shows it next to each permission). Pure; an unknown tool is judged by its name as written.
   */
  why(manifest: AgentManifest, tool: string): WhyAnswer {
    const resolved = this.resolve(tool);
    if (resolved) return { ...decideGrant(manifest, refOf(resolved)), known: true };
    const decision = decideGrant(manifest, refOfName(tool));
    return { ...decision, reason: `${decision.reason} (no tool ${JSON.stringify(tool)} is known now)`, known: false };
  }

  /** Load-time warnings: grants of `manifests` that match no known tool (typos surface early). */
  grantWarnings(manifests: readonly AgentManifest[]): string[] {
    // The judgment tools are always there for an agent (the gateway serves them beside the registry's),
    // registered here or not: a grant such as `jev_*` names them.
    const listed = this.list().map(refOf);
    const judgment = ALL_TOOLS.filter((t) => !listed.some((r) => r.server === undefined && r.name === t.name)).map((t) => refOfName(t.name));
    const known = [...listed, ...judgment];
    const servers = new Map(this.connections.map((c) => [c.name, c.toolsKnown || this.remembered.has(c.name)] as const));
    return manifests.flatMap((m) => grantWarnings(m, known, servers));
  }

  /**
   * Names offered by more than one place (so first-wins ownership of a bare name is never silent), e.g.
   * `tool "echo" is offered by everything, web; a bare "echo" resolves to everything/echo`.
   */
  nameConflicts(): string[] {
    const owners = new Map<string, string[]>();
    for (const name of this.specs.keys()) owners.set(name, ['in-process']);
    for (const c of this.connections) {
      for (const t of this.toolsOf(c)) owners.set(t.name, [...(owners.get(t.name) ?? []), c.name]);
    }
    const out: string[] = [];
    for (const [name, where] of owners) {
      if (where.length < 2) continue;
      const winner = this.resolve(name)?.id ?? name;
      out.push(`tool ${JSON.stringify(name)} is offered by ${where.join(', ')}; a bare ${JSON.stringify(name)} resolves to ${winner}`);
    }
    return out;
  }

  /**
   * The grant check that can run before anything is known about servers' tools: denied when no tool this
   * name could resolve to would be allowed. Touches no transport.
   */
  private precheck(manifest: AgentManifest, tool: string): GrantDecision | undefined {
    const { server, name } = parseToolId(tool);
    let refs: ToolRef[];
    if (this.specs.has(tool)) refs = [{ id: tool, name: tool, bareOwner: true }];
    else if (server !== undefined) refs = [{ id: tool, name, server, bareOwner: true }];
    else {
      refs = this.connections.map((c) => ({ id: `${c.name}/${tool}`, name: tool, server: c.name, bareOwner: true }));
      if (refs.length === 0) refs = [{ id: tool, name: tool, bareOwner: true }];
    }
    const decisions = refs.map((r) => decideGrant(manifest, r));
    return decisions.some((d) => d.allowed) ? undefined : decisions[0];
  }

  private deny(agent: string, tool: string, decision: GrantDecision): never {
    this.emit({ type: 'tool.denied', time: Date.now(), agent, tool: decision.tool || tool, rule: decision.rule, reason: decision.reason });
    throw new CapabilityViolation(agent, decision.tool || tool, decision);
  }

  /**
   * Calls `tool` as `agent` under `manifest` with `params` (a JSON object; never splatted).
   * Order: (1) grant check — CapabilityViolation before any transport is touched; (2) resolution —
   * ToolNotFoundError when granted but unknown; (3) params checked against the inputSchema
   * (ToolCallError `invalid_params`); (4) dispatch in-process or over MCP with the server's per-call
   * timeout; (5) the result must be a plain JSON object. Transport failures are ToolCallErrors naming the
   * qualified id and the cause. Resolves to the result object.
   */
  async call(agent: string, manifest: AgentManifest, tool: string, params: Record<string, unknown> = {}, opts: RegistryCallOptions = {}): Promise<Record<string, unknown>> {
    return (await this.callDetailed(agent, manifest, tool, params, opts)).result;
  }

  /**
   * `call`, with the server's own MCP result beside the mapped one: `raw` is the CallToolResult as the
   * external server sent it (absent for in-process tools), for a caller that forwards it (the gateway,
   * src/mcp/gateway-calls.ts) rather than re-shaping it. Same checks, errors and events as `call`.
   */
  async callDetailed(agent: string, manifest: AgentManifest, tool: string, params: Record<string, unknown> = {}, opts: RegistryCallOptions = {}): Promise<RegistryCallResult> {
    if (typeof tool !== 'string' || tool.trim() === '') throw new ToolNotFoundError(String(tool), 'the tool name must be a non-empty string');
    let resolved = this.resolve(tool);
    if (!resolved) {
      // Not known yet: deny now if no tool this name could become is granted, before waiting on servers.
      const early = this.precheck(manifest, tool);
      if (early) this.deny(agent, tool, early);
      // Ownership of a name may depend on servers still starting (or never started): let them settle.
      const { server } = parseToolId(tool);
      const waitFor = server !== undefined ? this.connections.filter((c) => c.name === server) : this.connections;
      await Promise.all(waitFor.map((c) => (c.status.state === 'starting' ? c.start() : c.settled())));
      resolved = this.resolve(tool);
    }
    if (!resolved) {
      const { server } = parseToolId(tool);
      const conn = server !== undefined ? this.server(server) : undefined;
      if (conn && !conn.toolsKnown) {
        // The server never listed its tools: the tool may well exist, the server is what is missing.
        const st = conn.status;
        throw new ToolCallError('unavailable', tool, `Server ${JSON.stringify(conn.name)} is not available (${st.state}${st.reason ? `: ${st.reason}` : ''}), so ${tool} cannot be called.`, conn.name);
      }
      throw new ToolNotFoundError(tool, this.notFoundDetail(tool));
    }
    const decision = decideGrant(manifest, refOf(resolved));
    if (!decision.allowed) this.deny(agent, resolved.id, decision);

    if (!this.onEvent) return this.dispatch(agent, resolved, params, opts);
    const started = Date.now();
    const call = ++this.callSeq;
    const names = params && typeof params === 'object' ? Object.keys(params).sort() : [];
    const id = resolved.id;
    const onProgress = (progress: CallProgress) => {
      opts.onProgress?.(progress);
      this.emit({ type: 'tool.progress', time: Date.now(), call, agent, tool: id, elapsed_ms: Date.now() - started, progress });
    };
    try {
      const result = await this.dispatch(agent, resolved, params, { ...opts, onProgress });
      this.emit({ type: 'tool.call', time: Date.now(), call, agent, tool: id, transport: resolved.transport, ok: true, latency_ms: Date.now() - started, params: names });
      return result;
    } catch (err) {
      this.emit({ type: 'tool.call', time: Date.now(), call, agent, tool: id, transport: resolved.transport, ok: false, latency_ms: Date.now() - started, params: names, error: registryErrorDetails(err) });
      throw err;
    }
  }

  private notFoundDetail(tool: string): string {
    const { server: name } = parseToolId(tool);
    if (name !== undefined) {
      const conn = this.server(name);
      if (!conn) return `no server named ${JSON.stringify(name)} is configured (servers: ${this.connections.map((c) => c.name).join(', ') || 'none'})`;
      return `server ${JSON.stringify(name)} has no such tool`;
    }
    const unknown = this.connections.filter((c) => !c.toolsKnown).map((c) => c.name);
    const inProcess = [...this.specs.keys()].sort();
    return `not registered in-process (${inProcess.length ? inProcess.join(', ') : 'none'}) and no ready server lists it` + (unknown.length ? `; tools of ${unknown.join(', ')} are unknown (not ready)` : '');
  }

  private async dispatch(agent: string, tool: ResolvedTool, params: Record<string, unknown>, opts: RegistryCallOptions): Promise<RegistryCallResult> {
    if (typeof params !== 'object' || params === null || Array.isArray(params)) {
      throw new ToolCallError('invalid_params', tool.id, `${tool.id}: params must be a JSON object.`, tool.server);
    }
    const spec = tool.transport === 'in-process' ? this.specs.get(tool.id)! : undefined;
    if (tool.inputSchema && (spec ? spec.validateParams !== false : true)) {
      const check = checkAgainstSchema(tool.inputSchema, params, 'params');
      if (!check.valid) throw new ToolCallError('invalid_params', tool.id, `${tool.id}: ${check.error}.`, tool.server);
    }
    if (opts.signal?.aborted) throw new ToolCallError('cancelled', tool.id, `The call to ${tool.id} was cancelled.`, tool.server);
    if (spec) {
      let value: unknown;
      try {
        value = await spec.run(params, { agent, signal: opts.signal });
      } catch (err) {
        if (err instanceof ToolCallError) throw err;
        if (opts.signal?.aborted) throw new ToolCallError('cancelled', tool.id, `The call to ${tool.id} was cancelled.`, undefined, { cause: err });
        throw new ToolCallError('tool_error', tool.id, `${tool.id} failed: ${err instanceof Error ? err.message : String(err)}`, undefined, { cause: err });
      }
      return { result: checkJsonObject(tool.id, value) };
    }
    const conn = this.server(tool.server!)!;
    const raw = await conn.callTool(tool.name, params, { signal: opts.signal, timeoutMs: opts.timeoutMs, onProgress: opts.onProgress });
    return { result: mapCallResult(tool.id, raw, tool.server), raw };
  }

  /**
   * Closes every connection (ending each stdio server's process tree); resolves when all are gone.
   * `opts.treeClose` replaces the tree-close timing (SHUTDOWN_TREE_CLOSE when the host is going away).
   */
  async shutdown(opts: { treeClose?: Partial<TreeCloseTiming> } = {}): Promise<void> {
    await Promise.all(this.connections.map((c) => c.close(opts)));
  }
}

/** The grant-check view of a resolved tool. */
export function refOf(tool: ResolvedTool): ToolRef {
  return { id: tool.id, name: tool.name, server: tool.server, bareOwner: tool.bareOwner };
}

/** Throws JevError CONFIG_ERROR when two of `servers` share a name. */
function uniqueNames(servers: readonly NamedServer[]): void {
  const seen = new Set<string>();
  for (const server of servers) {
    if (seen.has(server.name)) throw configError(`Server name ${JSON.stringify(server.name)} is configured twice; server names must be unique.`);
    seen.add(server.name);
  }
}
