import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema, ListRootsRequestSchema, type ClientCapabilities, type ElicitResult, type Root } from '@modelcontextprotocol/sdk/types.js';
import { formFields, type FormField } from './elicitation/form';

/**
 * What the registry's MCP client offers servers besides calling tools: elicitation (a server asks the
 * user a question through a form) and roots (the folders the server may work in). The host decides
 * who answers: the editor asks with quick picks, the CLI in the terminal or declines.
 */

/** One form-mode `elicitation/create` request, as a host's prompt receives it. */
export interface ElicitationRequest {
  /** Configured name of the asking server. */
  server: string;
  message: string;
  fields: FormField[];
  /** The request's `requestedSchema`, untouched. */
  requestedSchema: Record<string, unknown>;
}

/**
 * Asks the user. Resolves `accept` with content, `decline` (the user said no) or `cancel` (dismissed);
 * omitted optional fields are completed from the schema's defaults by the SDK. `signal` aborts when the
 * server gives up on the request.
 */
export type ElicitationHandler = (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitResult>;

/** An elicitation handler that declines every request (nobody there to ask). */
export const declineElicitation: ElicitationHandler = async () => ({ action: 'decline' });

/** The folders servers may work in, and when they change. */
export interface RootsSource {
  /** Current roots (`file://` URIs). */
  roots(): Root[];
  /** Calls `listener` after a change; returns the unsubscribe function. */
  onDidChange(listener: () => void): () => void;
}

/** Roots that never change: `folder` (an absolute path) as one `file://` root. */
export function fixedRoots(folder: string, name?: string): RootsSource {
  const root: Root = { uri: pathToFileURL(folder).href, ...(name ? { name } : {}) };
  return { roots: () => [root], onDidChange: () => () => undefined };
}

/** Client capabilities for the features a host provides (declared at initialize). */
export function clientCapabilities(features: { elicitation?: ElicitationHandler; roots?: RootsSource }): ClientCapabilities {
  return {
    // applyDefaults: the SDK completes omitted optional fields from the schema's defaults before answering.
    ...(features.elicitation ? { elicitation: { form: { applyDefaults: true } } } : {}),
    ...(features.roots ? { roots: { listChanged: true } } : {}),
  };
}

/** Installs the request handlers of the declared features on `client` (before connect). */
export function installClientFeatures(client: Client, server: string, features: { elicitation?: ElicitationHandler; roots?: RootsSource }): void {
  const { elicitation, roots } = features;
  if (elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      const params = request.params;
      if (params.mode === 'url') return { action: 'decline' }; // not declared; the SDK refuses it first
      const requestedSchema = params.requestedSchema as unknown as Record<string, unknown>;
      return elicitation({ server, message: params.message, fields: formFields(requestedSchema), requestedSchema }, extra.signal);
    });
  }
  if (roots) client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: roots.roots() }));
}
