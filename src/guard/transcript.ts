import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';

/**
 * The user's request, from a host's JSONL transcript (`transcript_path`): the last user messages, newest
 * last, cut to a budget. Reads only the file's tail. Understands Claude Code's lines
 * (`{type: "user", message: {role: "user", content}}`), Codex's rollout lines (`{type: "response_item",
 * payload: {type: "message", role: "user", content: [{type: "input_text", text}]}}`), Copilot Chat's
 * (`{type: "user.message", data: {content}}`) and, for other hosts,
 * any line whose object (or its `message`) has `role: "user"` and text content. Tool results and
 * environment preambles are skipped.
 */

/** Bytes read from the end of the transcript. */
export const TRANSCRIPT_TAIL_BYTES = 256 * 1024;
/** Characters of request kept (the newest part). */
export const REQUEST_BUDGET_CHARS = 4000;
/** User messages kept. */
export const REQUEST_MESSAGES = 3;

function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content
    .filter((p): p is { type?: unknown; text: string } => typeof p === 'object' && p !== null && typeof (p as { text?: unknown }).text === 'string')
    .filter((p) => p.type === undefined || p.type === 'text' || p.type === 'input_text')
    .map((p) => p.text);
  return parts.length ? parts.join('\n') : undefined;
}

/** The user's text in one transcript entry, or undefined. */
export function userTextOf(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const e = entry as Record<string, unknown>;
  const payload = e.payload as Record<string, unknown> | undefined;
  let text: string | undefined;
  if (e.type === 'response_item' && payload?.type === 'message' && payload.role === 'user') text = textOf(payload.content);
  else if (e.type === 'event_msg' && payload?.type === 'user_message' && typeof payload.message === 'string') text = payload.message;
  // Copilot Chat (VS Code's agent) and Copilot CLI: {type: "user.message", data: {content}}.
  else if (e.type === 'user.message' && typeof (e.data as { content?: unknown } | undefined)?.content === 'string') text = (e.data as { content: string }).content;
  else {
    const m = (typeof e.message === 'object' && e.message !== null ? e.message : e) as Record<string, unknown>;
    if (m.role === 'user' || (e.type === 'user' && m.role === undefined)) text = textOf(m.content ?? m.text);
  }
  const t = text?.trim();
  if (!t || /^<(environment_context|user_instructions|command-|local-command)/.test(t)) return undefined;
  return t;
}

/** Extracts the request from transcript text (JSONL). Pure. */
export function requestFromTranscript(text: string, budget = REQUEST_BUDGET_CHARS): string | undefined {
  const found: string[] = [];
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0 && found.length < REQUEST_MESSAGES; i--) {
    const line = lines[i]!.trim();
    if (!line.startsWith('{')) continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      continue; // the first line of a tail is usually cut
    }
    const t = userTextOf(entry);
    if (t !== undefined) found.unshift(t);
  }
  if (found.length === 0) return undefined;
  const joined = found.join('\n\n');
  return joined.length > budget ? `…${joined.slice(joined.length - budget + 1)}` : joined;
}

/** Reads the request from the transcript at `path`; undefined when it cannot be read or holds none. Never throws. */
export async function readRequest(path: string | undefined, budget = REQUEST_BUDGET_CHARS): Promise<string | undefined> {
  if (path === undefined) return undefined;
  let handle;
  try {
    // Only a regular file: a FIFO or a device would block the read past the hook's deadline.
    if (!(await stat(path)).isFile()) return undefined;
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const { size } = await handle.stat();
    const length = Math.min(size, TRANSCRIPT_TAIL_BYTES);
    const buf = Buffer.alloc(length);
    await handle.read(buf, 0, length, size - length);
    return requestFromTranscript(buf.toString('utf8'), budget);
  } catch {
    return undefined;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
