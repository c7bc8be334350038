import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extractWWWAuthenticateParams, type AddClientAuthentication, type OAuthClientProvider, type OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { OAuthConfig } from './config';
import { exchangeIdToken, idpTokenEndpoint, JWT_BEARER_GRANT, IdentityProviderError, readIdToken, type IdpEndpoint } from './id-jag';
import { startLoopbackRedirect, type LoopbackRedirect } from './loopback';
import { AuthorizationRequiredError, DEFAULT_SIGN_IN_TIMEOUT_MS, type OAuthHost, type SignInInteraction } from './sign-in';
import { oauthKey, type OAuthRecord } from './store';

/**
 * The OAuthClientProvider of one HTTP server connection: the SDK's `auth()` does discovery (protected
 * resource metadata, then authorization server metadata with the OpenID and pre-2025-06 fallbacks),
 * registration, PKCE and token requests; this class supplies what a host keeps and decides:
 * - records in the host's OAuthStore (tokens, the registered client, discovery), bound to the server URL;
 * - the client: configured (`oauth.clientId`), a client ID metadata document (`oauth.clientMetadataUrl`),
 *   or dynamic registration; redirect URI `http://127.0.0.1:PORT/callback` (loopback.ts), listening only
 *   while a sign-in may need it;
 * - the browser step: with an interaction, opened at once and waited for (completeSignIn); without one,
 *   AuthorizationRequiredError (no registration, no browser) so the connection can say how to sign in;
 * - step-up: a 403 `insufficient_scope` hides the refresh token (a refresh cannot widen the grant) and
 *   the next authorization asks for the granted scopes plus the new ones;
 * - `client_credentials`: no browser, client_secret_basic/post or private_key_jwt (`oauth.privateKeyFile`);
 * - `jwt_bearer` (enterprise-managed, SEP-990): no browser; each token request first exchanges the user's
 *   ID token at `oauth.identityProvider` for an ID-JAG (id-jag.ts), then presents it as the assertion of
 *   an RFC 7523 JWT bearer grant, with the same client authentication as client_credentials.
 * Concurrent flows (the GET stream and a POST may both meet 401) share one browser step.
 */
export class JevOAuthProvider implements OAuthClientProvider {
  /** Browser step for this connection; undefined → sign-in only when asked (McpConnection.signIn). */
  interaction: SignInInteraction | undefined;
  readonly addClientAuthentication?: AddClientAuthentication;
  private readonly key: string;
  private record: OAuthRecord;
  private loaded?: Promise<void>;
  private writing: Promise<void> = Promise.resolve();
  private loopback?: LoopbackRedirect;
  private externalRedirect?: string;
  private flow?: { verifier: string; url?: URL; code?: Promise<string>; done?: Promise<void> };
  /** Scope a 403 insufficient_scope asked for, until new tokens arrive. */
  private stepUpScope?: string;
  /** Set when the last flow stopped for want of a browser step (status `auth: 'required'`). */
  required?: AuthorizationRequiredError;
  /** The identity provider's token endpoint, once known (jwt_bearer). */
  private idpEndpoint?: Promise<IdpEndpoint>;

  constructor(
    readonly server: string,
    readonly serverUrl: string,
    readonly config: OAuthConfig,
    private readonly host: OAuthHost,
  ) {
    this.key = oauthKey(server, serverUrl);
    this.record = { serverUrl };
    this.interaction = host.interaction;
    const keyFile = config.privateKeyFile;
    if (keyFile && config.clientId) {
      const clientId = config.clientId;
      this.addClientAuthentication = async (headers, params, url, metadata) => {
        const privateKey = await readFile(keyFile, 'utf8').catch((err: NodeJS.ErrnoException) => {
          throw new Error(`cannot read oauth.privateKeyFile of server ${JSON.stringify(server)} (${err.code ?? err.message})`);
        });
        return createPrivateKeyJwtAuth({ issuer: clientId, subject: clientId, privateKey, alg: config.signingAlgorithm ?? 'RS256' })(headers, params, url, metadata);
      };
    }
  }

  private load(): Promise<void> {
    this.loaded ??= this.host.store.read(this.key).then((stored) => {
      if (stored && stored.serverUrl === this.serverUrl) this.record = stored;
    });
    return this.loaded;
  }

  private save(change: (record: OAuthRecord) => OAuthRecord): Promise<void> {
    this.record = change(this.record);
    const snapshot = this.record;
    this.writing = this.writing.catch(() => undefined).then(() => this.host.store.write(this.key, snapshot));
    return this.writing;
  }

  private get interactiveGrant(): boolean {
    return this.config.grant === 'authorization_code';
  }

  /** True when tokens are held (as last loaded; they may still be refused or expired). */
  get signedIn(): boolean {
    return this.record.tokens !== undefined;
  }

  get redirectUrl(): string | undefined {
    if (!this.interactiveGrant) return undefined; // client_credentials, jwt_bearer: the SDK's non-interactive flow
    if (this.loopback) return this.externalRedirect ?? this.loopback.redirectUrl;
    // Not listening (no browser step possible now): only read when building a URL nobody opens.
    return this.record.client?.redirect_uris?.[0] ?? `http://127.0.0.1:${this.config.redirectPort ?? this.record.redirectPort ?? 0}/callback`;
  }

  get clientMetadataUrl(): string | undefined {
    return this.config.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.config.scopes?.length ? this.config.scopes.join(' ') : undefined;
    const base = { client_name: this.host.clientName ?? 'Jev Control Panel', ...(scope ? { scope } : {}) };
    if (!this.interactiveGrant) {
      const grant = this.config.grant === 'jwt_bearer' ? JWT_BEARER_GRANT : 'client_credentials';
      const method = this.config.privateKeyFile ? 'private_key_jwt' : this.config.clientSecret || grant === 'client_credentials' ? 'client_secret_basic' : 'none';
      return { ...base, redirect_uris: [], grant_types: [grant], token_endpoint_auth_method: method };
    }
    return {
      ...base,
      redirect_uris: this.redirectUrl && this.loopback ? [this.redirectUrl] : [],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.config.clientSecret ? 'client_secret_basic' : 'none',
    };
  }

  state(): string {
    return randomBytes(24).toString('base64url');
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    await this.load();
    // The redirect URI (its port) must be known before a registration or an authorization URL is made.
    if (this.interactiveGrant && this.interaction) await this.listen();
    if (this.config.clientId) {
      return { client_id: this.config.clientId, ...(this.config.clientSecret ? { client_secret: this.config.clientSecret } : {}) };
    }
    if (!this.interactiveGrant) return undefined;
    if (!this.interaction) {
      // Without a browser step, registering a client now would be wasted (and leave one registration per try).
      if (this.record.client || this.config.clientMetadataUrl) return this.record.client;
      throw this.requireSignIn();
    }
    const client = this.record.client;
    // A dynamically registered client knows only the redirect URIs it registered: another port needs a new registration.
    if (client?.redirect_uris?.length && this.redirectUrl && !client.redirect_uris.includes(this.redirectUrl)) return undefined;
    return client;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    if (this.config.clientId) return; // configured, not stored
    await this.save((r) => ({ ...r, client: info }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    await this.load();
    const tokens = this.record.tokens;
    if (tokens && this.stepUpScope) {
      const { refresh_token: _hidden, ...rest } = tokens;
      return rest;
    }
    return tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.stepUpScope = undefined;
    this.required = undefined;
    await this.save(({ pendingScope: _done, ...r }) => ({ ...r, tokens, savedAt: Date.now() }));
    if (!this.flow) await this.stopListening();
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    // Step-up keeps what was granted; a step-up that had to wait for a sign-in is asked for now.
    const granted = this.stepUpScope !== undefined ? this.record.tokens?.scope : undefined;
    const scope = unionScopes(url.searchParams.get('scope') ?? undefined, granted, this.record.pendingScope);
    if (scope) url.searchParams.set('scope', scope);
    const interaction = this.interaction;
    if (!interaction || !this.loopback) {
      this.flow = undefined;
      const stepUp = this.stepUpScope !== undefined ? scope : undefined;
      if (stepUp && stepUp !== this.record.pendingScope) await this.save((r) => ({ ...r, pendingScope: stepUp }));
      throw this.requireSignIn(stepUp);
    }
    if (!this.flow || this.flow.url) return; // a browser step is already open: every waiter shares it
    const state = url.searchParams.get('state') ?? '';
    this.flow.url = url;
    this.flow.code = this.loopback.waitForCode(state, interaction.timeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS, interaction.signal);
    this.flow.code.catch(() => undefined); // observed by completeSignIn
    await interaction.openAuthorizationUrl(url, this.server);
  }

  saveCodeVerifier(codeVerifier: string): void {
    // A second concurrent flow must not replace the verifier of the browser step already opened.
    if (!this.flow) this.flow = { verifier: codeVerifier };
  }

  codeVerifier(): string {
    if (!this.flow) throw new Error(`no sign-in to server ${JSON.stringify(this.server)} is in progress`);
    return this.flow.verifier;
  }

  /**
   * The token request of a non-interactive grant (undefined: the SDK's authorization_code exchange).
   * `jwt_bearer` first gets an ID-JAG from the identity provider; its failures (IdentityProviderError)
   * end the flow, so no token is saved and the server stays unauthorized.
   */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    if (this.interactiveGrant) return undefined;
    const params = new URLSearchParams({ grant_type: this.config.grant === 'jwt_bearer' ? JWT_BEARER_GRANT : 'client_credentials' });
    if (this.config.grant === 'jwt_bearer') params.set('assertion', await this.idJag(scope));
    if (scope) params.set('scope', scope);
    return params;
  }

  /** A fresh ID-JAG for this server's authorization server (as discovered by the SDK's auth()) and resource. */
  private async idJag(scope: string | undefined): Promise<string> {
    const idp = this.config.identityProvider;
    if (!idp) throw new IdentityProviderError(`server ${JSON.stringify(this.server)}: grant "jwt_bearer" needs oauth.identityProvider`);
    await this.load();
    const discovery = this.record.discovery;
    if (!discovery) throw new IdentityProviderError(`server ${JSON.stringify(this.server)}: its authorization server is not known yet, so no ID-JAG can be addressed to it`);
    // The ID-JAG is addressed to the authorization server by its issuer identifier, for the resource it protects.
    const audience = discovery.authorizationServerMetadata?.issuer ?? discovery.authorizationServerUrl;
    const resource = discovery.resourceMetadata?.resource ?? this.serverUrl;
    const idToken = await readIdToken(this.server, idp, this.host.env ?? process.env);
    this.idpEndpoint ??= idpTokenEndpoint(this.server, idp);
    const endpoint = await this.idpEndpoint.catch((err: unknown) => {
      this.idpEndpoint = undefined; // discovery is tried again next time
      throw err;
    });
    return exchangeIdToken(this.server, idp, endpoint, idToken, { audience, resource, ...(scope ? { scope } : {}) });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    await this.load();
    return this.record.discovery;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.save((r) => ({ ...r, discovery: state }));
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    await this.load();
    if (scope === 'verifier') {
      this.flow = undefined;
      return;
    }
    await this.save((r) => {
      const next = { ...r };
      if (scope === 'all' || scope === 'client') delete next.client;
      if (scope === 'all' || scope === 'tokens') delete next.tokens;
      if (scope === 'all' || scope === 'discovery') delete next.discovery;
      return next;
    });
  }

  /** Forgets the tokens (the registered client stays), so the next connection signs in afresh. */
  async forgetTokens(): Promise<void> {
    await this.invalidateCredentials('tokens');
  }

  /** Forgets everything stored for this server (sign-out). */
  async signOut(): Promise<void> {
    this.flow = undefined;
    this.stepUpScope = undefined;
    await this.writing.catch(() => undefined);
    this.record = { serverUrl: this.serverUrl };
    this.loaded = Promise.resolve();
    await this.host.store.delete(this.key);
  }

  /**
   * Finishes the browser step when one is open: waits for the redirect's code, runs `exchange(code)`
   * (the transport's finishAuth) once for all callers, and resolves true; false when no step is open.
   * Rejects with the step's failure (denied, timed out) or the exchange's.
   */
  async completeSignIn(exchange: (code: string) => Promise<void>): Promise<boolean> {
    const flow = this.flow;
    if (!flow?.code) return false;
    flow.done ??= flow.code.then(exchange).finally(() => {
      if (this.flow === flow) this.flow = undefined;
      void this.stopListening();
    });
    await flow.done;
    return true;
  }

  /** fetch for the transport: notes a 403 `insufficient_scope` so the following auth() steps up. */
  readonly fetch: FetchLike = async (input, init) => {
    const response = await fetch(input, init);
    if (response.status === 403) {
      const { error, scope } = extractWWWAuthenticateParams(response);
      if (error === 'insufficient_scope') this.stepUpScope = scope ?? '';
    }
    return response;
  };

  /** Stops the redirect listener (the connection closed). */
  async close(): Promise<void> {
    this.flow = undefined;
    await this.stopListening();
    await this.writing.catch(() => undefined);
  }

  private requireSignIn(scope?: string): AuthorizationRequiredError {
    this.required = new AuthorizationRequiredError(this.server, this.host.signInHint(this.server), scope);
    return this.required;
  }

  private async listen(): Promise<void> {
    if (this.loopback) return;
    this.loopback = await startLoopbackRedirect({ port: this.config.redirectPort, preferredPort: this.record.redirectPort });
    this.externalRedirect = this.interaction?.externalRedirectUrl ? await this.interaction.externalRedirectUrl(this.loopback.redirectUrl) : undefined;
    if (this.record.redirectPort !== this.loopback.port) await this.save((r) => ({ ...r, redirectPort: this.loopback?.port }));
  }

  private async stopListening(): Promise<void> {
    const loopback = this.loopback;
    this.loopback = undefined;
    this.externalRedirect = undefined;
    await loopback?.close();
  }
}

/** Space-separated union of scope strings, first-seen order; undefined when empty. */
export function unionScopes(...scopes: (string | undefined)[]): string | undefined {
  const all = new Set(scopes.flatMap((s) => (s ?? '').split(' ').filter(Boolean)));
  return all.size ? [...all].join(' ') : undefined;
}
