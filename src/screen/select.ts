/**
 * Which tool results are screened before the agent reads them: a pure selector over where a result came
 * from. Open-world content (the web, issue trackers, servers the user marked) is; first-party workspace
 * files never are.
 */

/** MCP tool annotations as a server declares them (hints, untrusted unless the server is trusted for them). */
export interface OriginAnnotations {
  openWorldHint?: boolean;
  readOnlyHint?: boolean;
}

/** Per-server screen settings: `screen` marks every tool of it; `trustAnnotations` lets its openWorldHint decide. */
export interface ServerScreenConfig {
  screen?: boolean;
  trustAnnotations?: boolean;
}

/** Where a tool result came from: an MCP server's tool, or a tool of the agent host (with its shell command, if any). */
export type ResultOrigin =
  | { kind: 'mcp'; server: string; tool: string; annotations?: OriginAnnotations; serverConfig?: ServerScreenConfig }
  | { kind: 'host-tool'; tool: string; command?: string };

/** Screen settings: shell command patterns whose output is screened (`*` matches any characters), e.g. `curl*`, `gh issue view*`. */
export interface ScreenSelectConfig {
  commands?: readonly string[];
}

// The hosts' web tools, compared without case, `_` or `-`: Claude Code WebFetch / WebSearch, VS Code
// fetch_webpage (internal name vscode_fetchWebPage_internal), Codex web_search, Copilot CLI web_fetch,
// Gemini CLI google_web_search.
const WEB_TOOLS: ReadonlySet<string> = new Set(['webfetch', 'websearch', 'fetchwebpage', 'vscodefetchwebpageinternal', 'googlewebsearch']);

const fold = (name: string) => name.toLowerCase().replace(/[_-]/g, '');

/** True for a host's web fetch or search tool (see WEB_TOOLS). */
export function isHostWebTool(tool: string): boolean {
  return WEB_TOOLS.has(fold(tool));
}

/** `pattern` as an anchored RegExp: `*` any characters, everything else literal. */
function globRegExp(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 's');
}

// Cuts at operators, subshells and quotes, so `cd x && curl …`, `bash -lc "curl …"` and `$(curl …)` each
// yield a `curl …` piece. Cutting too much can only screen more, never less.
const SEGMENT_CUTS = /&&|\|\||\$\(|[;|&\n`()'"]/;
const ENV_PREFIX = /^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/;

/** The pieces of a shell command compared with the patterns: the whole command and each piece, without leading VAR=value. */
export function commandSegments(command: string): string[] {
  const pieces = [command, ...command.split(SEGMENT_CUTS)].map((s) => s.trim().replace(ENV_PREFIX, '').trim());
  return [...new Set(pieces.filter((s) => s !== ''))];
}

/** True when `command` or one of its pieces (commandSegments) matches one of `patterns`. */
export function commandMatches(command: string, patterns: readonly string[]): boolean {
  if (patterns.length === 0) return false;
  const res = patterns.map(globRegExp);
  return commandSegments(command).some((s) => res.some((re) => re.test(s)));
}

/**
 * Whether a result from `origin` is screened:
 * - a host's web tool (isHostWebTool): yes;
 * - a host tool run with a shell `command`: when it matches `config.commands` (commandMatches);
 * - any other host tool (first-party workspace reads, edits, searches): no;
 * - an MCP tool: `serverConfig.screen` when set (an explicit `false` opts the server out); else yes when the
 *   server is trusted for annotations and the tool declares `openWorldHint: true`; else no.
 */
export function shouldScreen(origin: ResultOrigin, config: ScreenSelectConfig = {}): boolean {
  if (origin.kind === 'host-tool') {
    if (isHostWebTool(origin.tool)) return true;
    if (origin.command !== undefined) return commandMatches(origin.command, config.commands ?? []);
    return false;
  }
  const server = origin.serverConfig ?? {};
  if (server.screen !== undefined) return server.screen;
  return server.trustAnnotations === true && origin.annotations?.openWorldHint === true;
}
