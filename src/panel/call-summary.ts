/**
 * One line naming what a record judged, for the feed. jev_permit: the host's tool and its most telling
 * argument (a command, a path, a URL, a query), whitespace collapsed and cut to SUMMARY_CHARS; the input is
 * the recorded one, already redacted by the guard (src/guard/secrets.ts), so no secret reaches the feed.
 * jev_screen: the injection probability the recommendation rests on.
 */
import type { DecisionRecord } from '../ledger/record';

/** Longest summary, in characters (the feed row ellipsizes further to its width). */
export const SUMMARY_CHARS = 120;

// The argument that says most about a call, in the order hosts name it (Claude Code, VS Code, Codex).
const TELLING_KEYS = ['command', 'cmd', 'file_path', 'filePath', 'path', 'url', 'query', 'pattern', 'uri'];

function tellingArgument(input: unknown): string | undefined {
  if (typeof input === 'string') return input;
  if (!input || typeof input !== 'object' || Array.isArray(input)) return undefined;
  const fields = input as Record<string, unknown>;
  for (const key of TELLING_KEYS) {
    const v = fields[key];
    if (typeof v === 'string' && v.trim()) return v;
    if (Array.isArray(v) && v.every((x) => typeof x === 'string') && v.length) return v.join(' ');
  }
  const first = Object.values(fields).find((v) => typeof v === 'string' && v.trim());
  return typeof first === 'string' ? first : undefined;
}

/** `tool argument` of a jev_permit record's call (`Bash: rm -rf build`), `injection 0.93` of a jev_screen result, else undefined. */
export function callSummary(record: Pick<DecisionRecord, 'tool' | 'input'> & { result?: unknown }): string | undefined {
  if (record.tool === 'jev_screen') {
    const p = (record.result as { probabilities?: { injection?: unknown } } | null | undefined)?.probabilities?.injection;
    return typeof p === 'number' && p >= 0 && p <= 1 ? `injection ${p.toFixed(2)}` : undefined;
  }
  if (record.tool !== 'jev_permit') return undefined;
  const call = (record.input as { call?: { tool?: unknown; input?: unknown } } | null | undefined)?.call;
  if (!call || typeof call.tool !== 'string') return undefined;
  const arg = tellingArgument(call.input)?.replace(/\s+/g, ' ').trim();
  const line = arg ? `${call.tool}: ${arg}` : call.tool;
  return line.length > SUMMARY_CHARS ? `${line.slice(0, SUMMARY_CHARS - 1)}…` : line;
}
