import { configError } from '../judgment/errors';
import type { AgentScreen } from '../guard/screen-config';
import type { GrantDecision } from './errors';

/**
 * Capability grants of agent manifests, without zod (the permission guard's lean entry loads this): parsing
 * grants, the grant decision, the editor's permission answers and grant toggles. The manifest schema is in
 * manifest.ts.
 *
 * Tool ids: in-process tools by bare name (`jev_step`), external tools as `<server>/<tool>`.
 * A grant is an id or a glob (`*` any run of characters, `?` one character; in the server part neither
 * crosses `/`). A leading `!` makes it a deny rule; any matching deny beats every allow.
 * - A qualified grant (`files/*`) matches external tools by qualified id.
 * - A bare allow grant (`echo`, `jev_*`) matches in-process tools, and an external tool only where a bare
 *   call of that name resolves to it (the first configured server that has it).
 * - A bare deny grant (`!write_file`) matches that tool name on every server: denying is never narrower.
 */

/** One agent: a unique name, its grants, and how the results it reads are screened. */
export interface AgentManifest {
  name: string;
  tools: string[];
  /** Absent: the top-level `screen` block and the servers' marks apply (guard/screen-config.ts). */
  screen?: AgentScreen;
}

/** A parsed grant. */
export interface Grant {
  /** Text as written in the manifest. */
  raw: string;
  deny: boolean;
  /** True when the pattern names a server (`server/tool`). */
  qualified: boolean;
  /** True when the pattern has no glob characters. */
  literal: boolean;
  /** Server part of a qualified pattern. */
  serverPattern?: string;
  regex: RegExp;
}

/** A tool as grant checks see it. */
export interface ToolRef {
  /** Qualified id (`server/tool`) for external tools, bare name for in-process ones. */
  id: string;
  /** Bare tool name. */
  name: string;
  /** Owning server, absent for in-process tools. */
  server?: string;
  /** True when a bare call of `name` resolves to this tool (always true in-process). */
  bareOwner: boolean;
}

/** A tool id split into its server and tool parts. */
export interface ToolId {
  /** Server part of a qualified id (`files` in `files/read_file`); absent for a bare id. */
  server?: string;
  /** Tool part (`read_file`), or the whole bare id. */
  name: string;
}

/**
 * Splits a tool id at its first `/`: `files/read_file` → `{server: 'files', name: 'read_file'}`. An id
 * without `/`, or one starting with `/` (no server part), is bare: `{name: id}`. The only place tool ids
 * are split.
 */
export function parseToolId(id: string): ToolId {
  const slash = id.indexOf('/');
  return slash > 0 ? { server: id.slice(0, slash), name: id.slice(slash + 1) } : { name: id };
}

/**
 * The grant-check view of a tool known only by its id as written (no server lists it now): a qualified id
 * names its server and is not what a bare call resolves to; a bare id is an in-process name.
 */
export function refOfName(tool: string): ToolRef {
  const { server, name } = parseToolId(tool);
  return server !== undefined ? { id: tool, name, server, bareOwner: false } : { id: tool, name: tool, bareOwner: true };
}

/** Agent names: 1-64 letters, digits, _ . - starting with a letter or digit. */
export const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const GRANT_BODY = /^[A-Za-z0-9_.\-/*?:@]+$/;
const SERVER_PART = /^[A-Za-z0-9_.\-*?]+$/;

/** Why `raw` is not a valid grant, or undefined when it is. */
export function grantProblem(raw: string): string | undefined {
  const body = raw.startsWith('!') ? raw.slice(1) : raw;
  if (body === '') return raw === '' ? 'must not be empty' : 'a deny rule must name a tool or glob after "!"';
  if (!GRANT_BODY.test(body)) {
    return body.includes('!')
      ? '"!" is only allowed as the first character (deny rule)'
      : 'may contain only letters, digits and _ . - / * ? : @ (no spaces)';
  }
  if (body.startsWith('/')) return 'the server part before "/" must not be empty';
  const { server, name } = parseToolId(body);
  if (server === undefined) return undefined;
  if (name === '') return 'the tool part after "/" must not be empty';
  if (!SERVER_PART.test(server)) return 'the server part may contain only letters, digits and _ . - * ?';
  return undefined;
}

function globSource(pattern: string, star: string, one: string): string {
  let out = '';
  for (const ch of pattern) {
    if (ch === '*') out += star;
    else if (ch === '?') out += one;
    else out += ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return out;
}

/** Parses one grant. Throws JevError CONFIG_ERROR naming the grant and the rule when invalid (see `grantProblem`). */
export function parseGrant(raw: string): Grant {
  const problem = grantProblem(raw);
  if (problem) throw configError(`grant ${JSON.stringify(raw)}: ${problem}`);
  const deny = raw.startsWith('!');
  const body = deny ? raw.slice(1) : raw;
  const { server: serverPattern, name } = parseToolId(body);
  const literal = !/[*?]/.test(body);
  if (serverPattern === undefined) return { raw, deny, qualified: false, literal, regex: new RegExp(`^${globSource(body, '.*', '.')}$`, 's') };
  const source = `^${globSource(serverPattern, '[^/]*', '[^/]')}/${globSource(name, '.*', '.')}$`;
  return { raw, deny, qualified: true, literal, serverPattern, regex: new RegExp(source, 's') };
}

/** A manifest with its grants parsed once. */
export class CompiledManifest {
  readonly grants: readonly Grant[];
  /** Decisions already made for this manifest (grants are immutable), keyed by tool ref. */
  readonly decisions = new Map<string, GrantDecision>();

  constructor(readonly manifest: AgentManifest) {
    this.grants = manifest.tools.map(parseGrant);
  }

  get name(): string {
    return this.manifest.name;
  }
}

const compiled = new WeakMap<AgentManifest, CompiledManifest>();

/** Parsed grants of `manifest` (cached per manifest object; treat manifests as immutable). */
export function compileManifest(manifest: AgentManifest): CompiledManifest {
  let hit = compiled.get(manifest);
  if (!hit) {
    hit = new CompiledManifest(manifest);
    compiled.set(manifest, hit);
  }
  return hit;
}

/** True when `grant` applies to `ref` (see the module comment for bare vs qualified rules). */
export function grantMatches(grant: Grant, ref: ToolRef): boolean {
  if (grant.qualified) return ref.server !== undefined && grant.regex.test(ref.id);
  if (ref.server !== undefined && !ref.bareOwner && !grant.deny) return false;
  return grant.regex.test(ref.name);
}

/**
 * Decides whether `manifest` may call `ref`, and why: the first matching deny rule wins; otherwise the
 * first matching allow rule; otherwise denied with no rule. Pure: touches no transport.
 */
export function decideGrant(manifest: AgentManifest, ref: ToolRef): GrantDecision {
  const compiledManifest = compileManifest(manifest);
  const key = `${ref.bareOwner ? 1 : 0}${ref.server ?? ''}\u0000${ref.id}\u0000${ref.name}`;
  const known = compiledManifest.decisions.get(key);
  if (known) return known;
  const decision = Object.freeze(decideUncached(manifest, compiledManifest.grants, ref));
  if (compiledManifest.decisions.size >= 10_000) compiledManifest.decisions.clear();
  compiledManifest.decisions.set(key, decision);
  return decision;
}

function decideUncached(manifest: AgentManifest, grants: readonly Grant[], ref: ToolRef): GrantDecision {
  const deny = grants.find((g) => g.deny && grantMatches(g, ref));
  if (deny) return { allowed: false, tool: ref.id, rule: deny.raw, reason: `denied by ${JSON.stringify(deny.raw)}` };
  const allow = grants.find((g) => !g.deny && grantMatches(g, ref));
  if (allow) {
    const via = !allow.qualified && ref.server !== undefined ? ` (a bare grant; a bare call of ${ref.name} resolves to ${ref.id})` : '';
    return { allowed: true, tool: ref.id, rule: allow.raw, reason: `allowed by ${JSON.stringify(allow.raw)}${via}` };
  }
  const near = ref.server !== undefined && !ref.bareOwner ? grants.find((g) => !g.deny && !g.qualified && g.regex.test(ref.name)) : undefined;
  const hint = near
    ? `; ${JSON.stringify(near.raw)} is a bare grant and a bare call of ${ref.name} resolves to another server (grant ${JSON.stringify(ref.id)} to allow this one)`
    : '';
  const granted = grants.length ? grants.map((g) => g.raw).join(', ') : 'none';
  return { allowed: false, tool: ref.id, rule: null, reason: `no grant of agent ${JSON.stringify(manifest.name)} matches ${ref.id} (grants: ${granted})${hint}` };
}

/**
 * Load-time warnings for grants that match no known tool (so a typo in a grant shows at once, not as a
 * denial later).
 * `servers` maps each configured server name to whether its tool list is known (ready at least once).
 */
export function grantWarnings(manifest: AgentManifest, known: readonly ToolRef[], servers: ReadonlyMap<string, boolean>): string[] {
  const warnings: string[] = [];
  for (const grant of compileManifest(manifest).grants) {
    const hit = known.some((ref) => (grant.qualified ? ref.server !== undefined && grant.regex.test(ref.id) : grant.regex.test(ref.name)));
    if (hit) continue;
    const prefix = `agent ${JSON.stringify(manifest.name)}: grant ${JSON.stringify(grant.raw)}`;
    if (grant.qualified && !/[*?]/.test(grant.serverPattern!) && !servers.has(grant.serverPattern!)) {
      warnings.push(`${prefix} names server ${JSON.stringify(grant.serverPattern)}, which is not configured`);
      continue;
    }
    const unknown = [...servers].filter(([name, listed]) => !listed && (!grant.qualified || new RegExp(`^${globSource(grant.serverPattern!, '[^/]*', '[^/]')}$`).test(name)));
    const note = unknown.length ? ` (tools of ${unknown.map(([n]) => n).join(', ')} are unknown: not ready)` : '';
    warnings.push(`${prefix} matches no known tool${note}`);
  }
  return warnings;
}

/**
 * Whether `manifest` may call `tool` (bare or `server/tool`, as a decision names it), and why. `registryWhy`
 * is the registry's answer (ToolRegistry.why) and decides when the tool is known now. Otherwise the tool
 * counts as allowed when one of `servers` (the configured server names; only the named one for a qualified
 * id) could offer it under a granted id, since servers start on demand: the answer errs towards offering,
 * and the registry's capability check at execution stays the authority.
 */
export function callPermission(
  manifest: AgentManifest,
  tool: string,
  registryWhy: { known: boolean; allowed: boolean; reason: string } | undefined,
  servers: readonly string[],
): { allowed: boolean; reason: string } {
  if (registryWhy?.known) return { allowed: registryWhy.allowed, reason: registryWhy.reason };
  const id = parseToolId(tool);
  const candidates = id.server !== undefined ? [id.server] : servers;
  for (const server of candidates) {
    const decision = decideGrant(manifest, { id: `${server}/${id.name}`, name: id.name, server, bareOwner: true });
    if (decision.allowed) return { allowed: true, reason: decision.reason };
  }
  if (candidates.length === 0) return { allowed: false, reason: `no configured MCP server offers ${tool}` };
  return { allowed: false, reason: registryWhy?.reason ?? `no grant of agent ${JSON.stringify(manifest.name)} matches ${tool}` };
}

/** The registry's decision for the toggled tool under a candidate list of grants. */
export type DecideTool = (grants: readonly string[]) => { allowed: boolean; rule: string | null; reason: string };

/**
 * Turns one grant of a manifest on or off (the panel's grant toggle): the new grant list, or why the toggle
 * cannot take effect. `decide` is how the registry judges the tool under a candidate list, so globs, deny
 * rules and bare/qualified ids follow `decideGrant`.
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
