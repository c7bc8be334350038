/**
 * The types of an MCP client connection (connection.ts): its status, the tools it lists, its restart
 * policy, its options and those of one call.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationHandler, RootsSource } from './client-features';
import type { McpConnection } from './connection';
import type { OAuthHost } from './oauth/sign-in';
import type { TreeCloseTiming } from './process-tree';

/** Lifecycle state of a connection. `closed` only after close(). */
export type ConnectionState = 'starting' | 'ready' | 'error' | 'closed';

/** Snapshot of a connection's health, as shown by `jevcp servers` and the panel. */
export interface ConnectionStatus {
  state: ConnectionState;
  /** Why the state is `error` (command not found, exit code, last stderr lines, startup timeout naming stray stdout output, an over-long stdout line). */
  reason?: string;
  /** Epoch ms of the last state change. */
  since: number;
  /** The last failure, kept while a restart is starting (cleared once ready). */
  lastError?: string;
  /** Restarts attempted after failures since the last stable period. */
  restarts: number;
  /** Epoch ms of the next scheduled restart, when one is scheduled. */
  nextRestartAt?: number;
  /** Child process id of a live stdio server. */
  pid?: number;
  /** OAuth of an HTTP server: `required` = waiting for a sign-in (reason says how), `signed-in` = tokens held. */
  auth?: 'required' | 'signed-in';
  /** stdout lines that were not JSON-RPC and were skipped, over every session of this connection. */
  stdoutSkipped?: number;
  /** A warning while the state may still be ready, e.g. skipped stdout lines (the last one named). */
  warning?: string;
}

/** A tool as advertised by a server (tools/list). */
export interface RemoteTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Tool['annotations'];
}

/** Restart after a crash: delay = min(baseDelayMs · 2^(n−1), maxDelayMs) for the n-th consecutive failure. */
export interface RestartPolicy {
  /** Consecutive failed starts/crashes after which the connection stays in error (default 5). */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Ready this long (ms) → the failure count resets (default 30 000). */
  stableMs: number;
}

/** Defaults: 5 attempts, 500 ms doubling up to 30 s, failure count reset after 30 s ready. */
export const DEFAULT_RESTART: RestartPolicy = Object.freeze({ maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 30_000, stableMs: 30_000 });

/** Default limit for a server's spawn + initialize + first tools/list, ms. */
export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;

/** Options shared by every connection of a registry. */
export interface ConnectionOptions {
  /** Per-call timeout, ms, unless the server config sets `timeoutMs` (default 60 000); progress resets it. */
  timeoutMs?: number;
  /** Total cap of one call however much progress it reports, ms, unless the server config sets `maxTotalTimeoutMs` (default 600 000). */
  maxTotalTimeoutMs?: number;
  /** Closing a stdio server: grace after stdin is closed, then after SIGTERM to its process group, ms (defaults 2 000 each). */
  treeClose?: Partial<TreeCloseTiming>;
  /** Limit for spawn + initialize + first tools/list, ms (default 30 000). */
  startupTimeoutMs?: number;
  restart?: Partial<RestartPolicy>;
  /** stderr ring size: lines and characters per line (defaults 200 and 1 000). */
  stderrLines?: number;
  stderrLineChars?: number;
  /** Working folder for stdio servers whose config has no cwd (default: the host's). */
  cwd?: string;
  clientInfo?: { name: string; version: string };
  onStatus?: (connection: McpConnection) => void;
  onToolsChanged?: (connection: McpConnection) => void;
  /** OAuth for HTTP servers (token store, browser step); absent: a 401 is an error. */
  oauth?: OAuthHost;
  /** Who answers a server's elicitation requests; absent: the capability is not declared. */
  elicitation?: ElicitationHandler;
  /** Roots announced to servers (and `roots/list_changed` on change); absent: not declared. */
  roots?: RootsSource;
}

/** One progress notification of a running call, as the server sent it. */
export interface CallProgress {
  /** Progress so far (server units; increases with each notification). */
  progress: number;
  /** Total in the same units, when the server knows it. */
  total?: number;
  message?: string;
}

/** Per-call options. */
export interface CallOptions {
  /** Overrides the per-call timeout, ms. */
  timeoutMs?: number;
  /** Aborting it abandons the call (the server gets notifications/cancelled). */
  signal?: AbortSignal;
  /** Called with each progress notification of the call (a progress token is always sent). */
  onProgress?: (progress: CallProgress) => void;
}
