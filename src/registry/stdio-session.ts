/**
 * One session of an MCP connection (connection.ts) and its stdio side: spawning the server with stderr
 * piped into the connection's ring, watching the child (exit code and signal, the last stdout lines),
 * turning a stdout line that is not JSON-RPC into a fault that ends the session (never a hang), and
 * killing the child on dispose or when the host process exits (no orphans).
 */
import type { ChildProcess } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment, type StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { LineRing } from './ring';
import type { StdioServerConfig } from './servers';

/** One client session of a connection; the child and stdout fields are set for stdio servers only. */
export interface Session {
  /** Start attempt the session belongs to (a stale attempt's session is disposed, never used). */
  gen: number;
  client: Client;
  transport: Transport;
  child?: ChildProcess;
  exit?: { code: number | null; signal: NodeJS.Signals | null };
  /** Last complete stdout lines (each ≤ 4 096 chars), used to name a bad line. */
  stdoutLines: string[];
  stdoutPartial: string;
  /** stderr ring mark at session start: reasons quote only this session's lines. */
  stderrMark: number;
  /** Set when the session was ended on purpose because of a protocol fault. */
  fault?: string;
  disposed?: Promise<void>;
}

const STDOUT_KEEP_LINES = 16;
const STDOUT_LINE_CHARS = 4_096;

/** `text` cut to `max` characters, with "…" when cut. */
export function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

// Children still alive, killed if the host process exits without a clean shutdown (no orphans).
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;
function trackChild(child: ChildProcess): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const c of liveChildren) {
        try {
          c.kill('SIGKILL');
        } catch {
          // already gone
        }
      }
    });
  }
  liveChildren.add(child);
  child.once('exit', () => liveChildren.delete(child));
}

/** StdioClientTransport that reports its child right after spawn (to watch exit code and stdout lines). */
class WatchedStdioTransport extends StdioClientTransport {
  constructor(
    params: StdioServerParameters,
    private readonly onSpawn: (child: ChildProcess) => void,
  ) {
    super(params);
  }

  override async start(): Promise<void> {
    await super.start();
    // The SDK keeps the child private; SDK major 1 is pinned in package.json, and a missing field only
    // costs exit codes and line naming in messages, never correctness.
    const child = (this as unknown as { _process?: ChildProcess })._process;
    if (child) this.onSpawn(child);
  }
}

/**
 * The transport of a stdio session: spawns `config.command` (in `config.cwd`, else `cwd`) once started,
 * with the default environment plus `config.env`; stderr goes to `ring`, and the child, its exit and its
 * stdout lines are recorded on `session`.
 */
export function openStdioTransport(config: StdioServerConfig, cwd: string | undefined, ring: LineRing, session: Session): Transport {
  const stdio = new WatchedStdioTransport(
    {
      command: config.command,
      args: config.args ?? [],
      env: { ...getDefaultEnvironment(), ...(config.env ?? {}) },
      cwd: config.cwd ?? cwd,
      stderr: 'pipe',
    },
    (child) => watchChild(session, child),
  );
  stdio.stderr?.on('data', (chunk: Buffer) => ring.push(chunk));
  return stdio;
}

function watchChild(session: Session, child: ChildProcess): void {
  session.child = child;
  trackChild(child);
  child.once('exit', (code, signal) => {
    session.exit = { code, signal };
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    let text = session.stdoutPartial + chunk.toString('utf8');
    let nl: number;
    while ((nl = text.indexOf('\n')) >= 0) {
      session.stdoutLines.push(text.slice(0, Math.min(nl, STDOUT_LINE_CHARS)).replace(/\r$/, ''));
      if (session.stdoutLines.length > STDOUT_KEEP_LINES) session.stdoutLines.shift();
      text = text.slice(nl + 1);
    }
    session.stdoutPartial = text.length > STDOUT_LINE_CHARS ? text.slice(0, STDOUT_LINE_CHARS) : text;
  });
}

/** True when `line` is one JSON-RPC message (what the SDK would accept). */
function isJsonRpcLine(line: string): boolean {
  try {
    return JSONRPCMessageSchema.safeParse(JSON.parse(line)).success;
  } catch {
    return false;
  }
}

function isStreamParseError(err: unknown): boolean {
  if (err instanceof SyntaxError) return true;
  const e = err as { name?: string; message?: string };
  return e?.name === 'ZodError' || (typeof e?.message === 'string' && e.message.startsWith('ReadBuffer exceeded'));
}

/**
 * Handles a client error of `session`: when it is a stdout parse error, records the fault (naming the bad
 * line, or the oversized message) and ends the session, so pending calls fail with the fault instead of
 * hanging until their timeout. Other errors are left to the close handler.
 */
export function endSessionOnStreamFault(session: Session, err: Error): void {
  if (session.fault || session.disposed || !isStreamParseError(err)) return;
  // The SDK reports the parse error before our own stdout listener has seen the chunk: look next tick.
  setImmediate(() => {
    if (session.fault || session.disposed) return;
    if (err.message?.startsWith('ReadBuffer exceeded')) {
      session.fault = `printed more than the maximum message size on stdout without a newline (${clip(err.message, 120)})`;
    } else {
      const bad = [...session.stdoutLines].reverse().find((line) => line.trim() !== '' && !isJsonRpcLine(line));
      session.fault = bad !== undefined
        ? `printed a line on stdout that is not JSON-RPC: ${JSON.stringify(clip(bad))}`
        : `printed output on stdout that is not JSON-RPC (${clip(err.message, 160)})`;
    }
    // A corrupted stream cannot be trusted for later messages: end the session now.
    try {
      session.child?.kill('SIGTERM');
    } catch {
      // already gone
    }
    void session.transport.close().catch(() => undefined);
  });
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
  const tail = ring.tailSince(3, session?.stderrMark ?? 0).map((l) => clip(l, 200));
  return `${how}${when}${tail.length ? `; last stderr: ${tail.join(' | ')}` : ''}`;
}

/** Kills the session's child if it is still running and waits for its exit (at most 2 s). Never rejects. */
export async function killSessionChild(session: Session): Promise<void> {
  const child = session.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    child.kill('SIGKILL');
  } catch {
    // already gone
  }
  await Promise.race([exited, new Promise((r) => setTimeout(r, 2_000).unref())]);
}
