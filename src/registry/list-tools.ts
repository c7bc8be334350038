import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RemoteTool } from './connection';

/**
 * All tools of a server: `tools/list` page by page (at most 100 pages), each request with `timeout` ms.
 * Rejects with the SDK's error of the failing page.
 */
export async function listAllTools(client: Client, timeout: number): Promise<RemoteTool[]> {
  const out: RemoteTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const res = await client.listTools(cursor ? { cursor } : undefined, { timeout });
    for (const t of res.tools) {
      out.push({
        name: t.name,
        title: t.title ?? t.annotations?.title,
        description: t.description ?? '',
        inputSchema: t.inputSchema as Record<string, unknown>,
        outputSchema: t.outputSchema as Record<string, unknown> | undefined,
        annotations: t.annotations,
      });
    }
    cursor = res.nextCursor;
    if (!cursor) break;
  }
  return out;
}
