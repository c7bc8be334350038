import { invalidInput, type JevError } from '../judgment/errors';
import type { CallOutcome, JudgmentService } from '../tools/judgment-service';
import { formatDecision } from './format';
import { thresholdFloorNotes } from './threshold-notes';
import { EXIT, type CliIO } from './io';
import { exitCodeForError } from './runtime';
import { safeText } from './safe-text';

/**
 * A hint line (with newline) for errors whose message speaks of a long-running server, or ''. The spend cap
 * says "restart the server"; a CLI command is a new process each time, so its cap is per command.
 */
export function errorHint(error: JevError): string {
  return error.code === 'API_ERROR' && error.message.startsWith('Spend cap reached')
    ? 'jevcp: (each jevcp command is a new process: JEV_SPEND_CAP applies per command)\n'
    : '';
}

/**
 * Prints a tool outcome and returns the exit code. `--json`: the result (or `{"error":…}`) as JSON on
 * stdout. Human: the decision printout on stdout, or `jevcp: CODE: message` on stderr.
 * Success → 0 (a decision is not a gate here); failure → 2 (invalid input/config) or 3 (provider).
 */
export function printOutcome(io: CliIO, tool: string, outcome: CallOutcome, json: boolean, input?: unknown): number {
  if (outcome.ok) {
    io.stdout.write(json ? `${JSON.stringify(outcome.result, null, 2)}\n` : formatDecision(tool, outcome.result, input));
    // --json keeps stdout the tool's declared result; the note goes with the diagnostics.
    if (json) printThresholdNotes(io, input, outcome.result);
    return EXIT.OK;
  }
  if (json) io.stdout.write(`${JSON.stringify({ error: outcome.error.toJSON() }, null, 2)}\n`);
  io.stderr.write(safeText(`jevcp: ${tool} failed: ${outcome.error.code}: ${outcome.error.message}\n${errorHint(outcome.error)}`));
  return exitCodeForError(outcome.error);
}

/** Writes each thresholdFloorNotes note to stderr as `jevcp: note: …` (for --json, whose stdout is the result). */
export function printThresholdNotes(io: CliIO, input: unknown, result: unknown): void {
  for (const n of thresholdFloorNotes(input, result)) io.stderr.write(safeText(`jevcp: note: ${n}\n`));
}

/**
 * An AbortSignal that fires on SIGINT/SIGTERM while a judgment runs (the upstream request is cancelled and
 * the command fails closed). Call `dispose` when done.
 */
export function interruptSignal(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/**
 * Runs one tool call as agent `cli` under an interrupt signal and prints its outcome (human or --json).
 * Resolves to the command's exit code. Shared by `call` and `step`; `where` prefixes an unknown-tool message.
 */
export async function callAndPrint(io: CliIO, service: JudgmentService, tool: string, input: unknown, json: boolean, where: string): Promise<number> {
  if (!service.tools.has(tool)) {
    throw invalidInput(`${where}unknown tool ${JSON.stringify(tool)}; known tools: ${[...service.tools.keys()].join(', ')}.`);
  }
  const interrupt = interruptSignal();
  try {
    return printOutcome(io, tool, await service.call(tool, input, { agent: 'cli', signal: interrupt.signal }), json, input);
  } finally {
    interrupt.dispose();
  }
}
