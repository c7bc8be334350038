import type { CallFacts, GuardEvent, GuardVerdict, HostName, ScreenAnswer } from '../types';

/**
 * One host's hook wire format: how its hook event arrives on stdin, what its tools mean, and how it
 * reads an answer on stdout. One file per host in this folder; index.ts lists them.
 */
export interface HostAdapter {
  name: HostName;
  /** Agent name the host's calls run as in `.jev/config.json` (`--agent` overrides it). */
  defaultAgent: string;
  /** The host's default timeout of one hook command, ms (from its hooks documentation). */
  hookTimeoutMs: number;
  /** Parses one event. Throws Error naming the missing or malformed field. */
  parse(raw: unknown): GuardEvent;
  /** The call in rule terms (rule name, paths, command, URLs, known effect). */
  describe(event: GuardEvent): CallFacts;
  /**
   * The host's answer on stdout ('' writes nothing). `event` is undefined when the event could not be
   * read (malformed, too large): answered as a PreToolUse.
   */
  answer(event: GuardEvent | undefined, verdict: GuardVerdict): string;
  /**
   * The host's answer to a screened PostToolUse result ('' writes nothing). Absent: the host does not
   * read a PostToolUse answer, and the guard has no opinion on its results.
   */
  answerScreen?(event: GuardEvent, screen: ScreenAnswer): string;
  /** The MCP server and tool of `tool` when it is one of the host's MCP tools (`servers`: the configured server names). */
  mcpTool?(tool: string, servers: readonly string[]): { server: string; tool: string } | undefined;
}

/** The MCP server and tool of a `mcp__server__tool` name (Claude Code, Codex), else undefined. */
export function mcpDoubleUnderscore(name: string): { server: string; tool: string } | undefined {
  const m = /^mcp__(.+?)__(.+)$/.exec(name);
  return m ? { server: m[1]!, tool: m[2]! } : undefined;
}

/**
 * The replacement of a tool result in the shape the host gave it: a string for a string, a list of one text
 * block for a list (MCP content), `{content: [text block]}` for an object.
 */
export function replacementLike(original: unknown, text: string): unknown {
  if (typeof original === 'string') return text;
  const block = [{ type: 'text', text }];
  if (Array.isArray(original)) return block;
  return { content: block };
}

/** `obj[field]` when it is a non-empty string, else undefined. */
export function str(obj: Record<string, unknown>, field: string): string | undefined {
  const v = obj[field];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** The event as an object, or an Error naming what is wrong. */
export function asObject(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('the hook event must be a JSON object');
  return raw as Record<string, unknown>;
}

/** `obj[field]` as a non-empty string; throws Error naming the field. */
export function required(obj: Record<string, unknown>, field: string): string {
  const v = str(obj, field);
  if (v === undefined) throw new Error(`the hook event has no ${field} (a non-empty string)`);
  return v;
}

/** String values of `input[field]` (a string or an array of strings). */
export function strings(input: unknown, ...fields: string[]): string[] {
  if (typeof input !== 'object' || input === null) return [];
  const out: string[] = [];
  for (const f of fields) {
    const v = (input as Record<string, unknown>)[f];
    if (typeof v === 'string' && v !== '') out.push(v);
    else if (Array.isArray(v)) for (const item of v) if (typeof item === 'string' && item !== '') out.push(item);
  }
  return out;
}

/** JSON text of `value` plus a line break: what a host reads on stdout. */
export const json = (value: unknown): string => `${JSON.stringify(value)}\n`;
