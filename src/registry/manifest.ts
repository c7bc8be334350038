import { z } from 'zod';
import { agentScreenProblem, type AgentScreen } from '../guard/screen-config';
import { configError } from '../judgment/errors';
import { AGENT_NAME, grantProblem, type AgentManifest } from './grants';
import { describeIssue } from './zod-field';

/**
 * Agent manifests: their zod schema and validation. The grants themselves (parsing, the decision, toggles)
 * are in grants.ts, re-exported here.
 */

export * from './grants';

/** zod schema of one grant; the message names the rule. */
export const grantSchema = z.string().superRefine((raw, ctx) => {
  const problem = grantProblem(raw);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** zod schema of an agent's `screen`; the rules are the guard's (guard/screen-config.ts), so both name a problem alike. */
export const agentScreenSchema = z.custom<AgentScreen>().superRefine((raw, ctx) => {
  const problem = agentScreenProblem(raw);
  if (problem) ctx.addIssue({ code: 'custom', message: problem.rule, path: problem.path });
});

/** zod schema of an agent manifest `{name, tools, screen?}` (unknown fields rejected). */
export const agentManifestSchema = z.strictObject({
  name: z.string().regex(AGENT_NAME, 'must be 1-64 letters, digits, _ . - and start with a letter or digit'),
  tools: z.array(grantSchema, { error: 'must be an array of tool ids or globs' }).default([]),
  screen: agentScreenSchema.optional(),
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

