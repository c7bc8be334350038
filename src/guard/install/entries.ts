import type { HostName } from '../types';

/**
 * The hook entries the guard adds to a host's configuration, and how to find them again: every entry
 * runs a command containing ` guard --host <host>` (GUARD_MARK).
 */

/** Hook timeout written into the configuration, seconds (the guard's own deadline is 5 s below it). */
export const INSTALLED_TIMEOUT_S: Readonly<Record<HostName, number>> = { 'claude-code': 60, vscode: 30, codex: 60, 'copilot-cli': 30 };

/** Matches a command the guard installed. */
export const GUARD_MARK = / guard --host (claude-code|vscode|codex|copilot-cli)\b/;

type Json = Record<string, unknown>;

/**
 * Tools whose PostToolUse results the guard may screen (src/guard/run.ts): shell commands (screen.commands),
 * the host's web tools and MCP tools; first-party file tools are left out so their results cost no hook run.
 * Claude Code's and Codex's matchers are regular expressions on the tool name.
 */
export const POST_TOOL_USE_MATCHER: Readonly<Record<'claude-code' | 'codex', string>> = { 'claude-code': 'Bash|WebFetch|WebSearch|mcp__.*', codex: 'Bash|web_search|mcp__.*' };

/**
 * The events the guard hooks per host, and the entry it adds to each event's list: PreToolUse (and
 * Codex's PermissionRequest) for permissions, PostToolUse for the content screen, and VS Code's UserPromptSubmit
 * for the user's request. Copilot CLI's postToolUse
 * output is not read, so only its preToolUse is hooked.
 */
export function guardEntries(host: HostName, command: string): Record<string, Json> {
  const timeout = INSTALLED_TIMEOUT_S[host];
  switch (host) {
    case 'claude-code':
      return {
        PreToolUse: { matcher: '*', hooks: [{ type: 'command', command, timeout }] },
        PostToolUse: { matcher: POST_TOOL_USE_MATCHER['claude-code'], hooks: [{ type: 'command', command, timeout }] },
      };
    case 'codex':
      return {
        PreToolUse: { matcher: 'Bash', hooks: [{ type: 'command', command, timeout }] },
        PermissionRequest: { matcher: 'Bash', hooks: [{ type: 'command', command, timeout }] },
        PostToolUse: { matcher: POST_TOOL_USE_MATCHER.codex, hooks: [{ type: 'command', command, timeout }] },
      };
    case 'vscode':
      // UserPromptSubmit keeps the user's prompt: VS Code's transcript does not always hold it (src/guard/prompt-store.ts).
      return { UserPromptSubmit: { type: 'command', command, timeout }, PreToolUse: { type: 'command', command, timeout }, PostToolUse: { type: 'command', command, timeout } };
    case 'copilot-cli':
      return { preToolUse: { type: 'command', bash: command, timeoutSec: timeout } };
  }
}

/** Whether a hook entry (a matcher group or a command hook) is one of ours. */
export function isGuardEntry(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const e = entry as Json;
  for (const key of ['command', 'bash']) if (typeof e[key] === 'string' && GUARD_MARK.test(e[key])) return true;
  return Array.isArray(e.hooks) && e.hooks.length > 0 && e.hooks.every(isGuardEntry);
}

/** The command of our entry in a parsed configuration, if any. */
export function installedCommand(config: unknown): string | undefined {
  const hooks = (config as { hooks?: unknown } | null)?.hooks;
  if (typeof hooks !== 'object' || hooks === null) return undefined;
  for (const list of Object.values(hooks as Json)) {
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      if (!isGuardEntry(entry)) continue;
      const e = entry as Json;
      const inner = Array.isArray(e.hooks) ? (e.hooks[0] as Json) : e;
      const cmd = inner.command ?? inner.bash;
      if (typeof cmd === 'string') return cmd;
    }
  }
  return undefined;
}

/**
 * `config` with our entries put in place: in each hooked event's list, an entry of ours is replaced,
 * else ours is appended after the entries already there. Other hooks and settings are kept as they are.
 * Throws Error when `hooks` or an event's list is not of the expected type.
 */
export function addGuardEntries(config: Json, entries: Record<string, Json>, top: Json = {}): Json {
  const out: Json = { ...config };
  for (const [k, v] of Object.entries(top)) if (!(k in out)) out[k] = v;
  if (out.hooks !== undefined && (typeof out.hooks !== 'object' || out.hooks === null || Array.isArray(out.hooks))) throw new Error('"hooks" is not an object');
  const hooks: Json = { ...((out.hooks as Json | undefined) ?? {}) };
  for (const [event, entry] of Object.entries(entries)) {
    const list = hooks[event];
    if (list !== undefined && !Array.isArray(list)) throw new Error(`"hooks.${event}" is not an array`);
    const kept = ((list as unknown[] | undefined) ?? []).filter((e) => !isGuardEntry(e));
    hooks[event] = [...kept, entry];
  }
  out.hooks = hooks;
  return out;
}

/** `config` without our entries; an event list, or `hooks`, left empty by that is removed. */
export function removeGuardEntries(config: Json): Json {
  const hooks = config.hooks;
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) return config;
  const next: Json = {};
  for (const [event, list] of Object.entries(hooks as Json)) {
    if (!Array.isArray(list)) {
      next[event] = list;
      continue;
    }
    const kept = list.filter((e) => !isGuardEntry(e));
    if (kept.length > 0 || list.length === 0) next[event] = kept;
  }
  const out: Json = { ...config };
  if (Object.keys(next).length === 0) delete out.hooks;
  else out.hooks = next;
  return out;
}
