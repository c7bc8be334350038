/**
 * VS Code's agent mode degrades past 128 tools in one request, so an agent offered more is warned, naming
 * the sources that contribute most so the user knows which grants to narrow. One wording for the CLI
 * (`jevcp servers`, `serve --agent`) and the editor.
 */

/** The tool count VS Code's agents handle well; past it they degrade. */
export const VSCODE_TOOL_LIMIT = 128;

/** Where a tool id comes from: its server (`server/tool`), or the judgment tools for a bare name. */
export function toolSource(id: string): string {
  const slash = id.indexOf('/');
  return slash < 0 ? 'judgment tools' : id.slice(0, slash);
}

/**
 * The warning for `agent` offered `toolIds` (the tools its grants allow), or undefined at or below
 * VSCODE_TOOL_LIMIT. Names the three sources that contribute most, with their counts, e.g.
 * `agent "coder" is offered 153 tools; VS Code's agents degrade past 128: narrow the grants of everything
 * (98 tools), github (42), judgment tools (13)`.
 */
export function toolCountWarning(agent: string, toolIds: readonly string[], limit = VSCODE_TOOL_LIMIT): string | undefined {
  if (toolIds.length <= limit) return undefined;
  const counts = new Map<string, number>();
  for (const id of toolIds) counts.set(toolSource(id), (counts.get(toolSource(id)) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 3);
  const list = top.map(([source, n], i) => `${source} (${n}${i === 0 ? ' tools' : ''})`).join(', ');
  return `agent ${JSON.stringify(agent)} is offered ${toolIds.length} tools; VS Code's agents degrade past ${limit}: narrow the grants of ${list}`;
}
