import type * as vscode from 'vscode';
import type { OAuthRecord, OAuthStore } from '../../registry/oauth/store';

/**
 * OAuth records of MCP servers in the editor's SecretStorage (the OS keychain where the editor has
 * one), one secret per server under `jevPanel.oauth/<name> <url>`. Never in settings, logs or the ledger.
 */
export class SecretStorageOAuthStore implements OAuthStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  private id(key: string): string {
    return `jevPanel.oauth/${key}`;
  }

  async read(key: string): Promise<OAuthRecord | undefined> {
    const text = await this.secrets.get(this.id(key));
    if (!text) return undefined;
    try {
      return JSON.parse(text) as OAuthRecord;
    } catch {
      return undefined; // damaged: reads as "not signed in"; the next sign-in replaces it
    }
  }

  async write(key: string, record: OAuthRecord): Promise<void> {
    await this.secrets.store(this.id(key), JSON.stringify(record));
  }

  async delete(key: string): Promise<void> {
    await this.secrets.delete(this.id(key));
  }
}
