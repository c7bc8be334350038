/**
 * The client under test for the official MCP conformance suite (`conformance client --command …`): the
 * product's own MCP client (src/registry/connection.ts with its OAuth, elicitation and roots support),
 * bundled by scripts/test-conformance.mjs. The suite appends the scenario's server URL and sets
 * MCP_CONFORMANCE_SCENARIO and, for pre-registered clients and enterprise-managed authorization (an ID token
 * from an identity provider), MCP_CONFORMANCE_CONTEXT.
 *
 * Like a user of `jevcp`: the server entry is what a user would write in .jev/config.json (its `oauth`
 * filled from the context), tokens go to the CLI's file store (in a throwaway folder), the browser step
 * runs through BROWSER (the runner points it at test/fixtures/browser/follow-redirect.mjs), and
 * elicitation is answered by the terminal prompt with Enter on every question (take the defaults).
 * Then it connects, lists the tools and calls each one once. Exit 0 when all of that worked.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { askInTerminal } from '../../src/cli/elicit-prompt';
import { cliSignInHint, cliSignInInteraction } from '../../src/cli/oauth-host';
import { fixedRoots } from '../../src/registry/client-features';
import { McpConnection } from '../../src/registry/connection';
import { FileOAuthStore } from '../../src/registry/oauth/file-store';
import { parseServerConfig } from '../../src/registry/servers';

/** A client ID metadata document URL, as a user who publishes one would configure it. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

const url = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, string | undefined>;
const work = mkdtempSync(join(tmpdir(), 'jev-conformance-'));
const say = (m: string) => process.stderr.write(`driver: ${m}\n`);

/** The `oauth` field a user would configure for this scenario's server. */
function oauthFor(): Record<string, unknown> | undefined {
  if (!scenario.startsWith('auth/')) return undefined;
  if (context.idp_id_token && context.idp_issuer && context.idp_client_id && context.client_id) {
    // Enterprise-managed authorization: the ID token an SSO helper left in a file, the IdP found from its issuer.
    const idTokenFile = join(work, 'id-token');
    writeFileSync(idTokenFile, `${context.idp_id_token}\n`, { mode: 0o600 });
    return {
      grant: 'jwt_bearer',
      clientId: context.client_id,
      ...(context.client_secret ? { clientSecret: context.client_secret } : {}),
      identityProvider: { issuer: context.idp_issuer, clientId: context.idp_client_id, idTokenFile },
    };
  }
  if (context.client_id && context.private_key_pem) {
    const keyFile = join(work, 'client-key.pem');
    writeFileSync(keyFile, context.private_key_pem, { mode: 0o600 });
    chmodSync(keyFile, 0o600);
    return { grant: 'client_credentials', clientId: context.client_id, privateKeyFile: keyFile, signingAlgorithm: context.signing_algorithm ?? 'ES256' };
  }
  if (context.client_id && scenario.includes('client-credentials')) {
    return { grant: 'client_credentials', clientId: context.client_id, clientSecret: context.client_secret };
  }
  if (context.client_id) return { clientId: context.client_id, ...(context.client_secret ? { clientSecret: context.client_secret } : {}) };
  return { clientMetadataUrl: CLIENT_METADATA_URL };
}

/** Arguments for a tool from its input schema: defaults, else small sample values. */
function sampleArguments(schema: Record<string, unknown>): Record<string, unknown> {
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const out: Record<string, unknown> = {};
  let n = 2;
  for (const [name, prop] of Object.entries(props)) {
    if (prop.default !== undefined) out[name] = prop.default;
    else if (prop.type === 'number' || prop.type === 'integer') out[name] = n++;
    else if (prop.type === 'boolean') out[name] = true;
    else if (prop.type === 'string') out[name] = Array.isArray(prop.enum) ? prop.enum[0] : 'test';
  }
  return out;
}

async function main(): Promise<number> {
  if (!url) throw new Error('usage: driver.js SERVER_URL');
  const oauth = oauthFor();
  const config = parseServerConfig({ type: 'http', url, ...(oauth ? { oauth } : {}) }, 'conformance');
  say(`scenario ${scenario || '(none)'}; server ${url}; oauth ${oauth ? JSON.stringify({ ...oauth, clientSecret: oauth.clientSecret ? '(set)' : undefined }) : 'discovered'}`);
  const connection = new McpConnection('conformance', config, {
    clientInfo: { name: 'jev-control-panel', version: '0.1.0' },
    startupTimeoutMs: 20_000,
    restart: { maxAttempts: 0 },
    oauth: { store: new FileOAuthStore(join(work, 'oauth')), signInHint: cliSignInHint, interaction: cliSignInInteraction({ stderr: process.stderr, env: process.env }) },
    // The user presses Enter on every question: accept, and take each default.
    elicitation: (request, signal) => askInTerminal(request, Readable.from(['\n'.repeat(request.fields.length + 1)]), process.stderr, signal),
    roots: fixedRoots(process.cwd()),
  });
  try {
    const status = await connection.start();
    if (status.state !== 'ready') {
      say(`not ready: ${status.reason}`);
      return 1;
    }
    say(`ready; tools: ${connection.tools.map((t) => t.name).join(', ') || '(none)'}`);
    for (const tool of connection.tools) {
      const result = await connection.callTool(tool.name, sampleArguments(tool.inputSchema));
      say(`${tool.name}: ${result.isError ? 'isError ' : ''}${JSON.stringify(result.content).slice(0, 200)}`);
    }
    return 0;
  } finally {
    await connection.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    say(`failed: ${err.name}: ${err.message}`);
    rmSync(work, { recursive: true, force: true });
    process.exit(1);
  },
);
