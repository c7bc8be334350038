/**
 * The per-server grant shortcuts of the panel: "grant all" (every tool of one server) and "grant
 * read-only" (exactly the server's tools whose annotations say `readOnlyHint: true`). Pure: the registry's
 * decision is passed in, so globs and deny rules elsewhere in the manifest are honoured, and a shortcut
 * that another rule would defeat is reported instead of saved.
 */
import { toggleGrant } from './manifest';

/** `all`: every tool of the server; `readOnly`: its readOnlyHint tools only, the others revoked. */
export type ServerGrantMode = 'all' | 'readOnly';

/** One known tool of the server: its qualified id and whether its annotations say readOnlyHint. */
export interface ServerToolRef {
  id: string;
  readOnly: boolean;
}

/** How the registry judges qualified tool id `tool` under a candidate grant list. */
export type DecideGrantOf = (grants: readonly string[], tool: string) => { allowed: boolean; rule: string | null; reason: string };

/**
 * The grant list after applying `mode` for `server`, whose known tools are `tools`, or why it cannot take
 * effect. `all` drops the server's deny rules and its single-tool grants and adds `<server>/*`; it works
 * before the tools are known. `readOnly` needs the tools: it drops `<server>/*`, grants each read-only
 * tool and revokes each other one (toggleGrant's rule).
 */
export function grantServerTools(
  grants: readonly string[],
  server: string,
  tools: readonly ServerToolRef[],
  mode: ServerGrantMode,
  decide: DecideGrantOf,
): { grants: string[] } | { error: string } {
  const prefix = `${server}/`;
  const wildcard = `${server}/*`;
  let next: string[];
  if (mode === 'all') {
    next = grants.filter((g) => !g.startsWith(`!${prefix}`) && !(g.startsWith(prefix) && g !== wildcard));
    if (!next.includes(wildcard)) next.push(wildcard);
    for (const tool of tools) {
      const after = decide(next, tool.id);
      if (!after.allowed) return { error: `${tool.id} stays denied: ${after.reason}. Edit jevPanel.agents to change that rule.` };
    }
    return { grants: next };
  }
  if (tools.length === 0) return { error: `the tools of server ${JSON.stringify(server)} are not known yet; start it (Restart), then grant its read-only tools` };
  if (!tools.some((t) => t.readOnly)) {
    return { error: `server ${JSON.stringify(server)} marks none of its ${tools.length} tools read-only (readOnlyHint); grant tools one by one instead` };
  }
  next = grants.filter((g) => g !== wildcard);
  for (const tool of tools) {
    const toggled = toggleGrant(next, tool.id, tool.readOnly, (candidate) => decide(candidate, tool.id));
    if ('error' in toggled) return toggled;
    next = toggled.grants;
  }
  return { grants: next };
}
