import { parseRule, ruleMatches, ruleProblem, type Rule } from './rules';
import type { CallFacts } from './types';

/**
 * The `permissions` block of `.jev/config.json`: `{ "allow": [rule…], "ask": [rule…], "deny": [rule…],
 * "defaults": true }` (rules.ts syntax). A matching deny rule beats a matching ask rule, which beats a
 * matching allow rule; a call no rule matches goes to judgment. The defaults (kept unless `"defaults":
 * false`) allow reading inside the workspace and ask before reading `.env` files, so reading a file never
 * costs a judgment or a prompt.
 */

/** The permissions block as written (validated). */
export interface PermissionsConfig {
  allow: string[];
  ask: string[];
  deny: string[];
  /** Keep DEFAULT_PERMISSIONS (default true). */
  defaults: boolean;
}

/** The rules shipped by default: read-only built-ins inside the workspace are allowed, secrets files asked. */
export const DEFAULT_PERMISSIONS: Readonly<Pick<PermissionsConfig, 'allow' | 'ask' | 'deny'>> = Object.freeze({
  allow: ['Read(./**)'],
  ask: ['Read(./**/.env)', 'Read(./**/.env.*)'],
  deny: [],
});

const KEYS = ['allow', 'ask', 'deny', 'defaults'];

/**
 * Validates a permissions block. Throws Error naming the field and the rule, e.g.
 * `permissions.allow[1]: the tool part "Bash git" may contain only letters, digits and _ . - * ?`.
 */
export function parsePermissions(raw: unknown, field = 'permissions'): PermissionsConfig {
  if (raw === undefined) return { allow: [], ask: [], deny: [], defaults: true };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error(`${field}: must be an object {allow, ask, deny} of rule lists`);
  const obj = raw as Record<string, unknown>;
  const unknown = Object.keys(obj).filter((k) => !KEYS.includes(k));
  if (unknown.length) throw new Error(`${field}: unknown field ${unknown.sort().join(', ')} (allowed: ${KEYS.join(', ')})`);
  const out: PermissionsConfig = { allow: [], ask: [], deny: [], defaults: true };
  for (const key of ['allow', 'ask', 'deny'] as const) {
    const list = obj[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new Error(`${field}.${key}: must be an array of rules such as "Bash(git status*)"`);
    list.forEach((rule, i) => {
      const problem = ruleProblem(rule);
      if (problem) throw new Error(`${field}.${key}[${i}] ${JSON.stringify(rule)}: ${problem}`);
    });
    out[key] = list as string[];
  }
  if (obj.defaults !== undefined) {
    if (typeof obj.defaults !== 'boolean') throw new Error(`${field}.defaults: must be true or false`);
    out.defaults = obj.defaults;
  }
  return out;
}

/** Rules compiled once. */
export interface CompiledPermissions {
  allow: Rule[];
  ask: Rule[];
  deny: Rule[];
}

/** The rules in force: the configured ones plus the defaults (unless turned off). */
export function compilePermissions(config: PermissionsConfig): CompiledPermissions {
  const pick = (key: 'allow' | 'ask' | 'deny') => [...config[key], ...(config.defaults ? DEFAULT_PERMISSIONS[key] : [])].map(parseRule);
  return { allow: pick('allow'), ask: pick('ask'), deny: pick('deny') };
}

/** A rule's verdict on a call. */
export interface RuleDecision {
  decision: 'allow' | 'ask' | 'deny';
  /** The deciding rule as written. */
  rule: string;
}

/** deny beats ask beats allow; undefined when no rule matches (the call goes to judgment). `root`: the workspace, undefined for none. */
export function decideByRules(rules: CompiledPermissions, facts: CallFacts, hostTool: string, root: string | undefined): RuleDecision | undefined {
  const deny = rules.deny.find((r) => ruleMatches(r, facts, hostTool, root, 'any'));
  if (deny) return { decision: 'deny', rule: deny.raw };
  const ask = rules.ask.find((r) => ruleMatches(r, facts, hostTool, root, 'any'));
  if (ask) return { decision: 'ask', rule: ask.raw };
  const allow = rules.allow.find((r) => ruleMatches(r, facts, hostTool, root, 'allow'));
  if (allow) return { decision: 'allow', rule: allow.raw };
  return undefined;
}
