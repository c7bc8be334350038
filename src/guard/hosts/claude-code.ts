import type { CallFacts, GuardEvent, GuardEventKind, GuardVerdict, ScreenAnswer, ToolEffect } from '../types';
import { globBase, resolveAgainst } from '../paths';
import { asObject, json, mcpDoubleUnderscore, replacementLike, required, str, strings, type HostAdapter } from './adapter';

/**
 * Claude Code's hooks (its hooks reference): the event arrives on stdin with `session_id`,
 * `transcript_path`, `cwd`, `permission_mode`, `hook_event_name`, `tool_name`, `tool_input`,
 * `tool_use_id`. PreToolUse is answered with `hookSpecificOutput.permissionDecision` allow|ask|deny and
 * `permissionDecisionReason`; PermissionRequest (the permission dialog is about to show) with
 * `hookSpecificOutput.decision.behavior` allow|deny. Writing nothing leaves Claude's own permission flow.
 * A failed judgment answers PreToolUse with `ask` (a person decides, whatever the session's allow rules
 * or mode) and PermissionRequest with nothing (the dialog shows). PostToolUse (its input adds
 * `tool_response`) is answered for a screened result: `hookSpecificOutput.additionalContext` to warn;
 * `decision: "block"` with a `reason` (fed to Claude) to withhold, plus `updatedMCPToolOutput` (replaces
 * the output) for an MCP tool; nothing for a result that passed.
 */

const EFFECTS: Record<string, ToolEffect> = {
  Read: 'read_only',
  Glob: 'read_only',
  Grep: 'read_only',
  LS: 'read_only',
  NotebookRead: 'read_only',
  TodoWrite: 'read_only',
  Edit: 'local_write',
  MultiEdit: 'local_write',
  Write: 'local_write',
  NotebookEdit: 'local_write',
};

/** Event kind of a Claude Code (or Codex, VS Code) `hook_event_name`. */
export function eventKind(name: string): GuardEventKind {
  return name === 'PreToolUse' || name === 'PermissionRequest' || name === 'PostToolUse' || name === 'UserPromptSubmit' ? name : 'other';
}

/** Parses the snake_case event shared by Claude Code, VS Code and Codex. Throws Error naming the field. */
export function parseSnakeEvent(host: GuardEvent['host'], raw: unknown): GuardEvent {
  const obj = asObject(raw);
  const eventName = required(obj, 'hook_event_name');
  const kind = eventKind(eventName);
  if (kind === 'UserPromptSubmit') {
    return { host, kind, eventName, tool: '', input: undefined, cwd: str(obj, 'cwd'), transcriptPath: str(obj, 'transcript_path'), sessionId: str(obj, 'session_id'), prompt: str(obj, 'prompt') };
  }
  const tool = kind === 'other' ? (str(obj, 'tool_name') ?? '') : required(obj, 'tool_name');
  if (kind !== 'other' && (typeof obj.tool_input !== 'object' || obj.tool_input === null || Array.isArray(obj.tool_input))) {
    throw new Error('the hook event has no tool_input (an object)');
  }
  return {
    host,
    kind,
    eventName,
    tool,
    input: obj.tool_input,
    cwd: str(obj, 'cwd'),
    transcriptPath: str(obj, 'transcript_path'),
    permissionMode: str(obj, 'permission_mode'),
    sessionId: str(obj, 'session_id'),
    toolUseId: str(obj, 'tool_use_id'),
    ...(kind === 'PostToolUse' ? { response: obj.tool_response } : {}),
  };
}

/**
 * The PostToolUse answer shared by Claude Code and Codex: `warn` adds context; `withhold` blocks with the
 * notice as the reason (fed to the model) and, for an MCP tool, replaces its output with the notice
 * (`updatedMCPToolOutput`, in the shape the host gave the output).
 */
export function postToolUseAnswer(event: GuardEvent, s: ScreenAnswer): string {
  if (s.handling === 'pass-through') return '';
  if (s.handling === 'warn') return json({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: s.notice } });
  return json({
    decision: 'block',
    reason: s.notice,
    hookSpecificOutput: {
      hookEventName: 'PostToolUse',
      additionalContext: s.notice,
      ...(s.mcp ? { updatedMCPToolOutput: replacementLike(event.response, s.notice) } : {}),
    },
  });
}

/** The `hookSpecificOutput` answer to PreToolUse (Claude Code, VS Code, Codex share it). */
export function preToolUseAnswer(decision: 'allow' | 'ask' | 'deny', reason: string): string {
  return json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason } });
}

/** Claude Code's tools in rule terms. */
export function describeClaude(event: GuardEvent): CallFacts {
  const input = event.input;
  const at = (p: string) => resolveAgainst(event.cwd, p);
  const paths = strings(input, 'file_path', 'notebook_path', 'path').map(at);
  // Glob and Grep without a path search the working folder.
  if ((event.tool === 'Glob' || event.tool === 'Grep' || event.tool === 'LS') && paths.length === 0 && event.cwd) paths.push(event.cwd);
  // Glob's pattern reaches where its fixed part leads (`/root/.ssh/*`, `../../etc/*`), from the search folder.
  if (event.tool === 'Glob') {
    const base = globBase(strings(input, 'pattern')[0] ?? '');
    const from = strings(input, 'path')[0];
    const dir = from !== undefined ? at(from) : event.cwd;
    if (base !== undefined) paths.push(dir === undefined ? at(base) : resolveAgainst(dir, base));
  }
  return {
    ruleTool: event.tool,
    command: strings(input, 'command')[0],
    paths,
    urls: strings(input, 'url'),
    effect: EFFECTS[event.tool],
  };
}

export const claudeCode: HostAdapter = {
  name: 'claude-code',
  defaultAgent: 'claude-code',
  hookTimeoutMs: 60_000,
  parse: (raw) => parseSnakeEvent('claude-code', raw),
  describe: describeClaude,
  answer(event: GuardEvent | undefined, v: GuardVerdict): string {
    const kind = event?.kind ?? 'PreToolUse';
    if (kind === 'PreToolUse') return v.decision === 'defer' ? '' : preToolUseAnswer(v.decision, v.reason);
    if (kind === 'PermissionRequest') {
      if (v.decision === 'allow') return json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } });
      if (v.decision === 'deny') return json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: v.reason } } });
      return ''; // ask / defer: the permission dialog shows
    }
    return '';
  },
  answerScreen: postToolUseAnswer,
  mcpTool: (tool) => mcpDoubleUnderscore(tool),
};
