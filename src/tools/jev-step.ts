import { z } from 'zod';
import type { Judged, QuestionMap } from '../judgment/types';
import { worstAction } from '../policy/actions';
import { HANDOFFS, PARTNER_REASONS, loopAction, partnerRouting, MODEL_TIERS } from '../policy/coding-loop';
import {
  STEP_REASONS,
  effectRequiresReview,
  resolveStepHandoff,
  selectionReasons,
  stepSelectionVerdict,
  type SelectionJudgment,
  type StepHandoff,
  type StepPartnerReason,
  type StepReason,
} from '../policy/routing';
import { dispatchFloor, tightenJudgmentThresholds, type Floors } from '../policy/thresholds';
import {
  candidateListSchema,
  partitionCandidates,
  projectCandidates,
  type BlockedCandidate,
  type Candidate,
  type CandidateProjection,
} from './candidates';
import {
  codingLoopFields,
  codingLoopQuestions,
  executionFacts,
  loopSignalsOutputShape,
  readLoopAnswers,
  type LoopSignalFields,
} from './jev-coding-loop';
import { commonOutputShape, jevAnnotations, judgedOutput, parseLoopArgs, type CommonOutputFields } from './jev-common';
import {
  blockedSchema,
  callSchema,
  preparedCall,
  readSelection,
  routeThresholdsSchema,
  selectionSchema,
  toolRouteQuestions,
  type PreparedCall,
  type SelectionReport,
} from './jev-tool-route';
import { jsonSchemaOf, resolveModel } from './schemas';
import type { ToolDefinition } from './types';

/**
 * jev_step: jev_coding_loop and jev_tool_route fused into
 * exactly ONE judgment request (even with no candidates). Returns either the exact prepared call to run
 * (handoff execute_tool) or a handoff. Never generates arguments, runs a call, or invokes a model.
 */

// ---------------------------------------------------------------------------------------------------
// Input

export const stepInputSchema = z
  .object({
    ...codingLoopFields,
    candidates: candidateListSchema
      .optional()
      .describe('Up to 32 exact calls prepared and checked by the host (jev_tool_route shape); omit when none is prepared'),
  })
  .strict();
/** Parsed jev_step arguments. */
export type StepInput = z.infer<typeof stepInputSchema>;

// ---------------------------------------------------------------------------------------------------
// Pack

/** Coding-loop questions, plus the tool-route questions when `n` > 0 eligible candidates exist. */
export function stepQuestions(n: number): QuestionMap {
  // Object.assign rather than object spread: same keys in the same order (the packs' ids are fixed, so no
  // setter or `__proto__` key is involved), but V8 spreads a 33-key map into a literal ~6× slower.
  return n > 0 ? Object.assign({}, codingLoopQuestions(), toolRouteQuestions(n)) : codingLoopQuestions();
}

// ---------------------------------------------------------------------------------------------------
// Decision

export const stepPartnerModelSchema = z
  .object({
    required: z.boolean(),
    tier: z.enum(['none', ...MODEL_TIERS]),
    reason_codes: z.array(z.enum([...PARTNER_REASONS, 'prepared_candidates_declined'])).min(1),
  })
  .strict()
  .refine((p) => p.required !== (p.tier === 'none'), 'a required partner names a tier; a non-required one has tier none');

export const stepOutputSchema = z
  .object({
    ...commonOutputShape,
    handoff: z.enum(['execute_tool', ...HANDOFFS]),
    call: callSchema.nullable(),
    partner_model: stepPartnerModelSchema,
    selection: selectionSchema.nullable(),
    blocked_candidates: z.array(blockedSchema),
    reason_codes: z.array(z.enum(STEP_REASONS)).min(1),
    ...loopSignalsOutputShape,
    thresholds: routeThresholdsSchema,
  })
  .strict()
  .refine((r) => (r.call !== null) === (r.handoff === 'execute_tool'), 'a call is returned exactly with handoff execute_tool')
  .refine((r) => r.call === null || (r.action === 'auto' && !r.partner_model.required), 'a returned call needs action auto and no partner');

/** A jev_step result. */
export interface StepResult extends CommonOutputFields, LoopSignalFields {
  handoff: StepHandoff;
  call: PreparedCall | null;
  partner_model: { required: boolean; tier: 'none' | 'cheap' | 'standard' | 'reasoning'; reason_codes: StepPartnerReason[] };
  selection: SelectionReport | null;
  blocked_candidates: BlockedCandidate[];
  reason_codes: StepReason[];
  thresholds: { auto_accept: number; review_at: number; dispatch_at: number };
}

/**
 * Pure decision of jev_step:
 * 1. loop action exactly as jev_coding_loop (a clipped candidate description also makes context incomplete);
 * 2. selection reasons exactly as jev_tool_route at dispatch_at = max(0.8, auto_accept);
 *    no candidates → no_candidates, none eligible → no_eligible_candidates;
 * 3. partner routing with prepared_tool_call := dispatchable (the host flag is ignored);
 * 4. handoff resolution (resolveStepHandoff); action = worst(loop action, selection verdict).
 * Throws INVALID_INPUT (thresholds) or INVALID_RESPONSE (answers missing or mistyped).
 */
export function decideStep(input: StepInput, judged: Judged, floors: Floors): StepResult {
  return decideWith(input, judged, floors, prepareCandidates(input));
}

/** The step's candidates split and projected once per call (execute shares them between state and decision). */
interface PreparedCandidates {
  eligible: Candidate[];
  blocked: BlockedCandidate[];
  projections: CandidateProjection[];
  clipped: boolean;
}

function prepareCandidates(input: StepInput): PreparedCandidates {
  const { eligible, blocked } = partitionCandidates(input.candidates ?? []);
  return { eligible, blocked, ...projectCandidates(eligible) };
}

function decideWith(input: StepInput, judged: Judged, floors: Floors, prepared: PreparedCandidates): StepResult {
  const t = tightenJudgmentThresholds(input.auto_accept, input.review_at, floors.auto_accept, floors.review_at);
  const dispatchAt = dispatchFloor(t.auto_accept);
  const supplied = input.candidates ?? [];
  const { eligible, blocked, clipped } = prepared;
  const incomplete = judged.truncated || !judged.coverage.complete || clipped;
  const { signals, fields } = readLoopAnswers(judged);
  const actionLoop = loopAction(signals, t, incomplete);

  const reasons: StepReason[] = [];
  let sel: SelectionJudgment | null = null;
  if (incomplete) reasons.push('incomplete_context');
  if (supplied.length === 0) reasons.push('no_candidates');
  else if (eligible.length === 0) reasons.push('no_eligible_candidates');
  else {
    sel = readSelection(judged, eligible);
    reasons.push(...selectionReasons(sel, false, dispatchAt));
  }
  const dispatchable = sel !== null && sel.index !== null && reasons.length === 0;
  const verdict = stepSelectionVerdict(sel, reasons, t.review_at);

  const routing = partnerRouting({
    signals,
    action: actionLoop,
    incomplete,
    execution: { ...executionFacts(input.execution), prepared_tool_call: dispatchable },
    thresholds: t,
  });
  const resolved = resolveStepHandoff({
    routing,
    dispatchable,
    reasons,
    effectReview: effectRequiresReview(sel?.effect ?? null),
    allBlocked: supplied.length > 0 && eligible.length === 0,
  });
  const chosen = sel && sel.index !== null ? eligible[sel.index]! : null;
  return {
    ...judgedOutput(judged),
    coverage: clipped ? { ...judged.coverage, complete: false } : judged.coverage,
    action: worstAction([actionLoop, verdict]),
    handoff: resolved.handoff,
    call: resolved.execute && chosen ? preparedCall(chosen) : null,
    partner_model: resolved.partner_model,
    selection: sel ? { id: chosen?.id ?? null, confidence: sel.confidence, suitability: sel.suitability } : null,
    blocked_candidates: blocked,
    reason_codes: resolved.reasons,
    ...fields,
    thresholds: { auto_accept: t.auto_accept, review_at: t.review_at, dispatch_at: dispatchAt },
  };
}

/**
 * Judgment state of a step: trusted facts and the redacted eligible candidates before free text, so a cut
 * falls on observation/extras first. The host's prepared_tool_call flag is left out:
 * the candidate list is the evidence, and dispatchability is decided locally.
 */
export function stepState(input: StepInput): Record<string, unknown> {
  return stateWith(input, prepareCandidates(input));
}

function stateWith(input: StepInput, prepared: PreparedCandidates): Record<string, unknown> {
  const e = executionFacts(input.execution);
  return {
    task: input.task,
    execution: { context_complete: e.context_complete, failed_attempts: e.failed_attempts },
    candidates: prepared.projections,
    observation: input.observation,
    extras: input.extras ?? {},
  };
}

// ---------------------------------------------------------------------------------------------------
// Tool

const TITLE = 'Jev fused step router';

/** Parses jev_step arguments before any request (same rules as jev_coding_loop plus the candidate rules). */
export function parseStep(args: unknown, floors: Floors): StepInput {
  return parseLoopArgs(stepInputSchema, args, floors, ['candidates']);
}

export const jevStepTool: ToolDefinition<StepInput, StepResult> = {
  name: 'jev_step',
  title: TITLE,
  description:
    'One call per agent-loop turn in place of jev_coding_loop then jev_tool_route: a single judgment request returns either ' +
    'the exact prepared call to run (handoff execute_tool, action auto) or a handoff (use_tools, gather_context, partner_model, ' +
    'ask_user, stop, review). Pass up to 32 host-prepared calls as candidates, or none. Argument values never reach the judge. ' +
    'Invoke a partner model only when partner_model.required is true. Never generates arguments, runs a call, or calls a model.',
  family: 'jev',
  annotations: jevAnnotations(TITLE),
  inputJsonSchema: jsonSchemaOf(stepInputSchema),
  outputJsonSchema: jsonSchemaOf(stepOutputSchema, 'output'),
  outputSchema: stepOutputSchema as unknown as z.ZodType<StepResult>,
  parse: parseStep,
  async execute(input, ctx) {
    const prepared = prepareCandidates(input);
    const judged = await ctx.judge(stateWith(input, prepared), stepQuestions(prepared.eligible.length), resolveModel(input.model, ctx.model));
    return decideWith(input, judged, ctx.floors, prepared);
  },
};
