import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DEFAULT_EVIDENCE_TIMEOUT_MS, evidenceCommandProblem, evidenceTimeoutProblem, runEvidenceCommand } from '../../gate/evidence-command';
import { failOpenApplies, failOpenWarning, readGateFailOpen } from '../../gate/fail-open';
import { stagedDiff, workTreeRoot } from '../../gate/git';
import { buildGateRequest, gateSubject, NOTHING_STAGED, nothingStaged, type GateWording } from '../../gate/request';
import { configError, invalidInput } from '../../judgment/errors';
import { parseCommandArgs } from '../args';
import { formatDecision } from '../format';
import { EXIT, type CliCommand } from '../io';
import { errorHint, interruptSignal } from '../outcome';
import { fsReason } from '../fs-reason';
import { cliError, reportError, wantsJson } from '../report';
import { createRuntime, exitCodeForError } from '../runtime';
import { safeText } from '../safe-text';

/** The gate's notes and errors in CLI terms; `messageFile` is the --message-file value as given. */
export function cliGateWording(messageFile?: string): GateWording {
  return {
    errorPrefix: 'gate: ',
    messageSource: `in ${messageFile ?? 'the message file'}`,
    emptyMessageRemedy: 'write a message, or commit with --no-verify to skip the gate',
    messageOption: '--message-file FILE',
    claimOption: '--claim',
    evidenceOption: '--evidence-cmd',
  };
}

/**
 * `jevcp gate --staged [--message-file F] [--claim TEXT]... [--evidence-cmd CMD] [--evidence-timeout MS] [--json]`
 *
 * Runs jev_gate on the staged diff of the repository containing the working directory, with the request
 * built by gate/request.ts `buildGateRequest` (the editor's gate builds it the same way); the evidence
 * command runs with a time limit in the repository root. Exit: 0 auto (pass) or nothing staged;
 * 1 review/escalate (not passed); 2 invalid input/config (an empty --message-file message, neither a
 * message nor a --claim); 3 provider or operational failure — fail-closed, a failure never passes. With
 * JEV_GATE_FAIL_OPEN=1 a provider/operational failure exits 0 with a loud warning (the ledger still
 * records the error). A diff longer than jev_gate's field limit is cut (coverage incomplete ⇒ never
 * auto) instead of refused.
 */
export const gateCommand: CliCommand = async (args, io) => {
  let failOpen = false;
  try {
    failOpen = readGateFailOpen(io.env);
    const { values } = parseCommandArgs('gate', args, {
      staged: { type: 'boolean' },
      'message-file': { type: 'string', short: 'm' },
      claim: { type: 'string', multiple: true },
      'evidence-cmd': { type: 'string' },
      'evidence-timeout': { type: 'string' },
      json: { type: 'boolean' },
    });
    if (!values.staged) throw invalidInput('gate: pass --staged (the gate judges the staged change; nothing else is supported yet).');
    let evidenceTimeout = DEFAULT_EVIDENCE_TIMEOUT_MS;
    if (values['evidence-timeout'] !== undefined) {
      evidenceTimeout = Number(values['evidence-timeout']);
      const problem = evidenceTimeoutProblem(evidenceTimeout);
      if (problem) throw invalidInput(`gate: --evidence-timeout: ${problem}.`);
    }
    const evidenceCommand = values['evidence-cmd'];
    const commandProblem = evidenceCommand === undefined ? undefined : evidenceCommandProblem(evidenceCommand);
    if (commandProblem) throw invalidInput(`gate: --evidence-cmd: ${commandProblem}.`);
    const wording = cliGateWording(values['message-file']);

    // Configuration first: a bad setting fails fast, before git or the evidence command run.
    const runtime = createRuntime(io);
    try {
      const root = await workTreeRoot(io.cwd, { env: io.env });
      if (root === undefined) throw configError('gate: not inside a git work tree (git rev-parse --show-toplevel failed).');
      const staged = await stagedDiff(root, { env: io.env });
      if (nothingStaged(staged)) {
        if (values.json) io.stdout.write(`${JSON.stringify({ staged: false, note: NOTHING_STAGED })}\n`);
        io.stderr.write(`jevcp: ${NOTHING_STAGED}.\n`);
        return EXIT.OK;
      }

      let message: string | undefined;
      if (values['message-file'] !== undefined) {
        try {
          message = await readFile(resolve(io.cwd, values['message-file']), 'utf8');
        } catch (err) {
          throw invalidInput(`gate: cannot read --message-file ${values['message-file']} (${fsReason(err)}).`);
        }
      }
      const claims = values.claim ?? [];
      gateSubject({ message, claims }, wording); // refuses an empty message before the evidence command runs
      const evidence = evidenceCommand === undefined ? undefined : await runEvidenceCommand(evidenceCommand, root, evidenceTimeout, io.env as NodeJS.ProcessEnv);
      const { input, notes } = buildGateRequest({ message, diff: staged, claims, evidence }, wording);
      for (const n of notes) io.stderr.write(safeText(`jevcp: ${n}.\n`));

      const interrupt = interruptSignal();
      try {
        const outcome = await runtime.service.call('jev_gate', input, { agent: 'cli', signal: interrupt.signal });
        if (!outcome.ok) {
          const open = failOpen && failOpenApplies(outcome.error);
          if (values.json) io.stdout.write(`${JSON.stringify({ error: outcome.error.toJSON(), ...(open ? { fail_open: true } : {}) }, null, 2)}\n`);
          if (!open) {
            io.stderr.write(safeText(`jevcp: gate failed closed: ${outcome.error.code}: ${outcome.error.message}\n${errorHint(outcome.error)}`));
            return exitCodeForError(outcome.error);
          }
          io.stderr.write(safeText(`jevcp: gate failed: ${outcome.error.code}: ${outcome.error.message}\n${errorHint(outcome.error)}${failOpenWarning(outcome.error)}`));
          return EXIT.OK;
        }
        const action = (outcome.result as { action?: unknown }).action;
        const passed = action === 'auto';
        if (values.json) io.stdout.write(`${JSON.stringify(outcome.result, null, 2)}\n`);
        else {
          io.stdout.write(formatDecision('jev_gate', outcome.result));
          io.stdout.write(passed ? 'gate: passed (action auto)\n' : `gate: NOT passed (action ${String(action)}) — review before committing, or commit with --no-verify to bypass\n`);
        }
        return passed ? EXIT.OK : EXIT.GATE_NOT_PASSED;
      } finally {
        interrupt.dispose();
      }
    } finally {
      runtime.close();
    }
  } catch (err) {
    const error = cliError(err);
    const open = failOpen && exitCodeForError(error) === EXIT.OPERATIONAL && failOpenApplies(error);
    if (wantsJson(args)) io.stdout.write(`${JSON.stringify({ error: error.toJSON(), ...(open ? { fail_open: true } : {}) }, null, 2)}\n`);
    const code = reportError(io, error);
    if (open) {
      io.stderr.write(safeText(failOpenWarning(error)));
      return EXIT.OK;
    }
    return code;
  }
};
