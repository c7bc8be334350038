/**
 * Plain words for the agents a first-time user meets in the Agents tab without having named them.
 * Pure text shared by the webview; the name equals EDITOR_AGENT (src/config/panel-settings.ts), which
 * the webview bundle does not import (a unit test keeps the two equal).
 */

/** The agent that calls from the editor's own chat run as. */
export const EDITOR_AGENT_NAME = 'editor';

/**
 * One line saying who agent `name` is, or undefined for agents the user named in `jevPanel.agents`
 * (their name is theirs to explain).
 */
export function agentNote(name: string): string | undefined {
  if (name === EDITOR_AGENT_NAME) {
    return "VS Code's own agent: the editor's chat (e.g. Copilot in agent mode) calling Jev's tools, and your MCP servers' tools, through Jev's MCP server. The grants below decide what it may call.";
  }
  return undefined;
}
