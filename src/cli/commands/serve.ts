import { serveStdio } from '../../mcp/server';
import { parseCommandArgs } from '../args';
import { EXIT, type CliCommand } from '../io';
import { reportError, wantsJson } from '../report';
import { createRuntime } from '../runtime';
import { parseHttpPort, serveHttp } from './serve-http';

/**
 * `jevcp serve`: the MCP server on stdio (stdout carries protocol messages only; notices go to stderr).
 * Resolves with 0 when the client closes stdin. `jevcp serve --http PORT` serves Streamable HTTP on
 * 127.0.0.1 instead (serve-http.ts) until SIGINT/SIGTERM.
 */
export const serveCommand: CliCommand = async (args, io) => {
  try {
    const { values } = parseCommandArgs('serve', args, { http: { type: 'string' } });
    if (values.http !== undefined) return await serveHttp(parseHttpPort(values.http), io);
    const runtime = createRuntime(io);
    try {
      const serving = await serveStdio(runtime.service, { agent: 'mcp' });
      await serving.closed;
      return EXIT.OK;
    } finally {
      runtime.close();
    }
  } catch (err) {
    return reportError(io, err, wantsJson(args));
  }
};
