import { z } from 'zod';
import { configError } from '../judgment/errors';
import type { GrantDecision } from './errors';
import { describeIssue } from './zod-field';

/**
 * Agent manifests and capability grants: which tools an agent may call, checked before any transport.
 *
 * Tool ids: in-process tools by bare name (`jev_step`), external tools as `<server>/<tool>`.
 * A grant is an id or a glob (`*` any run of characters, `?` one character; in the server part neither
 * crosses `/`). A leading `!` makes it a deny rule; any matching deny beats every allow.
 * - A qualified grant (`files/*`) matches external tools by qualified id.
 * - A bare allow grant (`echo`, `jev_*`) matches in-process tools, and an external tool only where a bare
 *   call of that name resolves to it (the first configured server that has it).
 * - A bare deny grant (`!write_file`) matches that tool name on every server: denying is never narrower.
 */

/** One agent: a unique name and its grants. */
export interface AgentManifest {
  name: string;
  tools: string[];
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

const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
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
  const slash = body.indexOf('/');
  if (slash === 0) return 'the server part before "/" must not be empty';
  if (slash === body.length - 1) return 'the tool part after "/" must not be empty';
  if (slash > 0 && !SERVER_PART.test(body.slice(0, slash))) return 'the server part may contain only letters, digits and _ . - * ?';
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
  const slash = body.indexOf('/');
  const literal = !/[*?]/.test(body);
  if (slash < 0) return { raw, deny, qualified: false, literal, regex: new RegExp(`^${globSource(body, '.*', '.')}$`, 's') };
  const serverPattern = body.slice(0, slash);
  const source = `^${globSource(serverPattern, '[^/]*', '[^/]')}/${globSource(body.slice(slash + 1), '.*', '.')}$`;
  return { raw, deny, qualified: true, literal, serverPattern, regex: new RegExp(source, 's') };
}

/** zod schema of one grant; the message names the rule. */
export const grantSchema = z.string().superRefine((raw, ctx) => {
  const problem = grantProblem(raw);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** zod schema of an agent manifest `{name, tools}` (unknown fields rejected). */
export const agentManifestSchema = z.strictObject({
  name: z.string().regex(AGENT_NAME, 'must be 1-64 letters, digits, _ . - and start with a letter or digit'),
  tools: z.array(grantSchema, { error: 'must be an array of tool ids or globs' }).default([]),
});

/**
 * Validates a manifest. Throws JevError CONFIG_ERROR whose message names the field and the rule, e.g.
 * `agents[0].tools[2]: a deny rule must name a tool or glob after "!"`; `field` is the prefix to use.
 */
export function parseManifest(raw: unknown, field = 'agent'): AgentManifest {
  const result = agentManifestSchema.safeParse(raw);
  if (!result.success) throw configError(describeIssue(result.error, field));
  return result.data;
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
 * Load-time warnings for grants that match no known tool, so a typo in a grant shows at load, not at the first refused call.
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
