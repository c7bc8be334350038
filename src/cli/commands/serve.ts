import { invalidInput } from '../../judgment/errors';
import { serveStdio } from '../../mcp/server';
import { parseCommandArgs } from '../args';
import { EXIT, type CliCommand } from '../io';
import { createRuntime, reportError } from '../runtime';

/**
 * `jevcp serve`: the MCP server on stdio (stdout carries protocol messages only; notices go to stderr).
 * Resolves with 0 when the client closes stdin. `--http PORT` is reserved (Streamable HTTP is served by
 * the extension for now) and exits 2 with a clear message.
 */
export const serveCommand: CliCommand = async (args, io) => {
  try {
    const { values } = parseCommandArgs('serve', args, { http: { type: 'string' } });
    if (values.http !== undefined) {
      throw invalidInput('serve: --http is not available in the CLI yet; run `jevcp serve` (stdio), or use the VS Code extension, which serves Streamable HTTP.');
    }
    const runtime = createRuntime(io);
    try {
      const serving = await serveStdio(runtime.service, { agent: 'mcp' });
      await serving.closed;
      return EXIT.OK;
    } finally {
      runtime.close();
    }
  } catch (err) {
    return reportError(io, err);
  }
};
