import { z } from 'zod';
import { configError, invalidInput } from '../judgment/errors';
import { oauthSettingSchema, type OAuthSetting } from './oauth/config';
import { describeIssue } from './zod-field';

/**
 * MCP server configuration: the `servers` shape of VS Code's mcp.json, plus the env gate `MCP_SERVERS` /
 * `MCP_ORACLE` (see serversFromEnv).
 */

/** Default per-call timeout of an MCP tool call, ms. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

/** A server started as a child process speaking MCP over stdin/stdout. */
export interface StdioServerConfig {
  type?: 'stdio';
  command: string;
  args?: string[];
  /** Added to the SDK's safe default environment (HOME, PATH, …); never logged. */
  env?: Record<string, string>;
  /** Working folder of the child; default: the host's working folder. */
  cwd?: string;
  /** Per-call timeout override, ms (default 60 000): longest wait without an answer or a progress notification. */
  timeoutMs?: number;
  /** Total cap of one call however much progress it reports, ms (default 600 000). */
  maxTotalTimeoutMs?: number;
  /**
   * Screen this server's results with jev_screen before the agent reads them (src/mcp/screen-result.ts):
   * `true` (judge down → warning first), `"strict"` (judge down → withheld), `false` (never, even with
   * trustAnnotations). Absent: only tools declaring `openWorldHint: true` when `trustAnnotations` is set.
   */
  screen?: ServerScreenSetting;
  /** Believe this server's tool annotations: a tool declaring `openWorldHint: true` is screened. */
  trustAnnotations?: boolean;
}

/** A server reached over Streamable HTTP. Header values (tokens) are never logged or shown. */
export interface HttpServerConfig {
  type?: 'http';
  url: string;
  headers?: Record<string, string>;
  /** As for stdio servers. */
  timeoutMs?: number;
  /** As for stdio servers. */
  maxTotalTimeoutMs?: number;
  /**
   * OAuth for this server (oauth/config.ts). Absent: sign-in is discovered when the server answers 401
   * (unless `headers` carry an Authorization header, which then is the only credential); `false`: never.
   */
  oauth?: OAuthSetting;
  /** As for stdio servers. */
  screen?: ServerScreenSetting;
  /** As for stdio servers. */
  trustAnnotations?: boolean;
}

/** `servers[].screen`: screen every result (`true`), and withhold one the judge could not screen (`"strict"`), or never (`false`). */
export type ServerScreenSetting = boolean | 'strict';

/** One entry of `servers`: stdio when it has `command`, Streamable HTTP when it has `url`. */
export type ServerConfig = StdioServerConfig | HttpServerConfig;

/** True for an HTTP server config. */
export function isHttpConfig(config: ServerConfig): config is HttpServerConfig {
  return 'url' in config;
}

/** Where a server's configuration came from. */
export type ServerSource = 'config' | 'MCP_SERVERS' | 'MCP_ORACLE';

/** A configured server with its unique name (the `<server>` of `<server>/<tool>` ids). */
export interface NamedServer {
  name: string;
  config: ServerConfig;
  source: ServerSource;
}

/** Server names: they prefix tool ids, so no `/` and no spaces. */
export const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const timeoutMs = z.number().int('must be an integer number of ms').min(1, 'must be at least 1 ms').max(2_147_483_647, 'must be at most 2147483647 ms');
const stringMap = z.record(z.string(), z.string({ error: 'values must be strings' }));
const screenSetting = z.union([z.boolean(), z.literal('strict')], { error: 'must be true, false or "strict"' });
const trustAnnotations = z.boolean({ error: 'must be true or false' });

const stdioSchema = z.strictObject({
  type: z.literal('stdio').optional(),
  command: z.string().trim().min(1, 'must be a non-empty command'),
  args: z.array(z.string({ error: 'must be strings' })).optional(),
  env: stringMap.optional(),
  cwd: z.string().min(1, 'must be a non-empty path').optional(),
  timeoutMs: timeoutMs.optional(),
  maxTotalTimeoutMs: timeoutMs.optional(),
  screen: screenSetting.optional(),
  trustAnnotations: trustAnnotations.optional(),
});

const httpSchema = z.strictObject({
  type: z.literal('http').optional(),
  url: z.string().superRefine((raw, ctx) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be an absolute http(s) URL' });
      return;
    }
    if (url.protocol === 'https:') return;
    if (url.protocol !== 'http:') ctx.addIssue({ code: 'custom', message: 'must use http: or https:' });
    else if (!LOOPBACK.has(url.hostname) && !url.hostname.startsWith('127.')) {
      ctx.addIssue({ code: 'custom', message: 'plain http:// is allowed only for loopback hosts; use https://' });
    }
  }),
  headers: stringMap.optional(),
  timeoutMs: timeoutMs.optional(),
  maxTotalTimeoutMs: timeoutMs.optional(),
  oauth: oauthSettingSchema.optional(),
  screen: screenSetting.optional(),
  trustAnnotations: trustAnnotations.optional(),
});

/** Parses one server entry; `field` names it in errors (e.g. `servers.files`). Throws CONFIG_ERROR. */
export function parseServerConfig(raw: unknown, field: string): ServerConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw configError(`${field}: must be an object`);
  const r = raw as Record<string, unknown>;
  if (r.type !== undefined && r.type !== 'stdio' && r.type !== 'http') {
    throw configError(`${field}.type: must be "stdio" or "http" (got ${JSON.stringify(r.type)}; sse is not supported)`);
  }
  const http = r.type === 'http' || (r.type === undefined && 'url' in r && !('command' in r));
  const result = (http ? httpSchema : stdioSchema).safeParse(raw);
  if (!result.success) throw configError(describeIssue(result.error, field));
  return result.data as ServerConfig;
}

/**
 * Splits one command line shell-style (POSIX rules: whitespace separates words; '…' is literal; "…"
 * allows \\ escapes of \\ " $ `; a backslash outside quotes escapes the next character).
 * Throws JevError INVALID_INPUT naming the problem on an unclosed quote or a trailing backslash.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw invalidInput(`unclosed single quote at character ${i + 1}`);
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (ch === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length && '\\"$`'.includes(line[j + 1])) j++;
        word += line[j];
      }
      if (j >= line.length) throw invalidInput(`unclosed double quote at character ${i + 1}`);
      inWord = true;
      i = j;
    } else if (ch === '\\') {
      if (i + 1 >= line.length) throw invalidInput('trailing backslash');
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** The env gate's result: the servers it configures, which variable decided, and warnings for oddities. */
export interface EnvGate {
  servers: NamedServer[];
  source: 'MCP_SERVERS' | 'MCP_ORACLE' | 'none';
  /** Plain-language notes for surprising but valid settings (they would otherwise pass silently). */
  warnings: string[];
}

const ORACLE_ON = new Set(['1', 'true', 'True']);
const ORACLE_OFF = new Set(['', '0', 'false', 'no', 'off']);

/**
 * Reads the env gate, in this precedence:
 * 1. `MCP_SERVERS` non-blank → split on `::`, drop blank segments, parse each shell-style; the result
 *    is returned even when empty, and `MCP_ORACLE` is then not consulted;
 * 2. else `MCP_ORACLE` (trimmed) exactly `1`, `true` or `True` → the built-in oracle server `oracle`;
 * 3. else no servers (fully in-process).
 * Servers from `MCP_SERVERS` are named `env-1`, `env-2`, … in order, run in `cwd`.
 * Oddities that are accepted get a warning: a non-blank `MCP_SERVERS` naming no server, an ignored
 * `MCP_ORACLE`, an unrecognised `MCP_ORACLE` value. Throws CONFIG_ERROR for a segment that does not parse,
 * explaining that `::` always separates servers (even inside quotes).
 */
export function serversFromEnv(env: Record<string, string | undefined>, options: { oracle: StdioServerConfig; cwd?: string }): EnvGate {
  const warnings: string[] = [];
  const list = (env.MCP_SERVERS ?? '').trim();
  const oracleRaw = (env.MCP_ORACLE ?? '').trim();
  const oracleOn = ORACLE_ON.has(oracleRaw);
  if (!oracleOn && !ORACLE_OFF.has(oracleRaw.toLowerCase())) {
    warnings.push(`MCP_ORACLE=${JSON.stringify(oracleRaw)} is not recognised (use 1 or true); the oracle server stays off`);
  }
  if (list !== '') {
    const segments = list.split('::').map((s) => s.trim()).filter((s) => s !== '');
    const servers = segments.map((segment, i): NamedServer => {
      let words: string[];
      try {
        words = splitCommandLine(segment);
      } catch (err) {
        throw configError(
          `MCP_SERVERS segment ${i + 1} (${JSON.stringify(segment)}): ${(err as Error).message}. ` +
            '"::" always separates servers, even inside quotes; configure arguments containing "::" in .jev/config.json servers instead',
        );
      }
      const [command, ...args] = words;
      if (!command) throw configError(`MCP_SERVERS segment ${i + 1}: empty MCP server command`);
      return { name: `env-${i + 1}`, source: 'MCP_SERVERS', config: { command, args, ...(options.cwd ? { cwd: options.cwd } : {}) } };
    });
    if (servers.length === 0) {
      warnings.push('MCP_SERVERS is set but names no server; no env servers are started' + (oracleOn ? ' and MCP_ORACLE is ignored' : ''));
    } else if (oracleOn) {
      warnings.push('MCP_ORACLE is ignored because MCP_SERVERS is set');
    }
    return { servers, source: 'MCP_SERVERS', warnings };
  }
  if (oracleOn) {
    return { servers: [{ name: 'oracle', source: 'MCP_ORACLE', config: { ...options.oracle } }], source: 'MCP_ORACLE', warnings };
  }
  return { servers: [], source: 'none', warnings };
}

/**
 * All configured servers in resolution order: the config file's `servers` (in file order), then the env
 * gate's. Throws CONFIG_ERROR when an env server's name clashes with a config-file server.
 */
export function mergeServers(fileServers: Record<string, ServerConfig>, gate: EnvGate): NamedServer[] {
  const out: NamedServer[] = Object.entries(fileServers).map(([name, config]) => ({ name, config, source: 'config' }));
  for (const server of gate.servers) {
    if (server.name in fileServers) {
      throw configError(`servers.${server.name}: the name is reserved for the ${server.source} server; rename the config-file server`);
    }
    out.push(server);
  }
  return out;
}

/** One-line, secret-free description of where a server runs: the command line or the URL origin+path. */
export function describeServerTarget(config: ServerConfig): string {
  if (isHttpConfig(config)) {
    const url = new URL(config.url);
    return `${url.origin}${url.pathname}`;
  }
  const quote = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);
  return [config.command, ...(config.args ?? [])].map(quote).join(' ');
}
