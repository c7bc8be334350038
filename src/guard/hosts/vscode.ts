import type { CallFacts, GuardEvent, GuardVerdict, ScreenAnswer, ToolEffect } from '../types';
import { globBase, resolveAgainst } from '../paths';
import { json, strings, type HostAdapter } from './adapter';
import { parseSnakeEvent, preToolUseAnswer } from './claude-code';

/**
 * VS Code's agent hooks (its "Hooks reference"; facts seen in the real host are in the project's
 * vscode-agent notes): PreToolUse arrives with `timestamp`, `hook_event_name`, `session_id`,
 * `transcript_path`, `tool_name` (`run_in_terminal`, `read_file`, `mcp_<server>_<tool>`…), `tool_input`,
 * `tool_use_id`, `cwd`, and is answered with `hookSpecificOutput.permissionDecision` allow|ask|deny;
 * `ask` shows a confirmation quoting the reason. There is no PermissionRequest event. A failed judgment
 * answers `ask`. PostToolUse (input adds `tool_response`) takes `decision: "block"` with `reason` and
 * `hookSpecificOutput.additionalContext`; VS Code has no way to replace a tool's output, so a withheld
 * result is blocked with the notice as reason and context. Default hook timeout: 30 s.
 *
 * Tool names map onto the rule names agent users know (README "Guard"): run_in_terminal ↔ Bash,
 * read_file/list_dir ↔ Read, grep_search/semantic_search ↔ Grep, file_search ↔ Glob, create_file ↔ Write,
 * replace_string_in_file/multi_replace_string_in_file/insert_edit_into_file/edit_notebook_file/editFiles ↔
 * Edit, fetch_webpage ↔ WebFetch; other names (MCP tools) keep their own name.
 */

const RULE_NAMES: Record<string, string> = {
  run_in_terminal: 'Bash',
  read_file: 'Read',
  list_dir: 'LS',
  grep_search: 'Grep',
  semantic_search: 'Grep',
  file_search: 'Glob',
  create_file: 'Write',
  replace_string_in_file: 'Edit',
  multi_replace_string_in_file: 'Edit',
  insert_edit_into_file: 'Edit',
  edit_notebook_file: 'NotebookEdit',
  editFiles: 'Edit',
  fetch_webpage: 'WebFetch',
};

const EFFECTS: Record<string, ToolEffect> = {
  Read: 'read_only',
  LS: 'read_only',
  Grep: 'read_only',
  Glob: 'read_only',
  Write: 'local_write',
  Edit: 'local_write',
  NotebookEdit: 'local_write',
};

/** Rule name of a VS Code tool name. */
export function vscodeRuleName(tool: string): string {
  return RULE_NAMES[tool] ?? tool;
}

function describe(event: GuardEvent): CallFacts {
  const ruleTool = vscodeRuleName(event.tool);
  const input = event.input;
  // A glob (grep_search's includePattern, file_search's query) reaches where its fixed part leads.
  const globs = [...strings(input, 'includePattern'), ...(ruleTool === 'Glob' ? strings(input, 'query') : [])];
  const paths = [...strings(input, 'filePath', 'path', 'files'), ...globs.map(globBase).filter((p): p is string => p !== undefined)].map((p) => resolveAgainst(event.cwd, p));
  // multi_replace_string_in_file carries its files in `replacements[].filePath`.
  const replacements = (input as { replacements?: unknown } | null)?.replacements;
  if (Array.isArray(replacements)) for (const r of replacements) paths.push(...strings(r, 'filePath').map((p) => resolveAgainst(event.cwd, p)));
  if ((ruleTool === 'Grep' || ruleTool === 'Glob' || ruleTool === 'LS') && paths.length === 0 && event.cwd) paths.push(event.cwd);
  return { ruleTool, command: strings(input, 'command')[0], paths, urls: strings(input, 'urls', 'url'), effect: EFFECTS[ruleTool] };
}

export const vscode: HostAdapter = {
  name: 'vscode',
  defaultAgent: 'vscode',
  hookTimeoutMs: 30_000,
  parse: (raw) => parseSnakeEvent('vscode', raw),
  describe,
  answer(event: GuardEvent | undefined, v: GuardVerdict): string {
    const kind = event?.kind ?? 'PreToolUse';
    if (kind !== 'PreToolUse' || v.decision === 'defer') return '';
    return preToolUseAnswer(v.decision, v.reason);
  },
  answerScreen(_event: GuardEvent, s: ScreenAnswer): string {
    if (s.handling === 'pass-through') return '';
    const context = { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: s.notice } };
    return json(s.handling === 'warn' ? context : { decision: 'block', reason: s.notice, ...context });
  },
  mcpTool(tool: string, servers: readonly string[]) {
    // `mcp_<server>_<tool>`: the server is the longest configured name that fits (names may hold `_`).
    const server = [...servers].sort((a, b) => b.length - a.length).find((name) => tool.startsWith(`mcp_${name}_`) && tool.length > name.length + 5);
    return server === undefined ? undefined : { server, tool: tool.slice(server.length + 5) };
  },
};
