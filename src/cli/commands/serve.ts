import { invalidInput } from '../../judgment/errors';
import { serveStdio, serveStdioSession } from '../../mcp/server';
import { parseCommandArgs } from '../args';
import { EXIT, type CliCommand } from '../io';
import { reportError, wantsJson } from '../report';
import { createRuntime } from '../runtime';
import { openAgentServing } from './serve-agent';
import { parseHttpPort, serveHttp } from './serve-http';

/**
 * `jevcp serve [--agent NAME [--config F]]`: the MCP server on stdio (stdout carries protocol messages
 * only; notices go to stderr). Without `--agent`: the 14 judgment tools, recorded as agent `mcp`. With it:
 * what the editor's endpoint serves, for NAME (serve-agent.ts). Resolves with 0 when the client closes
 * stdin (the registry's servers are shut down first). `--http PORT` serves Streamable HTTP on 127.0.0.1
 * instead (serve-http.ts) until SIGINT/SIGTERM. Exit 2: bad arguments, unknown agent, bad configuration.
 */
export const serveCommand: CliCommand = async (args, io) => {
  try {
    const { values } = parseCommandArgs('serve', args, { http: { type: 'string' }, agent: { type: 'string' }, config: { type: 'string' } });
    if (values.config !== undefined && values.agent === undefined) throw invalidInput('serve: --config needs --agent NAME (the configuration names the agents and their servers).');
    if (values.agent !== undefined && values.agent.trim() === '') throw invalidInput('serve: --agent needs a NAME, e.g. `jevcp serve --agent coder`.');
    const agent = values.agent === undefined ? undefined : { agent: values.agent, config: values.config };
    if (values.http !== undefined) return await serveHttp(parseHttpPort(values.http), io, { agent });
    const runtime = createRuntime(io);
    try {
      if (!agent) {
        const serving = await serveStdio(runtime.service, { agent: 'mcp' });
        await serving.closed;
        return EXIT.OK;
      }
      const registry = await openAgentServing(agent, runtime, io);
      try {
        const serving = await serveStdioSession(registry.createSession(runtime.service));
        await serving.closed;
        return EXIT.OK;
      } finally {
        await registry.close();
      }
    } finally {
      runtime.close();
    }
  } catch (err) {
    return reportError(io, err, wantsJson(args));
  }
};
