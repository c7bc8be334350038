/**
 * A fake enterprise identity provider on 127.0.0.1 for SEP-990 tests (real HTTP): OpenID Connect
 * discovery at `/.well-known/openid-configuration` and a `/token` endpoint doing the RFC 8693 token
 * exchange of an ID token for an ID-JAG. It checks what a real IdP checks (grant type, token types,
 * audience and resource present, the ID token is one it issued, the client), records every request, and
 * can be told to refuse or to answer something that is not an ID-JAG. ID tokens and ID-JAGs are JWTs
 * signed with HS256 under a key of this process (`verify` checks them).
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface IdpRequest {
  path: string;
  form: Record<string, string>;
  authorization?: string;
}

export interface FakeIdp {
  /** `http://127.0.0.1:PORT` (the issuer). */
  issuer: string;
  tokenEndpoint: string;
  /** Every request to `/token`, in order. */
  tokenRequests: IdpRequest[];
  /** Discovery requests (paths), in order. */
  discoveryRequests: string[];
  /** An ID token of this IdP for `clientId` (the audience); `expiresIn` seconds from now (negative: expired). */
  idToken(sub: string, clientId: string, expiresIn?: number): string;
  /** The claims of a JWT this IdP signed, or undefined when the signature is not its own. */
  verify(token: string): Record<string, unknown> | undefined;
  /** The next exchanges answer this (status and JSON body) instead of an ID-JAG; undefined: normal again. */
  answer?: { status: number; body: unknown };
  close(): Promise<void>;
}

export interface FakeIdpOptions {
  /** The client at the IdP (id, and secret for a confidential client: client_secret_basic or _post). */
  client: { id: string; secret?: string };
  /** The `client_id` claim put into each ID-JAG: the client at the MCP authorization server. */
  resourceClientId: string;
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

async function form(req: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}

/** Starts the fake IdP on a random loopback port. */
export async function startFakeIdp(options: FakeIdpOptions): Promise<FakeIdp> {
  const key = randomBytes(32);
  const sign = (header: Record<string, unknown>, claims: Record<string, unknown>) => {
    const body = `${b64({ alg: 'HS256', ...header })}.${b64(claims)}`;
    return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
  };
  const verify = (token: string): Record<string, unknown> | undefined => {
    const [h, p, s] = token.split('.');
    if (!h || !p || !s) return undefined;
    const want = createHmac('sha256', key).update(`${h}.${p}`).digest();
    const got = Buffer.from(s, 'base64url');
    if (got.length !== want.length || !timingSafeEqual(got, want)) return undefined;
    return JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
  };
  let base = '';
  const idp: FakeIdp = {
    issuer: '',
    tokenEndpoint: '',
    tokenRequests: [],
    discoveryRequests: [],
    idToken: (sub, clientId, expiresIn = 3600) => {
      const now = Math.floor(Date.now() / 1000);
      return sign({}, { iss: base, sub, aud: clientId, iat: now, exp: now + expiresIn });
    },
    verify,
    close: async () => undefined,
  };
  const send = (res: import('node:http').ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  const http = createServer((req, res) => void (async () => {
    const path = new URL(req.url ?? '/', base).pathname;
    if (req.method === 'GET' && path.startsWith('/.well-known/')) {
      idp.discoveryRequests.push(path);
      if (path !== '/.well-known/openid-configuration') return send(res, 404, { error: 'not_found' });
      return send(res, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        jwks_uri: `${base}/jwks`,
        grant_types_supported: ['urn:ietf:params:oauth:grant-type:token-exchange'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      });
    }
    if (req.method !== 'POST' || path !== '/token') return send(res, 404, { error: 'not_found' });
    const f = await form(req);
    idp.tokenRequests.push({ path, form: f, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
    if (idp.answer) return send(res, idp.answer.status, idp.answer.body);
    const basic = req.headers.authorization?.match(/^Basic (.+)$/);
    const [id, secret] = basic ? Buffer.from(basic[1], 'base64').toString('utf8').split(':').map(decodeURIComponent) : [f.client_id, f.client_secret];
    if (id !== options.client.id || (options.client.secret !== undefined && secret !== options.client.secret)) return send(res, 401, { error: 'invalid_client' });
    if (f.grant_type !== 'urn:ietf:params:oauth:grant-type:token-exchange') return send(res, 400, { error: 'unsupported_grant_type' });
    if (f.subject_token_type !== 'urn:ietf:params:oauth:token-type:id_token' || f.requested_token_type !== 'urn:ietf:params:oauth:token-type:id-jag' || !f.audience || !f.resource) {
      return send(res, 400, { error: 'invalid_request', error_description: 'token types, audience and resource are required' });
    }
    const subject = verify(f.subject_token ?? '');
    if (!subject || subject.aud !== options.client.id || (subject.exp as number) * 1000 < Date.now()) return send(res, 400, { error: 'invalid_grant', error_description: 'ID token not valid' });
    const now = Math.floor(Date.now() / 1000);
    const jag = sign(
      { typ: 'oauth-id-jag+jwt' },
      { iss: base, sub: subject.sub, aud: f.audience, resource: f.resource, client_id: options.resourceClientId, jti: randomUUID(), iat: now, exp: now + 300, ...(f.scope ? { scope: f.scope } : {}) },
    );
    return send(res, 200, { access_token: jag, issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', token_type: 'N_A', expires_in: 300 });
  })());
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  idp.issuer = base;
  idp.tokenEndpoint = `${base}/token`;
  idp.close = async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return idp;
}
