/**
 * Why a connection could not start, in one line for its status: a command that is not on PATH, a
 * missing working folder, initialize not finished in time (naming stray stdout output), an unreachable
 * URL, or how the server exited during startup.
 */
import { existsSync } from 'node:fs';
import { delimiter, isAbsolute, resolve } from 'node:path';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { AuthorizationRequiredError } from './oauth/sign-in';
import type { LineRing } from './ring';
import { STRAY_LOG_PREFIX } from './server-log';
import { isHttpConfig, type ServerConfig, type StdioServerConfig } from './servers';
import { clip, describeExit, type Session } from './stdio-session';

/** At most this many PATH entries are listed in a "not found on PATH" reason. */
const PATH_ENTRIES_SHOWN = 12;

/**
 * The reason a stdio `config` could not be spawned (error `err` from spawn), e.g.
 * `command "uvx" not found on PATH (searched: /usr/bin:/bin); give its absolute path as "command" or add its folder to PATH`.
 * `cwd` is the host's working folder used when the config has none; `path` the PATH the child got.
 */
export function describeSpawnFailure(config: StdioServerConfig, err: unknown, cwd: string | undefined, path: string | undefined): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  const command = JSON.stringify(config.command);
  const folder = config.cwd ?? cwd;
  if (code === 'ENOENT') {
    if (folder !== undefined && !existsSync(folder)) return `cannot start ${command}: its working folder ${JSON.stringify(folder)} does not exist`;
    if (isAbsolute(config.command) || /[\\/]/.test(config.command)) {
      const where = resolve(folder ?? process.cwd(), config.command);
      return `cannot start ${command}: no such file ${JSON.stringify(where)}`;
    }
    const entries = (path ?? '').split(delimiter).filter((p) => p !== '');
    const shown = entries.slice(0, PATH_ENTRIES_SHOWN).join(delimiter) + (entries.length > PATH_ENTRIES_SHOWN ? `${delimiter}… (${entries.length} entries)` : '');
    return `command ${command} not found on PATH (searched: ${entries.length ? shown : 'PATH is empty'}); give its absolute path as "command" or add its folder to PATH`;
  }
  if (code === 'EACCES') return `cannot start ${command}: permission denied (is the file executable?)`;
  const message = err instanceof Error ? err.message : String(err);
  return `cannot start ${command}: ${clip(message)}`;
}

/** What the start attempt needs to explain itself. */
export interface StartFailureContext {
  config: ServerConfig;
  /** Secret-free target (command line or URL) for messages. */
  target: string;
  ring: LineRing;
  startupTimeoutMs: number;
  /** Host working folder for stdio servers without `cwd`. */
  cwd?: string;
  /** PATH the stdio child got. */
  path?: string;
}

function strayNote(session: Session | undefined): string {
  const stray = session?.stray;
  if (!stray || stray.count === 0) return '';
  return `; it printed ${stray.count} line${stray.count === 1 ? '' : 's'} on stdout that ${stray.count === 1 ? 'is' : 'are'} not JSON-RPC (last: ${JSON.stringify(stray.last)})`;
}

/** One-line reason for a failed start of `session` with error `err` (see the file comment). */
export function describeStartFailure(session: Session | undefined, err: unknown, ctx: StartFailureContext): string {
  if (session?.fault) return session.fault;
  if (err instanceof AuthorizationRequiredError) return err.message;
  if (err instanceof McpError && err.code === (ErrorCode.RequestTimeout as number)) {
    const last = ctx.ring.tailSince(1, session?.stderrMark ?? 0, STRAY_LOG_PREFIX);
    return `did not finish initialize within ${ctx.startupTimeoutMs} ms${strayNote(session)}` + (last.length ? `; last stderr: ${clip(last[0]!)}` : '');
  }
  const message = err instanceof Error ? err.message : String(err);
  if (isHttpConfig(ctx.config)) {
    const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
    return `cannot connect to ${ctx.target}: ${clip(cause?.code ?? cause?.message ?? message)}`;
  }
  if (!session?.child) return describeSpawnFailure(ctx.config, err, ctx.cwd, ctx.path);
  return describeExit(session, ctx.ring, 'closed the connection', ` during startup${strayNote(session)}`);
}
