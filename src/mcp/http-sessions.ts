/**
 * The sessions of the Streamable HTTP endpoint (http-endpoint.ts) and what keeps them: which requests
 * of each are still unanswered, which standalone GET streams are open, when an idle one expires, and
 * whether a new session fits. No session is closed while it is busy; capacity is refused, never made by
 * closing someone else's session.
 *
 * A session is **busy** while a request it sent has no answer yet or a GET stream of it is open; otherwise
 * it is **idle**, and it is closed after `idleTimeoutMs` of idleness (its later requests get 404, which
 * tells the client to start a new session). Clients that never send DELETE are common, so this is how
 * abandoned sessions leave.
 */
import type { ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * Default cap on open sessions (each is one SDK server and transport, a few tens of KB, so 1 024 hold tens of
 * MB). It bounds memory against a runaway client; it is not a concurrency limit (calls of all sessions share
 * one event loop either way), so it sits well above the clients a machine serves at once (bench/http-load.mjs).
 */
export const DEFAULT_MAX_SESSIONS = 1024;
/** Default idle time after which a session is closed, ms (10 minutes). */
export const DEFAULT_SESSION_IDLE_MS = 10 * 60_000;
/**
 * Retry-After of a refused initialize, seconds, unless an idle session expires sooner. Places free up whenever a
 * client ends its session (DELETE), which is usually long before an idle session would expire: a session between
 * two calls of an active client counts as idle, and waiting for its 10-minute expiry (capped at 30 s before) left
 * refused clients asleep while places had long been free.
 */
export const BUSY_RETRY_AFTER_S = 2;

/** Limits of a SessionTable. */
export interface SessionLimits {
  /** Sessions open at once (initializations under way count too); an integer ≥ 1. */
  maxSessions: number;
  /** Idle time before a session is closed, ms; an integer ≥ 1. */
  idleTimeoutMs: number;
}

/** The requests of one POST: answered or cancelled ones leave `open`. */
interface Post {
  open: Set<RequestId>;
  /** One cancelled request of the POST (its id still maps to the POST's SSE stream). */
  cancelled?: RequestId;
}

/** One open session and its bookkeeping. */
export class LiveSession {
  /** Unanswered requests, each with the POST it came in. */
  private readonly pending = new Map<RequestId, Post>();
  private streams = 0;
  private timer?: NodeJS.Timeout;
  /** When the session last became idle (ms since the epoch); undefined while busy. */
  idleSince?: number;

  constructor(
    readonly id: string,
    readonly transport: StreamableHTTPServerTransport,
    readonly server: Server,
    private readonly idleTimeoutMs: number,
    private readonly expire: (session: LiveSession) => void,
  ) {
    // Responses leave `pending` as they go out (the protocol sends each through the transport).
    const send = transport.send.bind(transport);
    transport.send = async (message, options) => {
      try {
        await send(message, options);
      } finally {
        const id = responseId(message);
        if (id !== undefined) this.settle(id, false);
      }
    };
    this.becameIdle();
  }

  /** Requests without an answer yet. */
  get inFlight(): number {
    return this.pending.size;
  }

  /** True while a request is unanswered or a GET stream is open. */
  get busy(): boolean {
    return this.pending.size > 0 || this.streams > 0;
  }

  /**
   * Records the requests of one POST body (its ids are unanswered until their responses are sent, the
   * client cancels them, or the POST's connection closes) and handles the cancellations it carries.
   */
  post(messages: readonly JSONRPCMessage[], res: ServerResponse): void {
    const requests = messages.flatMap((m) => (isRequest(m) ? [m.id] : []));
    if (requests.length > 0) {
      const post: Post = { open: new Set(requests) };
      for (const id of requests) this.pending.set(id, post);
      this.becameBusy();
      // A client that goes away cannot get its answers; the session does not stay busy for it.
      res.once('close', () => {
        for (const id of post.open) this.settle(id, false);
      });
    }
  }

  /**
   * The client cancelled `ids` (notifications/cancelled, already handled by the protocol, which sends no
   * answer for them): they stop counting as in flight, and a POST stream left with nothing to answer is
   * closed at once instead of staying open until the client gives up.
   */
  cancelled(ids: readonly RequestId[]): void {
    for (const id of ids) this.settle(id, true);
  }

  /** Counts an open standalone GET stream until `res` closes. */
  stream(res: ServerResponse): void {
    this.streams++;
    this.becameBusy();
    res.once('close', () => {
      this.streams--;
      if (!this.busy) this.becameIdle();
    });
  }

  /** Stops the idle timer (the session is being closed). */
  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private settle(id: RequestId, cancelled: boolean): void {
    const post = this.pending.get(id);
    if (!post) return;
    this.pending.delete(id);
    post.open.delete(id);
    if (cancelled) post.cancelled ??= id;
    // The transport ends a POST stream only when every request of it is answered; a cancelled one never is.
    if (post.open.size === 0 && post.cancelled !== undefined) this.transport.closeSSEStream(post.cancelled);
    if (!this.busy) this.becameIdle();
  }

  private becameBusy(): void {
    this.dispose();
    this.idleSince = undefined;
  }

  private becameIdle(): void {
    this.dispose();
    this.idleSince = Date.now();
    this.timer = setTimeout(() => this.expire(this), this.idleTimeoutMs);
    this.timer.unref();
  }
}

/** The open sessions of one endpoint, with the capacity rule. */
export class SessionTable {
  private readonly sessions = new Map<string, LiveSession>();
  /** Initializations under way: they hold a place until they finish. */
  private opening = 0;

  constructor(
    private readonly limits: SessionLimits,
    private readonly log?: (message: string) => void,
  ) {}

  /** Open sessions. */
  get size(): number {
    return this.sessions.size;
  }

  /** The session with this id, if open. */
  get(id: string): LiveSession | undefined {
    return this.sessions.get(id);
  }

  /**
   * Takes a place for a new session, or says how long to wait: undefined when there is room (call the
   * returned `release` once the initialization has finished, whatever its outcome), otherwise
   * `{retryAfterS}` = BUSY_RETRY_AFTER_S, or the seconds until the soonest idle session expires when that is
   * sooner (at least 1).
   */
  reserve(now = Date.now()): { release: () => void } | { retryAfterS: number } {
    if (this.sessions.size + this.opening < this.limits.maxSessions) {
      this.opening++;
      let released = false;
      return {
        release: () => {
          if (!released) this.opening--;
          released = true;
        },
      };
    }
    let soonestMs = BUSY_RETRY_AFTER_S * 1000;
    for (const s of this.sessions.values()) {
      if (s.idleSince !== undefined) soonestMs = Math.min(soonestMs, s.idleSince + this.limits.idleTimeoutMs - now);
    }
    return { retryAfterS: Math.max(1, Math.ceil(soonestMs / 1000)) };
  }

  /** Adds the session the transport just initialized. */
  add(id: string, transport: StreamableHTTPServerTransport, server: Server): LiveSession {
    const session = new LiveSession(id, transport, server, this.limits.idleTimeoutMs, (s) => {
      if (s.busy || this.sessions.get(s.id) !== s) return;
      this.log?.(`MCP session ${s.id.slice(0, 8)}… closed after ${this.limits.idleTimeoutMs} ms idle`);
      void this.close(s);
    });
    this.sessions.set(id, session);
    return session;
  }

  /** Forgets the session of `transport` (it closed: DELETE, idle expiry, stop). */
  forget(transport: StreamableHTTPServerTransport): void {
    const id = transport.sessionId;
    const session = id === undefined ? undefined : this.sessions.get(id);
    if (session?.transport !== transport) return;
    session.dispose();
    this.sessions.delete(session.id);
  }

  /** Closes every session (calls in flight are aborted); resolves when all are closed. */
  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => this.close(s)));
  }

  private async close(session: LiveSession): Promise<void> {
    session.dispose();
    this.sessions.delete(session.id);
    try {
      await session.server.close();
    } catch {
      // already closed
    }
  }
}

function isRequest(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId; method: string } {
  const m = message as { id?: unknown; method?: unknown };
  return typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number');
}

/** The id of a result or error response, else undefined. */
function responseId(message: JSONRPCMessage): RequestId | undefined {
  const m = message as { id?: unknown; method?: unknown; result?: unknown; error?: unknown };
  if (m.method !== undefined || (m.result === undefined && m.error === undefined)) return undefined;
  return typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined;
}

/** Request ids named by the `notifications/cancelled` messages among `messages`. */
export function cancelledIds(messages: readonly JSONRPCMessage[]): RequestId[] {
  return messages.flatMap((m) => {
    const n = m as { method?: unknown; id?: unknown; params?: { requestId?: unknown } };
    if (n.method !== 'notifications/cancelled' || n.id !== undefined) return [];
    const id = n.params?.requestId;
    return typeof id === 'string' || typeof id === 'number' ? [id] : [];
  });
}
