/**
 * How the editor presents a jev_gate outcome: one notification line (action, claims, review, reasons,
 * per-claim verdicts, partial coverage, the request's notes) and the buttons it offers: "Commit" only for
 * auto, "Commit Anyway" only for review (or for a judge failure when fail-open is on), "Open Details"
 * whenever a decision was recorded. Shown by src/extension/gate/gate-command.ts.
 */
import type { JevError } from '../judgment/errors';
import { failOpenApplies } from './fail-open';
import { fmtProb } from '../panel/outcome-diff';
import { coverageNote } from '../panel/explain';
import { editorWording } from '../config/editor-wording';

/** Buttons of the verdict notification. */
export type GateChoice = 'Commit' | 'Commit Anyway' | 'Open Details';
export const GATE_CHOICES: readonly GateChoice[] = ['Commit', 'Commit Anyway', 'Open Details'];

/** A verdict ready to show. */
export interface GateVerdict {
  /** Ledger id of the jev_gate decision (absent when the call never ran). */
  recordId?: string;
  /** auto | review | escalate; absent on failure. */
  action?: string;
  /** Error code when the judge failed. */
  errorCode?: string;
  severity: 'info' | 'warning' | 'error';
  /** The notification text (one paragraph). */
  message: string;
  /** Buttons, in display order. */
  choices: GateChoice[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A claim shortened to `max` characters for a one-line notification. */
function short(text: string, max = 48): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** A note of gate/request.ts (a lower-case clause) as a sentence: capital first letter, final stop. */
function sentence(note: string): string {
  const text = note.charAt(0).toUpperCase() + note.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

const VERDICT_MARK: Record<string, string> = { verified: '✓', contradicted: '✕', unsupported: '?' };

/**
 * The verdict of a gate outcome. `failOpen` is `jevPanel.gate.failOpen`: it adds "Commit Anyway" to a
 * judge failure the fail-open rule covers (provider down, timeout, invalid response), never to invalid
 * input, configuration errors or a cancelled gate, and never turns a failure into "Commit".
 */
export function gateVerdict(
  outcome: { ok: true; result: unknown; recordId: string } | { ok: false; error: JevError; recordId?: string },
  opts: { failOpen: boolean; notes?: readonly string[] },
): GateVerdict {
  const notes = opts.notes?.length ? ` Notes: ${opts.notes.map(sentence).join(' ')}` : '';
  if (!outcome.ok) {
    const open = opts.failOpen && failOpenApplies(outcome.error);
    return {
      ...(outcome.recordId ? { recordId: outcome.recordId } : {}),
      errorCode: outcome.error.code,
      severity: 'error',
      message:
        `Jev gate failed closed: ${outcome.error.code}: ${editorWording(outcome.error.message)}` +
        (open ? ' Fail-open is on (jevPanel.gate.failOpen): "Commit Anyway" commits this change UNJUDGED.' : ' Nothing was approved.') +
        notes,
      choices: [...(open ? (['Commit Anyway'] as const) : []), ...(outcome.recordId ? (['Open Details'] as const) : [])],
    };
  }
  const r = isObj(outcome.result) ? outcome.result : {};
  const action = typeof r.action === 'string' ? r.action : 'escalate';
  const parts: string[] = [`Jev gate: ${action.toUpperCase()}`];
  const v = isObj(r.verification) ? r.verification : undefined;
  const results = v && Array.isArray(v.results) ? v.results.filter(isObj) : [];
  if (results.length) {
    const verified = results.filter((c) => c.verdict === 'verified').length;
    parts.push(`claims ${verified}/${results.length} verified`);
  }
  if (isObj(r.review)) {
    const rv = r.review;
    parts.push(`diff review ${String(rv.action)} (composite ${fmtProb(rv.composite)}, safe to apply ${fmtProb(rv.safe_to_apply)})`);
  }
  if (Array.isArray(r.reason_codes) && r.reason_codes.length) parts.push(`reasons: ${r.reason_codes.join(', ')}`);
  const partial = coverageNote(r);
  if (partial) parts.push(`${partial}: never auto`);
  let message = parts.join(' · ') + '.';
  if (results.length) {
    message += ` Claims: ${results.map((c) => `${VERDICT_MARK[String(c.verdict)] ?? '?'} "${short(String(c.claim))}" ${String(c.verdict)} ${fmtProb(c.confidence)} → ${String(c.action)}`).join('; ')}.`;
  }
  message += notes;
  const choices: GateChoice[] = action === 'auto' ? ['Commit', 'Open Details'] : action === 'review' ? ['Commit Anyway', 'Open Details'] : ['Open Details'];
  return {
    recordId: outcome.recordId,
    action,
    severity: action === 'auto' ? 'info' : action === 'review' ? 'warning' : 'error',
    message,
    choices,
  };
}
