/**
 * How the editor presents a jev_gate outcome: a short notification (the verdict, its one or two main
 * reasons, the claim count, a partial-coverage warning; everything else one click away in Open Details)
 * and the buttons it offers: "Commit" only for auto, "Commit Anyway" only for review (or for a judge
 * failure when fail-open is on), "Override…" (with a reason) only for a real escalate, "Open Details"
 * whenever a decision was recorded. A mock verdict says it is advisory. Shown by src/extension/gate/gate-command.ts.
 */
import type { JevError } from '../judgment/errors';
import { failOpenApplies } from './fail-open';
import { summarizeGate } from './verdict-line';
import { coverageNote } from '../panel/explain';
import { editorWording } from '../config/editor-wording';

/** Buttons of the verdict notification. */
export type GateChoice = 'Commit' | 'Commit Anyway' | 'Override…' | 'Open Details';
export const GATE_CHOICES: readonly GateChoice[] = ['Commit', 'Commit Anyway', 'Override…', 'Open Details'];

/** A verdict ready to show. */
export interface GateVerdict {
  /** Ledger id of the jev_gate decision (absent when the call never ran). */
  recordId?: string;
  /** auto | review | escalate; absent on failure. */
  action?: string;
  /** Error code when the judge failed. */
  errorCode?: string;
  /** The mock judge answered: advisory, never an approval. */
  mock: boolean;
  severity: 'info' | 'warning' | 'error';
  /** The notification text (one or two short sentences). */
  message: string;
  /** The request's notes, as sentences (for the log; not in the notification). */
  details: string[];
  /** Buttons, in display order. */
  choices: GateChoice[];
}

/** A note of gate/request.ts (a lower-case clause) as a sentence: capital first letter, final stop. */
function sentence(note: string): string {
  const text = note.charAt(0).toUpperCase() + note.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * The verdict of a gate outcome. `failOpen` is `jevPanel.gate.failOpen`: it adds "Commit Anyway" to a
 * judge failure the fail-open rule covers (provider down, timeout, invalid response), never to invalid
 * input, configuration errors or a cancelled gate, and never turns a failure into "Commit". `mock`: the
 * mock judge answered.
 */
export function gateVerdict(
  outcome: { ok: true; result: unknown; recordId: string } | { ok: false; error: JevError; recordId?: string },
  opts: { failOpen: boolean; notes?: readonly string[]; mock?: boolean },
): GateVerdict {
  const details = (opts.notes ?? []).map(sentence);
  const mock = opts.mock === true;
  if (!outcome.ok) {
    const open = opts.failOpen && failOpenApplies(outcome.error);
    return {
      ...(outcome.recordId ? { recordId: outcome.recordId } : {}),
      errorCode: outcome.error.code,
      mock,
      severity: 'error',
      message:
        `Jev gate failed closed: ${outcome.error.code}: ${editorWording(outcome.error.message)}` +
        (open ? ' Fail-open is on (jevPanel.gate.failOpen): "Commit Anyway" commits this change UNJUDGED.' : ' Nothing was approved.'),
      details,
      choices: [...(open ? (['Commit Anyway'] as const) : []), ...(outcome.recordId ? (['Open Details'] as const) : [])],
    };
  }
  const s = summarizeGate(outcome.result);
  const partial = coverageNote(outcome.result);
  const head = mock ? `Jev gate (mock judge, advisory — not a real judgment): ${s.action.toUpperCase()}` : `Jev gate: ${s.action.toUpperCase()}`;
  const message = `${head} — ${s.reasons.join('; ')}${s.counts ? ` · ${s.counts}` : ''}.${partial ? ` ${sentence(`${partial}: never auto`)}` : ''}`;
  const choices: GateChoice[] =
    s.action === 'auto' ? ['Commit', 'Open Details'] : s.action === 'review' ? ['Commit Anyway', 'Open Details'] : mock ? ['Open Details'] : ['Override…', 'Open Details'];
  return {
    recordId: outcome.recordId,
    action: s.action,
    mock,
    severity: s.action === 'auto' ? 'info' : s.action === 'review' ? 'warning' : 'error',
    message,
    details,
    choices,
  };
}
