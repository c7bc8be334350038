/**
 * Shapes shared by the permission guard (`jevcp guard`): one tool call as a host hook reports it, the
 * call as the guard judges it, the jev_permit port, and the decision the guard answers with. No I/O.
 */

/** The hosts whose hook format the guard speaks. */
export const HOST_NAMES = ['claude-code', 'vscode', 'codex', 'copilot-cli'] as const;
/** One of HOST_NAMES. */
export type HostName = (typeof HOST_NAMES)[number];

/** What a tool call may change, as far as the guard knows it (undefined: unknown, e.g. a shell command). */
export type ToolEffect = 'read_only' | 'local_write' | 'external_write' | 'destructive';

/**
 * Which hook event: the two that get a decision, PostToolUse (its result may be screened), or any other
 * (answered with no opinion).
 */
export type GuardEventKind = 'PreToolUse' | 'PermissionRequest' | 'PostToolUse' | 'UserPromptSubmit' | 'other';

/** One hook event, parsed from the host's stdin JSON (hosts/*.ts `parse`). */
export interface GuardEvent {
  host: HostName;
  kind: GuardEventKind;
  /** The event name as the host wrote it (`PreToolUse`, `preToolUse`, `PostToolUse`…). */
  eventName: string;
  /** The host's tool name (`Bash`, `run_in_terminal`, `mcp__github__create_issue`). */
  tool: string;
  /** The tool's arguments as the host gave them (an object, or the parsed `toolArgs` string). */
  input: unknown;
  /** The session's working folder (absolute), when given. */
  cwd?: string;
  /** The host's JSONL transcript, when given. */
  transcriptPath?: string;
  /** The host's permission mode (`default`, `acceptEdits`, `plan`, `bypassPermissions`…), when given. */
  permissionMode?: string;
  sessionId?: string;
  toolUseId?: string;
  /** PostToolUse: the tool's result as the host gave it (`tool_response`). */
  response?: unknown;
  /** UserPromptSubmit: what the user asked (`prompt`). */
  prompt?: string;
}

/**
 * A call in the guard's terms (hosts/*.ts `describe`): the rule name agent users know (`Bash`, `Read`,
 * `Edit`, `Write`, `WebFetch`, `mcp__server__tool`), what it touches, and its known effect.
 */
export interface CallFacts {
  /** Rule name of the tool (Claude Code's names; other hosts' tools are mapped onto them). */
  ruleTool: string;
  /** Shell command, for shell tools. */
  command?: string;
  /** File paths the call names, absolute (resolved against cwd). */
  paths: string[];
  /** URLs the call fetches. */
  urls: string[];
  /** Known effect; undefined when the tool could do anything (a shell command, an MCP tool). */
  effect?: ToolEffect;
}

/** The jev_permit tool's input (src/tools/jev-permit.ts on the `guard` branch). */
export interface PermitInput {
  /** The user's request, from the host's transcript (cut to a budget). */
  request: string;
  call: { tool: string; input: unknown; description?: string };
  host: {
    name: string;
    agent: string;
    effect?: ToolEffect;
    paths_in_workspace?: boolean;
    permission_mode?: string;
  };
  /** Probability in [0,1] at or above which the call is allowed without a person. */
  auto_accept?: number;
  /** Probability in [0,1] below which the call is denied rather than asked. */
  review_at?: number;
}

/** The jev_permit tool's result, as far as the guard reads it. */
export interface PermitResult {
  decision: 'allow' | 'ask' | 'deny';
  action: 'auto' | 'review' | 'escalate';
  reason_codes: string[];
  model: string;
  usage?: unknown;
  /** Ledger record id of the judgment, when the caller knows it. */
  record_id?: string;
  [key: string]: unknown;
}

/**
 * The port through which the guard judges a call: jev_permit through JudgmentService (judge.ts
 * `servicePermitJudge`), or a fake in tests. Resolves to the tool's result; rejects with a JevError (or
 * any error) when there is no judgment: the guard then never allows.
 */
export type PermitJudge = (input: PermitInput, opts: { signal: AbortSignal; deadlineMs: number }) => Promise<PermitResult>;

/** What the guard answers for one call. `defer`: no opinion, the host's own permission flow decides. */
export type GuardDecision = 'allow' | 'ask' | 'deny' | 'defer';

/** The guard's verdict on one event, before it is written in the host's format. */
export interface GuardVerdict {
  decision: GuardDecision;
  /** Why, in one line (shown by hosts for ask/deny; names the reason codes). */
  reason: string;
  /** Reason codes that decided (e.g. `RULE_DENY`, `CAPABILITY_VIOLATION`, jev_permit's codes). */
  reasonCodes: string[];
  /** Who decided: `local-policy` for rules and grants, the judge's model, or `none` on a failure. */
  model: string;
  /** Ledger record id of the judgment, when there was one. */
  recordId?: string;
}

/** A decision the guard made without judgment (a permission rule or the agent's grants), as it is recorded. */
export interface SettledCall {
  decision: 'allow' | 'ask' | 'deny';
  /** One code: RULE_ALLOW, RULE_ASK, RULE_DENY or CAPABILITY_VIOLATION. */
  reason_codes: string[];
  /** What settled it: a permission rule, or the agent's grants. */
  settled_by: 'rule' | 'grant';
  /** The deciding pattern (`Bash(git status*)`), for a rule. */
  rule?: string;
  /** The one line the host was told. */
  reason: string;
}

/**
 * Records a settled call (in the running editor's ledger and feed, src/channel/settled-client.ts); resolves
 * to the record id, or undefined when nothing recorded it. Never rejects; never changes the decision.
 */
export type SettledRecorder = (call: { input: PermitInput; settled: SettledCall; event: GuardEvent; agent: string; root: string }) => Promise<string | undefined>;


/**
 * What the guard says about one screened tool result (PostToolUse), before it is written in the host's
 * format (hosts/*.ts `answerScreen`). `pass-through`: nothing; `warn`: context telling the model the
 * content is data only; `withhold`: keep the content from the model as far as the host allows.
 */
export interface ScreenAnswer {
  handling: 'pass-through' | 'warn' | 'withhold';
  /** The screen's outcome kind (pass, skip, review, block, unscreened). */
  kind: string;
  /** What the model is told (names the decision and its record ids; never quotes the content). */
  notice: string;
  /** True for an MCP tool's result: hosts that can replace an MCP tool's output do. */
  mcp: boolean;
}
