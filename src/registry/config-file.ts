import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { configError } from '../judgment/errors';
import { parseScreenConfig, type GuardScreenConfig } from '../guard/config';
import { parsePermissions, type PermissionsConfig } from '../guard/permissions';
import { DEFAULT_CONFIG_FILE } from './config-file-name';
import { parseManifest, type AgentManifest } from './manifest';
import { SERVER_NAME, parseServerConfig, type ServerConfig } from './servers';

/**
 * The project config file `.jev/config.json`:
 * `{ "agents": [{ "name", "tools": [grant…], "screen"? }], "servers": { "<name>": <mcp.json server entry> },
 *    "permissions": { "allow": [rule…], "ask": [rule…], "deny": [rule…] }, "screen"?: {commands, mode} }`
 * (rules: src/guard/rules.ts; the screen settings: src/guard/screen-config.ts).
 * Validated at load; an error names the file, the field and the rule.
 */

export { DEFAULT_CONFIG_FILE } from './config-file-name';

/** Parsed config file. `servers` keeps file order (resolution order for bare tool names). */
export interface JevFileConfig {
  agents: AgentManifest[];
  servers: Record<string, ServerConfig>;
  /** The `jevcp guard` rules (src/guard/permissions.ts), when the file has a permissions block. */
  permissions?: PermissionsConfig;
  /** The top-level `screen` block (src/guard/screen-config.ts), when the file has one. */
  screen?: GuardScreenConfig;
}

const TOP_KEYS = new Set(['$schema', 'agents', 'servers', 'permissions', 'screen']);

/**
 * Validates a parsed config object. `source` prefixes messages (e.g. `.jev/config.json`); `cwd` resolves
 * relative server `cwd`s. Throws JevError CONFIG_ERROR, e.g. `.jev/config.json: agents[1].tools[0]: must not be empty`.
 */
export function parseJevConfig(raw: unknown, source = 'config', cwd?: string): JevFileConfig {
  const fail = (message: string): never => {
    throw configError(`${source}: ${message}`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('(root): must be a JSON object with "agents" and/or "servers"');
  const obj = raw as Record<string, unknown>;
  const unknown = Object.keys(obj).filter((k) => !TOP_KEYS.has(k)).sort();
  if (unknown.length) fail(`(root): unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (allowed: agents, servers, permissions, screen)`);

  const agents: AgentManifest[] = [];
  if (obj.agents !== undefined) {
    if (!Array.isArray(obj.agents)) fail('agents: must be an array of {name, tools}');
    const seen = new Map<string, number>();
    (obj.agents as unknown[]).forEach((entry, i) => {
      let manifest: AgentManifest;
      try {
        manifest = parseManifest(entry, `agents[${i}]`);
      } catch (err) {
        return fail((err as Error).message);
      }
      const first = seen.get(manifest.name);
      if (first !== undefined) fail(`agents[${i}].name: duplicate agent name ${JSON.stringify(manifest.name)} (already agents[${first}])`);
      seen.set(manifest.name, i);
      agents.push(manifest);
    });
  }

  const servers: Record<string, ServerConfig> = {};
  if (obj.servers !== undefined) {
    if (typeof obj.servers !== 'object' || obj.servers === null || Array.isArray(obj.servers)) fail('servers: must be an object mapping server names to server entries');
    for (const [name, entry] of Object.entries(obj.servers as Record<string, unknown>)) {
      if (!SERVER_NAME.test(name)) {
        fail(`servers[${JSON.stringify(name)}]: server names must be 1-64 letters, digits, _ . - (no "/" or spaces: they prefix tool ids)`);
      }
      let config: ServerConfig;
      try {
        config = parseServerConfig(entry, `servers.${name}`);
      } catch (err) {
        return fail((err as Error).message);
      }
      if ('command' in config && config.cwd && cwd && !isAbsolute(config.cwd)) config = { ...config, cwd: resolve(cwd, config.cwd) };
      servers[name] = config;
    }
  }
  // The guard's `screen` block (src/guard/config.ts) is checked here too, so a mistake in it is named at load.
  let screen: GuardScreenConfig | undefined;
  try {
    if (obj.screen !== undefined) screen = parseScreenConfig(obj.screen);
  } catch (err) {
    return fail((err as Error).message);
  }
  const withScreen = screen ? { screen } : {};
  if (obj.permissions === undefined) return { agents, servers, ...withScreen };
  let permissions: PermissionsConfig;
  try {
    permissions = parsePermissions(obj.permissions);
  } catch (err) {
    return fail((err as Error).message);
  }
  return { agents, servers, permissions, ...withScreen };
}

/**
 * Reads and validates the config file at `path` (default `.jev/config.json` under `cwd`). A missing
 * default file is an empty config; a missing explicit file is an error. Relative server cwds resolve
 * against `cwd`. Throws JevError CONFIG_ERROR naming the file and field.
 */
export async function loadJevConfig(opts: { cwd: string; path?: string }): Promise<{ config: JevFileConfig; path: string; found: boolean }> {
  const path = resolve(opts.cwd, opts.path ?? DEFAULT_CONFIG_FILE);
  const shown = opts.path ?? DEFAULT_CONFIG_FILE;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && opts.path === undefined) return { config: { agents: [], servers: {} }, path, found: false };
    throw configError(`${shown}: cannot read the config file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw configError(`${shown}: not valid JSON (${(err as Error).message})`);
  }
  return { config: parseJevConfig(raw, shown, opts.cwd), path, found: true };
}
