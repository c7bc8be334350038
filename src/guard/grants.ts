import { decideGrant, refOfName, type AgentManifest } from '../registry/manifest';

/**
 * The agent's grants (src/registry/manifest.ts) applied to a host's tool call, before rules or judgment:
 * a call the agent is not granted is a CapabilityViolation and is denied. The call is checked under both
 * its host name (`run_in_terminal`, `mcp__github__create_issue`) and its rule name (`Bash`): a deny grant
 * matching either denies; otherwise one allow grant matching either grants it.
 */

/** The grant check's answer. */
export type GrantCheck = { allowed: true; rule: string } | { allowed: false; reason: string };

/** Whether `manifest` grants the tool known as `names` (host name first). Pure. */
export function checkGrant(manifest: AgentManifest, names: readonly string[]): GrantCheck {
  const unique = [...new Set(names.filter((n) => n !== ''))];
  const decisions = unique.map((n) => decideGrant(manifest, refOfName(n)));
  const denied = decisions.find((d) => !d.allowed && d.rule !== null);
  if (denied) return { allowed: false, reason: denied.reason };
  const allowed = decisions.find((d) => d.allowed);
  if (allowed) return { allowed: true, rule: allowed.rule ?? '' };
  return { allowed: false, reason: decisions[0]?.reason ?? `agent ${JSON.stringify(manifest.name)} has no grant for this tool` };
}
