/**
 * The MCP client transport for stdio servers: spawns the server in its own process group (POSIX), reads
 * newline-delimited JSON-RPC from its stdout, skips stdout lines that are not JSON-RPC (many servers print
 * a banner such as `starting up...`) and reports them, and on close ends the whole process tree
 * (process-tree.ts). The SDK's StdioClientTransport can do neither (no process group, and its stdout
 * parse errors are fatal in our client), so this one implements the SDK's Transport contract itself.
 */
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import spawn from 'cross-spawn';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_TREE_CLOSE, USES_PROCESS_GROUPS, closeProcessTree, trackTree, type TreeCloseTiming } from './process-tree';

/** Largest stdout message (one line) accepted, bytes; a longer line ends the session with a fault. */
export const MAX_STDOUT_MESSAGE_BYTES = 16 * 1024 * 1024;

/** What to start: the command (looked up on the env's PATH), its arguments, environment and folder. */
export interface StdioLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

/** Callbacks of a ProcessTreeStdioTransport (all optional). */
export interface StdioTransportHooks {
  /** The child right after it was spawned. */
  onSpawn?(child: ChildProcess): void;
  /** Raw stderr output. */
  onStderr?(chunk: Buffer): void;
  /** A non-blank stdout line that is not one JSON-RPC message; it was skipped. At most 4 096 chars. */
  onStrayLine?(line: string): void;
  /** The stream cannot be trusted any more (an over-long line); the transport closes itself after this. */
  onFault?(reason: string): void;
  /** The spawned process exited (its tree is being ended). */
  onExit?(code: number | null, signal: NodeJS.Signals | null): void;
}

const STRAY_LINE_CHARS = 4_096;

/** Stdio transport whose close ends the whole process tree. Single use: start once, close once. */
export class ProcessTreeStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child?: ChildProcess;
  private chunks: Buffer[] = [];
  private buffered = 0;
  private closing?: Promise<void>;
  private closedFired = false;
  private untrack: () => void = () => undefined;
  private streamsClosed: Promise<void> = Promise.resolve();

  constructor(
    private readonly launch: StdioLaunch,
    private readonly hooks: StdioTransportHooks = {},
    private readonly timing: TreeCloseTiming = DEFAULT_TREE_CLOSE,
  ) {}

  /** Pid of the spawned process (the process group id on POSIX), once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Spawns the server. Rejects with the spawn error (ENOENT, EACCES…) when it cannot start. */
  start(): Promise<void> {
    if (this.child) return Promise.reject(new Error('ProcessTreeStdioTransport already started'));
    return new Promise((resolve, reject) => {
      const options: SpawnOptions = {
        env: this.launch.env,
        cwd: this.launch.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        // Own process group on POSIX, so close() can signal every descendant; on Windows detached would
        // open a console window, and taskkill /T finds the tree anyway.
        detached: USES_PROCESS_GROUPS,
        windowsHide: true,
      };
      const child = spawn(this.launch.command, this.launch.args, options);
      this.child = child;
      this.streamsClosed = new Promise((r) => child.once('close', () => r()));
      let spawned = false;
      child.once('error', (err) => {
        if (!spawned) reject(err);
        else this.onerror?.(err);
      });
      child.once('spawn', () => {
        spawned = true;
        this.untrack = trackTree(child);
        this.hooks.onSpawn?.(child);
        resolve();
      });
      child.once('exit', (code, signal) => {
        this.hooks.onExit?.(code, signal);
        // The server (or its wrapper) is gone: whatever it left running in its group goes too.
        void this.close();
      });
      child.stdin?.on('error', (err) => this.onerror?.(err));
      child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
      child.stdout?.on('error', (err) => this.onerror?.(err));
      child.stderr?.on('data', (chunk: Buffer) => this.hooks.onStderr?.(chunk));
    });
  }

  private read(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl < 0) break;
      const piece = chunk.subarray(start, nl);
      const line = this.chunks.length ? Buffer.concat([...this.chunks, piece]) : piece;
      this.chunks = [];
      this.buffered = 0;
      this.handleLine(line.toString('utf8').replace(/\r$/, ''));
      start = nl + 1;
      if (this.closing) return;
    }
    if (start < chunk.length) {
      this.buffered += chunk.length - start;
      if (this.buffered > MAX_STDOUT_MESSAGE_BYTES) {
        this.chunks = [];
        this.buffered = 0;
        this.hooks.onFault?.(`printed more than ${MAX_STDOUT_MESSAGE_BYTES} bytes on stdout without a newline (the largest message accepted)`);
        void this.close();
        return;
      }
      this.chunks.push(chunk.subarray(start));
    }
  }

  private handleLine(line: string): void {
    if (line.trim() === '') return;
    let message: JSONRPCMessage | undefined;
    try {
      const parsed = JSONRPCMessageSchema.safeParse(JSON.parse(line));
      if (parsed.success) message = parsed.data;
    } catch {
      // not JSON: a banner or log line
    }
    if (message) this.onmessage?.(message);
    else this.hooks.onStrayLine?.(line.length > STRAY_LINE_CHARS ? line.slice(0, STRAY_LINE_CHARS) : line);
  }

  /** Writes one message as one line on the server's stdin. Rejects when the server is not running. */
  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closing || !stdin.writable) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(`${JSON.stringify(message)}\n`)) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /**
   * Ends the process tree (stdin closed, grace, SIGTERM to the group, SIGKILL; process-tree.ts) and then
   * calls `onclose` once. `timing` (default: the one given to the constructor) applies to the first call
   * only. Idempotent; never rejects.
   */
  close(timing: TreeCloseTiming = this.timing): Promise<void> {
    if (!this.closing) {
      this.closing = (async () => {
        const child = this.child;
        if (child?.pid !== undefined) {
          await closeProcessTree(child, timing);
          // Let the last stdout bytes of an exited server arrive before reporting the close.
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([this.streamsClosed, new Promise((r) => (timer = setTimeout(r, 500)))]);
          clearTimeout(timer);
        }
        this.untrack();
        this.chunks = [];
        if (!this.closedFired) {
          this.closedFired = true;
          this.onclose?.();
        }
      })();
    }
    return this.closing;
  }
}
