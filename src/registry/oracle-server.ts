import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { ORACLE_DESCRIPTION, ORACLE_NAME, drawOmen } from './oracle';

/**
 * The built-in oracle MCP server, started by `MCP_ORACLE=1` as
 * `jevcp oracle-server`. It serves the same `drawOmen` as the in-process tool, so a seed gives the
 * byte-identical omen on both transports. Nothing is ever written to stdout except JSON-RPC (a stray
 * line would corrupt the stream); diagnostics go to stderr.
 */

/** MCP server name of the oracle server. */
export const ORACLE_SERVER_NAME = 'jev-oracle';

/** Builds the oracle MCP server (not yet connected): one read-only tool `oracle` returning `{omen}`. */
export function createOracleServer(version = '0.1.0'): McpServer {
  const server = new McpServer({ name: ORACLE_SERVER_NAME, version });
  server.registerTool(
    ORACLE_NAME,
    {
      description: ORACLE_DESCRIPTION,
      inputSchema: { seed: z.string().optional() },
      outputSchema: { omen: z.string() },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ seed }) => {
      const result = drawOmen(seed ?? '');
      return { structuredContent: result, content: [{ type: 'text', text: JSON.stringify(result) }] };
    },
  );
  return server;
}

/**
 * Serves the oracle over stdio on `stdin`/`stdout` until the client closes stdin.
 * Resolves once the server has closed.
 */
export async function runOracleServer(
  stdin: NodeJS.ReadableStream = process.stdin,
  stdout: NodeJS.WritableStream = process.stdout,
): Promise<void> {
  const server = createOracleServer();
  const transport = new StdioServerTransport(stdin as never, stdout as never);
  const closed = new Promise<void>((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      server.close().catch(() => undefined).finally(resolve);
    };
    stdin.once('end', finish);
    stdin.once('close', finish);
    transport.onclose = finish;
  });
  await server.connect(transport);
  await closed;
}
