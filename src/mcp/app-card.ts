/**
 * The decision card: an MCP Apps view (`io.modelcontextprotocol/ui`) that hosts render next to the result
 * of a judgment tool. This module holds the server's side of it: which tools name the card
 * (`_meta.ui.resourceUri`), the `ui://` resource (one self-contained HTML built by scripts/build.mjs
 * from webview/card/), and the extra `_meta` a tools/call result carries for a client that announced the
 * extension. A client that did not announce it gets exactly the plain result (results.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXTENSION_ID, getUiCapability, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import type { CallToolResult, ClientCapabilities, Resource, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { DecisionRecord } from '../ledger/record';
import { PACKAGE_VERSION, SERVER_NAME } from './identity';

/** MIME type of an MCP Apps HTML view (`text/html;profile=mcp-app`). */
export const CARD_MIME_TYPE: string = RESOURCE_MIME_TYPE;

/** File name of the built card next to the running bundle (dist/). */
export const CARD_FILE = 'decision-card.html';

/**
 * The tools whose decision a person wants to read: they name the card. jev_evaluate is left out on
 * purpose (its result is an evaluation report, not one decision).
 */
export const CARD_TOOLS: ReadonlySet<string> = new Set([
  'jev_step',
  'jev_coding_loop',
  'jev_tool_route',
  'jev_gate',
  'jev_review',
  'jev_verify',
  'jev_screen',
  'jev_rank',
  'jev_permit',
  'evaluate_policy',
  'ask_noul',
  'ask_choice',
  'ask_score',
]);

/**
 * `_meta` key of the decision a UI client gets with a result: the DecisionRecord fields the card needs
 * to show the decision and to replay it under other thresholds (input as redacted, exchanges, floors).
 */
export const DECISION_META_KEY = 'jevcp/decision';

/** Largest decision (JSON characters) sent in `_meta`; a larger one (a huge jev_rank) is left out and the card says so. */
export const DECISION_META_MAX_CHARS = 2_000_000;

/** The card as served: its versioned `ui://` URI and the HTML. */
export interface DecisionCard {
  /** `ui://jev-control-panel/decision-card-<version>-<hash8>.html`: a new build gets a new URI, so hosts may cache by URI. */
  uri: string;
  /** Package version plus the first 8 hex digits of the HTML's SHA-256. */
  version: string;
  html: string;
}

/** Builds the card descriptor of `html` (pure: the URI depends only on the package version and the content). */
export function decisionCard(html: string, packageVersion: string = PACKAGE_VERSION): DecisionCard {
  const hash = createHash('sha256').update(html).digest('hex').slice(0, 8);
  const version = `${packageVersion}-${hash}`;
  return { uri: `ui://${SERVER_NAME}/decision-card-${version}.html`, version, html };
}

const loaded = new Map<string, DecisionCard | null>();

/**
 * Reads the built card once per path and caches it. Looks next to the running bundle (dist/), then in
 * the repository's dist/ when running from source (tests). Returns undefined when no card was built:
 * the server then lists no UI metadata and no `ui://` resource, exactly a plain server.
 */
export function loadDecisionCard(dirs: readonly string[] = defaultCardDirs()): DecisionCard | undefined {
  for (const dir of dirs) {
    const file = join(dir, CARD_FILE);
    if (!loaded.has(file)) loaded.set(file, existsSync(file) ? decisionCard(readFileSync(file, 'utf8')) : null);
    const card = loaded.get(file);
    if (card) return card;
  }
  return undefined;
}

function defaultCardDirs(): string[] {
  // The bundles (dist/cli.js, dist/extension-core.js) are CommonJS: __dirname is dist/.
  const here = typeof __dirname === 'string' ? __dirname : process.cwd();
  return [here, join(here, '..', '..', 'dist')];
}

/** Tool `_meta` naming the card: `ui.resourceUri` plus the flat `ui/resourceUri` key older hosts read. */
export function uiToolMeta(card: DecisionCard): NonNullable<Tool['_meta']> {
  return { ui: { resourceUri: card.uri }, [RESOURCE_URI_META_KEY]: card.uri };
}

/**
 * Resource `_meta.ui` of the card: an empty CSP (no network, no outside scripts, styles, fonts or frames:
 * everything is inline), clipboard write for "Copy decision JSON", and a border preference.
 */
export const CARD_RESOURCE_UI_META = Object.freeze({
  csp: { connectDomains: [] as string[], resourceDomains: [] as string[], frameDomains: [] as string[], baseUriDomains: [] as string[] },
  permissions: { clipboardWrite: {} },
  prefersBorder: true,
});

/** resources/list entry of the card. */
export function cardResourceListing(card: DecisionCard): Resource {
  return {
    uri: card.uri,
    name: 'decision-card',
    title: 'Jev decision card',
    description: `Interactive view of one Jev decision (read-only; what-if sliders recompute locally). Version ${card.version}.`,
    mimeType: CARD_MIME_TYPE,
    _meta: { ui: CARD_RESOURCE_UI_META },
  };
}

/** resources/read contents of the card: the HTML with the MIME type and the CSP in `_meta.ui`. */
export function cardResourceContents(card: DecisionCard): { uri: string; mimeType: string; text: string; _meta: Record<string, unknown> }[] {
  return [{ uri: card.uri, mimeType: CARD_MIME_TYPE, text: card.html, _meta: { ui: CARD_RESOURCE_UI_META } }];
}

/** True when the client announced the MCP Apps extension with the HTML view MIME type. */
export function clientAnnouncesUi(capabilities: ClientCapabilities | undefined): boolean {
  const ui = getUiCapability(capabilities as Parameters<typeof getUiCapability>[0]);
  return Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes(CARD_MIME_TYPE);
}

/** The extension id clients announce under `capabilities.extensions`. */
export const UI_EXTENSION_ID: string = EXTENSION_ID;

/**
 * Adds the decision to a tools/call result for a UI client, under `_meta[DECISION_META_KEY]`. The text
 * and structuredContent stay as they are. A failure record is sent too (the card shows it fails closed);
 * a record over DECISION_META_MAX_CHARS is replaced by `{id, tool, omitted: 'too_large'}`. `openTool` names the
 * app-only tool the card calls to open the decision in the editor's panel (`open_tool`), when the session has one.
 */
export function withDecisionMeta(result: CallToolResult, record: DecisionRecord, openTool?: string): CallToolResult {
  const decision = {
    id: record.id,
    tool: record.tool,
    agent: record.agent,
    provider: record.provider,
    input: record.input,
    exchanges: record.exchanges,
    thresholds: record.thresholds,
    ...(record.result !== undefined ? { result: record.result } : {}),
    ...(record.error ? { error: record.error } : {}),
  };
  const size = JSON.stringify(decision).length;
  const value = {
    ...(size <= DECISION_META_MAX_CHARS ? decision : { id: record.id, tool: record.tool, omitted: 'too_large' }),
    ...(openTool ? { open_tool: openTool } : {}),
  };
  return { ...result, _meta: { ...result._meta, [DECISION_META_KEY]: value } };
}
