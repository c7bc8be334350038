import type { Candidate, Effect } from '../tools/candidates';
import type { ToolAnnotations } from '../tools/types';
import type { AgentManifest } from './manifest';
import type { ToolRegistry } from './registry';
import { checkAgainstSchema } from './schema';

/**
 * Host-derived trusted facts for jev_step / jev_tool_route candidates. The host, not the agent, decides
 * whether a prepared call's arguments fit the tool's real
 * inputSchema, whether the agent is granted the tool, and what the tool may change:
 * - `schema_valid` = Ajv check of `arguments` against the inputSchema (2020-12 / draft-07);
 * - `authorized`   = the agent's grants (the registry's `why`);
 * - `effect`       = the caller's effect, else from annotations: readOnlyHint → read_only;
 *                    destructiveHint → destructive; openWorldHint → external_write; other hints →
 *                    local_write; no hints → unknown. A stricter annotated effect replaces a laxer
 *                    caller effect (host facts can only tighten);
 * - the host's `false` always wins over a caller's `true`; a caller's `false` is kept too;
 * - `preconditions_met` and `failed_attempts` stay the caller's.
 * Nothing is executed and no transport is touched: only known tool lists are read.
 */

/** A candidate as the agent proposes it: trusted fields optional, effect and description optional. */
export interface CandidateRequest {
  id: string;
  /** Tool id, bare or qualified; rewritten to the qualified id when the tool is known. */
  name: string;
  arguments: Record<string, unknown>;
  description?: string;
  effect?: Effect;
  authorized?: boolean;
  schema_valid?: boolean;
  preconditions_met?: boolean;
  failed_attempts?: number;
}

/** How one trusted boolean was derived. */
export interface BooleanFact {
  value: boolean;
  host: boolean;
  caller?: boolean;
  /** Why the host decided so (validation error, grant rule). */
  detail: string;
}

/** The request's preconditions_met: only `true` makes a candidate eligible, so a missing value says so. */
function preconditionsFact(v: unknown): { value: boolean; detail: string } {
  if (v === true) return { value: true, detail: 'from the request' };
  if (v === false) return { value: false, detail: 'the request says false' };
  return { value: false, detail: 'not set in the request (only true makes a call eligible)' };
}

/** The facts behind one prepared candidate, for the panel and `jevcp step` output. */
export interface CandidateFacts {
  id: string;
  /** Qualified tool id, or null when no such tool is known. */
  tool: string | null;
  schema_valid: BooleanFact;
  authorized: BooleanFact;
  effect: { value: Effect; caller?: Effect; annotated: Effect; detail: string };
  /** The request's own facts, as sent (the host has no way to check them); they decide eligibility too. */
  preconditions_met: { value: boolean; detail: string };
  failed_attempts: number;
}

/** Prepared candidates (ready for jev_step) and the facts behind them, in input order. */
export interface Prepared {
  candidates: Candidate[];
  facts: CandidateFacts[];
}

const SEVERITY: Record<Exclude<Effect, 'unknown'>, number> = { read_only: 0, local_write: 1, external_write: 2, destructive: 3 };

/**
 * Effect implied by MCP tool annotations: readOnlyHint → read_only; else destructiveHint →
 * destructive; else openWorldHint → external_write; else (some hint given) local_write; no hints → unknown.
 */
export function effectFromAnnotations(annotations: ToolAnnotations | undefined): Effect {
  if (!annotations) return 'unknown';
  const { readOnlyHint, destructiveHint, openWorldHint, idempotentHint } = annotations;
  if (readOnlyHint === undefined && destructiveHint === undefined && openWorldHint === undefined && idempotentHint === undefined) return 'unknown';
  if (readOnlyHint === true) return 'read_only';
  if (destructiveHint === true) return 'destructive';
  if (openWorldHint === true) return 'external_write';
  return 'local_write';
}

function mergeEffect(caller: Effect | undefined, annotated: Effect): { value: Effect; detail: string } {
  if (caller === undefined || caller === 'unknown') {
    return { value: annotated, detail: annotated === 'unknown' ? 'no effect given and the tool has no annotations' : `from the tool's annotations` };
  }
  if (annotated !== 'unknown' && SEVERITY[annotated] > SEVERITY[caller]) {
    return { value: annotated, detail: `the tool's annotations say ${annotated}, stricter than the caller's ${caller}` };
  }
  return { value: caller, detail: 'as given by the caller' };
}

function bool(host: boolean, caller: boolean | undefined, detail: string): BooleanFact {
  return { value: host && caller !== false, host, ...(caller === undefined ? {} : { caller }), detail };
}

/**
 * Prepares `candidates` for agent `manifest` against the tools `registry` knows now (start it first).
 * Returns one prepared candidate and one facts entry per input candidate, in order.
 */
export function prepare(registry: ToolRegistry, manifest: AgentManifest, candidates: readonly CandidateRequest[]): Prepared {
  const out: Prepared = { candidates: [], facts: [] };
  for (const c of candidates) {
    const tool = typeof c.name === 'string' ? registry.resolve(c.name) : undefined;
    const why = typeof c.name === 'string' ? registry.why(manifest, c.name) : undefined;
    const args = c.arguments;
    let schema: BooleanFact;
    if (!tool) schema = bool(false, c.schema_valid, `no tool ${JSON.stringify(c.name)} is known, so its arguments cannot be validated`);
    else if (typeof args !== 'object' || args === null || Array.isArray(args)) schema = bool(false, c.schema_valid, 'arguments: must be a JSON object');
    else if (!tool.inputSchema) schema = bool(false, c.schema_valid, `${tool.id} publishes no inputSchema, so its arguments cannot be validated`);
    else {
      const check = checkAgainstSchema(tool.inputSchema, args, 'arguments');
      schema = bool(check.valid, c.schema_valid, check.valid ? `arguments match the inputSchema of ${tool.id}` : check.error);
    }
    const authorized = bool(why?.allowed === true, c.authorized, why ? why.reason : 'the tool name must be a string');
    const annotated = effectFromAnnotations(tool?.annotations);
    const effect = mergeEffect(c.effect, annotated);

    const prepared: Candidate = {
      id: c.id,
      name: tool ? tool.id : c.name,
      arguments: args,
      description: c.description !== undefined && c.description.trim() !== '' ? c.description : (tool?.description || c.description || (tool ? tool.id : String(c.name))),
      effect: effect.value,
      authorized: authorized.value,
      schema_valid: schema.value,
      ...(c.preconditions_met === undefined ? {} : { preconditions_met: c.preconditions_met }),
      ...(c.failed_attempts === undefined ? {} : { failed_attempts: c.failed_attempts }),
    };
    out.candidates.push(prepared);
    out.facts.push({
      id: c.id,
      tool: tool ? tool.id : null,
      schema_valid: schema,
      authorized,
      effect: { value: effect.value, ...(c.effect === undefined ? {} : { caller: c.effect }), annotated, detail: effect.detail },
      preconditions_met: preconditionsFact(c.preconditions_met),
      failed_attempts: typeof c.failed_attempts === 'number' ? c.failed_attempts : 0,
    });
  }
  return out;
}
