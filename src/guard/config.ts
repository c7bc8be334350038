import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AGENT_NAME, grantProblem, type AgentManifest } from '../registry/grants';
import { DEFAULT_CONFIG_FILE } from '../registry/config-file-name';
import { parsePermissions, type PermissionsConfig } from './permissions';
import { parseAgentScreen, parseScreenConfig, type GuardScreenConfig } from './screen-config';

export { agentScreenConfig, parseAgentScreen, parseScreenConfig, type AgentScreen, type GuardScreenConfig } from './screen-config';

/**
 * What the guard reads of `.jev/config.json`: `agents` (names, grants and their own `screen`), `permissions`
 * and `screen`, validated with errors naming the file, the field and the rule; of the `servers` block (the
 * registry's, checked by registry/config-file.ts when servers are used) only each server's screen settings.
 * Kept free of zod so the lean entry starts fast.
 */

/** The guard's part of the config file. */
export interface GuardConfig {
  agents: AgentManifest[];
  /** undefined when the file has no permissions block (the defaults apply). */
  permissions?: PermissionsConfig;
  /** The `screen` block (PostToolUse screening); undefined when the file has none (no commands, mode warn). */
  screen?: GuardScreenConfig;
  /**
   * Per-server screen settings read from `servers` (`screen`, `trustAnnotations`), by server name;
   * the rest of each entry is the registry's (registry/config-file.ts validates it).
   */
  serverScreen?: Record<string, { screen?: boolean; strict?: boolean; trustAnnotations?: boolean }>;
}

/** The screen settings of the `servers` entries (`{"<name>": {…, "screen"?, "trustAnnotations"?}}`) that have one; nothing else of them is read here. */
function serverScreenSettings(raw: unknown): Record<string, { screen?: boolean; strict?: boolean; trustAnnotations?: boolean }> | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const out: Record<string, { screen?: boolean; strict?: boolean; trustAnnotations?: boolean }> = {};
  for (const [name, entry] of Object.entries(raw as Record<string, unknown>)) {
    const e = entry as { screen?: unknown; trustAnnotations?: unknown } | null;
    if (typeof e !== 'object' || e === null) continue;
    // `"strict"` (the gateway's spelling, src/registry/servers.ts): screened, and withheld when it cannot be.
    const strict = e.screen === 'strict';
    if (typeof e.screen !== 'boolean' && !strict && typeof e.trustAnnotations !== 'boolean') continue;
    out[name] = {
      ...(typeof e.screen === 'boolean' ? { screen: e.screen } : {}),
      ...(strict ? { screen: true, strict: true } : {}),
      ...(typeof e.trustAnnotations === 'boolean' ? { trustAnnotations: e.trustAnnotations } : {}),
    };
  }
  return Object.keys(out).length ? out : undefined;
}

const TOP_FIELDS = ['$schema', 'agents', 'servers', 'permissions', 'screen'];

/** The first problem of the servers' screen fields (`servers.NAME.screen` / `.trustAnnotations`), or undefined. */
function serverScreenProblem(raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'servers: must be an object mapping server names to server entries';
  for (const [name, entry] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return `servers.${name}: must be an object (an mcp.json server entry)`;
    const e = entry as { screen?: unknown; trustAnnotations?: unknown };
    if (e.screen !== undefined && typeof e.screen !== 'boolean' && e.screen !== 'strict') return `servers.${name}.screen: must be true, false or "strict"; got ${JSON.stringify(e.screen)}`;
    if (e.trustAnnotations !== undefined && typeof e.trustAnnotations !== 'boolean') return `servers.${name}.trustAnnotations: must be true or false`;
  }
  return undefined;
}

/** Validates the parsed file. Throws Error, e.g. `.jev/config.json: agents[0].tools[1]: must not be empty`. */
export function parseGuardConfig(raw: unknown, source: string): GuardConfig {
  const fail = (message: string): never => {
    throw new Error(`${source}: ${message}`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('(root): must be a JSON object');
  const obj = raw as Record<string, unknown>;
  // The same fields as src/registry/config-file.ts: a misspelt block must not drop its rules silently.
  const unknown = Object.keys(obj).filter((k) => !TOP_FIELDS.includes(k));
  if (unknown.length) fail(`(root): unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (allowed: ${TOP_FIELDS.slice(1).join(', ')})`);
  const agents: AgentManifest[] = [];
  if (obj.agents !== undefined) {
    if (!Array.isArray(obj.agents)) fail('agents: must be an array of {name, tools}');
    (obj.agents as unknown[]).forEach((entry, i) => {
      const a = entry as { name?: unknown; tools?: unknown; screen?: unknown } | null;
      if (typeof a !== 'object' || a === null || Array.isArray(a)) return fail(`agents[${i}]: must be an object {name, tools}`);
      if (typeof a.name !== 'string' || !AGENT_NAME.test(a.name)) fail(`agents[${i}].name: must be 1-64 letters, digits, _ . - and start with a letter or digit`);
      const tools = a.tools ?? [];
      if (!Array.isArray(tools)) fail(`agents[${i}].tools: must be an array of tool ids or globs`);
      (tools as unknown[]).forEach((t, j) => {
        const problem = typeof t === 'string' ? grantProblem(t) : 'must be a string';
        if (problem) fail(`agents[${i}].tools[${j}]: ${problem}`);
      });
      let screen;
      try {
        if (a.screen !== undefined) screen = parseAgentScreen(a.screen, `agents[${i}].screen`);
      } catch (err) {
        return fail((err as Error).message);
      }
      const first = agents.findIndex((m) => m.name === a.name);
      if (first >= 0) fail(`agents[${i}].name: duplicate agent name ${JSON.stringify(a.name)} (already agents[${first}])`);
      agents.push({ name: a.name as string, tools: tools as string[], ...(screen !== undefined ? { screen } : {}) });
    });
  }
  const out: GuardConfig = { agents };
  try {
    if (obj.permissions !== undefined) out.permissions = parsePermissions(obj.permissions);
    if (obj.screen !== undefined) out.screen = parseScreenConfig(obj.screen);
  } catch (err) {
    return fail((err as Error).message);
  }
  const problem = serverScreenProblem(obj.servers);
  if (problem) fail(problem);
  const servers = serverScreenSettings(obj.servers);
  if (servers) out.serverScreen = servers;
  return out;
}

/**
 * Reads the config file (`path`, or `.jev/config.json` under `root`). A missing default file is an empty
 * config; a missing explicit file, unreadable or invalid JSON is an Error naming the file.
 */
export async function loadGuardConfig(root: string, path?: string): Promise<GuardConfig> {
  const file = resolve(root, path ?? DEFAULT_CONFIG_FILE);
  const shown = path ?? DEFAULT_CONFIG_FILE;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && path === undefined) return { agents: [] };
    throw new Error(`${shown}: cannot read the config file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { cause: err });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`${shown}: not valid JSON (${(err as Error).message})`, { cause: err });
  }
  return parseGuardConfig(raw, shown);
}
