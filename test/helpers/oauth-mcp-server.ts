/**
 * An OAuth-protected Streamable HTTP MCP server on 127.0.0.1 for tests, resource server and
 * authorization server in one process (real HTTP, real SDK MCP server):
 * - `/.well-known/oauth-protected-resource/mcp` (RFC 9728) and `/.well-known/oauth-authorization-server`
 *   (RFC 8414); `/register` (dynamic registration), `/authorize` (approves at once: 302 to the redirect URI
 *   with code and state), `/token` (authorization_code with PKCE S256, refresh_token, client_credentials,
 *   and the RFC 7523 jwt-bearer grant when `jwtBearer` is given);
 * - `/mcp` answers 401 with `WWW-Authenticate` without a valid bearer token; tool `echo` needs scope
 *   `mcp:read`, tool `publish` needs `mcp:write` too (403 insufficient_scope otherwise: step-up).
 * Counters and logs let tests see what the client did (registrations, authorization requests, grants).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface OAuthFixtureOptions {
  /** Pre-registered confidential client (client_secret_basic or _post). */
  client?: { id: string; secret: string };
  /** Issue refresh tokens (default true). */
  refreshTokens?: boolean;
  /**
   * Accepts the jwt-bearer grant: called with the assertion, the authenticated client, this server's
   * issuer and the MCP resource; returns the granted scope, or undefined to answer invalid_grant.
   */
  jwtBearer?: (assertion: string, context: { clientId: string; issuer: string; resource: string }) => string | undefined;
}

export interface OAuthFixture {
  /** `http://127.0.0.1:PORT/mcp`. */
  url: string;
  registrations: number;
  /** The `scope` of each authorization request, in order ('' when none). */
  authorizationScopes: string[];
  /** grant_type of each successful token request, in order. */
  grants: string[];
  /** Every access token issued so far (so tests can check none leaks into output). */
  issuedAccessTokens: string[];
  /** Every request to `/token`: its form and Authorization header. */
  tokenRequests: { form: Record<string, string>; authorization?: string }[];
  /** The Authorization header of every request to `/mcp` ('' when none). */
  mcpAuthorizations: string[];
  /** Makes every access token issued so far invalid (the next request meets 401 and refreshes). */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

const READ = 'mcp:read';
const WRITE = 'mcp:write';

function buildMcp(): McpServer {
  const server = new McpServer({ name: 'oauth-fixture', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echo (scope mcp:read).', inputSchema: { message: z.string() } }, async ({ message }) => ({ content: [{ type: 'text', text: message }] }));
  server.registerTool('publish', { description: 'Publish (scope mcp:write).', inputSchema: { message: z.string() } }, async ({ message }) => ({ content: [{ type: 'text', text: `published ${message}` }] }));
  return server;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

/** Starts the fixture on a random loopback port. */
export async function startOAuthMcpServer(options: OAuthFixtureOptions = {}): Promise<OAuthFixture> {
  const clients = new Map<string, { secret?: string; redirectUris: string[] }>();
  if (options.client) clients.set(options.client.id, { secret: options.client.secret, redirectUris: [] });
  const codes = new Map<string, { clientId: string; challenge: string; redirectUri: string; scope: string }>();
  const access = new Map<string, string[]>();
  const refresh = new Map<string, { clientId: string; scope: string }>();
  const transports = new Map<string, StreamableHTTPServerTransport>();
  let base = '';
  const fixture: OAuthFixture = {
    url: '',
    registrations: 0,
    authorizationScopes: [],
    grants: [],
    issuedAccessTokens: [],
    tokenRequests: [],
    mcpAuthorizations: [],
    expireAccessTokens: () => access.clear(),
    close: async () => undefined,
  };

  const clientAuth = (req: IncomingMessage, form: URLSearchParams): string | undefined => {
    const basic = req.headers.authorization?.match(/^Basic (.+)$/);
    const [id, secret] = basic ? Buffer.from(basic[1], 'base64').toString('utf8').split(':').map(decodeURIComponent) : [form.get('client_id') ?? '', form.get('client_secret') ?? undefined];
    const client = clients.get(id);
    if (!client || (client.secret !== undefined && client.secret !== secret)) return undefined;
    return id;
  };

  const issue = (res: ServerResponse, clientId: string, scope: string, grant: string) => {
    const token = randomBytes(16).toString('hex');
    access.set(token, scope.split(' ').filter(Boolean));
    fixture.issuedAccessTokens.push(token);
    fixture.grants.push(grant);
    const body: Record<string, unknown> = { access_token: token, token_type: 'Bearer', expires_in: 3600, scope };
    if (options.refreshTokens !== false && grant !== 'client_credentials' && !grant.includes(':jwt-bearer')) {
      const r = randomBytes(16).toString('hex');
      refresh.set(r, { clientId, scope });
      body.refresh_token = r;
    }
    json(res, 200, body);
  };

  const http = createServer((req, res) => void (async () => {
    try {
      const url = new URL(req.url ?? '/', base);
      const path = url.pathname;
      if (path === '/.well-known/oauth-protected-resource/mcp') {
        return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base], scopes_supported: [READ, WRITE] });
      }
      if (path === '/.well-known/oauth-authorization-server') {
        return json(res, 200, {
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials', ...(options.jwtBearer ? ['urn:ietf:params:oauth:grant-type:jwt-bearer'] : [])],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
        });
      }
      if (path === '/register' && req.method === 'POST') {
        const meta = JSON.parse(await readBody(req)) as { redirect_uris?: string[] };
        const id = `dyn-${randomUUID()}`;
        clients.set(id, { redirectUris: meta.redirect_uris ?? [] });
        fixture.registrations++;
        return json(res, 201, { ...meta, client_id: id, client_id_issued_at: Math.floor(Date.now() / 1000) });
      }
      if (path === '/authorize') {
        const q = url.searchParams;
        const client = clients.get(q.get('client_id') ?? '');
        const redirectUri = q.get('redirect_uri') ?? '';
        fixture.authorizationScopes.push(q.get('scope') ?? '');
        if (!client || (client.redirectUris.length && !client.redirectUris.includes(redirectUri)) || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) {
          return res.writeHead(400).end('bad authorization request');
        }
        const code = randomBytes(12).toString('hex');
        codes.set(code, { clientId: q.get('client_id') ?? '', challenge: q.get('code_challenge') ?? '', redirectUri, scope: q.get('scope') ?? '' });
        const to = new URL(redirectUri);
        to.searchParams.set('code', code);
        to.searchParams.set('state', q.get('state') ?? '');
        return res.writeHead(302, { location: to.href }).end();
      }
      if (path === '/token' && req.method === 'POST') {
        const form = new URLSearchParams(await readBody(req));
        fixture.tokenRequests.push({ form: Object.fromEntries(form), ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
        const clientId = clientAuth(req, form);
        if (!clientId) return json(res, 401, { error: 'invalid_client' });
        const grant = form.get('grant_type');
        if (grant === 'authorization_code') {
          const entry = codes.get(form.get('code') ?? '');
          codes.delete(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          const challenge = createHash('sha256').update(verifier).digest('base64url');
          if (!entry || entry.clientId !== clientId || entry.challenge !== challenge || entry.redirectUri !== form.get('redirect_uri')) return json(res, 400, { error: 'invalid_grant' });
          return issue(res, clientId, entry.scope, grant);
        }
        if (grant === 'refresh_token') {
          const entry = refresh.get(form.get('refresh_token') ?? '');
          if (!entry || entry.clientId !== clientId) return json(res, 400, { error: 'invalid_grant' });
          return issue(res, clientId, entry.scope, grant);
        }
        if (grant === 'client_credentials') return issue(res, clientId, form.get('scope') ?? `${READ} ${WRITE}`, grant);
        if (grant === 'urn:ietf:params:oauth:grant-type:jwt-bearer' && options.jwtBearer) {
          const scope = options.jwtBearer(form.get('assertion') ?? '', { clientId, issuer: base, resource: `${base}/mcp` });
          return scope === undefined ? json(res, 400, { error: 'invalid_grant', error_description: 'assertion not accepted' }) : issue(res, clientId, scope, grant);
        }
        return json(res, 400, { error: 'unsupported_grant_type' });
      }
      if (path === '/mcp') {
        const challenge = (status: number, scope: string, error?: string) =>
          json(res, status, { error: error ?? 'invalid_token' }, { 'www-authenticate': `Bearer ${error ? `error="${error}", ` : ''}scope="${scope}", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` });
        fixture.mcpAuthorizations.push(req.headers.authorization ?? '');
        const token = req.headers.authorization?.match(/^Bearer (.+)$/)?.[1];
        const scopes = token ? access.get(token) : undefined;
        if (!scopes || !scopes.includes(READ)) return challenge(401, READ);
        const raw = req.method === 'POST' ? await readBody(req) : '';
        const body = raw ? JSON.parse(raw) : undefined;
        const messages = Array.isArray(body) ? body : body ? [body] : [];
        const needsWrite = messages.some((m: { method?: string; params?: { name?: string } }) => m?.method === 'tools/call' && m.params?.name === 'publish');
        if (needsWrite && !scopes.includes(WRITE)) return challenge(403, `${READ} ${WRITE}`, 'insufficient_scope');
        const sid = req.headers['mcp-session-id'];
        let transport = typeof sid === 'string' ? transports.get(sid) : undefined;
        if (!transport) {
          const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (id) => void transports.set(id, created),
          });
          created.onclose = () => void (created.sessionId && transports.delete(created.sessionId));
          await buildMcp().connect(created);
          transport = created;
        }
        return await transport.handleRequest(req, res, body);
      }
      res.writeHead(404).end('not found');
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    }
  })());
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  fixture.url = `${base}/mcp`;
  fixture.close = async () => {
    for (const t of transports.values()) await t.close().catch(() => undefined);
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return fixture;
}
