import { readFile } from 'node:fs/promises';
import { buildDiscoveryUrls } from '@modelcontextprotocol/sdk/client/auth.js';
import { z } from 'zod';
import { secureUrlProblem, type IdentityProviderConfig } from './config';

/**
 * Enterprise-managed authorization (SEP-990, "cross-app access"), the identity provider's half: the
 * user's ID token from their enterprise IdP is exchanged at the IdP's token endpoint (RFC 8693 token
 * exchange) for an ID-JAG, an Identity Assertion JWT Authorization Grant addressed to the MCP server's
 * authorization server. provider.ts presents it there as an RFC 7523 JWT bearer grant.
 * Nothing here retries or falls back: every refusal is an IdentityProviderError saying which step failed.
 */

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
export const ID_JAG_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';

/** A step of the identity provider exchange failed; the message names the server, the field or the IdP's answer. Never holds a token. */
export class IdentityProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IdentityProviderError';
  }
}

/** What the ID-JAG is for: the authorization server's issuer (`audience`), the MCP server's resource, optional scope. */
export interface IdJagTarget {
  audience: string;
  resource: string;
  scope?: string;
}

type Env = Record<string, string | undefined>;

const where = (server: string) => `server ${JSON.stringify(server)}`;
/** At most 300 characters of what a remote said, on one line. */
const said = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 300);

/** The JSON claims of a compact JWS's payload, or undefined when `token` is not a compact JWS. */
function jwtClaims(token: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]+$/.test(p))) return undefined;
  try {
    const header: unknown = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    const claims: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    if (typeof header !== 'object' || header === null || typeof claims !== 'object' || claims === null || Array.isArray(claims)) return undefined;
    return claims as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * The user's ID token, read afresh from `idTokenFile` (whitespace trimmed) or the `idTokenEnv` variable of
 * `env`. Throws IdentityProviderError naming the field when it is unreadable, empty, not a JWT, or expired
 * (its `exp` before `now`, epoch ms): an expired token is never sent.
 */
export async function readIdToken(server: string, idp: IdentityProviderConfig, env: Env, now = Date.now()): Promise<string> {
  let token: string;
  let field: string;
  if (idp.idTokenFile !== undefined) {
    field = 'oauth.identityProvider.idTokenFile';
    const file = idp.idTokenFile;
    token = (
      await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
        throw new IdentityProviderError(`cannot read ${field} of ${where(server)}: ${JSON.stringify(file)} (${err.code ?? err.message})`);
      })
    ).trim();
  } else {
    field = 'oauth.identityProvider.idTokenEnv';
    const name = idp.idTokenEnv ?? '';
    token = (env[name] ?? '').trim();
    if (!env[name]) throw new IdentityProviderError(`${field} of ${where(server)}: environment variable ${name} is not set (it must hold the ID token from your identity provider)`);
  }
  if (!token) throw new IdentityProviderError(`${field} of ${where(server)}: the ID token is empty; sign in to your identity provider to get one`);
  const claims = jwtClaims(token);
  if (!claims) throw new IdentityProviderError(`${field} of ${where(server)}: does not hold an ID token (a JWT: three base64url parts joined by ".")`);
  if (typeof claims.exp === 'number' && claims.exp * 1000 <= now) {
    throw new IdentityProviderError(`${field} of ${where(server)}: the ID token expired at ${new Date(claims.exp * 1000).toISOString()}; sign in to your identity provider again to get a fresh one`);
  }
  return token;
}

const idpMetadataSchema = z.looseObject({
  issuer: z.string(),
  token_endpoint: z.string(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
});

/** The IdP's token endpoint and the client authentication methods it lists (when discovered). */
export interface IdpEndpoint {
  tokenEndpoint: string;
  authMethods?: string[];
}

const sameIssuer = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * The IdP's token endpoint: `tokenEndpoint` as configured, or discovered from `issuer` (RFC 8414, then
 * OpenID Connect discovery, as buildDiscoveryUrls orders them). The discovered metadata must name the
 * configured issuer and an https:// (or loopback http://) token endpoint. Throws IdentityProviderError.
 */
export async function idpTokenEndpoint(server: string, idp: IdentityProviderConfig, fetchFn: typeof fetch = fetch): Promise<IdpEndpoint> {
  if (idp.tokenEndpoint) return { tokenEndpoint: idp.tokenEndpoint };
  const issuer = idp.issuer ?? '';
  const tried: string[] = [];
  for (const { url } of buildDiscoveryUrls(issuer)) {
    let response: Response;
    try {
      response = await fetchFn(url, { headers: { accept: 'application/json' }, redirect: 'error' });
    } catch (err) {
      throw new IdentityProviderError(`cannot reach the identity provider of ${where(server)} at ${url.href} (${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message})`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      tried.push(`${url.href}: HTTP ${response.status}`);
      if (response.status < 500) continue;
      break;
    }
    const parsed = idpMetadataSchema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) throw new IdentityProviderError(`identity provider metadata of ${where(server)} at ${url.href} has no issuer and token_endpoint`);
    const meta = parsed.data;
    if (!sameIssuer(meta.issuer, issuer)) {
      throw new IdentityProviderError(`identity provider metadata of ${where(server)} at ${url.href} names issuer ${JSON.stringify(meta.issuer)}, not the configured oauth.identityProvider.issuer ${JSON.stringify(issuer)}`);
    }
    const problem = secureUrlProblem(meta.token_endpoint);
    if (problem) throw new IdentityProviderError(`identity provider metadata of ${where(server)}: token_endpoint ${JSON.stringify(meta.token_endpoint)} ${problem}`);
    return { tokenEndpoint: meta.token_endpoint, authMethods: meta.token_endpoint_auth_methods_supported };
  }
  throw new IdentityProviderError(`cannot discover the identity provider of ${where(server)} from oauth.identityProvider.issuer ${JSON.stringify(issuer)} (${tried.join('; ')}); set oauth.identityProvider.tokenEndpoint instead`);
}

const exchangeResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  issued_token_type: z.string().optional(),
  token_type: z.string().optional(),
});

/**
 * RFC 8693 token exchange at the IdP: sends the ID token (subject_token, type id_token) and asks for an
 * ID-JAG for `target` (audience, resource, scope). The client authenticates at the IdP with
 * client_secret_basic (client_secret_post when the IdP lists only that), or as a public client by
 * `client_id`. Resolves with the ID-JAG (a compact JWS). Throws IdentityProviderError when the IdP cannot
 * be reached, refuses (its `error` and `error_description` quoted), or answers anything but an ID-JAG.
 */
export async function exchangeIdToken(
  server: string,
  idp: IdentityProviderConfig,
  endpoint: IdpEndpoint,
  idToken: string,
  target: IdJagTarget,
  fetchFn: typeof fetch = fetch,
): Promise<string> {
  const form = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE_GRANT,
    requested_token_type: ID_JAG_TOKEN_TYPE,
    subject_token: idToken,
    subject_token_type: ID_TOKEN_TYPE,
    audience: target.audience,
    resource: target.resource,
  });
  if (target.scope) form.set('scope', target.scope);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  const methods = endpoint.authMethods;
  if (idp.clientSecret && (!methods || methods.includes('client_secret_basic') || !methods.includes('client_secret_post'))) {
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(idp.clientId)}:${encodeURIComponent(idp.clientSecret)}`).toString('base64')}`;
  } else {
    form.set('client_id', idp.clientId);
    if (idp.clientSecret) form.set('client_secret', idp.clientSecret);
  }
  let response: Response;
  try {
    // A token endpoint that redirects is not followed: the ID token goes to the configured endpoint only.
    response = await fetchFn(endpoint.tokenEndpoint, { method: 'POST', headers, body: form, redirect: 'manual' });
  } catch (err) {
    const cause = (err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message;
    throw new IdentityProviderError(`cannot reach the identity provider of ${where(server)} at ${endpoint.tokenEndpoint} (${cause})`);
  }
  const text = await response.text().catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const e = body as { error?: unknown; error_description?: unknown } | undefined;
    const detail =
      typeof e?.error === 'string'
        ? `${said(e.error)}${typeof e.error_description === 'string' && e.error_description ? `: ${said(e.error_description)}` : ''}`
        : response.status >= 300 && response.status < 400
          ? 'a redirect, not followed'
          : said(text) || 'no error body';
    throw new IdentityProviderError(`the identity provider of ${where(server)} refused the ID token exchange (HTTP ${response.status}, ${detail})`);
  }
  const parsed = exchangeResponseSchema.safeParse(body);
  if (!parsed.success) throw new IdentityProviderError(`the identity provider of ${where(server)} answered the token exchange without an access_token (HTTP ${response.status})`);
  const { access_token: jag, issued_token_type: issued } = parsed.data;
  if (issued !== ID_JAG_TOKEN_TYPE) {
    throw new IdentityProviderError(`the identity provider of ${where(server)} issued ${issued ? JSON.stringify(issued) : 'a token without issued_token_type'}, not an ID-JAG (${ID_JAG_TOKEN_TYPE})`);
  }
  if (!jwtClaims(jag)) throw new IdentityProviderError(`the identity provider of ${where(server)} issued an ID-JAG that is not a JWT`);
  return jag;
}
