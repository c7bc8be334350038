/**
 * What changes between two sets of server configurations (a re-import of mcp.json, a settings edit): which
 * servers are added, changed, removed or unchanged. The registry restarts only the changed ones, and the
 * import confirmation lists the same four groups.
 */
import type { ServerConfig } from './servers';

/** Server names by what happens to them, each list in the order the names first appear. */
export interface ServerDiff {
  added: string[];
  /** Present before and after with a different configuration: restarted. */
  changed: string[];
  /** Present before only: stopped. */
  removed: string[];
  /** Same configuration before and after: a running one keeps running. */
  unchanged: string[];
}

/** JSON of `value` with object keys sorted, so key order never counts as a change. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** True when two server configurations are the same (key order ignored). */
export function sameServerConfig(a: ServerConfig, b: ServerConfig): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** Compares `before` with `after` (name → configuration). Pure. */
export function diffServers(before: Readonly<Record<string, ServerConfig>>, after: Readonly<Record<string, ServerConfig>>): ServerDiff {
  const diff: ServerDiff = { added: [], changed: [], removed: [], unchanged: [] };
  for (const [name, config] of Object.entries(after)) {
    const old = Object.hasOwn(before, name) ? before[name] : undefined;
    if (old === undefined) diff.added.push(name);
    else if (sameServerConfig(old, config)) diff.unchanged.push(name);
    else diff.changed.push(name);
  }
  for (const name of Object.keys(before)) if (!Object.hasOwn(after, name)) diff.removed.push(name);
  return diff;
}
