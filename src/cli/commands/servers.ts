import { invalidInput } from '../../judgment/errors';
import { decideGrant, refOfName } from '../../registry/manifest';
import { refOf, type ServerView } from '../../registry/registry';
import { openRegistry } from '../../registry/setup';
import { toolCountWarning } from '../../registry/tool-count';
import { ALL_TOOLS } from '../../tools';
import { parseCommandArgs } from '../args';
import { EXIT, type CliCommand, type CliIO } from '../io';
import { cliConnectionOptions } from '../mcp-client-options';
import { cliSignInInteraction } from '../oauth-host';
import { reportError, wantsJson } from '../report';
import { safeText } from '../safe-text';

/**
 * `jevcp servers [--config F] [--json]`: starts every configured MCP server (config file
 * `.jev/config.json` or `--config`, then MCP_SERVERS / MCP_ORACLE), prints each one's status, reason and
 * tools, and each agent's effective tools, then shuts them all down.
 * Exit 0 when every server is ready (or none is configured), 3 when any is in error, 2 for bad config.
 * Warnings (env-gate oddities, grants matching no tool) go to stderr.
 * `jevcp servers login NAME` / `logout NAME`: see signInCommand.
 */
export const serversCommand: CliCommand = async (args, io) => {
  try {
    const { values, positionals } = parseCommandArgs('servers', args, { config: { type: 'string' }, json: { type: 'boolean' } }, true);
    if (positionals.length > 0) return await signInCommand(positionals, values, io);
    const opened = await openRegistry({ cwd: io.cwd, env: io.env, configPath: values.config, connection: cliConnectionOptions(io) });
    const { registry, agents } = opened;
    try {
      const views = await registry.start();
      const warnings = [...opened.warnings, ...registry.nameConflicts(), ...registry.grantWarnings(agents)];
      const tools = registry.list();
      // The judgment tools are served beside the registry's (serve --agent, step --agent): list them too.
      const judgment = ALL_TOOLS.map((t) => t.name).filter((n) => !tools.some((t) => t.id === n));
      const agentViews = agents.map((a) => ({
        name: a.name,
        grants: a.tools,
        allowed: [
          ...judgment.filter((n) => decideGrant(a, refOfName(n)).allowed),
          ...tools.filter((t) => decideGrant(a, refOf(t)).allowed).map((t) => t.id),
        ],
      }));
      // Past 128 tools VS Code's agents degrade: say which grants to narrow.
      for (const a of agentViews) {
        const w = toolCountWarning(a.name, a.allowed);
        if (w) warnings.push(w);
      }
      for (const w of warnings) io.stderr.write(safeText(`jevcp: warning: ${w}\n`));
      if (values.json === true) {
        const servers = views.map(({ stderr: _stderr, ...v }) => v);
        io.stdout.write(`${JSON.stringify({ config: opened.configFound ? opened.configPath : null, gate: opened.gate.source, servers, agents: agentViews, warnings }, null, 2)}\n`);
      } else {
        io.stdout.write(safeText(formatServers(views, opened.configFound ? opened.configPath : null, opened.gate.source)));
        for (const a of agentViews) {
          io.stdout.write(safeText(`agent ${a.name}: ${a.allowed.length ? a.allowed.join(', ') : '(no known tool granted)'}\n`));
        }
      }
      return views.every((v) => v.status.state === 'ready') ? EXIT.OK : EXIT.OPERATIONAL;
    } finally {
      await registry.shutdown();
    }
  } catch (err) {
    return reportError(io, err, wantsJson(args));
  }
};

/** Human printout: one block per server with status, reason, target and tools. */
export function formatServers(views: readonly ServerView[], configPath: string | null, gate: string): string {
  const lines: string[] = [];
  const from = [configPath ? `config ${configPath}` : 'no config file', gate === 'none' ? 'no env gate' : `env gate ${gate}`].join('; ');
  if (views.length === 0) return `No MCP servers configured (${from}).\n`;
  lines.push(`${views.length} MCP server${views.length > 1 ? 's' : ''} (${from}); bare tool names resolve in this order:`);
  for (const v of views) {
    const s = v.status;
    const state = s.state === 'ready' ? `ready, ${v.tools.length} tool${v.tools.length === 1 ? '' : 's'}` : s.state;
    lines.push(`${v.name} [${v.transport}, ${v.source}] ${state} — ${v.target}`);
    if (s.reason) lines.push(`  reason: ${s.reason}`);
    if (s.warning) lines.push(`  warning: ${s.warning}`);
    if (s.auth === 'signed-in') lines.push('  OAuth: signed in (jevcp servers logout ' + v.name + ' forgets the tokens)');
    if (s.nextRestartAt) lines.push(`  restart in ${Math.max(0, s.nextRestartAt - Date.now())} ms (restarts so far: ${s.restarts})`);
    if (v.tools.length) lines.push(`  tools: ${v.tools.join(', ')}`);
    lines.push(`  timeout per call: ${v.timeoutMs} ms (restarted by progress, at most ${v.maxTotalTimeoutMs} ms in all)`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `jevcp servers login NAME` signs in to an OAuth server: forgets its stored tokens, connects, and opens
 * the authorization URL in the browser (BROWSER honoured; the URL is also printed) with a loopback
 * redirect; tokens are kept in the CLI's token folder. `client_credentials` and `jwt_bearer` servers sign in without a
 * browser. Exit 0 when the server is then ready. `jevcp servers logout NAME` forgets the server's tokens
 * and registered client (nothing is sent to the server). Exit 2 for an unknown name or a server without OAuth.
 */
async function signInCommand(positionals: string[], values: { config?: string; json?: boolean }, io: CliIO): Promise<number> {
  const [action, name, ...extra] = positionals;
  if ((action !== 'login' && action !== 'logout') || !name || extra.length) {
    throw invalidInput('servers: usage: jevcp servers [--config F] [--json], jevcp servers login NAME, jevcp servers logout NAME');
  }
  const opened = await openRegistry({ cwd: io.cwd, env: io.env, configPath: values.config, connection: cliConnectionOptions(io) });
  const { registry } = opened;
  try {
    const connection = registry.server(name);
    if (!connection) throw invalidInput(`servers ${action}: no server ${JSON.stringify(name)}; servers: ${registry.servers.map((c) => c.name).join(', ') || '(none)'}`);
    if (!connection.usesOAuth) throw invalidInput(`servers ${action}: server ${JSON.stringify(name)} does not sign in with OAuth (a stdio server, an Authorization header of its own, or oauth: false)`);
    const status = action === 'login' ? await connection.signIn(cliSignInInteraction(io)) : await connection.signOut();
    const ok = action === 'logout' || status.state === 'ready';
    if (values.json === true) {
      io.stdout.write(`${JSON.stringify({ server: name, action, ok, status: { state: status.state, auth: status.auth ?? null, reason: status.reason ?? null } }, null, 2)}\n`);
    } else if (action === 'logout') {
      io.stdout.write(safeText(`Signed out of ${name}: its tokens and registered client are forgotten.\n`));
    } else if (ok) {
      io.stdout.write(safeText(`Signed in to ${name}: ready, ${connection.tools.length} tool${connection.tools.length === 1 ? '' : 's'}.\n`));
    } else {
      io.stderr.write(safeText(`jevcp: sign-in to ${name} failed: ${status.reason ?? status.state}\n`));
    }
    return ok ? EXIT.OK : EXIT.OPERATIONAL;
  } finally {
    await registry.shutdown();
  }
}
