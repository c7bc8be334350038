/**
 * Error texts in editor terms: the shared core names the CLI's environment variables ("check JEV_BASE_URL");
 * in the editor the same setting is a `jevPanel.*` setting or the Set API Key command.
 */

/** CLI environment variable → what the editor user changes instead. */
const EDITOR_NAMES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:JEV_BASE_URL|JEV_API__BASE_URL|TYPESAFE_BASE_URL)\b/g, 'jevPanel.baseUrl'],
  [/\b(?:JEV_API_KEY|JEV_API__KEY|TYPESAFE_API_KEY)\b/g, 'the API key (Jev: Set API Key)'],
  [/\bJEV_TIMEOUT_MS\b/g, 'jevPanel.timeoutMs'],
  [/\bJEV_SPEND_CAP\b/g, 'jevPanel.spendCap'],
  [/\b(?:JEV_MODEL|JEV_MCP_MODEL|JEV_API__DEFAULT_MODEL)\b/g, 'jevPanel.model'],
  [/\bJEV_PROVIDER\b/g, 'jevPanel.provider'],
  [/\bJEV_AUTO_ACCEPT\b/g, 'jevPanel.thresholds.autoAccept'],
  [/\bJEV_REVIEW_AT\b/g, 'jevPanel.thresholds.reviewAt'],
  [/\bJEV_BLOCK_AT\b/g, 'jevPanel.thresholds.blockAt'],
];

/**
 * `text` with every CLI variable name replaced by its editor counterpart, e.g.
 * "check JEV_BASE_URL" → "check jevPanel.baseUrl", "JEV_API_KEY rejected" → "the API key (Jev: Set API Key) rejected".
 * Other text is unchanged.
 */
export function editorWording(text: string): string {
  let out = text;
  for (const [pattern, name] of EDITOR_NAMES) out = out.replace(pattern, name);
  return out;
}
