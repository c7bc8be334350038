/** How a guard decision names its origin in the ledger and the feed: `guard hook, vscode · session 1a2b3c4d`. */
export function guardSource(host: string, sessionId?: string): string {
  return sessionId ? `guard hook, ${host} · session ${sessionId.slice(0, 8)}` : `guard hook, ${host}`;
}
