/**
 * Validation of messages from the panel webviews (`WebviewToHost` in src/panel/protocol.ts). Everything a
 * webview posts is untrusted: unknown types, extra fields, oversized strings are rejected.
 */
import { z } from 'zod';
import type { WebviewToHost } from './protocol';

const id = z.string().min(1).max(200);
const name = z.string().min(1).max(200);

const schema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('getRecord'), id }),
  z.strictObject({ type: z.literal('openDecision'), id }),
  z.strictObject({ type: z.literal('restartServer'), name }),
  z.strictObject({ type: z.literal('signInServer'), name }),
  z.strictObject({ type: z.literal('signOutServer'), name }),
  z.strictObject({ type: z.literal('openServerLog'), name }),
  z.strictObject({ type: z.literal('toggleGrant'), agent: name, grant: z.string().min(1).max(300), enabled: z.boolean() }),
  z.strictObject({ type: z.literal('setServerEnabled'), name, enabled: z.boolean() }),
  z.strictObject({ type: z.literal('grantServer'), agent: name, server: name, mode: z.enum(['all', 'readOnly']) }),
  z.strictObject({ type: z.literal('runSampleStep') }),
  z.strictObject({ type: z.literal('command'), command: z.enum(['setApiKey', 'clearApiKey', 'openSettings', 'importMcpJson', 'openLedger', 'guardOn', 'guardOff']) }),
]);

/** The message when valid, else `{error}` naming the problem (for the log; never echoed to the webview). */
export function parseWebviewMessage(raw: unknown): { message: WebviewToHost } | { error: string } {
  const result = schema.safeParse(raw);
  if (result.success) return { message: result.data as WebviewToHost };
  const issue = result.error.issues[0];
  const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
  const where = issue?.path.length ? issue.path.join('.') : '(message)';
  return { error: `rejected webview message ${JSON.stringify(typeof type === 'string' ? type.slice(0, 40) : typeof type)}: ${where}: ${issue?.message ?? 'invalid'}` };
}
