import type { CallFacts, GuardEvent, GuardVerdict } from '../types';
import { json, mcpDoubleUnderscore, strings, type HostAdapter } from './adapter';
import { parseSnakeEvent, postToolUseAnswer, preToolUseAnswer } from './claude-code';

/**
 * Codex's hooks (openai/codex `codex-rs/hooks/schema/generated/`, copies with their source commit in
 * test/fixtures/hosts/codex/): PreToolUse and PermissionRequest fire for its shell tool, named `Bash`,
 * with `tool_input.command`. PreToolUse honours only `permissionDecision: "deny"` (Codex treats allow and
 * ask as unsupported and runs the call under its own approval policy), so the guard answers PreToolUse
 * with deny or with no output. PermissionRequest (Codex is about to ask for approval) takes
 * `hookSpecificOutput.decision.behavior` allow|deny; no output leaves Codex's approval prompt. A failed
 * judgment therefore never allows: no output, and Codex's sandbox and approval policy decide. PostToolUse
 * (input adds `tool_response`) takes `decision: "block"` with `reason`, and `hookSpecificOutput` with
 * `additionalContext` and `updatedMCPToolOutput`: a screened result is answered like Claude Code's (the
 * answers are checked against the published output schema). Default hook timeout: 600 s.
 */

function describe(event: GuardEvent): CallFacts {
  return { ruleTool: event.tool, command: strings(event.input, 'command')[0], paths: [], urls: [], effect: undefined };
}

export const codex: HostAdapter = {
  name: 'codex',
  defaultAgent: 'codex',
  hookTimeoutMs: 600_000,
  parse: (raw) => parseSnakeEvent('codex', raw),
  describe,
  answer(event: GuardEvent | undefined, v: GuardVerdict): string {
    const kind = event?.kind ?? 'PreToolUse';
    if (kind === 'PreToolUse') return v.decision === 'deny' ? preToolUseAnswer('deny', v.reason) : '';
    if (kind === 'PermissionRequest') {
      if (v.decision === 'allow') return json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } });
      if (v.decision === 'deny') return json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: v.reason } } });
    }
    return '';
  },
  answerScreen: postToolUseAnswer,
  mcpTool: (tool) => mcpDoubleUnderscore(tool),
};
