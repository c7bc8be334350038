import type { CallFacts, GuardEvent, GuardVerdict, ToolEffect } from '../types';
import { resolveAgainst } from '../paths';
import { asObject, json, required, str, strings, type HostAdapter } from './adapter';

/**
 * GitHub Copilot CLI's hooks (its hooks configuration reference): `.github/hooks/*.json` with
 * `{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": …, "timeoutSec": …}]}}`. The
 * preToolUse event arrives as `{timestamp, cwd, toolName, toolArgs}` (`toolArgs` a JSON string, or an
 * object), and is answered with a top-level `{permissionDecision: "allow"|"deny"|"ask",
 * permissionDecisionReason}`; no output lets the CLI's own permission flow decide. The event carries no
 * event name (the configuration key says which event runs the command), so an event with toolName is a
 * preToolUse and one without has no opinion. A failed judgment answers `ask`. Default hook timeout: 30 s.
 * postToolUse (`toolResult` beside `toolName`) gets no opinion and is not screened: the CLI's hooks reference
 * documents no output for it that reaches the model (only the SDK's in-process onPostToolUse can modify a
 * result or add context), so the adapter has no `answerScreen`.
 *
 * Tools map onto rule names: bash ↔ Bash, view ↔ Read, create ↔ Write, edit/str_replace ↔ Edit,
 * glob ↔ Glob, grep ↔ Grep, web_fetch ↔ WebFetch.
 */

const RULE_NAMES: Record<string, string> = { bash: 'Bash', view: 'Read', create: 'Write', edit: 'Edit', str_replace: 'Edit', glob: 'Glob', grep: 'Grep', web_fetch: 'WebFetch' };
const EFFECTS: Record<string, ToolEffect> = { Read: 'read_only', Glob: 'read_only', Grep: 'read_only', Write: 'local_write', Edit: 'local_write' };

function parse(raw: unknown): GuardEvent {
  const obj = asObject(raw);
  const tool = str(obj, 'toolName');
  // A toolName that is there but not a name is a broken preToolUse, not another event.
  if (tool === undefined && obj.toolName !== undefined) throw new Error('the hook event toolName must be a string');
  if (tool === undefined) {
    // sessionStart, postToolUse (it has toolName too, but also toolResult), userPromptSubmitted…: no decision.
    return { host: 'copilot-cli', kind: 'other', eventName: 'other', tool: '', input: undefined, cwd: str(obj, 'cwd') };
  }
  if (obj.toolResult !== undefined) return { host: 'copilot-cli', kind: 'other', eventName: 'postToolUse', tool, input: undefined, cwd: str(obj, 'cwd') };
  let input: unknown = obj.toolArgs;
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input);
    } catch {
      throw new Error('the hook event toolArgs is a string that is not JSON');
    }
  }
  if (input === undefined) input = {};
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new Error('the hook event toolArgs must be a JSON object (or a string holding one)');
  required(obj, 'toolName');
  return { host: 'copilot-cli', kind: 'PreToolUse', eventName: 'preToolUse', tool, input, cwd: str(obj, 'cwd') };
}

function describe(event: GuardEvent): CallFacts {
  const ruleTool = RULE_NAMES[event.tool] ?? event.tool;
  const paths = strings(event.input, 'path', 'file_path').map((p) => resolveAgainst(event.cwd, p));
  if ((ruleTool === 'Glob' || ruleTool === 'Grep') && paths.length === 0 && event.cwd) paths.push(event.cwd);
  return { ruleTool, command: strings(event.input, 'command')[0], paths, urls: strings(event.input, 'url'), effect: EFFECTS[ruleTool] };
}

export const copilotCli: HostAdapter = {
  name: 'copilot-cli',
  defaultAgent: 'copilot-cli',
  hookTimeoutMs: 30_000,
  parse,
  describe,
  answer(event: GuardEvent | undefined, v: GuardVerdict): string {
    const kind = event?.kind ?? 'PreToolUse';
    if (kind !== 'PreToolUse' || v.decision === 'defer') return '';
    return json({ permissionDecision: v.decision, permissionDecisionReason: v.reason });
  },
};
