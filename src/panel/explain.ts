/**
 * What the editor says about one decision: the headline (`execute_tool · auto · confidence 0.93 ≥ dispatch_at
 * 0.80`), the marks on
 * candidates and claims, and the Markdown summary (handoff, reason codes with their plain-language
 * explanations, thresholds). Pure (no clock), so the same text is unit-tested and shown for a request file,
 * a recorded decision and the commit gate alike. Reason-code explanations come from reason-codes.ts, the
 * table the webview shows too, so every surface agrees.
 */
import type { Answer } from '../judgment/types';
import { fmtThresholds } from './outcome-diff';
import { claimLine, compare, fmtAgainst, fmtProb, versusNamed } from './numbers';
import { explainReason } from './reason-codes';
import type { JsonPath } from '../request-files/json-locate';
import { editorWording } from '../config/editor-wording';

/** The part of a DecisionRecord the inline surfaces read. */
export interface DecisionLike {
  id: string;
  tool: string;
  agent: string;
  input: unknown;
  result?: unknown;
  error?: { code: string; message: string };
  response?: { model?: string; answers: Record<string, Answer> } | null;
}

/** How a mark or headline is coloured: good = approved/selected, warn = needs a person, bad = blocked/failed. */
export type Tone = 'good' | 'warn' | 'bad' | 'neutral';

/** An after-line mark on one value of the tool input (a candidate, a claim). */
export interface InlineMark {
  /** Path of the value inside the tool input (e.g. ['candidates', 0]). */
  path: JsonPath;
  tone: Tone;
  /** Short text shown after the line. */
  text: string;
  /** Markdown of the hover on that value (no command links; the host adds them). */
  hover: string;
}

/** Plain-language meaning of each handoff of jev_step / jev_coding_loop / jev_tool_route (the partner handoff values). */
export const HANDOFF_TEXT: Readonly<Record<string, string>> = Object.freeze({
  execute_tool: 'Run the returned call exactly as prepared (only this call, with these arguments); no model turn is needed.',
  use_tools: 'Continue with the prepared calls or the host tools; no partner model is needed. A routing hint, not permission to run anything.',
  gather_context: 'Collect the missing evidence first (read files, run checks, prepare valid calls), then ask again.',
  partner_model: 'New code or arguments must be generated: hand the step to a partner model of the tier in partner_model.tier.',
  ask_user: 'A person must supply the missing input or decision before the agent continues.',
  stop: 'Stop the coding loop: the task looks finished.',
  review: 'A person should inspect the decision and its reason codes before anything runs.',
});

/** Meaning of each action of the outcome lattice auto < review < escalate (src/policy/actions.ts). */
export const ACTION_TEXT: Readonly<Record<string, string>> = Object.freeze({
  auto: 'auto — confident enough to proceed without a person.',
  review: 'review — a person should look before proceeding.',
  escalate: 'escalate — too uncertain or too risky; do not proceed on this judgment.',
});

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Text as inline Markdown code (backticks inside are replaced, so user text cannot close the span). */
export function code(text: string): string {
  return `\`${text.replace(/`/g, "'").replace(/\r?\n/g, ' ')}\``;
}

/** Escapes Markdown so user text (candidate descriptions, claims) renders literally. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
}

/** `0.93 ≥ 0.80`, `0.62 < 0.80`, `0.947 < 0.95` (never a rounding that flips the comparison; src/panel/numbers.ts). */
export function versus(value: number, threshold: number): string {
  return compare(value, threshold).text;
}

function toneOfAction(action: string | undefined): Tone {
  return action === 'auto' ? 'good' : action === 'review' ? 'warn' : action === 'escalate' ? 'bad' : 'neutral';
}

/** Effective thresholds of a result (jev_gate nests them in review/verification). */
export function resultThresholds(result: unknown): Obj | undefined {
  if (!isObj(result)) return undefined;
  if (isObj(result.thresholds)) return result.thresholds;
  if (isObj(result.verification) && isObj(result.verification.thresholds)) return result.verification.thresholds;
  if (isObj(result.review) && isObj(result.review.thresholds)) return result.review.thresholds;
  return undefined;
}

/**
 * The confidence the headline compares, the label it belongs to (the selected candidate, the next step, the
 * choice), and the threshold it must reach with that threshold's name.
 */
function headlineConfidence(result: Obj): { label?: string; value: number; name: string; threshold: number } | undefined {
  const t = resultThresholds(result) ?? {};
  const selection = isObj(result.selection) ? result.selection : undefined;
  const dispatchAt = num(t.dispatch_at);
  if (selection && num(selection.confidence) !== undefined && dispatchAt !== undefined) {
    return { label: typeof selection.id === 'string' ? `selected ${selection.id}` : 'selected none', value: num(selection.confidence)!, name: 'dispatch_at', threshold: dispatchAt };
  }
  const next = isObj(result.next) ? result.next : undefined;
  const autoAccept = num(t.auto_accept);
  if (next && num(next.confidence) !== undefined && autoAccept !== undefined) {
    return { label: typeof next.choice === 'string' ? `next ${next.choice}` : undefined, value: num(next.confidence)!, name: 'auto_accept', threshold: autoAccept };
  }
  const confidence = num(result.confidence);
  if (confidence !== undefined && autoAccept !== undefined) return { label: str(result.choice), value: confidence, name: 'auto_accept', threshold: autoAccept };
  return undefined;
}

/** Claim results of jev_verify (`results`) or jev_gate (`verification.results`). */
function claimResults(result: Obj): Obj[] | undefined {
  const list = Array.isArray(result.results) ? result.results : isObj(result.verification) && Array.isArray(result.verification.results) ? result.verification.results : undefined;
  return list?.filter(isObj);
}

/** "partial input (34% judged)" when the judged state was cut, else undefined. */
export function coverageNote(result: unknown): string | undefined {
  if (!isObj(result)) return undefined;
  const coverage = isObj(result.coverage) ? result.coverage : undefined;
  if (result.truncated !== true && coverage?.complete !== false) return undefined;
  const original = num(coverage?.original_chars);
  const evaluated = num(coverage?.evaluated_chars);
  const pct = original && evaluated !== undefined ? Math.max(0, Math.min(100, Math.floor((100 * evaluated) / original))) : undefined;
  return `partial input${pct !== undefined ? ` (${pct}% judged)` : ''}`;
}

/**
 * The CodeLens headline of a decision: handoff, action, the deciding confidence against its threshold,
 * tool-specific counts (claims verified), and a partial-input note. A failure shows its error code and
 * "no decision": it never reads as an approval.
 */
export function headline(d: DecisionLike): { text: string; tone: Tone } {
  if (d.error) return { text: `${d.error.code} · no decision (fails closed)`, tone: 'bad' };
  const r = isObj(d.result) ? d.result : {};
  const parts: string[] = [];
  // jev_permit's allow / ask / deny leads: it is what the host acts on.
  const decision = str(r.decision);
  if (decision) parts.push(decision);
  const handoff = str(r.handoff);
  if (handoff) parts.push(handoff);
  const action = str(r.action) ?? (isObj(r.policy) ? `policy ${String(r.policy.result)}` : undefined);
  if (action) parts.push(action);
  const c = headlineConfidence(r);
  if (c) parts.push(`${c.label ? `${c.label}: ` : ''}${versusNamed('confidence', c.value, c.name, c.threshold)}`);
  const claims = claimResults(r);
  if (claims) parts.push(`claims ${claims.filter((x) => x.verdict === 'verified').length}/${claims.length} verified`);
  if (isObj(r.review) && str(r.review.action)) parts.push(`review ${String(r.review.action)}`);
  const partial = coverageNote(r);
  if (partial) parts.push(partial);
  if (parts.length === 0) parts.push(`${d.tool} decided`);
  return { text: parts.join(' · '), tone: toneOfAction(str(r.action)) };
}

/** Markdown list of reason codes with their explanations. */
export function reasonList(codes: readonly unknown[]): string {
  return codes.map((c) => `- ${code(String(c))} — ${explainReason(String(c)).text}`).join('\n');
}

/** "**Thresholds** auto_accept 0.80 · review_at 0.50 · dispatch_at 0.80" (empty when the result has none). */
export function thresholdsLine(result: unknown): string {
  const t = fmtThresholds(resultThresholds(result));
  return t ? `**Thresholds** ${t}` : '';
}

/**
 * Markdown of the decision summary (hover on the request file's top line, the lens tooltip, the decision
 * document's `result`): headline, handoff and action explained, every reason code explained, thresholds,
 * the returned call, partial coverage, and the model.
 */
export function summaryMarkdown(d: DecisionLike): string {
  const out: string[] = [];
  out.push(`**${d.tool}** → ${headline(d).text}`);
  if (d.error) {
    out.push(`${code(d.error.code)} — ${explainReason(d.error.code).text}`);
    out.push(escapeMarkdown(editorWording(d.error.message)));
    out.push('A failed judgment never approves anything.');
    return out.join('\n\n');
  }
  const r = isObj(d.result) ? d.result : {};
  const handoff = str(r.handoff);
  if (handoff) out.push(`**Handoff** ${code(handoff)} — ${HANDOFF_TEXT[handoff] ?? 'No explanation is recorded for this handoff.'}`);
  const action = str(r.action);
  if (action) out.push(`**Action** ${ACTION_TEXT[action] ?? code(action)}`);
  if (Array.isArray(r.reason_codes) && r.reason_codes.length) out.push(`**Reasons**\n${reasonList(r.reason_codes)}`);
  if (isObj(r.partner_model) && Array.isArray(r.partner_model.reason_codes) && r.partner_model.reason_codes.length) {
    const p = r.partner_model;
    out.push(`**Partner model** ${p.required === true ? `required (${String(p.tier)})` : 'not required'}\n${reasonList(p.reason_codes as unknown[])}`);
  }
  if (isObj(r.call)) out.push(`**Call** ${code(String(r.call.name))} (candidate ${code(String(r.call.candidate_id))}), arguments exactly as prepared`);
  const thresholds = thresholdsLine(r);
  if (thresholds) out.push(thresholds);
  const partial = coverageNote(r);
  if (partial) out.push(`**Coverage** ${partial}: part of the input was not judged, so the decision is never auto.`);
  const model = str(r.model) ?? d.response?.model;
  out.push(`Judged by ${code(model ?? 'unknown model')} as agent ${code(d.agent)}.`);
  return out.join('\n\n');
}

/** Eligible position of each candidate (the judge's call_i) and its block reasons. */
function candidateFacts(d: DecisionLike): { id: string; index: number | null; blocked: string[] }[] | undefined {
  const input = isObj(d.input) ? d.input : {};
  if (!Array.isArray(input.candidates)) return undefined;
  const r = isObj(d.result) ? d.result : {};
  const blocked = new Map<string, string[]>();
  if (Array.isArray(r.blocked_candidates)) {
    for (const b of r.blocked_candidates) if (isObj(b) && typeof b.id === 'string') blocked.set(b.id, Array.isArray(b.reason_codes) ? b.reason_codes.map(String) : []);
  }
  let eligible = 0;
  return input.candidates.map((c) => {
    const id = isObj(c) ? String(c.id ?? '?') : '?';
    const reasons = blocked.get(id) ?? [];
    return { id, index: reasons.length ? null : eligible++, blocked: reasons };
  });
}

/** Marks on each candidate of a jev_step / jev_tool_route decision: selected, blocked, or eligible but not chosen. */
function candidateMarks(d: DecisionLike): InlineMark[] {
  const facts = candidateFacts(d);
  if (!facts || d.error) return [];
  const r = isObj(d.result) ? d.result : {};
  const t = resultThresholds(r) ?? {};
  const dispatchAt = num(t.dispatch_at);
  const answers = d.response?.answers ?? {};
  const selected = answers.selected?.type === 'choice' ? answers.selected : undefined;
  const selection = isObj(r.selection) ? r.selection : undefined;
  const returned = isObj(r.call) ? str(r.call.candidate_id) : undefined;
  const otherReasons = Array.isArray(r.reason_codes) ? r.reason_codes.map(String).filter((c) => c !== 'accepted') : [];
  const thresholds = thresholdsLine(r);
  return facts.map(({ id, index, blocked }, i): InlineMark => {
    const path = ['candidates', i];
    if (index === null) {
      return {
        path,
        tone: 'bad',
        text: `✕ blocked: ${blocked.join(', ')}`,
        hover: [`**${code(id)} is blocked** by the host's checks; the judge never saw it.`, reasonList(blocked)].join('\n\n'),
      };
    }
    const p = selected?.probabilities[`call_${index}`];
    const suitAnswer = answers[`suitable_${index}`];
    const suit = suitAnswer?.type === 'noul' ? suitAnswer.noul : undefined;
    if (selection && selection.id === id) {
      const confidence = num(selection.confidence) ?? p;
      const suitability = num(selection.suitability) ?? suit;
      const named = (what: string, v: number) => (dispatchAt !== undefined ? versusNamed(what, v, 'dispatch_at', dispatchAt) : `${what} ${fmtProb(v)}`);
      const numbers = [confidence !== undefined ? named('confidence', confidence) : undefined, suitability !== undefined ? named('suitability', suitability) : undefined].filter(Boolean);
      if (returned === id) {
        return {
          path,
          tone: 'good',
          text: `✓ selected · ${numbers.join(' · ')} → ${String(r.handoff ?? 'execute_tool')} (${String(r.action)})`,
          hover: [`**${code(id)} is the returned call**: run exactly this call with these arguments.`, `- ${numbers.join('\n- ')}`, thresholds].filter(Boolean).join('\n\n'),
        };
      }
      return {
        path,
        tone: 'warn',
        text: `◆ selected, not dispatched · ${numbers.join(' · ')}${otherReasons.length ? ` — ${otherReasons.join(', ')}` : ''}`,
        hover: [`**${code(id)} was the judge's pick, but it is not returned as a call.**`, `- ${numbers.join('\n- ')}`, otherReasons.length ? reasonList(otherReasons) : '', thresholds]
          .filter(Boolean)
          .join('\n\n'),
      };
    }
    // The judge's probability of picking this call; a tiny one reads "<0.01" rather than a misleading "0.00".
    const pick = p === undefined ? undefined : p < 0.005 ? '<0.01' : fmtAgainst(p, dispatchAt !== undefined ? [dispatchAt] : []);
    const numbers = [
      pick !== undefined ? `P(selected) ${pick}` : undefined,
      suit !== undefined ? `suitability ${fmtAgainst(suit, dispatchAt !== undefined ? [dispatchAt] : [])}` : undefined,
    ].filter(Boolean);
    return {
      path,
      tone: 'neutral',
      text: `○ eligible, not chosen${numbers.length ? ` · ${numbers.join(' · ')}` : ''}`,
      hover: [`**${code(id)} was eligible** (every host check passed) but the judge did not pick it.`, numbers.length ? `- ${numbers.join('\n- ')}` : '', thresholds].filter(Boolean).join('\n\n'),
    };
  });
}

const VERDICT_TEXT: Readonly<Record<string, string>> = Object.freeze({
  verified: 'the evidence supports the claim',
  contradicted: 'the evidence contradicts the claim',
  unsupported: 'the evidence does not back the claim either way',
});

/** The auto_accept / review_at pair a claim's confidence was measured against (jev_gate nests it in verification). */
export function claimThresholds(result: unknown): Obj | undefined {
  if (!isObj(result)) return undefined;
  if (isObj(result.verification) && isObj(result.verification.thresholds)) return result.verification.thresholds;
  return isObj(result.thresholds) ? result.thresholds : undefined;
}

/** Marks on each claim of a jev_verify / jev_gate decision: verdict, its confidence, and the claim's action. */
function claimMarks(d: DecisionLike): InlineMark[] {
  const input = isObj(d.input) ? d.input : {};
  const r = isObj(d.result) ? d.result : undefined;
  const results = r ? claimResults(r) : undefined;
  if (!results || !Array.isArray(input.claims) || d.error) return [];
  const thresholds = thresholdsLine(r);
  return results.slice(0, input.claims.length).map((c, i): InlineMark => {
    const verdict = String(c.verdict);
    const tone: Tone = verdict === 'verified' ? 'good' : verdict === 'contradicted' ? 'bad' : 'warn';
    const mark = verdict === 'verified' ? '✓' : verdict === 'contradicted' ? '✕' : '?';
    return {
      path: ['claims', i],
      tone,
      text: `${mark} ${claimLine(c as { verdict: unknown; confidence: unknown; action: unknown }, claimThresholds(r))}`,
      hover: [
        `**Claim ${i + 1}: ${verdict}** — ${VERDICT_TEXT[verdict] ?? 'no explanation is recorded for this verdict'} (${claimLine(c as { verdict: unknown; confidence: unknown; action: unknown }, claimThresholds(r)).replace(/^[^:]*: /, '')}).`,
        `**Action** ${ACTION_TEXT[String(c.action)] ?? code(String(c.action))}`,
        thresholds,
      ]
        .filter(Boolean)
        .join('\n\n'),
    };
  });
}

/** Every after-line mark of a decision, on values of its tool input. */
export function inputMarks(d: DecisionLike): InlineMark[] {
  return [...candidateMarks(d), ...claimMarks(d)];
}

/**
 * Hover Markdown for a value inside a recorded decision's `result` (the read-only decision document):
 * the handoff, the action, any reason code (top level, blocked candidates, partner model, gate) and the
 * thresholds object. `path` is relative to `result`; undefined when nothing there needs explaining.
 */
export function explainResultPath(d: DecisionLike, path: JsonPath): string | undefined {
  const r = isObj(d.result) ? d.result : undefined;
  if (!r || path.length === 0) return undefined;
  const [head] = path;
  const thresholds = thresholdsLine(r);
  if (head === 'handoff' && typeof r.handoff === 'string') {
    return [`**Handoff** ${code(r.handoff)} — ${HANDOFF_TEXT[r.handoff] ?? 'No explanation is recorded for this handoff.'}`, thresholds].filter(Boolean).join('\n\n');
  }
  if (head === 'action' && typeof r.action === 'string') return [`**Action** ${ACTION_TEXT[r.action] ?? code(r.action)}`, thresholds].filter(Boolean).join('\n\n');
  if (head === 'thresholds' || path.includes('thresholds')) return thresholds || undefined;
  // Any string inside a reason_codes array, wherever it sits (result, partner_model, blocked_candidates[i]).
  const at = path.lastIndexOf('reason_codes');
  if (at >= 0 && at === path.length - 2 && typeof path[path.length - 1] === 'number') {
    let v: unknown = r;
    for (const seg of path) v = isObj(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[seg] : undefined;
    if (typeof v === 'string') return [`${code(v)} — ${explainReason(v).text}`, thresholds].filter(Boolean).join('\n\n');
  }
  if (at >= 0 && at === path.length - 1) {
    let v: unknown = r;
    for (const seg of path) v = isObj(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[seg] : undefined;
    if (Array.isArray(v)) return [reasonList(v), thresholds].filter(Boolean).join('\n\n');
  }
  return undefined;
}
