import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/**
 * Where a host keeps what OAuth sign-in produced for one server: tokens, the dynamically registered
 * client, cached discovery. The CLI keeps it in files readable by the user alone (file-store.ts), the
 * editor in SecretStorage. Values are secrets: never logged, never shown.
 */

/** What is stored for one server. `serverUrl` binds the record: a changed URL reads as "nothing stored". */
export interface OAuthRecord {
  serverUrl: string;
  /** Client from dynamic registration or a client ID metadata document (a configured clientId is not stored). */
  client?: OAuthClientInformationMixed & { redirect_uris?: string[] };
  tokens?: OAuthTokens;
  /** Epoch ms when `tokens` were saved (with `expires_in`, when the access token expires). */
  savedAt?: number;
  discovery?: OAuthDiscoveryState;
  /** Scope a step-up asked for while no sign-in could run; the next sign-in asks for it too. */
  pendingScope?: string;
  /** Loopback port of the last redirect, tried first next time so a registered redirect URI stays valid. */
  redirectPort?: number;
}

/** Key-value store of OAuthRecords by key (oauthKey). Implementations write atomically. */
export interface OAuthStore {
  /** The record under `key`, or undefined. Throws when the store cannot be read (never for "absent"). */
  read(key: string): Promise<OAuthRecord | undefined>;
  /** Replaces the record under `key`. */
  write(key: string, record: OAuthRecord): Promise<void>;
  /** Removes the record under `key` (absent: no-op). */
  delete(key: string): Promise<void>;
}

/** Store key of a server: its name and URL, so two configs naming different URLs never share tokens. */
export function oauthKey(server: string, url: string): string {
  return `${server} ${url}`;
}

/** An in-memory store (tests, and hosts that must not persist anything). */
export class MemoryOAuthStore implements OAuthStore {
  private readonly records = new Map<string, string>();

  async read(key: string): Promise<OAuthRecord | undefined> {
    const text = this.records.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as OAuthRecord);
  }

  async write(key: string, record: OAuthRecord): Promise<void> {
    this.records.set(key, JSON.stringify(record));
  }

  async delete(key: string): Promise<void> {
    this.records.delete(key);
  }
}
