/**
 * Types of the ToolRegistry (registry.ts): in-process tool specs, resolved tools, the why answer, events,
 * server status rows and options. Kept apart so the registry's file holds only its behaviour.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { JevErrorDetails } from '../judgment/errors';
import type { ToolAnnotations } from '../tools/types';
import type { CallProgress, ConnectionOptions, ConnectionStatus } from './connection';
import type { GrantDecision } from './errors';
import type { NamedServer, ServerSource } from './servers';

/** What an in-process tool receives besides its params. */
export interface ToolRunContext {
  /** Name of the calling agent. */
  agent: string;
  signal?: AbortSignal;
}

/** An in-process tool: name, description and run (the contract's triple) plus schema and hints. */
export interface ToolSpec {
  /** Bare name: no `/`, no spaces. */
  name: string;
  description: string;
  title?: string;
  /** JSON Schema of the params (2020-12 unless `$schema` says otherwise). */
  inputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
  /**
   * Validate params against `inputSchema` in the host before `run` (default true when a schema is set), so
   * bad input fails the same way on every transport. Tools that parse their own input may turn it off.
   */
  validateParams?: boolean;
  /** Runs the tool; must return (or resolve to) a plain JSON object. Throwing reports a tool error. */
  run(params: Record<string, unknown>, ctx: ToolRunContext): unknown;
}

/** A tool as seen through the registry, whatever its transport. */
export interface ResolvedTool {
  /** Qualified id for external tools, bare name for in-process ones. */
  id: string;
  /** Bare tool name. */
  name: string;
  transport: 'in-process' | 'mcp';
  server?: string;
  description: string;
  title?: string;
  inputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
  /** True when a bare call of `name` resolves to this tool. */
  bareOwner: boolean;
}

/** The registry's answer to "why may (not) this agent call this tool". */
export interface WhyAnswer extends GrantDecision {
  /** False when no such tool is currently known (the decision then applies to the name as written). */
  known: boolean;
}

/**
 * Events for logs and the panel's feed (every tool call is reported, ok or not). Params: names only.
 * `call` numbers the calls of one registry, so a call's `tool.progress` events match its `tool.call`.
 */
export type RegistryEvent =
  | { type: 'tool.call'; time: number; call: number; agent: string; tool: string; transport: 'in-process' | 'mcp'; ok: true; latency_ms: number; params: string[] }
  | { type: 'tool.call'; time: number; call: number; agent: string; tool: string; transport: 'in-process' | 'mcp'; ok: false; latency_ms: number; params: string[]; error: JevErrorDetails }
  | { type: 'tool.progress'; time: number; call: number; agent: string; tool: string; elapsed_ms: number; progress: CallProgress }
  | { type: 'tool.denied'; time: number; agent: string; tool: string; rule: string | null; reason: string }
  | { type: 'server.status'; time: number; server: string; status: ConnectionStatus }
  | { type: 'server.tools'; time: number; server: string; tools: string[] };

/** Status row of one configured server. */
export interface ServerView {
  name: string;
  source: ServerSource;
  transport: 'stdio' | 'http';
  /** Command line or URL, without secrets (no env values, no headers). */
  target: string;
  status: ConnectionStatus;
  /** Qualified ids of the server's last known tools. */
  tools: string[];
  /** Per-call timeout, ms (progress restarts it). */
  timeoutMs: number;
  /** Total cap of one call, ms. */
  maxTotalTimeoutMs: number;
  /** Last stderr lines (bounded). */
  stderr: string[];
}

/** Options of a ToolRegistry. */
export interface RegistryOptions {
  /** External servers in resolution order (config file first, then the env gate). */
  servers?: NamedServer[];
  connection?: ConnectionOptions;
  onEvent?: (event: RegistryEvent) => void;
}

/** Per-call options. */
export interface RegistryCallOptions {
  signal?: AbortSignal;
  /** Overrides the server's per-call timeout, ms (external tools only). */
  timeoutMs?: number;
  /** Hears the progress notifications of an external call (also emitted as `tool.progress` events). */
  onProgress?: (progress: CallProgress) => void;
}

/** What `ToolRegistry.callDetailed` resolves to: the mapped result (a JSON object) and, for an external tool, the server's raw result. */
export interface RegistryCallResult {
  result: Record<string, unknown>;
  /** The CallToolResult the MCP server sent (never `isError`: that one throws); absent for in-process tools. */
  raw?: CallToolResult;
}
