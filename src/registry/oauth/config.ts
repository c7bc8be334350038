import { z } from 'zod';

/**
 * The `oauth` field of an HTTP server entry. Every Streamable HTTP server may ask for OAuth (a 401 with
 * `WWW-Authenticate`); without this field the client discovers everything itself (protected resource
 * metadata, authorization server metadata, dynamic client registration). The field pre-registers a
 * client, picks a grant, or turns OAuth off (`false`).
 */
export interface OAuthConfig {
  /** `authorization_code` (default: a browser step with PKCE) or `client_credentials` (machine to machine). */
  grant: 'authorization_code' | 'client_credentials';
  /** Pre-registered client id (no dynamic registration). Required for `client_credentials`. */
  clientId?: string;
  /** Secret of the pre-registered client; never logged, shown or written to the ledger. */
  clientSecret?: string;
  /** Path of a PEM private key for `private_key_jwt` client authentication (client_credentials only). */
  privateKeyFile?: string;
  /** JWS algorithm of `privateKeyFile` (default `RS256`). */
  signingAlgorithm?: string;
  /** Scopes to ask for when neither `WWW-Authenticate` nor the resource's `scopes_supported` names any. */
  scopes?: string[];
  /** HTTPS URL of this client's metadata document, used as client id where the server supports it. */
  clientMetadataUrl?: string;
  /** Fixed loopback port of the redirect URI `http://127.0.0.1:PORT/callback` (default: any free port). */
  redirectPort?: number;
}

/** OAuth setting of a server: a config, or `false` when the server must never be signed in to. */
export type OAuthSetting = OAuthConfig | false;

const nonEmpty = (what: string) => z.string({ error: `must be a string (${what})` }).trim().min(1, `must be a non-empty ${what}`);

export const oauthConfigSchema = z
  .strictObject({
    grant: z.enum(['authorization_code', 'client_credentials'], { error: 'must be "authorization_code" or "client_credentials"' }).default('authorization_code'),
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
  })
  .superRefine((c, ctx) => {
    if (c.grant === 'client_credentials') {
      if (!c.clientId) ctx.addIssue({ code: 'custom', path: ['clientId'], message: 'is required for grant "client_credentials"' });
      if (!c.clientSecret && !c.privateKeyFile) ctx.addIssue({ code: 'custom', path: ['clientSecret'], message: 'clientSecret or privateKeyFile is required for grant "client_credentials"' });
      if (c.clientMetadataUrl) ctx.addIssue({ code: 'custom', path: ['clientMetadataUrl'], message: 'applies to grant "authorization_code" only' });
    } else {
      if (c.privateKeyFile) ctx.addIssue({ code: 'custom', path: ['privateKeyFile'], message: 'applies to grant "client_credentials" only' });
      if (c.clientSecret && !c.clientId) ctx.addIssue({ code: 'custom', path: ['clientSecret'], message: 'needs clientId (the client it belongs to)' });
    }
    if (c.signingAlgorithm && !c.privateKeyFile) ctx.addIssue({ code: 'custom', path: ['signingAlgorithm'], message: 'needs privateKeyFile' });
  });

/** `oauth` field schema: `false`, or an object (OAuthConfig) whose issues keep their field paths. */
export const oauthSettingSchema = z.unknown().transform((raw, ctx): OAuthSetting => {
  if (raw === false) return false;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    ctx.addIssue({ code: 'custom', message: 'must be an object ({grant, clientId, clientSecret, scopes, clientMetadataUrl, redirectPort}) or false' });
    return z.NEVER;
  }
  const parsed = oauthConfigSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue(issue as never);
  return z.NEVER;
});
