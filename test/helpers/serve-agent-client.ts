/** SDK clients of a built `jevcp serve --agent NAME` child process (dist/cli.js), over stdio and over `--http 0`. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');

/** Starts `jevcp serve --agent agent` over stdio in `cwd` with `env`; close the client to end it. */
export async function stdioServe(cwd: string, agent: string, env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--agent', agent], cwd, env, stderr: 'pipe' });
  const client = new Client({ name: 'serve-agent-stdio-test', version: '0' });
  await client.connect(transport);
  return client;
}

/** Starts `jevcp serve --agent agent --http 0` in `cwd` and connects the SDK client once its notice is printed (20 s at most). */
export async function httpServe(cwd: string, agent: string, env: Record<string, string>): Promise<{ client: Client; child: ChildProcess }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--agent', agent, '--http', '0'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  const { url, token } = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve --http did not start; stderr: ${err}`)), 20_000);
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString('utf8');
      const u = /at (http:\/\/127\.0\.0\.1:\d+\/mcp) /.exec(err);
      const t = /^Authorization: Bearer (.+)$/m.exec(err);
      if (u && t) {
        clearTimeout(timer);
        resolve({ url: u[1]!, token: t[1]! });
      }
    });
    child.on('exit', (code) => reject(new Error(`serve --http exited ${code}; stderr: ${err}`)));
  });
  const client = new Client({ name: 'serve-agent-http-test', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return { client, child };
}
