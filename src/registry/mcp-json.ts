/**
 * Import of VS Code's `.vscode/mcp.json` into `jevPanel.mcpServers`. mcp.json is JSON with comments and
 * trailing commas; its `servers` entries are converted to our server shape (servers.ts) and checked with
 * the same parser the registry uses. Entries we
 * cannot run as written are skipped with the reason (SSE transport, `${input:…}` prompts, unknown variables).
 */
import { configError } from '../judgment/errors';
import { diffServers, type ServerDiff } from './server-diff';
import { parseServerConfig, SERVER_NAME, type ServerConfig } from './servers';

/** Result of an import: servers to save and one line per skipped entry. */
export interface McpJsonImport {
  servers: Record<string, ServerConfig>;
  skipped: string[];
}

/** Removes `//` and `/* *\/` comments and trailing commas outside strings (JSONC → JSON). */
export function stripJsonc(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      out += ch;
    } else if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else out += ch;
  }
  // Trailing commas before } or ] (outside strings: strings were copied verbatim, so re-scan carefully).
  let result = '';
  inString = false;
  for (let i = 0; i < out.length; i++) {
    const ch = out[i]!;
    if (inString) {
      result += ch;
      if (ch === '\\') result += out[++i] ?? '';
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    if (ch === ',') {
      const rest = out.slice(i + 1).match(/^\s*([}\]])/);
      if (rest) continue;
    }
    result += ch;
  }
  return result;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Converts mcp.json text. `workspaceFolder` replaces `${workspaceFolder}`; `userHome` replaces `${userHome}`.
 * Throws JevError CONFIG_ERROR naming the problem when the text is not JSON(C) or has no `servers` object.
 */
export function importMcpJson(text: string, vars: { workspaceFolder?: string; userHome?: string }): McpJsonImport {
  let doc: unknown;
  try {
    doc = JSON.parse(stripJsonc(text));
  } catch (err) {
    throw configError(`mcp.json is not valid JSON: ${(err as Error).message}`);
  }
  if (!isObject(doc) || !isObject(doc.servers)) throw configError('mcp.json has no "servers" object.');
  const servers: Record<string, ServerConfig> = {};
  const skipped: string[] = [];
  for (const [name, raw] of Object.entries(doc.servers)) {
    if (!SERVER_NAME.test(name)) {
      skipped.push(`${name}: server names may hold only letters, digits, _ . - (rename it in mcp.json)`);
      continue;
    }
    if (!isObject(raw)) {
      skipped.push(`${name}: not an object`);
      continue;
    }
    if (raw.type === 'sse') {
      skipped.push(`${name}: the SSE transport is not supported (use Streamable HTTP)`);
      continue;
    }
    const entry: Record<string, unknown> = {};
    for (const key of ['type', 'command', 'args', 'env', 'cwd', 'url', 'headers'] as const) if (raw[key] !== undefined) entry[key] = raw[key];
    let unresolved: string | undefined;
    const substitute = (value: unknown): unknown => {
      if (typeof value === 'string') {
        const replaced = value.replace(/\$\{(workspaceFolder|userHome)\}/g, (m, v: string) => (v === 'workspaceFolder' ? vars.workspaceFolder : vars.userHome) ?? m);
        const left = /\$\{[^}]+\}/.exec(replaced);
        if (left && !unresolved) unresolved = left[0];
        return replaced;
      }
      if (Array.isArray(value)) return value.map(substitute);
      if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v)]));
      return value;
    };
    const converted = substitute(entry) as Record<string, unknown>;
    if (unresolved) {
      skipped.push(`${name}: uses ${unresolved}, which only VS Code's own MCP support can resolve`);
      continue;
    }
    try {
      servers[name] = parseServerConfig(converted, `mcp.json servers.${name}`);
    } catch (err) {
      skipped.push(`${name}: ${(err as Error).message}`);
    }
  }
  return { servers, skipped };
}

/** What a (re-)import writes: the new `mcpServers` value and how it differs from the current one. */
export interface ImportPlan {
  next: Record<string, ServerConfig>;
  diff: ServerDiff;
}

/**
 * Plans writing `imported` (this import's servers) over `existing` (the current workspace value of
 * `mcpServers`): imported servers are added or replace theirs; a server `previous` (the names the last
 * import wrote) lists that mcp.json no longer has is removed; servers added by hand stay. Pure.
 */
export function planImport(existing: Readonly<Record<string, ServerConfig>>, previous: readonly string[], imported: Readonly<Record<string, ServerConfig>>): ImportPlan {
  const next: Record<string, ServerConfig> = { ...existing };
  for (const name of previous) if (!Object.hasOwn(imported, name)) delete next[name];
  Object.assign(next, imported);
  return { next, diff: diffServers(existing, next) };
}
