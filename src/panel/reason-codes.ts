/**
 * One-line plain-language explanations of every reason code the jev tools report, and of the error
 * codes a failed call shows in its place. Sources: the coding-loop partner codes (jev_coding_loop,
 * jev_step), the tool-route set (jev_tool_route, jev_step, plus routing_blocked_dispatch), candidate
 * block reasons, the gate set (jev_gate), the permit set (jev_permit), and the judgment error codes (src/judgment/errors.ts).
 * A unit test checks this table against the code lists exported by src/policy and src/tools.
 */

/** Where a code comes from; the panel groups and colours by it. */
export type ReasonKind = 'accept' | 'route' | 'partner' | 'block' | 'gate' | 'error';

/** Explanation of one code. */
export interface ReasonInfo {
  kind: ReasonKind;
  /** One sentence, plain language, no trailing jargon. */
  text: string;
}

const R = (kind: ReasonKind, text: string): ReasonInfo => ({ kind, text });

/** Code → explanation. Keys are exactly the wire codes. */
export const REASON_CODES: Readonly<Record<string, ReasonInfo>> = Object.freeze({
  // Shared
  accepted: R('accept', 'Every check passed; the decision stands as returned.'),
  incomplete_context: R(
    'route',
    'Part of the input was not judged (cut to fit the budget, over the provider budget, or a clipped candidate), so nothing is approved automatically.',
  ),

  // Coding-loop partner routing (jev_coding_loop, jev_step)
  terminal_stop: R('partner', 'The judge is confident the task is finished; the agent should stop.'),
  stop_requires_review: R('partner', 'The judge leans towards stopping, but not confidently or not done enough; a person should confirm.'),
  user_input_required: R('partner', 'A human decision, secret or missing requirement blocks progress; ask the user.'),
  next_step_uncertain: R('partner', 'The next-step judgment is not confident or concentrated enough to route on.'),
  coding_policy_requires_review: R(
    'partner',
    'The coding-loop policy did not approve the step (confidence under auto_accept, high risk, or a weak distribution).',
  ),
  repeated_failures: R('partner', 'This step already failed twice; gather context before trying again.'),
  prepared_tool_call: R('partner', 'An exact, checked tool call is ready; run it with the host tools instead of generating one.'),
  risk_uncertain: R('partner', 'The risk judgment is not confident enough at the partner floor (dispatch_at).'),
  host_context_incomplete: R('partner', 'The host says the evidence for the next step is not in hand yet (execution.context_complete is false).'),
  context_needed_or_uncertain: R('partner', 'The judge thinks more files, logs or answers are needed, or cannot rule it out.'),
  generation_not_required: R('partner', 'The judge is confident no new code or arguments must be generated; no partner model is needed.'),
  generation_need_uncertain: R('partner', 'It is unclear whether new generation is needed, so no partner model is bought on a guess.'),
  model_tier_uncertain: R('partner', 'The judge cannot say confidently which model tier should do the work.'),
  generation_required: R('partner', 'Every check passed and new generation is needed; call a partner model of the named tier.'),
  prepared_candidates_declined: R(
    'partner',
    'The prepared calls were declined without being confidently ruled out; gather context rather than pay for a partner turn.',
  ),

  // Prepared-call selection (jev_tool_route, jev_step)
  no_candidates: R('route', 'The host prepared no calls to choose from.'),
  no_eligible_candidates: R('route', 'Calls were prepared, but every one is blocked by a host check (see the candidate table).'),
  no_suitable_call: R('route', 'The judge chose "none": no prepared call should run now.'),
  selection_uncertain: R('route', 'The choice among the prepared calls is below the dispatch threshold or too spread out.'),
  suitability_uncertain: R('route', 'The selected call, judged on its own, is not suitable enough to dispatch.'),
  effect_requires_review: R('route', 'The selected or proposed call writes beyond this machine or is destructive; it always needs review.'),
  routing_blocked_dispatch: R(
    'route',
    'A call was ready to dispatch, but the coding loop routed elsewhere (a stop, risk, uncertainty or failures outrank it).',
  ),

  // Candidate eligibility (blocked candidates)
  not_authorized: R('block', 'The host marked this call as not authorized.'),
  arguments_not_validated: R('block', 'The arguments did not pass the real tool schema (schema_valid is false).'),
  preconditions_not_met: R('block', 'The host reports that the call’s preconditions are not met.'),
  retry_budget_exhausted: R('block', 'This unchanged call has already failed twice.'),
  unknown_effect: R('block', 'The call’s effect is unknown, so it cannot be dispatched safely.'),

  // Permission check of one proposed call (jev_permit); accepted, incomplete_context and effect_requires_review are shared
  effect_uncertain: R('route', 'The judged effect of the call is not confident or concentrated enough, so it counts as unknown and is never allowed.'),
  write_outside_workspace: R('route', 'The host says the call touches paths outside the workspace and it may write, so a person decides.'),
  exfiltration_likely: R('block', 'The call likely sends workspace content, credentials or personal data off the machine; it is denied.'),
  exfiltration_uncertain: R('route', 'The judge cannot confidently rule out that the call sends data off the machine.'),
  planted_purpose_likely: R('block', 'The call’s purpose likely comes from instructions planted in content the agent read; it is denied.'),
  planted_purpose_uncertain: R('route', 'The judge cannot confidently rule out that the call’s purpose was planted in content the agent read.'),
  request_not_served: R('route', 'The judge is confident the call does not serve what the user asked.'),
  request_fit_uncertain: R('route', 'The judge is not confident the call serves what the user asked.'),

  // Commit gate (jev_gate)
  review_escalated: R('gate', 'The diff review escalated: low confidence or not safe to apply.'),
  review_required: R('gate', 'The diff review wants a person to look before applying.'),
  claims_contradicted: R('gate', 'The evidence contradicts at least one claim.'),
  claims_unsupported: R('gate', 'At least one claim is not backed by the evidence given.'),
  claim_confidence_low: R('gate', 'At least one claim verdict has confidence below review_at.'),
  claim_confidence_below_auto_accept: R('gate', 'At least one claim verdict is between review_at and auto_accept.'),
  confidence_incoherent: R('gate', 'A claim’s confidence reaches auto_accept, but its distribution is too spread out to back it.'),

  // Errors (shown in place of a reason when the call failed; a failure never approves)
  CONFIG_ERROR: R('error', 'The backend is not configured correctly (key, base URL, model or provider).'),
  INVALID_INPUT: R('error', 'The tool input broke a rule; nothing was sent to the judge.'),
  INPUT_TOO_LARGE: R('error', 'The input or questions exceed the token budget; nothing was sent to the judge.'),
  INVALID_RESPONSE: R('error', 'The judge’s answer was missing, mistyped or inconsistent, so it was not used.'),
  TIMEOUT: R('error', 'The judgment did not finish before the deadline.'),
  CANCELLED: R('error', 'The call was cancelled before it finished.'),
  API_ERROR: R('error', 'The judgment backend failed (HTTP error, network failure or spend cap).'),
});

/** Explanation of `code`, or a neutral fallback naming the code for one this table does not know. */
export function explainReason(code: string): ReasonInfo {
  return Object.hasOwn(REASON_CODES, code) ? REASON_CODES[code]! : { kind: 'route', text: `No explanation is recorded for "${code}".` };
}
