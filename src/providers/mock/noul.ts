/** Noul answers of the mock judge: P(true) for a yes/no question from the instruction's wording and the state. */
import { completionEvidence, destructiveEvidence, failureEvidence } from './evidence';
import { ASK, INJECTION_PHRASES, MAX_RULE_TEXT, URGENT } from './keywords';
import { pendingFamiliesOf } from './pending';
import { permitNoul } from './permit';
import { fitsOf, MIN_FIT, suitabilityIndex } from './routing';
import { clampNoul, leadSentence, overlap, questionText, scalarText } from './text';
import { isPlainObject, leafText, METADATA_FIELD, stringField, type MockView } from './view';
import type { NoulQuestion } from '../../judgment/types';

/** Question-id overrides: an independent judgment the mock cannot make, so it says "don't know". */
const NOUL_BY_ID: Record<string, number> = { needs_generation: 0.5 };

type NoulRule = { re: RegExp; value: (view: MockView, q: NoulQuestion) => number };

/** First-match noul rules, keyed on the instruction wording of the jev tools' question packs (src/tools/). */
const NOUL_RULES: NoulRule[] = [
  {
    re: /\binjection\b|jailbreak|aimed at an ai/,
    value: (v) => (INJECTION_PHRASES.some((p) => v.phrases.includes(p)) ? 0.97 : 0.04),
  },
  {
    re: /\bsubstantive\b|has substance/,
    value: (v) => {
      const text = (stringField(v, 'text') || v.all).trim();
      return text.length < 40 ? 0.12 : Math.min(0.97, 0.4 + text.length / 800);
    },
  },
  {
    re: /\brelevant\b/,
    value: (v, q) => {
      const purpose = stringField(v, 'purpose');
      if (purpose.trim() === '') return overlap(v.allTokens, questionText(q.instructions));
      const rest = v.fields ? leafText(Object.fromEntries(Object.entries(v.fields).filter(([k]) => k !== 'purpose' && k !== METADATA_FIELD))) : v.all;
      return overlap(rest, purpose);
    },
  },
  {
    re: /complete enough|done enough|task (?:is )?complete|ready to stop|enough to stop/,
    value: (v) => (completionEvidence(v) ? 0.86 : 0.22),
  },
  {
    re: /\bmore\b[^.?!]*\bcontext\b|missing context/,
    // Something still to be read or searched is context the agent lacks (and can fetch itself).
    value: (v) => {
      const pending = pendingFamiliesOf(v);
      if (pending.has('read') || pending.has('search')) return 0.86;
      return ASK.test(v.outcome) ? 0.81 : 0.18;
    },
  },
  {
    re: /likely fail/,
    value: (v) => (failureEvidence(v) ? 0.84 : 0.16),
  },
  {
    re: /\bsafe\b[^.?!]*\b(?:apply|merge)\b/,
    value: (v) => (destructiveEvidence(v) ? 0.12 : 0.78),
  },
  {
    re: /does any candidate|address(?:es)? the query/,
    value: (v) => candidateExistence(v),
  },
];

/** max overlap(id + text, query) over state.candidates: > 0.25 → min(0.99, 0.5 + max), else 0.12. */
function candidateExistence(view: MockView): number {
  const query = stringField(view, 'query');
  const candidates = view.fields?.candidates;
  if (query.trim() === '' || !Array.isArray(candidates)) return 0.14;
  let best = 0;
  for (const c of candidates) {
    if (!isPlainObject(c)) continue;
    best = Math.max(best, overlap(`${scalarText(c.id)} ${scalarText(c.text)}`, query));
  }
  return best > 0.25 ? Math.min(0.99, 0.5 + best) : 0.12;
}

/**
 * P(true) for a noul question: id override, then a routing suitability question (id `suitable_i` or
 * an instruction naming `state.candidates[i]`, with candidates in the state) → {@link candidateFits}[i]
 * (MIN_FIT for a missing candidate), then a jev_permit noul about `state.call` (permit.ts), then the first instruction rule whose pattern matches
 * the lead sentence, else the whole instruction, else 0.15 + 0.7·overlap(state, instructions). Urgency
 * questions are raised to ≥ 0.93 when the state is urgent. Result clamped to [0.001, 0.999].
 */
export function noulValue(id: string, question: NoulQuestion, view: MockView): number {
  if (Object.hasOwn(NOUL_BY_ID, id)) return NOUL_BY_ID[id]!;
  // A `suitable_<i>` id names the candidate without the (long) instruction text being read.
  const byId = suitabilityIndex(id, '');
  const fitsById = byId === null ? null : fitsOf(view);
  if (fitsById && byId !== null) return clampNoul(fitsById[byId] ?? MIN_FIT);
  const text = questionText(question.instructions).toLowerCase();
  const index = byId ?? suitabilityIndex(id, text);
  const fits = index === null ? null : fitsOf(view);
  if (fits && index !== null) return clampNoul(fits[index] ?? MIN_FIT);
  // Pack wording sits at the start; a bounded prefix keeps the sentence-spanning patterns linear.
  const head = text.slice(0, MAX_RULE_TEXT);
  const lead = leadSentence(head);
  const permit = permitNoul(lead, view);
  if (permit !== undefined) return clampNoul(permit);
  const rule = NOUL_RULES.find((r) => r.re.test(lead)) ?? NOUL_RULES.find((r) => r.re.test(head));
  let p = rule ? rule.value(view, question) : 0.15 + 0.7 * overlap(view.allTokens, text);
  if (/\burgen(?:t|cy)\b/.test(text) && URGENT.test(view.all)) p = Math.max(p, 0.93);
  return clampNoul(p);
}
