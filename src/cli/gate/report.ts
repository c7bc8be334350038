/**
 * How `jevcp gate` says what happened. The first line is always the verdict and its top reason (git shows
 * the first line of a failing hook in the editor's Source Control error), then who judged, the decision,
 * and what to do; notes and warnings come after. In hook mode everything goes to stderr (git sends a
 * hook's stdout there anyway, and the order must hold); otherwise the verdict and decision go to stdout.
 */
import { failOpenApplies, failOpenWarning, FAIL_OPEN_ENV } from '../../gate/fail-open';
import { OVERRIDE_ENV } from '../../gate/override';
import { gateVerdictLine, summarizeGate } from '../../gate/verdict-line';
import type { JevError } from '../../judgment/errors';
import { formatDecision } from '../format';
import { EXIT, type CliIO } from '../io';
import { errorHint } from '../outcome';
import { exitCodeForError } from '../runtime';
import { safeText } from '../safe-text';
import type { GateJudgment } from './judge';

/** How the gate ended. */
export type GateEnding = 'passed' | 'not-passed' | 'advisory' | 'overridden' | 'failed' | 'failed-open';

/** Where and how to print. */
export interface ReportMode {
  hook: boolean;
  json: boolean;
  failOpen: boolean;
  /** Notes of the request (gate/request.ts), printed after the verdict. */
  notes: readonly string[];
  /** The override reason given (JEV_GATE_OVERRIDE), if any. */
  override?: string;
}

/** The ending of a judgment under fail-open and an override. */
export function gateEnding(j: GateJudgment, mode: Pick<ReportMode, 'failOpen' | 'override'>): GateEnding {
  if (!j.outcome.ok) return mode.failOpen && failOpenApplies(j.outcome.error) ? 'failed-open' : 'failed';
  if (j.mock) return 'advisory';
  if ((j.outcome.result as { action?: unknown }).action === 'auto') return 'passed';
  return mode.override && j.override ? 'overridden' : 'not-passed';
}

/** Exit code of an ending: 0 when the commit may go in, 1 not passed, 2/3 for the judge's failure. */
export function endingExit(ending: GateEnding, error?: JevError): number {
  switch (ending) {
    case 'not-passed':
      return EXIT.GATE_NOT_PASSED;
    case 'failed':
      return exitCodeForError(error!);
    default:
      return EXIT.OK;
  }
}

/** The first line for an ending. */
function firstLine(j: GateJudgment, ending: GateEnding, override?: string): string {
  if (!j.outcome.ok) {
    const e = j.outcome.error;
    return ending === 'failed-open'
      ? `jev gate: passed UNJUDGED — the judge failed (${e.code}: ${e.message}) and ${FAIL_OPEN_ENV} is set`
      : `jev gate: NOT passed — ${failOpenApplies(e) ? 'the judge failed' : 'the diff could not be judged'} (${e.code}: ${e.message}); nothing was approved`;
  }
  const s = summarizeGate(j.outcome.result);
  if (ending === 'advisory') return `jev gate: advisory only (mock judge, not a real judgment) — it says ${s.action}: ${s.reasons.join('; ')}; the commit is not blocked`;
  if (ending === 'overridden') return `jev gate: OVERRIDDEN (${s.action}) by ${OVERRIDE_ENV}: "${override}" — ${s.reasons[0]}; recorded as an override, not an approval`;
  return gateVerdictLine(j.outcome.result);
}

/** Lines after the decision: how to get past a verdict, what was recorded, the warnings. */
function afterLines(j: GateJudgment, ending: GateEnding, hook: boolean, override?: string): string[] {
  const out: string[] = [];
  if (ending === 'not-passed') {
    out.push(
      hook
        ? `  to commit anyway: ${OVERRIDE_ENV}="why" git commit … (recorded as an override), or git commit --no-verify (not recorded)`
        : '  review before committing; the commit hook lets a reasoned override through (JEV_GATE_OVERRIDE="why"), or commit with --no-verify to bypass',
    );
  }
  if (ending === 'overridden' && j.override) out.push(`  override    ${j.override.where}${j.override.recordId ? ` (record ${j.override.recordId})` : ''}`);
  if (ending === 'advisory') {
    out.push(
      'jevcp: WARNING: only the mock judge answered (asked for on purpose: --allow-mock, JEV_MOCK or jevPanel.provider mock); this change was NOT judged.',
      'jevcp: WARNING: for a real gate set JEV_API_KEY, or open the repository in VS Code with Jev and an API key or chat model.',
    );
  }
  if (ending === 'failed' || ending === 'failed-open') out.push(errorHint((j.outcome as { error: JevError }).error).replace(/\n$/, ''));
  if (ending === 'failed-open') out.push(failOpenWarning((j.outcome as { error: JevError }).error).replace(/\n$/, ''));
  // An override lets a verdict through; with no verdict there is nothing to override, so name the switch that applies.
  if (ending === 'failed' && override) out.push(`jevcp: note: ${OVERRIDE_ENV} overrides a verdict, and the judge gave none; to let commits through while the judge fails, set ${FAIL_OPEN_ENV}=1 (the failure is still recorded).`);
  return out.filter((l) => l !== '');
}

/**
 * The gate's own outcome beside the jev_gate result in `--json`, so a script need not re-derive it from
 * the exit code: `ending` (GateEnding), `commit_allowed` (exit 0), `advisory` (only the mock judge
 * answered: not a real judgment), `judged_by` (who judged, as on the human line).
 */
export interface GateJsonSummary {
  ending: GateEnding;
  commit_allowed: boolean;
  advisory: boolean;
  judged_by: string;
}

/** The `gate` object of `--json` for a judgment that ended as `ending`. */
export function gateJsonSummary(j: GateJudgment, ending: GateEnding): GateJsonSummary {
  return { ending, commit_allowed: endingExit(ending, j.outcome.ok ? undefined : j.outcome.error) === EXIT.OK, advisory: j.mock, judged_by: j.judge };
}

/**
 * Prints the gate's result and returns the exit code. `--json`: the result with a `gate` object
 * (gateJsonSummary), or `{"error": …, "gate": …}` (with `fail_open` when fail-open let it through), on
 * stdout; the human lines on stderr.
 */
export function reportJudgment(io: CliIO, j: GateJudgment, mode: ReportMode): number {
  const ending = gateEnding(j, mode);
  const main = mode.hook || mode.json ? io.stderr : io.stdout;
  const lines: string[] = [firstLine(j, ending, mode.override), `  judged by   ${j.judge}${j.outcome.recordId ? `; decision ${j.outcome.recordId}` : ''}`];
  const decision = j.outcome.ok ? formatDecision('jev_gate', j.outcome.result) : '';
  main.write(safeText(`${lines.join('\n')}\n`) + decision + safeText(afterLines(j, ending, mode.hook, mode.override).map((l) => `${l}\n`).join('')));
  if (mode.json) {
    io.stdout.write(
      `${JSON.stringify({ ...(j.outcome.ok ? (j.outcome.result as object) : { error: j.outcome.error.toJSON(), ...(ending === 'failed-open' ? { fail_open: true } : {}) }), gate: gateJsonSummary(j, ending) }, null, 2)}\n`,
    );
  }
  const then = j.via === 'editor' ? 'judged by another editor session' : j.mock ? 'only the mock judge was left (advisory)' : 'judged with the CLI configuration';
  const notes = [...j.fallbacks.map((f) => `${f}; ${then}`), ...mode.notes];
  if (mode.override && ending === 'passed') notes.push(`${OVERRIDE_ENV} is set, but the gate passed: nothing was overridden`);
  for (const n of notes) io.stderr.write(safeText(`jevcp: note: ${n}.\n`));
  return endingExit(ending, j.outcome.ok ? undefined : j.outcome.error);
}

/**
 * Prints a gate that stopped before any judgment (invalid input, no backend, git failed): in hook mode
 * the first line is the verdict (`jev gate: NOT passed — message`, with the error code for an operational
 * failure); otherwise `jevcp: CODE: message`.
 * Returns the exit code (2 or 3; 0 when fail-open lets an operational failure through).
 */
export function reportStopped(io: CliIO, error: JevError, mode: Pick<ReportMode, 'hook' | 'json' | 'failOpen'>): number {
  const code = exitCodeForError(error);
  const open = mode.failOpen && code === EXIT.OPERATIONAL && failOpenApplies(error);
  if (mode.json) {
    const gate: GateJsonSummary = { ending: open ? 'failed-open' : 'failed', commit_allowed: open, advisory: false, judged_by: 'nobody: the gate stopped before any judgment' };
    io.stdout.write(`${JSON.stringify({ error: error.toJSON(), ...(open ? { fail_open: true } : {}), gate }, null, 2)}\n`);
  }
  // In the hook the line is read in the editor's Source Control error: a problem the user fixes reads as a sentence.
  const what = mode.hook && code === EXIT.INVALID ? error.message : `${error.code}: ${error.message}`;
  const head = mode.hook ? `jev gate: ${open ? 'passed UNJUDGED' : 'NOT passed'} — ${what}` : `jevcp: ${error.code}: ${error.message}`;
  io.stderr.write(safeText(`${head}\n${open ? failOpenWarning(error) : ''}`));
  return open ? EXIT.OK : code;
}
