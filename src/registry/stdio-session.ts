/**
 * One session of an MCP connection (connection.ts) and its stdio side: spawning the server in its own
 * process group (stdio-transport.ts) with stderr piped into the connection's ring, recording the child and
 * its exit, counting and logging stdout lines that are not JSON-RPC (skipped, never fatal), and ending the
 * whole process tree on dispose or when the host process exits (process-tree.ts: no orphans).
 */
import type { ChildProcess } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { TreeCloseTiming } from './process-tree';
import type { LineRing } from './ring';
import { STRAY_LOG_PREFIX, strayStdoutLogLine } from './server-log';
import { ProcessTreeStdioTransport } from './stdio-transport';
import type { StdioServerConfig } from './servers';

/** One client session of a connection; the child, exit and stray fields are filled for stdio servers only. */
export interface Session {
  /** Start attempt the session belongs to (a stale attempt's session is disposed, never used). */
  gen: number;
  client: Client;
  transport: Transport;
  child?: ChildProcess;
  exit?: { code: number | null; signal: NodeJS.Signals | null };
  /** Non-JSON-RPC stdout lines skipped in this session, and the last one (≤ 200 chars). */
  stray: { count: number; last?: string };
  /** stderr ring mark at session start: reasons quote only this session's lines. */
  stderrMark: number;
  /** Set when the session was ended on purpose because of a protocol fault. */
  fault?: string;
  disposed?: Promise<void>;
}

/** `text` cut to `max` characters, with "…" when cut. */
export function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Called with each skipped stdout line (already counted on the session and written to the ring). */
export type StrayLineListener = (line: string) => void;

/**
 * The transport of a stdio session: spawns `config.command` (in `config.cwd`, else `cwd`) in its own
 * process group once started, with the default environment plus `config.env`. stderr goes to `ring`;
 * stdout lines that are not JSON-RPC are skipped, counted on `session.stray`, written to `ring` marked
 * with the server `name` (server-log.ts) and passed to `onStray`; the child and its exit are recorded on
 * `session`. Closing it ends the whole tree with `timing`.
 */
export function openStdioTransport(
  name: string,
  config: StdioServerConfig,
  cwd: string | undefined,
  ring: LineRing,
  session: Session,
  opts: { timing?: TreeCloseTiming; onStray?: StrayLineListener } = {},
): Transport {
  return new ProcessTreeStdioTransport(
    { command: config.command, args: config.args ?? [], env: { ...getDefaultEnvironment(), ...(config.env ?? {}) }, cwd: config.cwd ?? cwd },
    {
      onSpawn: (child) => {
        session.child = child;
      },
      onExit: (code, signal) => {
        session.exit = { code, signal };
      },
      onStderr: (chunk) => ring.push(chunk),
      onStrayLine: (line) => {
        session.stray.count++;
        session.stray.last = clip(line);
        ring.push(`${strayStdoutLogLine(name, line)}\n`);
        opts.onStray?.(line);
      },
      onFault: (reason) => {
        session.fault ??= reason;
      },
    },
    opts.timing,
  );
}

/**
 * How the session ended, for a status reason: "exited with code N" / "was killed by SIGNAL" (else
 * `fallback`), then `when`, then up to three of this session's last stderr lines from `ring`.
 */
export function describeExit(session: Session | undefined, ring: LineRing, fallback: string, when = ''): string {
  const exit = session?.exit;
  const how = exit
    ? exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`
    : fallback;
  const tail = ring.tailSince(3, session?.stderrMark ?? 0, STRAY_LOG_PREFIX).map((l) => clip(l, 200));
  return `${how}${when}${tail.length ? `; last stderr: ${tail.join(' | ')}` : ''}`;
}

/**
 * Ends the session's process tree (stdin closed, grace, SIGTERM, SIGKILL to the group), with `timing`
 * instead of the transport's own when given and the tree is not being closed yet. Never rejects.
 */
export async function killSessionChild(session: Session, timing?: TreeCloseTiming): Promise<void> {
  const transport = session.transport;
  const closing = timing && transport instanceof ProcessTreeStdioTransport ? transport.close(timing) : transport.close();
  await closing.catch(() => undefined);
}
