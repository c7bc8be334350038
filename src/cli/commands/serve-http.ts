import { configError, invalidInput } from '../../judgment/errors';
import { bearerTokenProblem, McpHttpEndpoint, type EndpointInfo } from '../../mcp/http-endpoint';
import { createMcpServer } from '../../mcp/server';
import { type CallOptions, type CallOutcome, JudgmentService } from '../../tools/judgment-service';
import { EXIT, type CliIO } from '../io';
import { createRuntime } from '../runtime';
import { openAgentServing, type AgentServeOptions, type AgentServing } from './serve-agent';
import { safeText } from '../safe-text';

/** Environment variable holding a fixed bearer token for `serve --http`. */
export const HTTP_TOKEN_ENV = 'JEV_HTTP_TOKEN';
/** Environment variables of the session limits of `serve --http` (defaults in src/mcp/http-sessions.ts). */
export const HTTP_MAX_SESSIONS_ENV = 'JEV_HTTP_MAX_SESSIONS';
export const HTTP_SESSION_IDLE_ENV = 'JEV_HTTP_SESSION_IDLE_MS';
/** Longest wait for cancelled in-flight calls to settle (answered and recorded) at shutdown, ms. */
const DRAIN_MS = 2_000;

/**
 * `--http PORT` value → port number. Accepts decimal 0–65535 (0 = a random free port).
 * @throws JevError INVALID_INPUT naming `--http` and the rule.
 */
export function parseHttpPort(value: string): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 0 && port <= 65_535)) {
    throw invalidInput(`serve: --http PORT must be an integer from 0 to 65535 (0 = a random free port), got ${JSON.stringify(value.slice(0, 40))}`);
  }
  return port;
}

/**
 * The fixed bearer token from JEV_HTTP_TOKEN (trimmed; empty = unset → undefined, a random token is made).
 * @throws JevError CONFIG_ERROR naming JEV_HTTP_TOKEN and the rule (never echoing the value).
 */
export function httpTokenFromEnv(env: Record<string, string | undefined>): string | undefined {
  const token = env[HTTP_TOKEN_ENV]?.trim();
  if (!token) return undefined;
  const problem = bearerTokenProblem(token);
  if (problem) throw configError(`${HTTP_TOKEN_ENV} ${problem}; unset it to have a random token generated for each run.`);
  return token;
}

/**
 * Session limits from JEV_HTTP_MAX_SESSIONS (sessions, 1–100000) and JEV_HTTP_SESSION_IDLE_MS (ms,
 * 1–2147483647); unset or blank = the endpoint's default.
 * @throws JevError CONFIG_ERROR naming the variable and the rule.
 */
export function sessionLimitsFromEnv(env: Record<string, string | undefined>): { maxSessions?: number; idleTimeoutMs?: number } {
  const read = (name: string, max: number): number | undefined => {
    const raw = env[name]?.trim();
    if (!raw) return undefined;
    const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < 1 || n > max) throw configError(`${name} must be a whole number (digits only) from 1 to ${max}; got ${JSON.stringify(raw.slice(0, 40))}.`);
    return n;
  };
  const maxSessions = read(HTTP_MAX_SESSIONS_ENV, 100_000);
  const idleTimeoutMs = read(HTTP_SESSION_IDLE_ENV, 2_147_483_647);
  return { ...(maxSessions ? { maxSessions } : {}), ...(idleTimeoutMs ? { idleTimeoutMs } : {}) };
}

/** Options of `serveHttp` (tests inject the stop signal; the CLI waits for SIGINT/SIGTERM). */
export interface ServeHttpOptions {
  /** Resolves when the server should stop; default: the first SIGINT or SIGTERM of this process. */
  stop?: Promise<string>;
  /** Serve this agent's granted tools through the gateway (serve-agent.ts) instead of the 14 judgment tools. */
  agent?: AgentServeOptions;
}

/**
 * `jevcp serve --http PORT`: the 14 judgment tools over Streamable HTTP on 127.0.0.1 (README "The CLI"),
 * with the same provider, configuration and ledger as stdio `serve` (calls are recorded as agent `mcp`);
 * with `options.agent`, that agent's granted tools instead (serve-agent.ts), its servers shut down at stop.
 * Prints the URL and the client header (with the token when generated) once on stderr; stdout stays empty.
 * On stop: cancels the calls in flight (their upstream requests are aborted; each client gets its CANCELLED
 * error result, recorded in the ledger), waits up to 2 s for them, closes every session and the listener,
 * closes the ledger and resolves 0. Exit 2: bad JEV_HTTP_TOKEN or configuration; 3: the port cannot be bound.
 * @throws JevError CONFIG_ERROR (token, configuration), INVALID_INPUT (unknown agent) — the caller reports it.
 */
export async function serveHttp(port: number, io: CliIO, options: ServeHttpOptions = {}): Promise<number> {
  const fixedToken = httpTokenFromEnv(io.env);
  const limits = sessionLimitsFromEnv(io.env);
  const runtime = createRuntime(io);
  const service = new DrainingService(runtime.service);
  let agent: AgentServing | undefined;
  try {
    agent = options.agent && (await openAgentServing(options.agent, runtime, io));
  } catch (err) {
    runtime.close();
    throw err;
  }
  const endpoint = new McpHttpEndpoint({
    port,
    ...(fixedToken ? { token: fixedToken } : {}),
    ...limits,
    createSession: () => (agent ? agent.createSession(service) : { server: createMcpServer(service, { agent: 'mcp' }) }),
    log: (level, message) => {
      if (level !== 'info') io.stderr.write(safeText(`jevcp: ${message}\n`));
    },
  });
  const stop = options.stop ?? untilStopSignal();
  let info: EndpointInfo;
  try {
    info = await endpoint.start();
  } catch (err) {
    await agent?.close();
    runtime.close();
    const code = (err as NodeJS.ErrnoException)?.code ?? (err as Error)?.message ?? String(err);
    io.stderr.write(`jevcp: serve: cannot listen on 127.0.0.1:${port} (${code}); choose another PORT, or 0 for a random free one\n`);
    return EXIT.OPERATIONAL;
  }
  io.stderr.write(banner(info, fixedToken !== undefined));
  const signal = await stop;
  // Cancel first, so clients get an answer (CANCELLED) instead of a dropped stream; then close the sessions.
  service.cancelAll();
  await service.drain(DRAIN_MS);
  await endpoint.stop();
  await agent?.close();
  runtime.close();
  io.stderr.write(`jevcp: serve: stopped (${signal})\n`);
  return EXIT.OK;
}

/** The start-up notice: URL, then the header clients send (the generated token appears here, once). */
function banner(info: EndpointInfo, fromEnv: boolean): string {
  const header = `Authorization: Bearer ${fromEnv ? `<the value of ${HTTP_TOKEN_ENV}>` : info.token}`;
  const origin = fromEnv ? `token from ${HTTP_TOKEN_ENV}` : `token generated for this run; set ${HTTP_TOKEN_ENV} to choose one`;
  return (
    `jevcp: MCP server (Streamable HTTP) at ${info.url} — 127.0.0.1 only; Ctrl-C or SIGTERM stops it\n` +
    `jevcp: clients send this header (${origin}):\n` +
    `${header}\n`
  );
}

/** Resolves with the name of the first SIGINT or SIGTERM; the handlers are removed then, so a second one kills. */
function untilStopSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

/** Forwards to the runtime's service, keeping track of calls in flight so shutdown can cancel them and wait for them. */
class DrainingService extends JudgmentService {
  private readonly inFlight = new Set<Promise<CallOutcome>>();
  private readonly shutdown = new AbortController();

  constructor(private readonly inner: JudgmentService) {
    super({ provider: inner.provider, tools: [...inner.tools.values()], floors: inner.floors, model: 'unused' });
  }

  override call(name: string, args: unknown, opts: CallOptions = {}): Promise<CallOutcome> {
    const controller = new AbortController();
    const abort = () => controller.abort();
    if (opts.signal?.aborted || this.shutdown.signal.aborted) abort();
    opts.signal?.addEventListener('abort', abort, { once: true });
    this.shutdown.signal.addEventListener('abort', abort, { once: true });
    const call = this.inner.call(name, args, { ...opts, signal: controller.signal });
    this.inFlight.add(call);
    const done = () => {
      this.inFlight.delete(call);
      opts.signal?.removeEventListener('abort', abort);
      this.shutdown.signal.removeEventListener('abort', abort);
    };
    call.then(done, done);
    return call;
  }

  /** Cancels every call in flight and any call made later. */
  cancelAll(): void {
    this.shutdown.abort();
  }

  /** Resolves once every call in flight has settled, or after `ms`. */
  async drain(ms: number): Promise<void> {
    if (this.inFlight.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.inFlight]),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
    ]);
    clearTimeout(timer);
  }
}
