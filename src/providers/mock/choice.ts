/** Choice answers of the mock judge: one unnormalized score per option (provider.ts turns them into probabilities). */
import { cleanOutcome, completionEvidence, failureEvidence } from './evidence';
import { ASK, CLAIM_OPTIONAL, EVIDENCE_MANDATORY, LABEL_BOOSTS, NEGATED_REQUIRED, RETRY_EXTRA, STOP_EXTRA } from './keywords';
import { pendingFamiliesOf } from './pending';
import { isPermitEffectChoice, isPermitState, permitEffectScores } from './permit';
import { fitsOf, isRouteSelection, routeSelectionScores } from './routing';
import { overlap, questionText, scalarText } from './text';
import { isPlainObject, stringField, type MockView } from './view';
import type { ChoiceQuestion } from '../../judgment/types';

/** Focus label favoured by each pending action family. */
const PENDING_FOCUS: Record<string, string> = { read: 'read', search: 'search', run: 'test', edit: 'edit' };

/**
 * Unnormalized option scores: 3·overlap(state, label + description) + overlap(state, instructions)
 * + verify boost (instruction names `claims[i]`) + rank boost (state has `query`) + label keyword boosts.
 * One number per option, in option order.
 * A routing selection (options none/call_i, state.candidates present) uses {@link routeSelectionScores}
 * instead; the effect choice of a jev_permit pack (state.call present) uses {@link permitEffectScores}. When the observation names pending work ({@link pendingSentences}), continue gains +4 and the
 * failure/gap keyword boosts of retry and ask_user are withheld (the agent is diagnosing with its own
 * tools, not failing or blocked), and the matching focus label gains +4 (read, search, run → test, edit).
 */
export function choiceScores(id: string, question: ChoiceQuestion, view: MockView): number[] {
  const labels = Object.keys(question.criteria);
  if (isRouteSelection(labels)) {
    const fits = fitsOf(view);
    if (fits) return routeSelectionScores(labels, fits);
  }
  if (isPermitEffectChoice(labels) && isPermitState(view)) return permitEffectScores(labels, view);
  const instructions = questionText(question.instructions);
  const base = overlap(view.allTokens, instructions);
  const verify = verifyBoosts(id, instructions, view);
  const query = stringField(view, 'query');
  const rankIds = query.trim() !== '' ? candidateIds(view) : null;
  const failed = failureEvidence(view);
  const completed = completionEvidence(view) || (!failed && STOP_EXTRA.test(cleanOutcome(view)));
  const pending = pendingFamiliesOf(view);
  const focus = new Set([...pending].map((f) => PENDING_FOCUS[f]));

  return Object.entries(question.criteria).map(([label, description]) => {
    const desc = questionText(description);
    let s = 3 * overlap(view.allTokens, `${label} ${desc}`) + base;
    if (verify) s += verify[label] ?? 0;
    if (rankIds) s += 10 * overlap(`${label} ${rankIds.get(label) ?? ''} ${desc}`, query);
    switch (label) {
      case 'retry':
        if (pending.size === 0 && (failed || RETRY_EXTRA.test(view.outcome))) s += 4;
        break;
      case 'stop':
        if (completed) s += 4;
        break;
      case 'ask_user':
        if (pending.size === 0 && ASK.test(view.outcome)) s += 4;
        break;
      case 'continue':
        if (pending.size > 0) s += 4;
        else if (s < 1) s += 0.8;
        break;
      case 'standard':
        s += 0.4;
        break;
      default: {
        const boost = Object.hasOwn(LABEL_BOOSTS, label) ? LABEL_BOOSTS[label] : undefined;
        if (boost && boost.re.test(view.all)) s += boost.boost;
        if (focus.has(label)) s += 4;
      }
    }
    return s;
  });
}

/** Private rank label → host id, from state.candidates [{label, id, text}]. */
function candidateIds(view: MockView): Map<string, string> {
  const out = new Map<string, string>();
  const candidates = view.fields?.candidates;
  if (!Array.isArray(candidates)) return out;
  for (const c of candidates) if (isPlainObject(c) && typeof c.label === 'string') out.set(c.label, scalarText(c.id));
  return out;
}

/**
 * Verify boosts for a claim question: contradicted +6 when the claim calls something optional and the
 * evidence calls it mandatory; else verified +6 when overlap(evidence, claim) > 0.28; else unsupported +5
 * when overlap < 0.18. Null when the instruction names no claim index or the claim is not in the state.
 */
function verifyBoosts(id: string, instructions: string, view: MockView): Record<string, number> | null {
  const m = /claims\[(\d+)\]/.exec(instructions) ?? (instructions.includes('claims[') ? /^claim_(\d+)$/.exec(id) : null);
  if (!m) return null;
  const claims = view.fields?.claims;
  const claim: unknown = Array.isArray(claims) ? claims[Number(m[1])] : undefined;
  if (typeof claim !== 'string') return null;
  const evidence = evidenceText(view.fields?.evidence).toLowerCase();
  const claimText = claim.toLowerCase();
  const conflict = CLAIM_OPTIONAL.test(claimText) && EVIDENCE_MANDATORY.test(evidence.replace(NEGATED_REQUIRED, ' '));
  if (conflict) return { contradicted: 6 };
  const o = overlap(evidence, claimText);
  if (o > 0.28) return { verified: 6 };
  if (o < 0.18) return { unsupported: 5 };
  return {};
}

/** Evidence as text: a string, or the texts of [{id, text}] items. */
function evidenceText(evidence: unknown): string {
  if (typeof evidence === 'string') return evidence;
  if (Array.isArray(evidence)) return evidence.map((e) => (isPlainObject(e) ? scalarText(e.text) : scalarText(e))).join('\n');
  return '';
}
