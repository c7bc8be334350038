/**
 * Messages between the extension host and the panel webviews (the activity-bar view and the decision
 * editor panel). Host-independent: no `vscode` import, so the webview bundle and tests can use it.
 * The host is the source of truth; the webview asks for a snapshot on `ready` and after becoming visible.
 */
import type { DecisionRecord, RecordKind } from '../ledger/record';
import { callSummary } from './call-summary';

/** The record and judgment types the panel messages carry, for the webview (which imports only src/panel, src/policy, src/tools). */
export type { DecisionRecord, RecordedExchange } from '../ledger/record';
export type { Answer, Question, QuestionMap } from '../judgment/types';

/** One row of the live decision feed (small: the feed holds up to 10 000 of them). */
export interface FeedRow {
  id: string;
  /** ISO time the call ended. */
  time: string;
  tool: string;
  agent: string;
  /** jev_step/route/coding-loop handoff, when the tool has one. */
  handoff?: string;
  /** auto | review | escalate, absent on error. */
  action?: string;
  /** First reason code (or the error code on failure). */
  topReason?: string;
  latency_ms: number;
  /** Error code when the call failed. */
  error?: string;
  model?: string;
  /** 'decision', 'execution' or 'override'. */
  kind: RecordKind;
  /** Where the call came from (e.g. `commit hook, terminal`), when not the agent itself. */
  source?: string;
  /** What was judged, in one line (jev_permit: the host's tool and its command, path or first argument; jev_screen: the injection probability). */
  subject?: string;
}

/**
 * A call still running, shown above the feed until its record arrives: a registry tool call that reported
 * progress, or (`kind: 'judgment'`) a judgment tool call (jev_step, …) waiting on its judge, which reports
 * no progress numbers.
 */
export interface FeedProgress {
  /** The call's number: the registry's for tool calls, the feed store's own for judgments (unique per kind). */
  call: number;
  /** 'judgment' for a judgment waiting on its judge; absent for a registry tool call. */
  kind?: 'judgment';
  /** Qualified tool id, e.g. `everything/long`, or the judgment tool, e.g. `jev_step`. */
  tool: string;
  agent: string;
  /** Progress so far and the total when known, in the server's units (registry calls only). */
  progress?: number;
  total?: number;
  message?: string;
  /** ms since the call started, when this entry was sent. */
  elapsed_ms: number;
}

/** Backend status line of the panel. */
export interface BackendStatus {
  /** 'systemone' | 'openai' | 'vscode-lm' | 'mock'. */
  provider: string;
  model: string;
  /** Why this provider was chosen (e.g. "API key set", "no backend configured"). */
  reason: string;
  health: 'ok' | 'warning' | 'error';
  /** Shown when health is not ok (e.g. the mock-judge warning). */
  message?: string;
  calibrated: boolean;
  spend: { used: number; cap?: number };
  /** Effective environment floors. */
  thresholds: { auto_accept: number; review_at: number; block_at: number };
  /** In-host MCP endpoint URL (never the token). */
  endpoint?: string;
  /** Where the permission guard's hook is installed (src/guard/install/overview.ts); empty when it is off everywhere. */
  guard?: GuardPlaceView[];
}

/** One host and scope with the guard on: `label` as users call the host, `file` workspace-relative or `~/…`. */
export interface GuardPlaceView {
  host: string;
  label: string;
  scope: 'project' | 'user';
  file: string;
  /** The agent the hook runs as. */
  agent: string;
}

/** One configured MCP server as the panel shows it. */
export interface ServerView {
  name: string;
  transport: 'stdio' | 'http';
  /** `not-started` (neutral: it starts when needed) and `disabled` (turned off by the user) are not faults. */
  status: 'starting' | 'ready' | 'error' | 'stopped' | 'not-started' | 'disabled';
  /** Why it is in error (spawn error, exit code, last stderr lines, timeout), or a note on the state. */
  reason?: string;
  tools: string[];
  /** A configured server's switch (jevPanel.disabledServers); absent for the built-in endpoint. */
  enabled?: boolean;
  /** OAuth: `required` = needs a sign-in (Sign in), `signed-in` = tokens held (Sign out). */
  auth?: 'required' | 'signed-in';
  /** A warning while the server works, e.g. non-JSON-RPC lines skipped on its stdout (the last one named). */
  warning?: string;
}

/** Effective permission of one agent on one tool, with the rule that decided it. */
export interface PermissionView {
  tool: string;
  allowed: boolean;
  /** e.g. `allowed by "jev_*"`, `denied by "!files/write_file"`, `no grant matches`. */
  why: string;
  /** The tool's annotations say `readOnlyHint: true` (what "Grant read-only" grants). */
  readOnly?: boolean;
}

/** One agent manifest as the panel shows it. */
export interface AgentView {
  name: string;
  grants: string[];
  permissions: PermissionView[];
  warnings: string[];
  /**
   * Set for an agent a guard hook runs as (src/guard/install/overview.ts): the hosts (as users call them),
   * whether `.jev/config.json` limits it by grants (`grants` then lists them), and the permission rules in
   * force. Its grants are edited in that file, not here.
   */
  hook?: { hosts: string[]; granted: boolean; rules: { allow: string[]; ask: string[]; deny: string[] }; problem?: string };
}

/** Everything the panel needs to render from scratch. */
export interface PanelSnapshot {
  status: BackendStatus;
  feed: FeedRow[];
  servers: ServerView[];
  agents: AgentView[];
}

export type HostToWebview =
  | { type: 'snapshot'; snapshot: PanelSnapshot }
  | { type: 'feedAppend'; rows: FeedRow[] }
  | { type: 'feedProgress'; running: FeedProgress[] }
  | { type: 'status'; status: BackendStatus }
  | { type: 'servers'; servers: ServerView[] }
  | { type: 'agents'; agents: AgentView[] }
  | { type: 'record'; record: DecisionRecord }
  /** Answer to `getRecord` when the id is unknown (e.g. dropped from the ledger); `reason` is shown. */
  | { type: 'recordMissing'; id: string; reason: string }
  /** Ask the webview to show this decision (the editor panel opens on one decision). */
  | { type: 'select'; id: string };

export type WebviewToHost =
  | { type: 'ready' }
  | { type: 'getRecord'; id: string }
  | { type: 'openDecision'; id: string }
  | { type: 'restartServer'; name: string }
  | { type: 'signInServer'; name: string }
  | { type: 'signOutServer'; name: string }
  | { type: 'openServerLog'; name: string }
  | { type: 'toggleGrant'; agent: string; grant: string; enabled: boolean }
  /** Turns a configured server on or off (jevPanel.disabledServers). */
  | { type: 'setServerEnabled'; name: string; enabled: boolean }
  /** Grants `agent` every tool of `server`, or exactly its read-only ones (readOnlyHint). */
  | { type: 'grantServer'; agent: string; server: string; mode: 'all' | 'readOnly' }
  | { type: 'runSampleStep' }
  | { type: 'command'; command: 'setApiKey' | 'clearApiKey' | 'openSettings' | 'importMcpJson' | 'openLedger' | 'guardOn' | 'guardOff' };

/** Builds a feed row from a record (first reason code or error code on top). */
export function feedRowOf(record: DecisionRecord): FeedRow {
  const result = (record.result ?? {}) as { handoff?: unknown; decision?: unknown; recommendation?: { action?: unknown }; action?: unknown; reason_codes?: unknown; model?: unknown };
  const subject = callSummary(record);
  const reasons = Array.isArray(result.reason_codes) ? (result.reason_codes as unknown[]) : [];
  return {
    id: record.id,
    time: record.time,
    tool: record.tool,
    agent: record.agent,
    // jev_permit's allow / ask / deny and jev_screen's pass / review / block / skip are what the caller acts
    // on, so they take the handoff's place.
    handoff: typeof result.handoff === 'string' ? result.handoff : typeof result.decision === 'string' ? result.decision : typeof result.recommendation?.action === 'string' ? result.recommendation.action : undefined,
    action: typeof result.action === 'string' ? result.action : undefined,
    topReason: record.error ? record.error.code : typeof reasons[0] === 'string' ? (reasons[0] as string) : undefined,
    latency_ms: record.latency_ms,
    error: record.error?.code,
    model: typeof result.model === 'string' ? result.model : record.response?.model,
    kind: record.kind,
    ...(record.source ? { source: record.source } : {}),
    ...(subject ? { subject } : {}),
  };
}
