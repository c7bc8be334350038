import { invalidInput } from '../../judgment/errors';
import { createGatewaySession, type GatewaySession } from '../../mcp/gateway';
import { DEFAULT_FORWARD_MAX_BYTES } from '../../mcp/forward-result';
import { createGatewayScreener } from '../../mcp/screen-result';
import type { Screener } from '../../screen';
import { decideGrant, type AgentManifest } from '../../registry/manifest';
import { registerJudgmentTools } from '../../registry/judgment-tools';
import { openRegistry } from '../../registry/setup';
import { refOf, type ToolRegistry } from '../../registry/registry';
import { toolCountWarning } from '../../registry/tool-count';
import type { JudgmentService } from '../../tools/judgment-service';
import type { CliIO } from '../io';
import { cliConnectionOptions } from '../mcp-client-options';
import type { Runtime } from '../runtime';
import { safeText } from '../safe-text';

/** `--agent NAME` and `--config F` of `jevcp serve`. */
export interface AgentServeOptions {
  agent: string;
  config?: string;
}

/** The registry an agent is served from, and the session factory over it. */
export interface AgentServing {
  agent: AgentManifest;
  registry: ToolRegistry;
  /** One gateway session (the MCP server of one client) calling `service`. */
  createSession(service: JudgmentService): GatewaySession;
  /** Shuts the registry's servers down (their whole process trees). */
  close(): Promise<void>;
}

/**
 * What `jevcp serve --agent NAME` serves, on stdio and on `--http` alike (the same gateway as the editor's
 * endpoint, src/mcp/gateway.ts): NAME's granted judgment tools and its granted external tools as
 * `<server>__<tool>`, each external call capability-checked by the registry before it reaches a server's
 * transport and recorded in the ledger (kind `execution`). Servers come from the config file
 * (`.jev/config.json` or `--config`), then MCP_SERVERS / MCP_ORACLE; they are started (and their warnings
 * printed on stderr) before the first client is served. Grants are read from the manifest as loaded.
 * @throws JevError INVALID_INPUT when NAME is not an agent of the configuration (the known ones are listed);
 * CONFIG_ERROR for a bad configuration or env gate.
 */
export async function openAgentServing(options: AgentServeOptions, runtime: Runtime, io: CliIO): Promise<AgentServing> {
  const opened = await openRegistry({ cwd: io.cwd, env: io.env, configPath: options.config, connection: cliConnectionOptions(io) });
  const { registry } = opened;
  const agent = opened.agents.find((a) => a.name === options.agent);
  if (!agent) {
    await registry.shutdown();
    const known = opened.agents.map((a) => a.name);
    const where = opened.configFound ? opened.configPath : '.jev/config.json (not found)';
    throw invalidInput(`serve: --agent: no agent ${JSON.stringify(options.agent)} in ${where}${known.length ? `; agents: ${known.join(', ')}` : ''}.`);
  }
  try {
    // As the editor does: the judgment tools are known to the registry, so their grants do not warn.
    registerJudgmentTools(registry, runtime.service);
    const views = await registry.start();
    const notes = [
      ...opened.warnings,
      ...views.filter((v) => v.status.state !== 'ready').map((v) => `server ${v.name} is ${v.status.state}: ${v.status.reason ?? 'no reason given'}`),
      ...registry.nameConflicts(),
      ...registry.grantWarnings([agent]),
      // The judgment tools are registered above, so list() is what the agent is offered.
      ...[toolCountWarning(agent.name, registry.list().filter((t) => decideGrant(agent, refOf(t)).allowed).map((t) => t.id))].filter((w): w is string => w !== undefined),
    ];
    for (const n of notes) io.stderr.write(safeText(`jevcp: warning: ${n}\n`));
  } catch (err) {
    await registry.shutdown();
    throw err;
  }
  // One screener for the process: every session (one on stdio, one per client on --http) shares its cache.
  let screener: Screener | undefined;
  return {
    agent,
    registry,
    createSession: (service) =>
      createGatewaySession({
        screener: (screener ??= createGatewayScreener(service, agent.name)),
        agent: agent.name,
        service,
        registry: () => registry,
        manifest: () => agent,
        ...(opened.screen ? { screenDefault: () => ({ mode: opened.screen!.mode, setIn: opened.configPath }) } : {}),
        floors: () => runtime.config.floors,
        // The sink reports its own write failures on stderr; without JEV_LEDGER nothing is recorded, as for judgments.
        record: (record) => void runtime.ledger?.append(record),
        resultCap: () => ({
          maxBytes: runtime.config.gatewayMaxResultBytes ?? DEFAULT_FORWARD_MAX_BYTES,
          setting: 'JEV_GATEWAY_MAX_RESULT_BYTES',
          ...(runtime.ledger && runtime.config.ledgerPath ? { recordedIn: `the ledger ${runtime.config.ledgerPath} (JEV_LEDGER)` } : {}),
        }),
      }),
    close: () => registry.shutdown(),
  };
}
