/**
 * Turning one grant of an agent manifest on or off from the panel (issue #4 "toggle a grant"). Pure: the
 * caller passes how the registry decides a manifest for the tool (`decide`), so globs, deny rules and
 * bare/qualified ids follow the registry's own rule (registry/manifest.ts). No `vscode` import.
 */

/** The registry's decision for the toggled tool under a candidate list of grants. */
export type DecideTool = (grants: readonly string[]) => { allowed: boolean; rule: string | null; reason: string };

/**
 * The new grant list, or why the toggle cannot take effect.
 * On: drop a `!tool` deny; add `tool` unless something already allows it. Off: drop `tool`; add `!tool` when a
 * glob still allows it. A toggle that would not change the effective permission (e.g. a glob deny such as
 * `!files/*` keeps the tool denied) is reported instead of silently saved.
 */
export function toggleGrant(grants: readonly string[], tool: string, enabled: boolean, decide: DecideTool): { grants: string[] } | { error: string } {
  const bare = tool.startsWith('!') ? tool.slice(1) : tool;
  let next = [...grants];
  if (enabled) {
    next = next.filter((g) => g !== `!${bare}`);
    if (!decide(next).allowed) next.push(bare);
  } else {
    next = next.filter((g) => g !== bare);
    if (decide(next).allowed) next.push(`!${bare}`);
  }
  const after = decide(next);
  if (after.allowed !== enabled) {
    return { error: `${bare} stays ${after.allowed ? 'allowed' : 'denied'}: ${after.reason}. Edit jevPanel.agents to change that rule.` };
  }
  return { grants: next };
}
