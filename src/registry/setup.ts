import { ORACLE_DESCRIPTION, ORACLE_INPUT_SCHEMA, ORACLE_NAME, drawOmen } from './oracle';
import { loadJevConfig } from './config-file';
import type { GuardScreenConfig } from '../guard/screen-config';
import type { ConnectionOptions } from './connection';
import type { AgentManifest } from './manifest';
import { ToolRegistry, type RegistryEvent, type ToolSpec } from './registry';
import { mergeServers, serversFromEnv, type EnvGate, type StdioServerConfig } from './servers';

/**
 * Builds the registry a host uses (CLI, extension): config file + env gate → servers; the in-process
 * `oracle` unless the env gate moves tools to MCP.
 * Connections are created but not started.
 */

/** The in-process oracle tool (same function and text as the oracle MCP server). */
export const oracleToolSpec: ToolSpec = Object.freeze({
  name: ORACLE_NAME,
  description: ORACLE_DESCRIPTION,
  inputSchema: ORACLE_INPUT_SCHEMA,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (params: Record<string, unknown>) => drawOmen(params.seed ?? ''),
});

/**
 * Command that starts the built-in oracle server: this Node binary running the `jevcp` CLI script with the
 * hidden `oracle-server` subcommand. `cliPath` defaults to the running script (`dist/cli.js` under jevcp).
 */
export function defaultOracleServer(cliPath: string = process.argv[1] ?? 'jevcp'): StdioServerConfig {
  return { command: process.execPath, args: [cliPath, 'oracle-server'] };
}

/** Options of `openRegistry`. */
export interface OpenRegistryOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** `--config`; default `.jev/config.json` under `cwd` (optional file). */
  configPath?: string;
  /** How to start the oracle server for `MCP_ORACLE=1` (default `defaultOracleServer()`). */
  oracleServer?: StdioServerConfig;
  connection?: ConnectionOptions;
  onEvent?: (event: RegistryEvent) => void;
}

/** A built registry with the agents and notes that came with its configuration. */
export interface OpenedRegistry {
  registry: ToolRegistry;
  agents: AgentManifest[];
  /** Env-gate notes (grant warnings come after start: `registry.grantWarnings(agents)`). */
  warnings: string[];
  gate: EnvGate;
  configPath: string;
  configFound: boolean;
  /** The config file's top-level `screen` block, when it has one (its `mode` is the gateway's default too). */
  screen?: GuardScreenConfig;
}

/** Loads configuration and builds the registry. Throws JevError CONFIG_ERROR naming the field. */
export async function openRegistry(opts: OpenRegistryOptions): Promise<OpenedRegistry> {
  const { config, path, found } = await loadJevConfig({ cwd: opts.cwd, path: opts.configPath });
  const gate = serversFromEnv(opts.env, { oracle: opts.oracleServer ?? defaultOracleServer(), cwd: opts.cwd });
  const servers = mergeServers(config.servers, gate);
  const registry = new ToolRegistry({ servers, connection: { cwd: opts.cwd, ...opts.connection }, onEvent: opts.onEvent });
  if (gate.source === 'none') registry.register(oracleToolSpec);
  return { registry, agents: config.agents, warnings: gate.warnings, gate, configPath: path, configFound: found, ...(config.screen ? { screen: config.screen } : {}) };
}
