/**
 * What the decision card shows, computed from what the host delivers: the tool name, the tool input,
 * the tools/call result (structuredContent or an isError text) and, when the server sent it, the decision
 * in `_meta["jevcp/decision"]` (src/mcp/app-card.ts). Pure (no DOM), so it is unit-tested in Node. The
 * wording comes from src/panel/ (headline, handoff and action texts, reason codes, candidate and claim
 * marks), so the card says what the panel and the inline surfaces say.
 */
import type { DecisionRecord } from '../../src/panel/protocol';
import { ACTION_TEXT, HANDOFF_TEXT, headline, inputMarks, type DecisionLike, type Tone } from '../../src/panel/explain';
import { fmtProb, fmtThresholds } from '../../src/panel/outcome-diff';
import { explainReason } from '../../src/panel/reason-codes';
import { floorsUsed } from '../whatif-model';

/** `_meta` key of the decision (kept equal to DECISION_META_KEY in src/mcp/app-card.ts by a unit test). */
export const DECISION_META_KEY = 'jevcp/decision';

/** One bar: an option and its probability in [0,1]. */
export interface Bar {
  option: string;
  p: number;
  chosen: boolean;
}

/** One question's answer as bars (a choice distribution, a noul, a score's distribution). */
export interface QuestionBars {
  id: string;
  /** The chosen option or the score, in words ("continue 0.93"). */
  summary: string;
  bars: Bar[];
}

/** One prepared call of jev_step / jev_tool_route / jev_coding_loop. */
export interface CandidateRow {
  id: string;
  name: string;
  status: 'selected' | 'eligible' | 'blocked';
  tone: Tone;
  /** The mark text from src/panel/explain.ts ("✓ selected · confidence 0.92 ≥ 0.80 …"). */
  text: string;
}

/** One claim of jev_verify / jev_gate. */
export interface ClaimRow {
  claim: string;
  verdict: string;
  tone: Tone;
  text: string;
}

/** Everything the card renders. */
export interface CardModel {
  tool: string;
  tone: Tone;
  /** The verdict in one line: handoff or action, and the one call it would run. */
  verdict: string;
  /** The call the decision returns, as `name(arguments JSON)`, when there is one. */
  call?: string;
  /** Plain-language sentences: handoff and action explained, then each reason code. */
  reasons: string[];
  questions: QuestionBars[];
  candidates: CandidateRow[];
  claims: ClaimRow[];
  /** Small facts: model, thresholds, coverage. */
  facts: { label: string; value: string }[];
  /** True when the mock judge answered: the card says it is not a real judgment. */
  mock: boolean;
  failed: boolean;
  /** The decision id (for "Open in Jev panel"), when the server sent the decision. */
  decisionId?: string;
  /** The server's app-only tool that opens the decision in the editor's panel (`open_tool`), when it has one. */
  openTool?: string;
  /** A record the what-if can replay, when the server sent the decision with its exchanges. */
  record?: DecisionRecord;
}

/** What the host delivered for one tool call. */
export interface Delivered {
  tool: string;
  input?: unknown;
  /** structuredContent of a success. */
  result?: unknown;
  /** Text of an isError result. */
  errorText?: string;
  /** `_meta[DECISION_META_KEY]` of the result, if any. */
  decision?: unknown;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const clamp01 = (v: number) => Math.max(0, Math.min(1, v));

/** Error code and message of an isError text (`{"error":{code,message}}` or plain text). */
export function parseErrorText(text: string): { code: string; message: string } {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (isObj(parsed) && isObj(parsed.error) && typeof parsed.error.code === 'string') {
      return { code: parsed.error.code, message: String(parsed.error.message ?? '') };
    }
  } catch {
    // Plain text (judgevet tools, unknown tool).
  }
  return { code: 'TOOL_ERROR', message: text };
}

/** A DecisionRecord rebuilt from the `_meta` decision, or undefined when it is missing or cut. */
export function recordOf(decision: unknown): DecisionRecord | undefined {
  if (!isObj(decision) || typeof decision.id !== 'string' || typeof decision.tool !== 'string' || !Array.isArray(decision.exchanges)) return undefined;
  if (!isObj(decision.thresholds)) return undefined;
  const exchanges = decision.exchanges as DecisionRecord['exchanges'];
  const first = exchanges[0];
  return {
    v: 1,
    kind: 'decision',
    id: decision.id,
    time: '',
    agent: typeof decision.agent === 'string' ? decision.agent : 'mcp',
    tool: decision.tool,
    provider: typeof decision.provider === 'string' ? decision.provider : 'unknown',
    input: decision.input,
    questions: first?.questions ?? null,
    response: first?.response ?? null,
    exchanges,
    coverage: first?.coverage ?? null,
    thresholds: decision.thresholds as unknown as DecisionRecord['thresholds'],
    latency_ms: 0,
    ...(decision.result !== undefined ? { result: decision.result } : {}),
    ...(isObj(decision.error) ? { error: decision.error as unknown as NonNullable<DecisionRecord['error']> } : {}),
  };
}

/** Bars of every answered question in a result: objects with `probabilities`, noul values, review scores. */
export function questionBars(result: unknown): QuestionBars[] {
  if (!isObj(result)) return [];
  const out: QuestionBars[] = [];
  const distribution = (id: string, o: Obj) => {
    const probs = o.probabilities;
    if (!isObj(probs)) return;
    const chosen = typeof o.choice === 'string' ? o.choice : typeof o.verdict === 'string' ? o.verdict : undefined;
    const bars = Object.entries(probs)
      .filter((e): e is [string, number] => num(e[1]) !== undefined)
      .map(([option, p]) => ({ option, p: clamp01(p), chosen: option === chosen }));
    const score = num(o.score);
    const summary = chosen ? `${chosen} ${fmtProb(probs[chosen])}` : score !== undefined ? `score ${score.toFixed(2)}` : '';
    out.push({ id, summary, bars });
  };
  // Top-level distribution (ask_choice, ask_score; jev_screen's independent probabilities).
  if (isObj(result.probabilities)) distribution(result.tool_question_id === undefined ? 'answer' : String(result.tool_question_id), result);
  const noul = num(result.noul);
  if (noul !== undefined) out.push({ id: 'answer', summary: `yes ${fmtProb(noul)}`, bars: [{ option: 'yes', p: clamp01(noul), chosen: noul >= 0.5 }] });
  for (const [key, value] of Object.entries(result)) {
    if (isObj(value) && isObj(value.probabilities)) distribution(key, value);
  }
  const scores = isObj(result.scores) ? result.scores : isObj(result.review) && isObj(result.review.scores) ? result.review.scores : undefined;
  if (scores) {
    for (const [key, s] of Object.entries(scores)) {
      const score = isObj(s) ? num(s.score) : undefined;
      if (score === undefined) continue;
      out.push({ id: key, summary: `${score.toFixed(2)} of 2`, bars: [{ option: 'score / 2', p: clamp01(score / 2), chosen: true }] });
    }
  }
  if (isObj(result.answers)) {
    for (const [key, a] of Object.entries(result.answers)) {
      if (!isObj(a)) continue;
      const n = num(a.noul);
      if (n !== undefined) out.push({ id: key, summary: `yes ${fmtProb(n)}`, bars: [{ option: 'yes', p: clamp01(n), chosen: n >= 0.5 }] });
      else if (isObj(a.probabilities)) distribution(key, a);
    }
  }
  return out;
}

function callText(result: Obj): string | undefined {
  const call = result.call;
  if (!isObj(call)) return undefined;
  const args = JSON.stringify(call.arguments ?? {});
  return `${String(call.name)}(${args.length > 160 ? `${args.slice(0, 159)}…` : args})`;
}

/** The one-line verdict: handoff/action (or policy, winner, recommendation), and the call it would run. */
function verdictLine(d: Delivered, r: Obj, like: DecisionLike): string {
  const head = headline(like).text;
  const call = isObj(r.call) ? ` → run ${String(r.call.name)} (${String(r.call.candidate_id)})` : '';
  if (typeof r.handoff === 'string') return `${r.handoff} · ${String(r.action)}${call}`;
  if (isObj(r.recommendation)) return `${String(r.action)} · ${String(r.recommendation.action)}`;
  if (typeof r.winner === 'string') return `${String(r.action)} · winner ${r.winner}`;
  if (typeof r.choice === 'string') return `${r.choice} (confidence ${fmtProb(r.confidence)})`;
  if (num(r.score) !== undefined) return `score ${num(r.score)!.toFixed(2)} (confidence ${fmtProb(r.confidence)})`;
  if (num(r.noul) !== undefined) return `yes with probability ${fmtProb(r.noul)}`;
  return head || `${d.tool} decided`;
}

/** Builds the card's model. A failure shows its code and "no decision (fails closed)": never an approval. */
export function cardModel(d: Delivered): CardModel {
  const record = recordOf(d.decision);
  const decisionId = isObj(d.decision) && typeof d.decision.id === 'string' ? d.decision.id : undefined;
  const openTool = isObj(d.decision) && typeof d.decision.open_tool === 'string' ? d.decision.open_tool : undefined;
  const base = { tool: d.tool, questions: [], candidates: [], claims: [], decisionId, ...(openTool ? { openTool } : {}) };
  if (d.errorText !== undefined || (record?.error && d.result === undefined)) {
    const error = record?.error ?? parseErrorText(d.errorText ?? '');
    return {
      ...base,
      tone: 'bad',
      verdict: `${error.code} · no decision (fails closed)`,
      reasons: [explainReason(error.code).text, error.message, 'A failed judgment never approves anything.'].filter(Boolean),
      facts: [],
      mock: false,
      failed: true,
    };
  }
  const r = isObj(d.result) ? d.result : {};
  const answers = record?.exchanges[0]?.response.answers;
  const like: DecisionLike = { id: decisionId ?? '', tool: d.tool, agent: record?.agent ?? 'mcp', input: d.input ?? record?.input, result: r, ...(answers ? { response: { answers } } : {}) };
  const reasons: string[] = [];
  if (typeof r.handoff === 'string') reasons.push(HANDOFF_TEXT[r.handoff] ?? `Handoff ${r.handoff}.`);
  if (typeof r.action === 'string' && ACTION_TEXT[r.action]) reasons.push(ACTION_TEXT[r.action]);
  if (isObj(r.recommendation) && typeof r.recommendation.reason === 'string') reasons.push(r.recommendation.reason);
  if (isObj(r.policy)) {
    reasons.push(`Policy ${String(r.policy.result)}.`);
    if (Array.isArray(r.policy.rules)) for (const rule of r.policy.rules) if (isObj(rule)) reasons.push(`${String(rule.question)}: ${String(rule.detail)}`);
  }
  const codes = Array.isArray(r.reason_codes) ? r.reason_codes.map(String) : [];
  for (const c of codes) reasons.push(explainReason(c).text);
  const marks = inputMarks(like);
  const input = isObj(like.input) ? like.input : {};
  const candidates: CandidateRow[] = marks
    .filter((m) => m.path[0] === 'candidates')
    .map((m) => {
      const c = Array.isArray(input.candidates) ? (input.candidates[m.path[1] as number] as Obj | undefined) : undefined;
      const status: CandidateRow['status'] = m.tone === 'bad' ? 'blocked' : m.text.startsWith('✓') || m.text.startsWith('◆') ? 'selected' : 'eligible';
      return { id: String(c?.id ?? '?'), name: String(c?.name ?? ''), status, tone: m.tone, text: m.text };
    });
  const claimList = Array.isArray(r.results) ? r.results : isObj(r.verification) && Array.isArray(r.verification.results) ? r.verification.results : [];
  const claims: ClaimRow[] = marks
    .filter((m) => m.path[0] === 'claims')
    .map((m) => {
      const c = claimList[m.path[1] as number] as unknown;
      const claim = isObj(c) && typeof c.claim === 'string' ? c.claim : '';
      // A verdict is only as good as its action: a "verified" at confidence 0.07 that escalates is not green.
      const action = isObj(c) ? c.action : undefined;
      const tone: Tone = action === 'escalate' ? 'bad' : action === 'review' && m.tone === 'good' ? 'warn' : m.tone;
      return { claim, verdict: isObj(c) ? String(c.verdict) : '', tone, text: m.text };
    });
  const facts: { label: string; value: string }[] = [];
  const model = typeof r.model === 'string' ? r.model : undefined;
  if (model) facts.push({ label: 'Model', value: model });
  const thresholds = fmtThresholds(isObj(r.thresholds) ? r.thresholds : isObj(r.review) ? r.review.thresholds : undefined);
  if (thresholds) facts.push({ label: 'Thresholds', value: thresholds });
  if (r.truncated === true) facts.push({ label: 'Coverage', value: 'partial input: part of it was not judged, so the decision is never auto' });
  if (floorsUsed(d.tool).length > 0 && !(record && record.exchanges.length > 0)) {
    const tooLarge = isObj(d.decision) && d.decision.omitted === 'too_large';
    facts.push({
      label: 'What-if',
      value: tooLarge
        ? 'unavailable: the recorded decision is too large to send with the result'
        : 'unavailable: the server sends the recorded answers only to hosts that announce MCP Apps when they connect',
    });
  }
  const call = callText(r);
  return {
    ...base,
    tone: headline(like).tone,
    verdict: verdictLine(d, r, like),
    ...(call ? { call } : {}),
    reasons,
    questions: questionBars(r),
    candidates,
    claims,
    facts,
    mock: (model ?? '').includes('mock') || record?.provider === 'mock',
    failed: false,
    ...(record && record.exchanges.length > 0 ? { record } : {}),
  };
}
