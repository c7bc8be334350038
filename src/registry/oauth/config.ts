import { z } from 'zod';

/**
 * The `oauth` field of an HTTP server entry. Every Streamable HTTP server may ask for OAuth (a 401 with
 * `WWW-Authenticate`); without this field the client discovers everything itself (protected resource
 * metadata, authorization server metadata, dynamic client registration). The field pre-registers a
 * client, picks a grant, or turns OAuth off (`false`).
 */
export interface OAuthConfig {
  /**
   * `authorization_code` (default: a browser step with PKCE), `client_credentials` (machine to machine), or
   * `jwt_bearer` (enterprise-managed authorization: an ID token from `identityProvider` is exchanged there
   * for an ID-JAG, which the server's authorization server takes as an RFC 7523 JWT bearer grant).
   */
  grant: OAuthGrant;
  /** Pre-registered client id (no dynamic registration). Required for `client_credentials` and `jwt_bearer`. */
  clientId?: string;
  /** Secret of the pre-registered client; never logged, shown or written to the ledger. */
  clientSecret?: string;
  /** Path of a PEM private key for `private_key_jwt` client authentication (client_credentials, jwt_bearer). */
  privateKeyFile?: string;
  /** JWS algorithm of `privateKeyFile` (default `RS256`). */
  signingAlgorithm?: string;
  /** Scopes to ask for when neither `WWW-Authenticate` nor the resource's `scopes_supported` names any. */
  scopes?: string[];
  /** HTTPS URL of this client's metadata document, used as client id where the server supports it. */
  clientMetadataUrl?: string;
  /** Fixed loopback port of the redirect URI `http://127.0.0.1:PORT/callback` (default: any free port). */
  redirectPort?: number;
  /** The user's enterprise identity provider (grant `jwt_bearer` only, and required there). */
  identityProvider?: IdentityProviderConfig;
}

/** The grants a server entry can use. */
export type OAuthGrant = 'authorization_code' | 'client_credentials' | 'jwt_bearer';

/**
 * The enterprise identity provider (IdP) of grant `jwt_bearer` (SEP-990): where the user's ID token is
 * read from, and the IdP's token endpoint that exchanges it (RFC 8693) for an ID-JAG. Exactly one of
 * `issuer` / `tokenEndpoint`, and exactly one of `idTokenFile` / `idTokenEnv`.
 */
export interface IdentityProviderConfig {
  /** IdP issuer URL; its token endpoint is discovered (OpenID Connect discovery, then RFC 8414). */
  issuer?: string;
  /** IdP token endpoint URL, when it is not to be discovered. */
  tokenEndpoint?: string;
  /** This client's id at the IdP (the ID token's audience). */
  clientId: string;
  /** This client's secret at the IdP, when it is a confidential client there; never logged or shown. */
  clientSecret?: string;
  /** Path of a file holding the ID token alone (what an SSO helper writes); read at every exchange. */
  idTokenFile?: string;
  /** Name of an environment variable holding the ID token. */
  idTokenEnv?: string;
}

/** OAuth setting of a server: a config, or `false` when the server must never be signed in to. */
export type OAuthSetting = OAuthConfig | false;

const nonEmpty = (what: string) => z.string({ error: `must be a string (${what})` }).trim().min(1, `must be a non-empty ${what}`);

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why `raw` may not receive an ID token or a secret, or undefined when it may: it must be an absolute
 * https:// URL (plain http:// only on a loopback host, for local identity providers and tests).
 */
export function secureUrlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute https:// URL';
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol !== 'http:') return 'must be an https:// URL';
  if (!LOOPBACK.has(url.hostname) && !url.hostname.startsWith('127.')) return 'must be an https:// URL; plain http:// is allowed only for loopback hosts';
  return undefined;
}

const secureUrl = (what: string) =>
  z.string({ error: `must be a string (${what})` }).superRefine((raw, ctx) => {
    const problem = secureUrlProblem(raw);
    if (problem) ctx.addIssue({ code: 'custom', message: `${problem} (${what})` });
  });

const identityProviderSchema = z
  .strictObject(
    {
      issuer: secureUrl('the identity provider issuer').optional(),
      tokenEndpoint: secureUrl('the identity provider token endpoint').optional(),
      clientId: nonEmpty('client id at the identity provider'),
      clientSecret: nonEmpty('client secret').optional(),
      idTokenFile: nonEmpty('path').optional(),
      idTokenEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name (letters, digits, _)').optional(),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? 'must be an object ({issuer or tokenEndpoint, clientId, clientSecret, idTokenFile or idTokenEnv})' : undefined) },
  )
  .superRefine((p, ctx) => {
    if (!p.issuer === !p.tokenEndpoint) ctx.addIssue({ code: 'custom', path: [p.issuer ? 'tokenEndpoint' : 'issuer'], message: 'give exactly one of issuer (discovered) or tokenEndpoint' });
    if (!p.idTokenFile === !p.idTokenEnv) ctx.addIssue({ code: 'custom', path: [p.idTokenFile ? 'idTokenEnv' : 'idTokenFile'], message: 'give exactly one of idTokenFile or idTokenEnv (where the ID token is read from)' });
  });

export const oauthConfigSchema = z
  .strictObject({
    grant: z.enum(['authorization_code', 'client_credentials', 'jwt_bearer'], { error: 'must be "authorization_code", "client_credentials" or "jwt_bearer"' }).default('authorization_code'),
    clientId: nonEmpty('client id').optional(),
    clientSecret: nonEmpty('client secret').optional(),
    privateKeyFile: nonEmpty('path').optional(),
    signingAlgorithm: z.string().regex(/^(RS|PS|ES)(256|384|512)$|^EdDSA$/, 'must be a JWS algorithm such as RS256 or ES256').optional(),
    scopes: z.array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, 'must be scope tokens without spaces or quotes')).optional(),
    clientMetadataUrl: z
      .string()
      .refine((raw) => {
        try {
          const url = new URL(raw);
          return url.protocol === 'https:' && url.pathname !== '/';
        } catch {
          return false;
        }
      }, 'must be an https:// URL with a path (the client metadata document)')
      .optional(),
    redirectPort: z.number().int('must be an integer').min(1, 'must be a port from 1 to 65535').max(65_535, 'must be a port from 1 to 65535').optional(),
    identityProvider: identityProviderSchema.optional(),
  })
  .superRefine((c, ctx) => {
    if (c.grant === 'client_credentials') {
      if (!c.clientId) ctx.addIssue({ code: 'custom', path: ['clientId'], message: 'is required for grant "client_credentials"' });
      if (!c.clientSecret && !c.privateKeyFile) ctx.addIssue({ code: 'custom', path: ['clientSecret'], message: 'clientSecret or privateKeyFile is required for grant "client_credentials"' });
    } else if (c.grant === 'jwt_bearer') {
      // The ID-JAG names the client it was issued to, so the client is the one registered with the authorization server.
      if (!c.clientId) ctx.addIssue({ code: 'custom', path: ['clientId'], message: 'is required for grant "jwt_bearer" (the client registered with the authorization server)' });
      if (!c.identityProvider) ctx.addIssue({ code: 'custom', path: ['identityProvider'], message: 'is required for grant "jwt_bearer" (where the ID token comes from and is exchanged)' });
      if (c.clientSecret && c.privateKeyFile) ctx.addIssue({ code: 'custom', path: ['privateKeyFile'], message: 'give clientSecret or privateKeyFile, not both' });
    } else {
      if (c.privateKeyFile) ctx.addIssue({ code: 'custom', path: ['privateKeyFile'], message: 'applies to grants "client_credentials" and "jwt_bearer" only' });
      if (c.clientSecret && !c.clientId) ctx.addIssue({ code: 'custom', path: ['clientSecret'], message: 'needs clientId (the client it belongs to)' });
    }
    if (c.grant !== 'authorization_code' && c.clientMetadataUrl) ctx.addIssue({ code: 'custom', path: ['clientMetadataUrl'], message: 'applies to grant "authorization_code" only' });
    if (c.grant !== 'jwt_bearer' && c.identityProvider) ctx.addIssue({ code: 'custom', path: ['identityProvider'], message: 'applies to grant "jwt_bearer" only' });
    if (c.signingAlgorithm && !c.privateKeyFile) ctx.addIssue({ code: 'custom', path: ['signingAlgorithm'], message: 'needs privateKeyFile' });
  });

/** `oauth` field schema: `false`, or an object (OAuthConfig) whose issues keep their field paths. */
export const oauthSettingSchema = z.unknown().transform((raw, ctx): OAuthSetting => {
  if (raw === false) return false;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    ctx.addIssue({ code: 'custom', message: 'must be an object ({grant, clientId, clientSecret, scopes, clientMetadataUrl, redirectPort, identityProvider}) or false' });
    return z.NEVER;
  }
  const parsed = oauthConfigSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue(issue as never);
  return z.NEVER;
});
