/**
 * The `screen` settings of `.jev/config.json`: the top-level block (shell commands whose output the guard
 * screens, and what an unscreened result gets) and an agent's own `screen`, which switches screening off for
 * that agent, makes it strict, or replaces the block's fields. Zod-free: the lean guard entry bundles it, and
 * the registry's zod schema (registry/manifest.ts) reports the same problems.
 */

/** The `screen` block: shell command patterns whose output is screened, and what an unscreened result gets. */
export interface GuardScreenConfig {
  /** Patterns such as `curl*`, `gh issue view*` (`*` any characters). */
  commands: string[];
  /** `warn` (default): an unscreened result reaches the model with a warning; `strict`: it is withheld. */
  mode: 'warn' | 'strict';
}

/**
 * An agent's `screen` (`agents[].screen`): `false`, its results are never screened; `"strict"`, what cannot
 * be screened is withheld; an object, its fields replace the top-level block's for that agent.
 */
export type AgentScreen = false | 'strict' | { mode?: 'warn' | 'strict'; commands?: string[] };

/** A problem in a screen setting: where below the setting (`['commands', 1]`) and the rule broken. */
export interface ScreenProblem {
  path: (string | number)[];
  rule: string;
}

/** The rule an agent's `screen` follows, as error messages state it. */
export const AGENT_SCREEN_RULE = 'must be false, "strict" or an object {mode, commands}';

const SCREEN_KEYS = ['commands', 'mode'];

/** The first problem of the fields of a screen object (shared by the top-level block and an agent's). */
function fieldsProblem(obj: Record<string, unknown>): ScreenProblem | undefined {
  const unknown = Object.keys(obj).filter((k) => !SCREEN_KEYS.includes(k));
  if (unknown.length) return { path: [], rule: `unknown field ${unknown.sort().join(', ')} (allowed: ${SCREEN_KEYS.join(', ')})` };
  if (obj.commands !== undefined) {
    if (!Array.isArray(obj.commands)) return { path: ['commands'], rule: 'must be an array of command patterns such as "curl*"' };
    const bad = obj.commands.findIndex((c) => typeof c !== 'string' || c.trim() === '');
    if (bad >= 0) return { path: ['commands', bad], rule: 'must be a non-empty string' };
  }
  if (obj.mode !== undefined && obj.mode !== 'warn' && obj.mode !== 'strict') return { path: ['mode'], rule: `must be "warn" or "strict"; got ${JSON.stringify(obj.mode)}` };
  return undefined;
}

const isObject = (raw: unknown): raw is Record<string, unknown> => typeof raw === 'object' && raw !== null && !Array.isArray(raw);

/** `field` followed by `path`, e.g. `agents[1].screen.commands[0]`. */
export function problemField(field: string, path: readonly (string | number)[]): string {
  return field + path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('');
}

/** Validates a `screen` block. Throws Error naming the field, e.g. `screen.commands[1]: must be a non-empty string`. */
export function parseScreenConfig(raw: unknown, field = 'screen'): GuardScreenConfig {
  if (raw === undefined) return { commands: [], mode: 'warn' };
  if (!isObject(raw)) throw new Error(`${field}: must be an object {commands, mode}`);
  const problem = fieldsProblem(raw);
  if (problem) throw new Error(`${problemField(field, problem.path)}: ${problem.rule}`);
  return { commands: (raw.commands as string[] | undefined) ?? [], mode: (raw.mode as GuardScreenConfig['mode'] | undefined) ?? 'warn' };
}

/** The first problem of an agent's `screen` value, or undefined when it is valid. */
export function agentScreenProblem(raw: unknown): ScreenProblem | undefined {
  if (raw === false || raw === 'strict') return undefined;
  if (!isObject(raw)) return { path: [], rule: AGENT_SCREEN_RULE };
  return fieldsProblem(raw);
}

/** Validates an agent's `screen`. Throws Error naming the field, e.g. `agents[1].screen: must be false, "strict" or …`. */
export function parseAgentScreen(raw: unknown, field: string): AgentScreen {
  const problem = agentScreenProblem(raw);
  if (problem) throw new Error(`${problemField(field, problem.path)}: ${problem.rule}`);
  return raw as AgentScreen;
}

/**
 * The screen block in force for an agent whose `screen` is `agent`, over the top-level block `top`
 * (absent: no commands, mode warn); undefined when the agent's results are never screened (`false`).
 */
export function agentScreenConfig(top: GuardScreenConfig | undefined, agent: AgentScreen | undefined): GuardScreenConfig | undefined {
  const base = top ?? { commands: [], mode: 'warn' };
  if (agent === false) return undefined;
  if (agent === 'strict') return { ...base, mode: 'strict' };
  if (agent) return { commands: agent.commands ?? base.commands, mode: agent.mode ?? base.mode };
  return base;
}
